package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/parser"
)

// encodeNoHTML is the reference: what a json.Encoder with
// SetEscapeHTML(false) writes for v, without its newline.
func encodeNoHTML(t testing.TB, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

var stringCases = []struct{ name, s string }{
	{"empty", ""},
	{"ascii", "Here is the forecast."},
	{"quote_and_backslash", `say "hi" \ bye`},
	{"newline_tab_cr", "a\nb\tc\rd"},
	{"control_characters", "\x00\x01\x08\x0c\x1f"},
	{"html_not_escaped", "<b>&amp;</b>"},
	{"del_kept", "a\x7fb"},
	{"utf8", "18°C ☂ 東京"},
	{"invalid_utf8", "a\xffb\xc3"},
	{"line_separators", "a\u2028b\u2029c"},
	{"line_separator_only", "\u2028"},
	{"near_line_separator", "\u2027\u202a"},
}

func TestAppendJSONString(t *testing.T) {
	for _, tc := range stringCases {
		t.Run(tc.name, func(t *testing.T) {
			got := string(appendJSONString([]byte("prefix"), tc.s))
			if want := "prefix" + encodeNoHTML(t, tc.s); got != want {
				t.Errorf("got %s, want %s", got, want)
			}
		})
	}
}

func FuzzAppendJSONString(f *testing.F) {
	for _, tc := range stringCases {
		f.Add(tc.s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(appendJSONString(nil, s)), encodeNoHTML(t, s); got != want {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	})
}

var messageCases = []struct{ name, msg string }{
	{"compact", `{"a":1,"b":[true,null,"x"]}`},
	{"spaced", `{"version": "v0.9", "createSurface": {"surfaceId": "s"}}`},
	{"indented", "{\n\t\"a\" : [ 1 ,\r\n 2 ]\n}"},
	{"spaces_in_strings_kept", `{"text": "a  b", "k y": " "}`},
	{"escaped_quote_then_space", `{"a": "x\" y", "b" : 1}`},
	{"escaped_backslash_before_quote", `{"a": "x\\", "b" : "\\\\" }`},
	{"escapes_kept", `{"t": "\u00e9 \n \/"}`},
	{"html_kept", `{"t": "<b>&</b>"}`},
	{"line_separator_kept", "{\"t\": \"a\u2028b\"}"},
	{"surrounding_space", "  [ ]  "},
}

func TestAppendJSONMessage(t *testing.T) {
	for _, tc := range messageCases {
		t.Run(tc.name, func(t *testing.T) {
			got := string(appendJSONMessage([]byte("prefix"), json.RawMessage(tc.msg)))
			if want := "prefix" + encodeNoHTML(t, json.RawMessage(tc.msg)); got != want {
				t.Errorf("got %s, want %s", got, want)
			}
		})
	}
	if got := string(appendJSONMessage(nil, nil)); got != "null" {
		t.Errorf("nil message: got %s, want null (as encoding/json)", got)
	}
}

func FuzzAppendJSONMessage(f *testing.F) {
	for _, tc := range messageCases {
		f.Add(tc.msg)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		if !json.Valid([]byte(msg)) {
			t.Skip() // the parser yields only valid JSON
		}
		if got, want := string(appendJSONMessage(nil, json.RawMessage(msg))), encodeNoHTML(t, json.RawMessage(msg)); got != want {
			t.Errorf("%q: got %s, want %s", msg, got, want)
		}
	})
}

// TestAppendPart: a part comes out as a json.Encoder writes a parser.Part.
func TestAppendPart(t *testing.T) {
	msgs := func(ms ...string) []json.RawMessage {
		out := make([]json.RawMessage, len(ms))
		for i, m := range ms {
			out[i] = json.RawMessage(m)
		}
		return out
	}
	tests := []struct {
		name string
		part parser.Part
	}{
		{"text_only", parser.Part{Text: "hi <there>\n"}},
		{"messages_only", parser.Part{Messages: msgs(`{"a": 1}`, `{"b":2}`)}},
		{"text_and_messages", parser.Part{Text: "“x”", Messages: msgs(`{"a":1}`)}},
		{"empty_messages", parser.Part{Messages: msgs()}},
		{"empty", parser.Part{}},
		{"list_fields_not_written", parser.Part{Text: "t", Messages: msgs(`{}`), List: 3, ListEnd: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(appendPart(nil, tt.part))
			if want := encodeNoHTML(t, tt.part); got != want {
				t.Errorf("got %s, want %s", got, want)
			}
		})
	}
}

func TestAppendError(t *testing.T) {
	msg := `parser: block 0 (at byte 3) dropped: unexpected "<"`
	if got, want := string(appendError(nil, msg)), encodeNoHTML(t, map[string]string{"error": msg}); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
