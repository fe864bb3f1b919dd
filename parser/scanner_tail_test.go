package parser

import (
	"fmt"
	"testing"
)

// scanAll feeds b to a scanner (in tail mode if tail) in chunks of n and
// returns the first error, the one at the block's end included.
func scanAll(b []byte, n int, tail bool) error {
	s := newScanner(64)
	s.tail = tail
	for i := 0; i < len(b); i += n {
		seg, off := b[i:min(i+n, len(b))], int64(i)
		for len(seg) > 0 {
			k, _, err := s.next(seg, off)
			if err != nil {
				return err
			}
			seg, off = seg[k:], off+int64(k)
		}
	}
	return s.endErr()
}

// tailCases are messages that break the grammar in each of its states, in
// a message list and alone.
var tailCases = []string{
	`{"a":x}`, `{"a":[1,]}`, `[{"a":[,1]}]`, `{x}`, `{"a":1,}`, `{"a" 1}`,
	`{"a":1 x}`, `{"a":[1 x]}`, `{"a":[1}}`, `{"a":{"b":1]}`, `{"a":"\x01"}`,
	`{"a":"\q"}`, `{"a":"\u12x4"}`, `{"a":"\u00` + "\xc3\xa9" + `"}`, `{"a":-x}`,
	`{"a":1.x}`, `{"a":1ex}`, `{"a":1e+x}`, `{"a":01}`, `{"a":tx}`, `{"a":trux}`,
	`{"a":fals}`, `{"a":nul}`, `{"a":"` + "\xe2\x82" + `x"}`, `{"a":"` + "\xf0\x9f\x98" + `"}`,
	`{"a":"` + "\xe0\x80\x80" + `"}`, `{"a":"` + "\xff" + `"}`, `{"a":1 ` + "\xc3\xa9" + `}`,
	`{"a":x, "b":"` + "\xff" + `"}`, `{"a":"\u00` + "\xff" + `"}`, `{"a":"x",` + "\xe2\x82\xac" + `}`,
	`[{"a":1},{"b":[true,nul]}]`, `{"a":{"b":{"c":[1,2,}}}}`, `{"a":1}x`, `{"a":"x"}}`,
	`{"a":[1,2]x}`, `{"a":` + "\x00" + `}`, `{"a":"` + "\xed\xa0\x80" + `"}`,
}

// TestScannerTailMode checks that the scanner in tail mode, which keeps no
// bytes of a message before it breaks the grammar, gives exactly the error
// the scanner keeping the whole message gives, at every chunk size.
func TestScannerTailMode(t *testing.T) {
	for _, c := range tailCases {
		b := []byte(c)
		want := scanAll(b, len(b), false)
		if want == nil {
			t.Fatalf("%q: no error", c)
		}
		for n := 1; n <= len(b); n++ {
			t.Run(fmt.Sprintf("%q/chunk%d", c, n), func(t *testing.T) {
				got := scanAll(b, n, true)
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("tail mode: %v, want %v", got, want)
				}
				if full := scanAll(b, n, false); fmt.Sprint(full) != fmt.Sprint(want) {
					t.Errorf("chunks of %d: %v, want %v", n, full, want)
				}
			})
		}
	}
}
