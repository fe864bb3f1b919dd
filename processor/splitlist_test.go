package processor_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/a2ui-stream/a2ui-stream/processor"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

func TestSplitList(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string // nil: ErrNotArray
	}{
		{"empty_array", `[]`, []string{}},
		{"blank_array", " [ \n ] ", []string{}},
		{"elements_alias_their_text", `[{"a":1}, [1,2] ,"x\"y]",3.5e2,null]`, []string{`{"a":1}`, `[1,2]`, `"x\"y]"`, `3.5e2`, `null`}},
		{"brackets_in_strings", `[{"a":"]}[{,"}, "\\"]`, []string{`{"a":"]}[{,"}`, `"\\"`}},
		{"escaped_quotes_and_backslashes", `["\\\"]", "a\\\\", "\"[\""]`, []string{`"\\\"]"`, `"a\\\\"`, `"\"[\""`}},
		{"surrounding_whitespace", "\t[\n{\"k\" : [ {\"z\":1} ]}\n]\n", []string{`{"k" : [ {"z":1} ]}`}},
		{"not_an_array", `{"a":1}`, nil},
		{"empty_input", ``, nil},
		{"unterminated", `[1`, nil},
		{"trailing_comma", `[{"a":1},]`, nil},
		{"empty_element", `[1,,2]`, nil},
		{"two_arrays", `[1] [2]`, nil},
		{"adjacent_arrays", `[1][2]`, nil},
		{"mismatched_brackets", `[{]}]`, nil},
		{"unterminated_string", `["]`, nil},
		{"invalid_element", `[{"a":}]`, nil},
		{"two_values_in_one_element", `[1 2]`, nil},
		{"trailing_garbage", `[1] x`, nil},
		{"non_json_space_around", "\u00a0[]", nil},
		{"non_json_space_inside", "[\u00a01]", nil},
		// An element nested as deep as the protocol allows is checked; one
		// level deeper it is split off unchecked (it fails as a message).
		{"invalid_element_at_depth_limit", "[" + deepInvalid(protocol.MaxComponentDepth) + "]", nil},
		{"invalid_element_beyond_depth_limit", "[" + deepInvalid(protocol.MaxComponentDepth+1) + "]", []string{deepInvalid(protocol.MaxComponentDepth + 1)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := processor.SplitList([]byte(tc.in))
			if tc.want == nil {
				if !errors.Is(err, processor.ErrNotArray) {
					t.Fatalf("SplitList(%q) = %q, %v; want ErrNotArray", tc.in, got, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("SplitList(%q): %v", tc.in, err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("SplitList(%q) = %q, want %q", tc.in, got, tc.want)
			}
			for i := range got {
				if string(got[i]) != tc.want[i] {
					t.Errorf("element %d = %q, want %q", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// deepInvalid is a JSON text nested depth levels deep with a syntax error
// (a trailing comma) at the innermost level.
func deepInvalid(depth int) string {
	return strings.Repeat("[", depth) + "1,]" + strings.Repeat("]", depth-1)
}

// TestProcessJSONDeepNesting: a list holding a message nested millions of
// levels deep (a 16 MB line) is split without recursion: that message
// fails with the protocol's recursion limit, and the others apply.
func TestProcessJSONDeepNesting(t *testing.T) {
	const depth = 8 << 20
	list := "[" + create("a") + "," + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "," + create("b") + "]"
	p := newProcessor(t)
	b, err := p.ProcessJSON([]byte(list))
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Results) != 3 || !b.Results[0].OK || b.Results[1].OK || !b.Results[2].OK {
		t.Fatalf("results = %+v", b.Results)
	}
	if !errors.Is(b.Results[1].Err, protocol.ErrRecursionLimit) {
		t.Errorf("deep message: %v, want the recursion limit", b.Results[1].Err)
	}
	if _, err := processor.SplitList([]byte(strings.Repeat("[", depth) + strings.Repeat("]", depth-1))); !errors.Is(err, processor.ErrNotArray) {
		t.Errorf("deep unbalanced list: %v, want ErrNotArray", err)
	}
}

// FuzzSplitList holds SplitList to encoding/json: the same lists are
// arrays, with the same elements.
func FuzzSplitList(f *testing.F) {
	for _, s := range []string{`[]`, `[1,2]`, `[{"a":"]"},"\\",[[]]]`, `[1,]`, `[{]}]`, ` [ null ] `, `[1][2]`, `["\u00e9"]`, `[tru]`, `[{"a" 1}]`, `[01]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		got, err := processor.SplitList(in)
		var want []json.RawMessage
		werr := json.Unmarshal(in, &want)
		if werr != nil || want == nil {
			// An array encoding/json rejects may still split when only its
			// UTF-8 is at fault (SplitList checks syntax; the messages'
			// decoding checks the rest) or when an element is deeper than
			// SplitList checks; otherwise it must not.
			if err == nil && werr != nil && utf8.Valid(in) && nesting(in) <= protocol.MaxComponentDepth+1 {
				t.Fatalf("SplitList(%q) = %q, but encoding/json rejects it: %v", in, got, werr)
			}
			return
		}
		if err != nil {
			t.Fatalf("SplitList(%q): %v; encoding/json splits it into %q", in, err, want)
		}
		if len(got) != len(want) {
			t.Fatalf("SplitList(%q) = %q, want %q", in, got, want)
		}
		for i := range got {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("element %d of %q = %q, want %q", i, in, got[i], want[i])
			}
		}
	})
}

// nesting is the deepest nesting of brackets in b outside JSON strings.
func nesting(b []byte) int {
	depth, deepest, inStr, esc := 0, 0, false, false
	for _, c := range b {
		switch {
		case esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}
