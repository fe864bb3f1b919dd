// Package jsonwire holds the JSON primitives shared across the module's
// packages: the one place each piece of the JSON grammar (RFC 8259) is
// written. It has whitespace (IsSpace, SkipSpace), hex digits (IsHex,
// Hex4), string bytes (IsPlain, StopBytes and its two halves QuoteBytes
// and OtherStopBytes), escapes (IsEscape, AppendUnescaped, Unescape), the
// number grammar (NumState, ScanNumber: resumable, so that a streaming
// scanner can stop and go on at any byte), UTF-8 (UTF8Lead,
// InvalidUTF8At), the literals true, false and null (Literal,
// LiteralLen), quoting (AppendString, AppendQuoted), compaction
// (AppendCompact) and JSON Pointer (RFC 6901) reference tokens
// (EscapePointerToken, AppendPointerToken, JoinPointer,
// UnescapePointerToken, ValidPointerEscapes).
//
// Functions that read JSON text take a string or a []byte alike (Text).
// Everything here is a pure function or an immutable table: safe for
// concurrent use.
package jsonwire

// Text is JSON text: a string or a byte slice.
type Text interface{ ~string | ~[]byte }
