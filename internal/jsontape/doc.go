// Package jsontape parses one JSON value (typically one A2UI message) in a
// single validating pass into a Tape: a flat list of tokens, one per
// value, that readers walk by index without scanning the text again. The
// processor reads messages' envelopes, components and references from it,
// and package protocol runs its fast catalog check (schema and limits) on
// the same tape, so a message is parsed once.
//
// The JSON grammar itself (whitespace, escapes, hex digits, numbers,
// UTF-8, the eight-byte string scan masks) comes from package jsonwire;
// this package adds the tape, its one-loop parser and its readers. Parse
// bounds nesting at MaxDepth, the A2UI protocol's limit
// (protocol.MaxComponentDepth, which protocol holds equal at compile
// time), and returns typed errors: *SyntaxError (ErrSyntax) and
// *DepthError (ErrDepth). Package protocol maps them to its public
// errors (*protocol.JSONSyntaxError, a *protocol.ValidationError of kind
// ErrRecursionLimit) for the module's other packages, through package
// protocoltape.
//
// # Concurrency
//
// A Tape is not safe for concurrent use: one goroutine at a time parses
// into it and reads it (readers that do not parse, such as several
// goroutines reading one tape that none parses again, are safe together).
// The strings a Tape returns are substrings of the parsed text, or fresh
// strings for escaped ones, and stay valid after the tape is reused. The
// errors and constants of the package are immutable.
package jsontape

// MaxDepth is the deepest nesting Parse accepts: a value at most MaxDepth
// containers deep (the root value is at depth 0). It is the A2UI
// protocol's global recursion limit, protocol.MaxComponentDepth.
const MaxDepth = 50
