package jsonwire

import (
	"bytes"
	"encoding/json"
	"strings"
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

// stdString encodes s as encoding/json does with HTML escaping off.
func stdString(t testing.TB, s string) string {
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(want.String(), "\n")
}

var quoteCases = []struct {
	name, in string
}{
	{"plain", "hello"},
	{"empty", ""},
	{"quote and backslash", `a"b\c`},
	{"controls", "\x00\x01\n\r\t\x1f"},
	{"backspace and form feed", "\b\f"},
	{"html kept", "<a>&</a>"},
	{"line separators", "\u2028\u2029"},
	{"multibyte", "héllo ☃"},
	{"invalid utf-8", "a\xffb\xe2\x80"},
	{"long plain run then a quote", strings.Repeat("abcdefgh", 5) + `"` + strings.Repeat("x", 9)},
	{"a quote at each word offset", `0"234567` + `01"34567` + `0123456"`},
	{"a control after 8 plain bytes", "abcdefgh\x05"},
	{"non-ASCII after 8 plain bytes", "abcdefghé"},
	{"DEL is plain", "abc\x7fdefghij"},
}

// TestAppendString holds AppendString to encoding/json's output.
func TestAppendString(t *testing.T) {
	for _, tc := range quoteCases {
		t.Run(tc.name, func(t *testing.T) {
			if got, want := string(AppendString([]byte("x"), tc.in)), "x"+stdString(t, tc.in); got != want {
				t.Errorf("AppendString(%q) = %q, want %q", tc.in, got, want)
			}
		})
	}
}

// TestAppendQuoted: the parser's form differs from encoding/json's only in
// writing \b and \f as \u0008 and \u000c, and, with rawInvalid, invalid
// bytes as \xHH.
func TestAppendQuoted(t *testing.T) {
	for _, tc := range quoteCases {
		t.Run(tc.name, func(t *testing.T) {
			want := strings.NewReplacer(`\b`, `\u0008`, `\f`, `\u000c`).Replace(stdString(t, tc.in))
			if got := string(AppendQuoted(nil, tc.in, false)); got != want {
				t.Errorf("AppendQuoted(%q) = %q, want %q", tc.in, got, want)
			}
		})
	}
	if got, want := string(AppendQuoted(nil, "a\xffb", true)), `"a\xffb"`; got != want {
		t.Errorf("AppendQuoted raw = %q, want %q", got, want)
	}
}

func FuzzAppendString(f *testing.F) {
	for _, tc := range quoteCases {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(AppendString(nil, s)), stdString(t, s); got != want {
			t.Errorf("AppendString(%q) = %q, want %q", s, got, want)
		}
	})
}
