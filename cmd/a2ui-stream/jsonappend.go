package main

import (
	"encoding/json"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
	"github.com/a2ui-stream/a2ui-stream/parser"
)

// This file holds the appenders that write the commands' JSON lines into a
// reused buffer, byte for byte as a json.Encoder with SetEscapeHTML(false)
// writes the same values, without its reflection and without re-validating
// messages the parser has already validated. parse uses them for its lines;
// a command that writes event lines (run) can use them for its own.

// appendJSONString appends s as a JSON string, escaped exactly as
// encoding/json escapes it with SetEscapeHTML(false) (jsonwire.AppendString).
func appendJSONString(dst []byte, s string) []byte {
	return jsonwire.AppendString(dst, s)
}

// appendJSONMessage appends msg, a JSON value, compacted as encoding/json
// writes a json.RawMessage (with SetEscapeHTML(false)): the whitespace
// outside its strings removed, the rest (key order, string escapes) kept.
// Unlike encoding/json it does not validate msg again: it is for the
// parser's messages, which are complete JSON values (the complete mode
// checks the model's bytes, the other modes build theirs).
func appendJSONMessage(dst []byte, msg json.RawMessage) []byte {
	if len(msg) == 0 {
		return append(dst, "null"...) // what encoding/json writes for a nil RawMessage
	}
	return jsonwire.AppendCompact(dst, msg)
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
