package parser

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestOpenComponentOutlivesItsBlock: a component still arriving when its
// block ends keeps its bytes after the block's buffer went to the
// package's pool and other streams wrote their own blocks into it: the
// stream's later snapshots and deltas, which include that component, are
// those of the stream parsed alone.
func TestOpenComponentOutlivesItsBlock(t *testing.T) {
	first := `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},` +
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["a","b"]},` +
		`{"id":"a","component":"Text","text":"hello world, this is a</a2ui-json>` + "\nprose\n"
	second := `<a2ui-json>[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"b","component":"Text","text":"x"}]}}]</a2ui-json>`
	other := `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"t","catalogId":"c"}},` +
		`{"version":"v0.9","updateComponents":{"surfaceId":"t","components":[{"id":"root","component":"Text","text":"` + strings.Repeat("Z", 200) + `"}]}}]</a2ui-json>`
	for _, tc := range []struct {
		name   string
		mode   Mode
		borrow bool
	}{
		{"progressive", ModeProgressive, false},
		{"progressive borrowed", ModeProgressive, true},
		{"delta", ModeDelta, false},
		{"delta borrowed", ModeDelta, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := []Option{WithMode(tc.mode)}
			if tc.borrow {
				opts = append(opts, WithBorrowedOutput())
			}
			feed := func(p *Parser, in string) []callOutput {
				var outs []callOutput
				for _, c := range chunked([]byte(in), 16) {
					outs = append(outs, copyCall(p.Feed(c)))
				}
				return outs
			}
			alone := mustNew(t, opts...)
			want := feed(alone, first)
			n := len(want)
			want = append(want, feed(alone, second)...)
			// The other stream runs between the two blocks, several times
			// (a pool may drop what it is given).
			p := mustNew(t, opts...)
			got := feed(p, first)
			for range 4 {
				feed(mustNew(t, opts...), other)
			}
			got = append(got, feed(p, second)...)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("outputs differ from the stream parsed alone:\ngot:\n%v\nwant:\n%v", got, want)
			}
			if later := fmt.Sprint(want[n:]); tc.mode == ModeProgressive && !strings.Contains(later, `"text":"hello world, this is a"`) {
				t.Fatalf("the second block's snapshots do not show the component: %s", later)
			}
		})
	}
}
