package processor_test

import (
	"encoding/json"
	"fmt"
	"sort"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
	"github.com/a2ui-stream/a2ui-stream/processor"
)

// TestListMatchesProcessList applies every example payload, and the same
// payloads with a failing message in the middle, both with ProcessList and
// one message at a time with BeginList/Apply/End: the Batches and the
// states are identical, and the callbacks run once per list.
func TestListMatchesProcessList(t *testing.T) {
	payloads := examplePayloads(t, shareddata.Path(t, "a2ui", "specification", "v0_9_1", "catalogs", "basic", "examples"))
	names := make([]string, 0, len(payloads))
	for n := range payloads {
		names = append(names, n)
	}
	sort.Strings(names)
	bad := json.RawMessage(`{"version":"v0.9","updateDataModel":{"surfaceId":"nowhere","path":"/x","value":1}}`)
	for _, name := range names {
		msgs := payloads[name]
		withBad := append(append(append([]json.RawMessage{}, msgs[:len(msgs)/2]...), bad), msgs[len(msgs)/2:]...)
		for _, tc := range []struct {
			name string
			msgs []json.RawMessage
		}{{name, msgs}, {name + "/failing message", withBad}} {
			t.Run(tc.name, func(t *testing.T) {
				whole, _ := processor.New()
				one, _ := processor.New()
				calls := 0
				one.OnBatch(func(processor.Batch) { calls++ })
				want := whole.ProcessList(tc.msgs)
				l := one.BeginList("")
				for i, m := range tc.msgs {
					r := l.Apply(m)
					if r.Index != i || r.OK != want.Results[i].OK {
						t.Fatalf("Apply %d: %+v, want %+v", i, r, want.Results[i])
					}
				}
				if l.Len() != len(tc.msgs) {
					t.Fatalf("Len %d, want %d", l.Len(), len(tc.msgs))
				}
				if calls != 0 {
					t.Fatal("OnBatch ran before End")
				}
				got := l.End()
				again := l.End()
				if calls != 1 {
					t.Fatalf("OnBatch ran %d times, want 1", calls)
				}
				if g, w, a := fmt.Sprint(jsonOf(t, got)), fmt.Sprint(jsonOf(t, want)), fmt.Sprint(jsonOf(t, again)); g != w || a != w {
					t.Fatalf("batch\n got %s\nwant %s\nagain %s", g, w, a)
				}
				gs, _ := stateJSON(one, nil)
				ws, _ := stateJSON(whole, nil)
				if string(gs) != string(ws) {
					t.Fatalf("state\n got %s\nwant %s", gs, ws)
				}
			})
		}
	}
}

func jsonOf(t *testing.T, b processor.Batch) string {
	t.Helper()
	out, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestListMisuse: a second list while one is open, ProcessList while one
// is open, and Apply after End are programming errors that panic.
func TestListMisuse(t *testing.T) {
	tests := []struct {
		name string
		run  func(p *processor.Processor)
	}{
		{"begin while open", func(p *processor.Processor) { p.BeginList(""); p.BeginList("") }},
		{"process while open", func(p *processor.Processor) { p.BeginList(""); p.ProcessList(nil) }},
		{"apply after end", func(p *processor.Processor) {
			l := p.BeginList("")
			l.End()
			l.Apply(json.RawMessage(`{}`))
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := processor.New()
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
			}()
			tc.run(p)
		})
	}
	p, _ := processor.New()
	p.BeginList("").End()
	if b := p.ProcessList(nil); b.Seq != 2 {
		t.Fatalf("after an ended list, ProcessList gives seq %d, want 2", b.Seq)
	}
}
