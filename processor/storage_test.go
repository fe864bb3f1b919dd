package processor_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/processor"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// The tests below exercise how a surface holds its components (chunks of
// text, records of offsets, components with escapes in chunks of their
// own): the state must read the same whichever way it is held.

// TestEscapedStrings applies components whose id, type, references and
// reference keys have escapes, as a surface's first update and as a later
// one.
func TestEscapedStrings(t *testing.T) {
	for _, name := range []string{"first_update", "later_update"} {
		t.Run(name, func(t *testing.T) {
			p := newProcessor(t)
			mustApply(t, p, create("s"))
			if name == "later_update" {
				mustApply(t, p, comps("s", `{"id":"other","component":"Text","text":"x"}`))
			}
			mustApply(t, p, comps("s",
				`{"id":"r\u006fot","component":"Col\u0075mn","childr\u0065n":["a\"b","c"]}`,
				`{"id":"a\"b","component":"Text","text":"q"}`,
				`{"id":"c","component":"Card","child":"\u00e9t\u00e9"}`,
				`{"id":"été","component":"Text","text":"e"}`))
			s, _ := p.Surface("s")
			c, ok := s.Component("root")
			if !ok || c.Type != "Column" || c.JSON != `{"id":"r\u006fot","component":"Col\u0075mn","childr\u0065n":["a\"b","c"]}` {
				t.Fatalf("root = %+v, %v", c, ok)
			}
			if c, ok := s.Component(`a"b`); !ok || c.ID != `a"b` {
				t.Fatalf(`a"b = %+v, %v`, c, ok)
			}
			// The escaped references are followed: closing a cycle through
			// them fails, naming the escaped key's field.
			b := p.ProcessList(msgs(comps("s", `{"id":"été","component":"Card","ch\u0069ld":"r\u006fot"}`)))
			if !errors.Is(b.Results[0].Err, protocol.ErrCycle) {
				t.Fatalf("cycle through escaped ids: %v", b.Results[0].Err)
			}
			b = p.ProcessList(msgs(comps("s", `{"id":"a\"b","component":"Card","ch\u0069ld":"a\u0022b"}`)))
			if err := b.Results[0].Err; !errors.Is(err, protocol.ErrSelfReference) || !strings.Contains(err.Error(), "in field 'child'") {
				t.Fatalf("self-reference through escapes: %v", err)
			}
		})
	}
}

// TestManyListsOneSurface grows and rewrites one surface over many lists
// (each list's text is a chunk the surface keeps while it is used), then
// checks every component and the topology.
func TestManyListsOneSurface(t *testing.T) {
	p := newProcessor(t)
	mustApply(t, p, create("s"), comps("s", `{"id":"root","component":"Column","children":["c0","c1","c2","c3","c4"]}`))
	want := map[string]string{}
	for i := range 400 {
		id := fmt.Sprintf("c%d", i%5)
		text := fmt.Sprintf(`{"id":%q,"component":"Column","children":["leaf%d","leaf%d"],"n":%d}`, id, i, i+1, i)
		leaf := fmt.Sprintf(`{"id":"leaf%d","component":"Text","text":"%d"}`, i, i)
		mustApply(t, p, comps("s", text), comps("s", leaf))
		want[id] = text
	}
	s, _ := p.Surface("s")
	for id, text := range want {
		if c, ok := s.Component(id); !ok || c.JSON != text {
			t.Fatalf("%s = %q, want %q", id, c.JSON, text)
		}
	}
	if s.Len() != 1+5+400 {
		t.Fatalf("Len = %d", s.Len())
	}
	// The references held survive the rewrites: a cycle is still found.
	b := p.ProcessList(msgs(comps("s", `{"id":"leaf399","component":"Card","child":"root"}`)))
	if !errors.Is(b.Results[0].Err, protocol.ErrCycle) {
		t.Fatalf("cycle: %v", b.Results[0].Err)
	}
}

// TestSurfaceReadConcurrently reads a surface from many goroutines at once
// between two lists (run with -race).
func TestSurfaceReadConcurrently(t *testing.T) {
	p := newProcessor(t)
	mustApply(t, p, create("s"), comps("s",
		`{"id":"root","component":"Column","children":["a","b"]}`,
		`{"id":"a","component":"Text","text":"a"}`,
		`{"id":"b","component":"Text","text":"b"}`))
	s, _ := p.Surface("s")
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			if c, ok := s.Component("b"); !ok || c.Type != "Text" {
				t.Errorf("b = %+v, %v", c, ok)
			}
			if s.Len() != 3 {
				t.Errorf("Len = %d", s.Len())
			}
			if ids := s.ComponentIDs(); len(ids) != 3 {
				t.Errorf("ComponentIDs = %v", ids)
			}
		}()
	}
	close(start)
	wg.Wait()
}

// TestStrictDanglingInHeldComponent reports a dangling reference of a
// component held from an earlier message (v0.8: strict topology applies
// once beginRendering names the root), naming the reference's field.
func TestStrictDanglingInHeldComponent(t *testing.T) {
	p := newProcessor(t, processor.WithStrictTopology(true))
	mustApply(t, p, `{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Column":{"children":{"explicitList":["a","gone"]}}}},{"id":"a","component":{"Text":{"text":{"literalString":"x"}}}}]}}`)
	b := p.ProcessList(msgs(`{"beginRendering":{"surfaceId":"s","root":"root"}}`))
	err := b.Results[0].Err
	if !errors.Is(err, protocol.ErrDanglingRef) || !strings.Contains(err.Error(), "Component 'root' references non-existent component 'gone' in field 'children.explicitList'") {
		t.Fatalf("err = %v", err)
	}
}
