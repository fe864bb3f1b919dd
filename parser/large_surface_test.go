package parser

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// largeSurfaceStream is one block whose surface grows past snapFull: a
// column of 100 texts of 400 bytes, then a row whose 200 children never
// arrive, with a property after the list.
func largeSurfaceStream() []byte {
	var b strings.Builder
	b.WriteString(`<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},`)
	b.WriteString(`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":[`)
	for i := range 100 {
		fmt.Fprintf(&b, `"t%d",`, i)
	}
	b.WriteString(`"big"]}`)
	for i := range 100 {
		fmt.Fprintf(&b, `,{"id":"t%d","component":"Text","text":"%s"}`, i, strings.Repeat("x", 400))
	}
	b.WriteString(`,{"id":"big","component":"Row","children":[`)
	for i := range 200 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"m%d"`, i)
	}
	b.WriteString(`],"label":"growing label text"}]}}]</a2ui-json>`)
	return []byte(b.String())
}

// TestLargeSurfaceGolden pins down when the progressive modes yield for a
// surface larger than 32 KB (where a snapshot waits until an eighth of it
// changed, or its message or block ends: internal/deltaengine's snapFull)
// and what they yield, and that they yield a handful of messages over
// 36 KB: one line per Feed call that returned
// messages, with the call's offset and each message's size and digest.
// Run with -update to rewrite the golden files.
func TestLargeSurfaceGolden(t *testing.T) {
	in := largeSurfaceStream()
	for _, mode := range []Mode{ModeProgressive, ModeDelta} {
		t.Run(mode.String(), func(t *testing.T) {
			p, err := New(WithMode(mode))
			if err != nil {
				t.Fatal(err)
			}
			var got strings.Builder
			large := 0 // (messages over 36 KB)
			record := func(at int, parts []Part, err error) {
				if err != nil {
					t.Fatalf("@%d: %v", at, err)
				}
				for _, pt := range parts {
					for _, m := range pt.Messages {
						if len(m) > 36<<10 {
							large++
						}
						sum := sha256.Sum256(m)
						fmt.Fprintf(&got, "@%d %d %x\n", at, len(m), sum[:8])
					}
				}
			}
			const chunk = 16
			for i := 0; i < len(in); i += chunk {
				parts, err := p.Feed(in[i:min(i+chunk, len(in))])
				record(i, parts, err)
			}
			parts, err := p.Close()
			record(-1, parts, err)
			if large > 10 {
				// Held back until an eighth of it changed: the output
				// stays linear in the input (4 and the block's; 627 when
				// the engine yielded each chunk, session 24).
				t.Errorf("%d messages over 36 KB, want a handful", large)
			}
			path := filepath.Join("testdata", "large_surface."+mode.String()+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got.String() != string(want) {
				t.Fatalf("yields differ from %s:\n%s", path, firstDiff(got.String(), string(want)))
			}
		})
	}
}

// firstDiff describes the first line where got and want differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d: got %q, want %q", i+1, gl, wl)
		}
	}
	return "no difference"
}
