package parser

import (
	"fmt"
	"strings"
	"testing"
)

// TestFailedBlockYieldsItsHeldBackSnapshot: a surface large enough that
// progressive mode holds its snapshots back until an eighth of it changed
// gets its last snapshot, built from the bytes before a bad byte, in the
// block the bad byte fails, not at the end of a later, unrelated block.
func TestFailedBlockYieldsItsHeldBackSnapshot(t *testing.T) {
	for _, tail := range []struct{ name, s string }{
		{"message_ends_after_bad_byte", ",\x01]}}]"}, // fails when the message ends
		{"message_never_ends", ",\x01"},              // fails at the block's end
	} {
		t.Run(tail.name, func(t *testing.T) { checkHeldBack(t, tail.s) })
	}
}

func checkHeldBack(t *testing.T, tail string) {
	var b strings.Builder
	b.WriteString(`<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},`)
	b.WriteString(`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":[`)
	for i := range 210 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"c%d"`, i)
	}
	b.WriteString(`]}`)
	for i := range 200 {
		fmt.Fprintf(&b, `,{"id":"c%d","component":"Text","text":"%s"}`, i, strings.Repeat("x", 240))
	}
	b.WriteString(`]}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[`)
	for i := 200; i < 210; i++ {
		if i > 200 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":"c%d","component":"Text","text":"late"}`, i)
	}
	b.WriteString(tail + "</a2ui-json>") // a bad byte inside the second update
	b.WriteString(`<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"t","catalogId":"c"}}]</a2ui-json>`)
	in := b.String()
	for _, chunk := range []int{64, 1000, len(in)} {
		t.Run(fmt.Sprintf("chunk%d", chunk), func(t *testing.T) {
			p, err := New(WithMode(ModeProgressive))
			if err != nil {
				t.Fatal(err)
			}
			lists := map[int]bool{} // lists whose messages name c209
			var failed bool
			record := func(parts []Part, err error) {
				if err != nil {
					failed = true
				}
				for _, part := range parts {
					for _, m := range part.Messages {
						if strings.Contains(string(m), `"c209","component":"Text"`) || strings.Contains(string(m), `"id":"c209"`) {
							lists[part.List] = true
						}
					}
				}
			}
			for i := 0; i < len(in); i += chunk {
				record(p.Feed([]byte(in[i:min(i+chunk, len(in))])))
			}
			record(p.Close())
			if !failed {
				t.Fatal("the bad byte failed no block")
			}
			if !lists[0] || lists[1] {
				t.Fatalf("c209 yielded in lists %v, want in list 0 only", lists)
			}
		})
	}
}
