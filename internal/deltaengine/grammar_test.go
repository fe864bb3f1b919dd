package deltaengine_test

import (
	"errors"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/deltaengine"
	"github.com/a2ui-stream/a2ui-stream/parser"
)

// grammarCases are blocks whose JSON is valid or not, in the v0.9 shape
// the prototype reads.
var grammarCases = []struct {
	name, block string
	valid       bool
}{
	{"list of one message", `[{"version":"v0.9"}]`, true},
	{"empty list", `[]`, false}, // a block must hold a message, as in the reference
	{"list item not an object", `[{"x":1},2]`, false},
	{"list not closed", `[{"x":1}`, true}, // its messages count, as in the reference
	{"empty containers", `[{"x":[],"y":{},"z":[[],{}]}]`, true},
	{"empty array closed by a brace", `[{"x":[}]`, false},
	{"empty object closed by a bracket", `[{"x":{]}]`, false},
	{"scalars", `[{"version":"v0.9","x":[1,-0,2.5e3,1E-2,true,false,null,"a\u00e9\n\"\\\/"]}]`, true},
	{"spaces", " [ {\"version\" : \"v0.9\" ,\n\"x\" : { } } ] \n", true},
	{"raw UTF-8", `[{"version":"v0.9","x":"é€😀"}]`, true},
	{"trailing comma", `[{"x":1,}]`, false},
	{"no colon", `[{"x" 1}]`, false},
	{"two colons", `[{"x"::1}]`, false},
	{"key not a string", `[{1:2}]`, false},
	{"leading zero", `[{"x":01}]`, false},
	{"cut literal", `[{"x":tru}]`, false},
	{"long literal", `[{"x":truee}]`, false},
	{"bare minus", `[{"x":-}]`, false},
	{"no fraction", `[{"x":1.}]`, false},
	{"no exponent", `[{"x":1e}]`, false},
	{"control byte", "[{\"x\":\"a\x01\"}]", false},
	{"bad escape", `[{"x":"\q"}]`, false},
	{"bad hex", `[{"x":"\u12g4"}]`, false},
	{"invalid UTF-8", "[{\"x\":\"\xff\"}]", false},
	{"surrogate in UTF-8", "[{\"x\":\"\xed\xa0\x80\"}]", false},
	{"junk after the list", `[{"x":1}] x`, false},
	{"two values", `[1 2]`, false},
	{"mismatched close", `[{"x":1]`, false},
	{"comma first", `[,]`, false},
	{"value after value", `[{"x":1 "y":2}]`, false},
	{"NUL between tokens", "[{\"x\":1,\x00\"y\":2}]", false},
	// Between messages the parser's grammar is lenient: a ',' may be
	// missing or repeat, and a message may be bare.
	{"messages without a comma", `[{"x":1}{"y":2} {"z":3}]`, true},
	{"commas repeated", `[,{"x":1},,{"y":2},]`, true},
	{"bare message", `{"x":1}`, true},
	{"bare messages then a list", `{"x":1}{"y":2}[{"z":3}]`, true},
	{"list then a bare message", `[{"x":1}]{"y":2}`, true},
	{"bare message then a comma", `{"x":1},{"y":2}`, false},
	{"a closing bracket with no list", `{"x":1}]`, false},
	{"a list in a list", `[[{"x":1}]]`, false},
	{"extra brace after the list", `[{"x":1}]}`, true}, // (a lost count, read through)
}

// TestGrammar holds the engine's verdict (the block fails or not) to the
// parser's, over every split of each block into two chunks and one byte
// at a time.
func TestGrammar(t *testing.T) {
	for _, tc := range grammarCases {
		t.Run(tc.name, func(t *testing.T) {
			if parserFails(t, "say <a2ui-json>"+tc.block+"</a2ui-json> done") == tc.valid {
				t.Fatalf("the parser's verdict is not the table's (valid %v)", tc.valid)
			}
			in := tc.block
			splits := [][]string{}
			for at := 0; at <= len(in); at++ {
				splits = append(splits, []string{in[:at], in[at:]})
			}
			var ones []string
			for i := range len(in) {
				ones = append(ones, in[i:i+1])
			}
			splits = append(splits, ones)
			for _, chunks := range splits {
				k := deltaengine.New(deltaengine.Options{})
				k.Begin()
				for _, c := range chunks {
					k.Data([]byte(c))
					k.Flush()
				}
				k.End()
				k.Flush()
				if want := map[bool]int{true: 0, false: 1}[tc.valid]; k.Failed() != want {
					t.Fatalf("fed as %q: %d blocks failed, want %d", chunks, k.Failed(), want)
				}
			}
		})
	}
}

// parserFails reports whether the parser (delta mode) fails the block of in.
func parserFails(t *testing.T, in string) bool {
	p, err := parser.New(parser.WithMode(parser.ModeDelta))
	if err != nil {
		t.Fatal(err)
	}
	_, err1 := p.Feed([]byte(in))
	_, err2 := p.Close()
	return err1 != nil || err2 != nil
}

// parserError returns the parser's (delta mode) first error on in, or "".
func parserError(t *testing.T, in string) string {
	p, err := parser.New(parser.WithMode(parser.ModeDelta))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Feed([]byte(in)); err != nil {
		return err.Error()
	}
	if _, err := p.Close(); err != nil {
		return err.Error()
	}
	return ""
}

// TestTruncatedRuneAtBlockEnd fails a block that ends inside a character
// of a string, wherever the cut falls after other text, as the parser
// does (complete mode's verdict).
func TestTruncatedRuneAtBlockEnd(t *testing.T) {
	for _, tail := range []string{"\xe2", "ab\xe2\x82", "abc\xf0\x9f\x98", "x\xc3"} {
		block := `[{"x":1},{"y":"` + tail
		if !parserFails(t, "<a2ui-json>"+block+"</a2ui-json>") {
			t.Fatalf("%q: the parser takes it", tail)
		}
		k := deltaengine.New(deltaengine.Options{})
		k.Begin()
		k.Data([]byte(block))
		k.Flush()
		k.End()
		var f *deltaengine.Fault
		if k.Failed() != 1 || !errors.As(k.Err(), &f) || f.Kind != deltaengine.FaultUnterminated {
			t.Fatalf("%q: %d failed, %v", tail, k.Failed(), k.Err())
		}
	}
	k := deltaengine.New(deltaengine.Options{})
	k.Begin()
	k.Data([]byte(`[{"x":1},{"y":"é and more`))
	k.Flush()
	k.End()
	if k.Failed() != 0 {
		t.Fatalf("a whole character failed the block: %v", k.Err())
	}
}

// TestBlankLines reads JSONL lines (Options.Lines): a line of spaces only
// is no block's failure, as the parser skips it; a line of junk is one.
func TestBlankLines(t *testing.T) {
	for _, tc := range []struct {
		line   string
		failed int
	}{
		{"", 0},
		{" \t\r", 0},
		{`{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}}`, 0},
		{"x", 1},
	} {
		k := deltaengine.New(deltaengine.Options{Lines: true})
		k.Begin()
		k.Data([]byte(tc.line))
		k.Flush()
		k.End()
		if k.Failed() != tc.failed {
			t.Errorf("line %q: %d blocks failed (%v), want %d", tc.line, k.Failed(), k.Err(), tc.failed)
		}
	}
}
