package parser

// Borrowed output, continued (see borrowed_output_test.go): capacities,
// appends, the bounds on what the parser keeps between calls.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

func TestBorrowedOutputCapacities(t *testing.T) {
	for _, tc := range allBorrowedInputs() {
		for _, m := range allModes {
			for _, f := range allFramings {
				for _, borrow := range []bool{false, true} {
					opts := modeOpts(tc.opts, m, f)
					name := "owned"
					if borrow {
						opts = append(opts, WithBorrowedOutput())
						name = "borrowed"
					}
					t.Run(fmt.Sprintf("%s/%s/%s/%s", tc.name, m, f, name), func(t *testing.T) {
						for _, ch := range chunkings(1, 3, 16) {
							checkAppends(t, ch.name, opts, modeOpts(tc.opts, m, f), borrow, ch.cut([]byte(tc.in)))
						}
					})
				}
			}
		}
	}
}

// checkAppends runs chunks through a parser built with opts, next to a
// reference parser built with refOpts. After each call it checks the
// capacities of borrowed output, then appends to each message, to each
// Messages slice and to the []Part, and checks that no other message of
// the call changed and that the parser's later output still matches the
// reference's.
func checkAppends(t *testing.T, what string, opts, refOpts []Option, borrow bool, chunks [][]byte) {
	t.Helper()
	p, ref := mustNew(t, opts...), mustNew(t, refOpts...)
	junk := []byte(`"appended by the caller"`)
	for i := 0; i <= len(chunks); i++ {
		parts, err := feedOrClose(p, chunks, i)
		want := copyCall(feedOrClose(ref, chunks, i))
		got := copyCall(parts, err)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: %s: output differs from the reference run's:\n%s\nreference:\n%s", what, callName(chunks, i), got, want)
		}
		if borrow {
			if cap(parts) != len(parts) {
				t.Errorf("%s: %s: []Part has len %d, cap %d", what, callName(chunks, i), len(parts), cap(parts))
			}
			for pi, pt := range parts {
				if cap(pt.Messages) != len(pt.Messages) {
					t.Errorf("%s: %s: part %d Messages has len %d, cap %d", what, callName(chunks, i), pi, len(pt.Messages), cap(pt.Messages))
				}
				for mi, msg := range pt.Messages {
					if cap(msg) != len(msg) {
						t.Errorf("%s: %s: part %d message %d has len %d, cap %d", what, callName(chunks, i), pi, mi, len(msg), cap(msg))
					}
				}
			}
		}
		for pi, pt := range parts {
			for mi := range pt.Messages {
				_ = append(pt.Messages[mi], junk...)
				if now := copyCall(parts, err); !reflect.DeepEqual(now, got) {
					t.Fatalf("%s: %s: appending to part %d message %d changed the call's output:\n%s\nreturned:\n%s", what, callName(chunks, i), pi, mi, now, got)
				}
			}
			_ = append(pt.Messages, json.RawMessage(junk))
			if now := copyCall(parts, err); !reflect.DeepEqual(now, got) {
				t.Fatalf("%s: %s: appending to part %d Messages changed the call's output:\n%s\nreturned:\n%s", what, callName(chunks, i), pi, now, got)
			}
		}
		_ = append(parts, Part{Text: "appended by the caller", Messages: []json.RawMessage{junk}})
		if now := copyCall(parts, err); !reflect.DeepEqual(now, got) {
			t.Fatalf("%s: %s: appending to []Part changed the call's output:\n%s\nreturned:\n%s", what, callName(chunks, i), now, got)
		}
	}
}

// bigOutputBlock returns a block whose messages, yielded in one call, add
// up to more than maxBorrowBlock: n components of a text of size bytes,
// each in an updateComponents message of its own when separate, all in
// one message otherwise.
func bigOutputBlock(n, size int, separate bool) []byte {
	var b bytes.Buffer
	b.WriteString(`<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},`)
	b.WriteString(`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"t%d"`, i)
	}
	b.WriteString(`]}`)
	text := strings.Repeat("x", size)
	for i := range n {
		if separate {
			b.WriteString(`]}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[`)
		} else {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"t%d","component":"Text","text":"%s"}`, i, text)
	}
	b.WriteString(`]}}]</a2ui-json>`)
	return b.Bytes()
}

func TestBorrowedOutputStaysBounded(t *testing.T) {
	// The small call yields little in every mode: it drops the big
	// surface (whose snapshots would be big) and starts another.
	small := []byte(`then <a2ui-json>[{"version":"v0.9","deleteSurface":{"surfaceId":"s"}},` +
		`{"version":"v0.9","createSurface":{"surfaceId":"s2","catalogId":"c"}},` +
		`{"version":"v0.9","updateComponents":{"surfaceId":"s2","components":[{"id":"root","component":"Text","text":"small"}]}}]</a2ui-json>`)
	cases := []struct {
		name string
		mode Mode
		big  []byte
	}{
		{"complete, many messages", ModeComplete, bigOutputBlock(1500, 1000, true)},
		{"complete, one message over the block size", ModeComplete, bigOutputBlock(1500, 1000, false)},
		{"progressive, one snapshot over the block size", ModeProgressive, bigOutputBlock(1500, 1000, false)},
		{"progressive, snapshots of many messages", ModeProgressive, bigOutputBlock(100, 1000, true)},
		{"delta, many messages", ModeDelta, bigOutputBlock(1100, 1000, true)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustNew(t, WithMode(tc.mode), WithBorrowedOutput())
			yielded := func(parts []Part, err error) int {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
				n := 0
				for _, pt := range parts {
					for _, m := range pt.Messages {
						n += len(m)
					}
				}
				return n
			}
			if n := yielded(p.Feed(tc.big)); n <= maxBorrowBlock {
				t.Fatalf("the big call yielded %d bytes, want more than maxBorrowBlock (%d)", n, maxBorrowBlock)
			}
			if n := yielded(p.Feed(small)); n == 0 || n > minBorrowBlock {
				t.Fatalf("the small call yielded %d bytes, want some but at most minBorrowBlock (%d)", n, minBorrowBlock)
			}
			if c := cap(p.out.store.buf); c > maxBorrowBlock {
				t.Errorf("after a small call the parser keeps %d bytes of output storage, want at most %d", c, maxBorrowBlock)
			}
		})
	}
}

// FuzzBorrowedMatchesOwned checks, on arbitrary input in any mode and
// framing cut into chunks of a size taken from the input, that borrowed
// output copied after each call is identical to owned output.
func FuzzBorrowedMatchesOwned(f *testing.F) {
	for i, tc := range allBorrowedInputs() {
		for m := range allModes {
			f.Add([]byte(tc.in), byte(i*5+1), byte(tc.framing())*3+byte(m))
		}
	}
	f.Fuzz(func(t *testing.T, in []byte, size, sel byte) {
		m, fr := Mode(sel%3), Framing(sel/3%3)
		if err := compareOwnedBorrowed(t, modeOpts(nil, m, fr), chunked(in, int(size%32)+1)); err != nil {
			t.Fatalf("%s/%s: %v", m, fr, err)
		}
	})
}

// TestBorrowedOutputKeepsNoStaleParts checks that, after a call that
// yielded much, the next call leaves nothing of it reachable from the
// parser: the parts and message slots past the new call's are cleared, and
// arrays grown past maxKeptSlots are not kept.
func TestBorrowedOutputKeepsNoStaleParts(t *testing.T) {
	big := `{"big":"` + strings.Repeat("x", 2<<20) + `"}`
	cases := []struct {
		name string
		in   string
	}{
		{"many parts", strings.Repeat(`prose <a2ui-json>[{"a":1}]</a2ui-json>`, 3*maxKeptSlots)},
		{"a big message among small ones", `a<a2ui-json>[{"m":0}]</a2ui-json>b<a2ui-json>[` + big + `]</a2ui-json>c<a2ui-json>[{"m":2}]</a2ui-json>`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustNew(t, WithMaxBlockSize(8<<20), WithBorrowedOutput())
			if parts, err := p.Feed([]byte(tc.in)); err != nil || len(parts) < 3 {
				t.Fatalf("big call: %d parts, error %v; want at least 3 parts", len(parts), err)
			}
			parts, err := p.Feed([]byte("more prose "))
			if err != nil || len(parts) != 1 {
				t.Fatalf("small call: %d parts, error %v; want 1 part", len(parts), err)
			}
			lent, msgs := p.out.lent, p.out.msgs
			if cap(lent) > maxKeptSlots || cap(msgs) > maxKeptSlots {
				t.Errorf("the parser keeps %d part slots and %d message slots, want at most %d each", cap(lent), cap(msgs), maxKeptSlots)
			}
			for i, pt := range lent[len(parts):cap(lent)] {
				if pt.Text != "" || pt.Messages != nil {
					t.Fatalf("part slot %d past the call's parts still holds %q and %d messages", len(parts)+i, trimForLog(pt.Text), len(pt.Messages))
				}
			}
			for i, m := range msgs[len(msgs):cap(msgs)] {
				if m != nil {
					t.Fatalf("message slot %d past the call's messages still holds %d bytes", len(msgs)+i, len(m))
				}
			}
		})
	}
}

func trimForLog(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// TestBorrowedOutputBlockSettles checks that a steady stream whose calls
// each yield a large snapshot and messages of unknown size (encoded after
// it) settles on one block of output storage, instead of trading it for
// the small array a message outgrew into at every call.
func TestBorrowedOutputBlockSettles(t *testing.T) {
	turn := []byte(`{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"` + strings.Repeat("c", 3000) + `"}},` +
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"` + strings.Repeat("t", 14000) + `"}]}},` +
		`{"version":"v0.9","deleteSurface":{"surfaceId":"s"}},`)
	for _, m := range []Mode{ModeProgressive, ModeDelta} {
		t.Run(m.String(), func(t *testing.T) {
			p := mustNew(t, WithMode(m), WithBorrowedOutput())
			if _, err := p.Feed([]byte("<a2ui-json>[")); err != nil {
				t.Fatal(err)
			}
			blocks := map[*byte]bool{}
			for i := range 30 {
				parts, err := p.Feed(turn)
				if err != nil || len(parts) == 0 {
					t.Fatalf("call %d: %d parts, error %v", i, len(parts), err)
				}
				if i >= 5 { // past the warm-up
					blocks[unsafe.SliceData(p.out.store.buf[:1])] = true
				}
			}
			if len(blocks) != 1 {
				t.Errorf("the store used %d blocks over 25 steady calls, want 1", len(blocks))
			}
		})
	}
}
