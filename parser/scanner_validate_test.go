package parser

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// scanResult is what a scanner yields for one block's content: the messages
// in order, whether the inline check accepted each, and the first error.
type scanResult struct {
	msgs     []string
	accepted []bool
	err      string
}

// runScanner feeds content to the scanner in chunks of step bytes.
func runScanner(content string, step, maxDepth int) scanResult {
	var r scanResult
	s := newScanner(maxDepth)
	off := int64(0)
	for c := 0; c < len(content); c += step {
		seg := []byte(content[c:min(c+step, len(content))])
		for len(seg) > 0 {
			before := s.looseMsgs
			n, msg, err := s.next(seg, off)
			if err != nil {
				r.err = err.Error()
				return r
			}
			if msg != nil {
				r.msgs = append(r.msgs, string(msg))
				r.accepted = append(r.accepted, s.looseMsgs == before)
			}
			seg, off = seg[n:], off+int64(n)
		}
	}
	return r
}

// runReference feeds content to the reference scanner the same way.
func runReference(content string, step, maxDepth int) scanResult {
	var r scanResult
	s := newRefScanner(maxDepth)
	off := int64(0)
	for c := 0; c < len(content); c += step {
		seg := []byte(content[c:min(c+step, len(content))])
		err := s.scan(seg, off, func(msg []byte) error {
			r.msgs = append(r.msgs, string(msg))
			return nil
		})
		if err != nil {
			r.err = err.Error()
			return r
		}
		off += int64(len(seg))
	}
	return r
}

// jsonValid is the grammar the inline check must accept, exactly.
func jsonValid(b string) bool { return utf8.ValidString(b) && json.Valid([]byte(b)) }

// checkScanner compares the scanner with the reference scanner and with
// encoding/json on one block content and chunk size.
func checkScanner(t *testing.T, content string, step, maxDepth int) {
	t.Helper()
	got := runScanner(content, step, maxDepth)
	want := runReference(content, step, maxDepth)
	if got.err != want.err || strings.Join(got.msgs, "\x00") != strings.Join(want.msgs, "\x00") {
		t.Fatalf("step %d on %q:\ngot  %q err %q\nwant %q err %q", step, content, got.msgs, got.err, want.msgs, want.err)
	}
	for i, m := range got.msgs {
		if !jsonValid(m) {
			t.Fatalf("step %d on %q: emitted invalid JSON %q", step, content, m)
		}
		if !got.accepted[i] {
			t.Fatalf("step %d on %q: inline check rejected valid JSON %q", step, content, m)
		}
	}
}

var scannerCases = []struct {
	name    string
	content string
}{
	{"empty object", `{}`},
	{"list of messages", `[{"a":1},{"b":[true,false,null]}]`},
	{"bare object and fence", "```json\n{\"a\":{\"b\":{}}}\n```"},
	{"every number form", `{"n":[0,-0,1,-12,3.25,-0.5e10,1E+2,7e-3,0.0]}`},
	{"escapes", `{"s":"\"\\\/\b\f\n\r\t\u00e9\uD83D\uDE00"}`},
	{"multi-byte text", `{"t":"18°C 日本 🎉 \u2028"}`},
	{"whitespace everywhere", " [ { \"a\" : [ 1 , 2 ] , \"b\" : { } } , { } ] "},
	{"leading zero", `{"n":01}`},
	{"trailing comma in object", `{"a":1,}`},
	{"trailing comma in array", `{"a":[1,]}`},
	{"missing comma", `{"a":1 "b":2}`},
	{"missing colon", `{"a" 1}`},
	{"double colon", `{"a"::1}`},
	{"unquoted key", `{a:1}`},
	{"bad literal", `{"a":tru}`},
	{"bad literal case", `{"a":True}`},
	{"bare minus", `{"a":-}`},
	{"dot without digits", `{"a":1.}`},
	{"exponent without digits", `{"a":1e}`},
	{"plus sign", `{"a":+1}`},
	{"control char in string", "{\"a\":\"x\ty\"}"},
	{"bad escape", `{"a":"\x"}`},
	{"short unicode escape", `{"a":"\u12"}`},
	{"bad unicode hex", `{"a":"\u12G4"}`},
	{"invalid UTF-8", "{\"a\":\"\xff\"}"},
	{"surrogate in UTF-8", "{\"a\":\"\xed\xa0\x80\"}"},
	{"overlong UTF-8", "{\"a\":\"\xc0\xaf\"}"},
	{"truncated UTF-8 before quote", "{\"a\":\"\xe6\x97\"}"},
	{"non-ASCII outside strings", "{\"a\":1\xc3\xa9}"},
	{"mismatched close", `{"a":[1}]}`},
	{"array closes object", `{"a":1]`},
	{"value after value in array", `{"a":[1 2]}`},
	{"key in array", `{"a":["k":1]}`},
	{"empty value", `{"a":}`},
	{"bad key then brace in string", `{x "}" :1}`},
	{"bad grammar then deep", `{x:[[[[[[[[[[1]]]]]]]]]]}`},
	{"deep", `{"a":[[[[[[[[[[1]]]]]]]]]]}`},
	{"escaped quote after error", `{"a":"\q\"}"}`},
	{"backslash run", `{"a":"\\\\\\","b":"\\\""}`},
	{"garbage between messages", `[{"a":1} x]`},
}

func TestScannerMatchesReference(t *testing.T) {
	for _, tc := range scannerCases {
		t.Run(tc.name, func(t *testing.T) {
			for step := 1; step <= len(tc.content); step++ {
				checkScanner(t, tc.content, step, 8)
			}
		})
	}
}

// TestInlineCheckRejects checks that every case encoding/json rejects as a
// message is rejected, with the reference scanner's error.
func TestInlineCheckRejects(t *testing.T) {
	for _, tc := range scannerCases {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.HasPrefix(tc.content, "{") || jsonValid(tc.content) {
				return
			}
			r := runScanner(tc.content, 1, 64)
			if r.err == "" {
				t.Fatalf("accepted %q, which encoding/json rejects: %q", tc.content, r.msgs)
			}
		})
	}
}

// FuzzScannerGrammar holds the single-pass scanner to the reference scanner
// (messages, errors and their offsets) and its inline check to
// encoding/json.Valid on every message, at any chunk size.
func FuzzScannerGrammar(f *testing.F) {
	for _, tc := range scannerCases {
		f.Add(tc.content, uint8(1))
		f.Add(tc.content, uint8(7))
	}
	f.Fuzz(func(t *testing.T, content string, step uint8) {
		checkScanner(t, content, int(step%32)+1, 8)
		if strings.HasPrefix(content, "{") && !jsonValid(content) {
			r := runScanner(content, len(content), 8)
			for _, m := range r.msgs {
				if m == content {
					t.Fatalf("accepted %q, which encoding/json rejects", content)
				}
			}
		}
	})
}

func TestSyntaxErrorOffsetsMatchReference(t *testing.T) {
	for _, tc := range scannerCases {
		r := runScanner(tc.content, 3, 8)
		if r.err == "" {
			continue
		}
		want := runReference(tc.content, 3, 8)
		if r.err != want.err {
			t.Errorf("%s: error %q, want %q", tc.name, r.err, want.err)
		}
	}
	var se *SyntaxError
	s := newScanner(8)
	_, _, err := s.next([]byte("{\"a\":\"\xff\"}"), 100)
	if !errors.As(err, &se) || se.Offset != 106 || !errors.Is(err, ErrInvalidUTF8) {
		t.Fatalf("error %v, want invalid UTF-8 at 106", err)
	}
}
