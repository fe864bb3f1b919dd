package main

import (
	"bytes"
	"encoding/json"
	"sync"
	"unicode/utf8"

	"github.com/a2ui-stream/a2ui-stream/parser"
)

// This file holds the appenders that write the commands' JSON lines into a
// reused buffer, byte for byte as a json.Encoder with SetEscapeHTML(false)
// writes the same values, without its reflection and without re-validating
// messages the parser has already validated. parse uses them for its lines;
// a command that writes event lines (run) can use them for its own.

// appendJSONString appends s as a JSON string, escaped exactly as
// encoding/json escapes it with SetEscapeHTML(false): the common string
// that needs no escape is copied as is, any other goes through
// encoding/json.
func appendJSONString(dst []byte, s string) []byte {
	if !needsEscape(s) {
		dst = append(dst, '"')
		dst = append(dst, s...)
		return append(dst, '"')
	}
	e := escapers.Get().(*escaper)
	defer escapers.Put(e)
	e.buf.Reset()
	_ = e.enc.Encode(s) // a string always encodes
	b := e.buf.Bytes()
	return append(dst, b[:len(b)-1]...) // without Encode's newline
}

// needsEscape reports whether encoding/json (with SetEscapeHTML(false))
// writes s other than as its bytes between quotes: s holds a control
// character, a quote or a backslash, invalid UTF-8 (replaced by U+FFFD), or
// U+2028 or U+2029 (always escaped).
func needsEscape(s string) bool {
	ascii := true
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c == '"' || c == '\\':
			return true
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	if ascii {
		return false
	}
	return !utf8.ValidString(s) || containsLineSeparator(s)
}

// containsLineSeparator reports whether s holds U+2028 or U+2029 (encoded
// E2 80 A8 and E2 80 A9).
func containsLineSeparator(s string) bool {
	for i := 0; i+2 < len(s); i++ {
		if s[i] == 0xE2 && s[i+1] == 0x80 && s[i+2]&^1 == 0xA8 {
			return true
		}
	}
	return false
}

// escaper is a json.Encoder with SetEscapeHTML(false) writing into its own
// buffer, for the strings appendJSONString cannot copy.
type escaper struct {
	buf bytes.Buffer
	enc *json.Encoder
}

var escapers = sync.Pool{New: func() any {
	e := new(escaper)
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}}

// appendJSONMessage appends msg, a JSON value, compacted as encoding/json
// writes a json.RawMessage (with SetEscapeHTML(false)): the whitespace
// outside its strings removed, the rest (key order, string escapes) kept.
// Unlike encoding/json it does not validate msg again: it is for the
// parser's messages, which are complete JSON values (the complete mode
// checks the model's bytes, the other modes build theirs). Models often
// write "key": value with spaces, so the compaction is a single pass that
// copies the runs between such spaces.
func appendJSONMessage(dst []byte, msg json.RawMessage) []byte {
	if len(msg) == 0 {
		return append(dst, "null"...) // what encoding/json writes for a nil RawMessage
	}
	start := 0
	for i := 0; i < len(msg); i++ {
		switch msg[i] {
		case ' ', '\t', '\n', '\r':
			dst = append(dst, msg[start:i]...)
			start = i + 1
		case '"':
			i = stringEnd(msg, i+1)
		}
	}
	return append(dst, msg[start:]...)
}

// stringEnd returns the index of the quote closing the JSON string whose
// contents start at b[i] (len(b) if there is none).
func stringEnd(b []byte, i int) int {
	for {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			return len(b)
		}
		q += i
		backslashes := 0
		for j := q - 1; j >= i && b[j] == '\\'; j-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return q
		}
		i = q + 1
	}
}

// appendPart appends a part as encoding/json writes a parser.Part's text
// and messages: {"text":…,"a2ui":[…]}, each key left out when empty.
func appendPart(dst []byte, p parser.Part) []byte {
	dst = append(dst, '{')
	if p.Text != "" {
		dst = append(dst, `"text":`...)
		dst = appendJSONString(dst, p.Text)
	}
	if len(p.Messages) > 0 {
		if p.Text != "" {
			dst = append(dst, ',')
		}
		dst = append(dst, `"a2ui":`...)
		dst = appendMessageList(dst, p.Messages)
	}
	return append(dst, '}')
}

// appendMessageList appends msgs as a JSON array of compacted messages.
func appendMessageList(dst []byte, msgs []json.RawMessage) []byte {
	dst = append(dst, '[')
	for i, m := range msgs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONMessage(dst, m)
	}
	return append(dst, ']')
}

// appendError appends {"error":msg}.
func appendError(dst []byte, msg string) []byte {
	dst = append(dst, `{"error":`...)
	dst = appendJSONString(dst, msg)
	return append(dst, '}')
}
