package parser

import (
	"errors"
	"strings"
	"testing"
)

// TestRepairErrorOffsets checks that the *SyntaxError of FixPayload and
// ParseResponse points at the offending byte of their own input, whatever
// the repairs, trimming and fences before it moved.
func TestRepairErrorOffsets(t *testing.T) {
	cases := []struct {
		name     string
		response bool   // ParseResponse (else FixPayload)
		in       string // the input; the error is at the first "@@", which the test removes
		utf8     bool   // the error is invalid UTF-8
	}{
		{"payload: a double comma", false, `[{"a":1,,@@}]`, false},
		{"payload: after leading spaces", false, "   \n[{\"a\":1,,@@}]", false},
		{"payload: after a no-break space", false, "\u00a0{\"a\":@@}", false},
		{"payload: after a form feed", false, "\f{\"a\":@@}", false},
		{"payload: a list element after a no-break space", false, "\u00a0[{\"a\":1}, @@2]", false},
		{"payload: after a dropped trailing comma", false, `[{"a":[1,],"b":@@}]`, false},
		{"payload: after a smart-quoted string", false, "[{\"a\":\u201cx\u201d,\"b\":@@}]", false},
		{"payload: after a quote escaped in a smart-quoted string", false, "[{\"a\":\u201cx\"y\u201d,\"b\":@@}]", false},
		{"payload: invalid UTF-8", false, "[{\"a\":\"@@\xff\"}]", true},
		{"payload: invalid UTF-8 after a smart quote", false, "[{\u2018a\u2019:1,\"b\":\"@@\xff\"}]", true},
		{"payload: a list element that is not an object", false, `[{"a":1},@@2]`, false},
		{"response: a double comma", true, `Hi <a2ui-json>   [{"a":1,,@@}]</a2ui-json>`, false},
		{"response: in a fence", true, "Hi <a2ui-json>\n```json\n[{\"a\":1,,@@}]\n```\n</a2ui-json>", false},
		{"response: one-line fence", true, "Hi <a2ui-json>```json [{\"a\":1,,@@}] ```</a2ui-json>", false},
		{"response: second block", true, "<a2ui-json>[{\"a\":1}]</a2ui-json> and <a2ui-json>[{\"b\":@@}]</a2ui-json>", false},
		{"response: invalid UTF-8", true, "Hi <a2ui-json>[{\"a\":\"@@\xff\"}]</a2ui-json>", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want := strings.Index(tc.in, "@@")
			in := strings.Replace(tc.in, "@@", "", 1)
			var err error
			if tc.response {
				_, err = ParseResponse(in)
			} else {
				_, err = FixPayload([]byte(in))
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v, want a *SyntaxError", err)
			}
			if se.Offset != int64(want) {
				t.Fatalf("offset %d (%q), want %d (%q): %v", se.Offset, in[min(int(se.Offset), len(in)):], want, in[want:], err)
			}
			if got := errors.Is(err, ErrInvalidUTF8); got != tc.utf8 {
				t.Fatalf("errors.Is(err, ErrInvalidUTF8) = %v", got)
			}
		})
	}
}
