package parser

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// listTrace feeds chunks with WithListEnds and returns, per list, its
// messages in order and how often its end was marked, checking on the way
// that a part's messages come from one list, that lists never go back,
// and that nothing of a list follows its end.
func listTrace(t *testing.T, chunks []string, opts ...Option) (msgs map[int][]string, ends map[int]int, failed map[int]bool) {
	t.Helper()
	p, err := New(append([]Option{WithListEnds()}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	msgs, ends, failed = map[int][]string{}, map[int]int{}, map[int]bool{}
	last := -1
	take := func(parts []Part, err error) {
		for _, pt := range parts {
			if pt.Messages == nil && !pt.ListEnd {
				continue
			}
			if pt.List < last {
				t.Fatalf("list %d after list %d", pt.List, last)
			}
			last = pt.List
			if ends[pt.List] > 0 {
				t.Fatalf("part of list %d after its end", pt.List)
			}
			for _, m := range pt.Messages {
				msgs[pt.List] = append(msgs[pt.List], string(m))
			}
			if pt.ListEnd {
				ends[pt.List]++
			}
		}
		errs := []error{err}
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			errs = j.Unwrap()
		}
		for _, e := range errs {
			var be *BlockError
			if errors.As(e, &be) {
				failed[be.Block] = true
			}
		}
	}
	for _, c := range chunks {
		take(p.Feed([]byte(c)))
	}
	take(p.Close())
	return msgs, ends, failed
}

// TestListBoundaries: in every mode and framing, at every split point and
// one byte at a time, each list that yielded messages and did not fail
// ends exactly once, after its last message; failed lists never end; and
// in complete mode each list's messages are those of the whole input.
func TestListBoundaries(t *testing.T) {
	const (
		a  = `{"version":"v0.9","createSurface":{"surfaceId":"a","catalogId":"c"}}`
		b  = `{"version":"v0.9","updateComponents":{"surfaceId":"a","components":[{"id":"root","component":"Text","text":"x"}]}}`
		c2 = `{"version":"v0.9","createSurface":{"surfaceId":"b","catalogId":"c"}}`
	)
	tests := []struct {
		name    string
		input   string
		framing Framing
		lists   int // lists that end
	}{
		{"one block", "hi <a2ui-json>[" + a + "," + b + "]</a2ui-json> bye", FramingTags, 1},
		{"adjacent blocks", "<a2ui-json>[" + a + "]</a2ui-json><a2ui-json>[" + c2 + "]</a2ui-json>", FramingTags, 2},
		{"empty block yields no end", "<a2ui-json>[]</a2ui-json>x<a2ui-json>[" + a + "]</a2ui-json>", FramingTags, 1},
		{"failed block", "<a2ui-json>[" + a + ", {x</a2ui-json><a2ui-json>[" + c2 + "]</a2ui-json>", FramingTags, 1},
		{"block failing in every mode", "<a2ui-json>[" + a + ", {\"x\":\"\xff\"}]</a2ui-json><a2ui-json>[" + c2 + "]</a2ui-json>", FramingTags, 1},
		{"unclosed last block ends at Close", "<a2ui-json>[" + a + "]", FramingTags, 1},
		{"jsonl lines", a + "\n" + c2 + "\n", FramingJSONL, 2},
		{"fences", "text\n```a2ui\n[" + a + "]\n```\nmore\n```a2ui\n[" + c2 + "]\n```\n", FramingFences, 2},
	}
	for _, tc := range tests {
		for _, mode := range []Mode{ModeComplete, ModeProgressive, ModeDelta} {
			t.Run(tc.name+"/"+mode.String(), func(t *testing.T) {
				opts := []Option{WithMode(mode), WithFraming(tc.framing)}
				wantMsgs, wantEnds, _ := listTrace(t, []string{tc.input}, opts...)
				if len(wantEnds) != tc.lists {
					t.Fatalf("whole input: %d lists ended, want %d (%v)", len(wantEnds), tc.lists, wantEnds)
				}
				check := func(name string, chunks []string) {
					msgs, ends, failed := listTrace(t, chunks, opts...)
					for l, n := range ends {
						if n != 1 {
							t.Fatalf("%s: list %d ended %d times", name, l, n)
						}
						if failed[l] {
							t.Fatalf("%s: failed list %d ended", name, l)
						}
					}
					for l := range msgs {
						if ends[l] == 0 && !failed[l] {
							t.Fatalf("%s: list %d yielded but never ended", name, l)
						}
					}
					if fmt.Sprint(ends) != fmt.Sprint(wantEnds) {
						t.Fatalf("%s: ends %v, want %v", name, ends, wantEnds)
					}
					if mode == ModeComplete && fmt.Sprint(msgs) != fmt.Sprint(wantMsgs) {
						t.Fatalf("%s: messages by list\n%v\nwant\n%v", name, msgs, wantMsgs)
					}
				}
				for i := 1; i < len(tc.input); i++ {
					check(fmt.Sprintf("split at %d", i), []string{tc.input[:i], tc.input[i:]})
				}
				check("one byte at a time", strings.Split(tc.input, ""))
			})
		}
	}
}

// TestListEndsOffByDefault: without WithListEnds no marker part is made,
// but a block that ends in the call of its last message still marks it.
func TestListEndsOffByDefault(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	in := `<a2ui-json>[{"version":"v0.9","deleteSurface":{"surfaceId":"a"}}]`
	parts, err := p.Feed([]byte(in))
	if err != nil || len(parts) != 1 || parts[0].ListEnd {
		t.Fatalf("Feed: %+v, %v", parts, err)
	}
	parts, err = p.Feed([]byte("</a2ui-json>"))
	if err != nil || len(parts) != 0 {
		t.Fatalf("closing tag alone gave %+v, %v; want nothing without WithListEnds", parts, err)
	}
	p2, _ := New()
	parts, _ = p2.Feed([]byte(in + "</a2ui-json>"))
	if len(parts) != 1 || !parts[0].ListEnd || parts[0].IsListEnd() {
		t.Fatalf("block in one call: %+v, want its part marked ListEnd", parts)
	}
}

func TestBlockErrors(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	if got := BlockErrors(nil); got != nil {
		t.Fatalf("BlockErrors(nil) = %v", got)
	}
	// Two blocks fail in one call, with a part between them.
	_, err = p.Feed([]byte("<a2ui-json>[7]</a2ui-json>x<a2ui-json>[8]</a2ui-json>"))
	errs := BlockErrors(err)
	if len(errs) != 2 {
		t.Fatalf("BlockErrors = %v, want two", errs)
	}
	for i, e := range errs {
		var be *BlockError
		if !errors.As(e, &be) || be.Block != i {
			t.Fatalf("error %d = %v, want block %d", i, e, i)
		}
	}
	if _, err := p.Close(); err != nil {
		t.Fatal(err)
	}
	_, err = p.Feed(nil)
	if got := BlockErrors(err); len(got) != 1 || !errors.Is(got[0], ErrClosed) {
		t.Fatalf("after Close: %v", got)
	}
}
