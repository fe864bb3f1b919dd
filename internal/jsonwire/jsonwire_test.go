package jsonwire

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestAppendCompact(t *testing.T) {
	tests := []struct {
		name, in string
	}{
		{"empty object", `{}`},
		{"spaces between tokens", "{ \"a\" : [ 1 , 2 ] ,\n\t\"b\":true }"},
		{"spaces inside strings kept", `{"a b":"c  d\n"}`},
		{"escaped quote", `{"a":"x\" y"}`},
		{"escaped backslash before quote", `{"a":"x\\", "b" : 1}`},
		{"crlf", "[\r\n1,\r\n2\r\n]"},
		{"nested", "{\"a\": {\"b\": [ {\"c\": \"d\" } ] } }"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var want bytes.Buffer
			if err := json.Compact(&want, []byte(tc.in)); err != nil {
				t.Fatal(err)
			}
			if got := AppendCompact([]byte("x"), []byte(tc.in)); string(got) != "x"+want.String() {
				t.Errorf("AppendCompact(%q) = %q, want %q", tc.in, got[1:], want.String())
			}
		})
	}
}

func FuzzAppendCompact(f *testing.F) {
	for _, s := range []string{`{}`, "{ \"a\" : [ 1 , 2 ] }", `{"a":"x\\", "b" : 1}`, `"\u2028"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) {
			return
		}
		var want bytes.Buffer
		_ = json.Compact(&want, []byte(s))
		if got := AppendCompact(nil, []byte(s)); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("AppendCompact(%q) = %q, want %q", s, got, want.Bytes())
		}
	})
}

func TestAppendString(t *testing.T) {
	tests := []struct {
		name, in string
	}{
		{"plain", "hello"},
		{"quote and backslash", `a"b\c`},
		{"controls", "\x00\x01\n\r\t\x1f"},
		{"html kept", "<a>&</a>"},
		{"line separators", "\u2028\u2029"},
		{"multibyte", "héllo ☃"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(tc.in); err != nil {
				t.Fatal(err)
			}
			if got := string(AppendString(nil, tc.in)) + "\n"; got != want.String() {
				t.Errorf("AppendString(%q) = %q, want %q", tc.in, got, want.String())
			}
		})
	}
}
