package processor

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

var tapeSeeds = []string{
	`{}`, `[]`, `{"a":1}`, ` [1, -0.5e+3, true, false, null, "x"] `, `{"a":{"b":[{"c":"d"}]}}`,
	`"\u00e9\ud83d\ude00\n\t\"\\\/"`, `"\ud800"`, `"\ud800\u0041"`, `01`, `1.`, `-`, `1e`, `.5`, `[1,]`, `{"a":1,}`,
	`{"a" 1}`, `{a:1}`, `[1 2]`, `"abc`, "\"a\x01\"", `tru`, `nul`, `[`, `{"a":[}`, `{} {}`, "\xff", `"\x"`, `"\u12"`,
	`-0`, `1E5`, `[[[]]]`, `{"":""}`,
	`"0123456789\\abcdef"`, `"01234567\u00e9abcdefgh\n"`, "\"0123456789\x1fabc\"", "\"é0123456789abcdéf\"",
	`{"0123456789abcdefgh":"0123456789abcdefghij\"k"}`, "\"01234567\x7f89\"",
}

// TestTapeAgreesWithEncodingJSON holds the tape's validation and string
// decoding to encoding/json's (plus the UTF-8 rule) on hand-made cases.
func TestTapeAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range tapeSeeds {
		checkTape(t, s)
	}
}

func FuzzTape(f *testing.F) {
	for _, s := range tapeSeeds {
		f.Add(s)
	}
	f.Fuzz(checkTape)
}

func checkTape(t *testing.T, s string) {
	var tp tape
	err := tp.parse(s)
	want := json.Valid([]byte(s)) && utf8.ValidString(s)
	if errors.Is(err, protocol.ErrRecursionLimit) {
		if !want {
			return // deeper than the limit before the syntax error
		}
		return
	}
	if (err == nil) != want {
		t.Fatalf("%q: tape error %v, encoding/json valid %v", s, err, want)
	}
	if err != nil {
		return
	}
	if got := tp.raw(0); got != strings.TrimSpace(s) {
		t.Fatalf("%q: root raw %q", s, got)
	}
	for i, tok := range tp.toks {
		if int(tok.next) <= i || int(tok.next) > len(tp.toks) {
			t.Fatalf("%q: token %d next %d", s, i, tok.next)
		}
		raw := tp.raw(i)
		if !json.Valid([]byte(raw)) {
			t.Fatalf("%q: token %d raw %q is not JSON", s, i, raw)
		}
		if tok.kind == tokString {
			var want string
			if err := json.Unmarshal([]byte(raw), &want); err != nil {
				t.Fatal(err)
			}
			if got := tp.str(i); got != want {
				t.Fatalf("%q: token %d str %q, encoding/json %q", s, i, got, want)
			}
		}
	}
}

func TestTapeDepth(t *testing.T) {
	var tp tape
	ok := strings.Repeat("[", 50) + strings.Repeat("]", 50)
	if err := tp.parse(ok); err != nil {
		t.Errorf("50 levels: %v", err)
	}
	deep := strings.Repeat("[", 51) + "1" + strings.Repeat("]", 51)
	if err := tp.parse(deep); !errors.Is(err, protocol.ErrRecursionLimit) {
		t.Errorf("51 levels with an item: %v", err)
	}
	huge := strings.Repeat("[", 100000)
	if err := tp.parse(huge); !errors.Is(err, protocol.ErrRecursionLimit) {
		t.Errorf("100000 levels: %v", err)
	}
}
