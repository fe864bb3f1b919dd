package parser

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors. Errors returned by the parser wrap one of these, a
// *SyntaxError, or (a snapshot that fails a catalog, see WithCatalog) a
// *protocol.ValidationError; New's errors for an invalid option wrap
// none. Test with errors.Is and errors.As.
var (
	// ErrTooLarge reports a block larger than the configured maximum block size.
	ErrTooLarge = errors.New("parser: block exceeds the maximum size")
	// ErrTooDeep reports JSON nested deeper than the configured maximum depth.
	ErrTooDeep = errors.New("parser: JSON nested too deep")
	// ErrInvalidUTF8 reports invalid UTF-8 inside a block's JSON.
	ErrInvalidUTF8 = errors.New("parser: invalid UTF-8 in JSON")
	// ErrUnterminated reports, in complete mode, a block or stream that ended
	// inside an unfinished message (see the package doc for the other modes).
	ErrUnterminated = errors.New("parser: stream ended inside an unfinished A2UI message")
	// ErrNotFound reports a response with no A2UI block (ParseResponse).
	ErrNotFound = errors.New("parser: A2UI tags not found in response")
	// ErrEmptyBlock reports a block with no JSON in it (ParseResponse).
	ErrEmptyBlock = errors.New("parser: A2UI JSON part is empty")
	// ErrLimit reports a stream that needs more state than the progressive
	// modes are allowed to keep (see WithMaxSurfaces, WithMaxComponents).
	ErrLimit = errors.New("parser: limit exceeded")
	// ErrClosed reports a Feed or Close after Close.
	ErrClosed = errors.New("parser: parser is closed")
)

// SyntaxError reports malformed JSON in a block. Offset is the byte offset in
// the whole stream (counting every byte passed to Feed) where the problem was
// found.
type SyntaxError struct {
	Offset int64
	Msg    string
	// Err is an optional sentinel (ErrTooDeep, ErrInvalidUTF8) giving the
	// class of the problem.
	Err error
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("parser: Failed to parse JSON at byte %d: %s", e.Offset, e.Msg)
}

// Unwrap returns the sentinel class of the error, if any.
func (e *SyntaxError) Unwrap() error { return e.Err }

// LimitError reports a message refused because the parser would keep more
// state than allowed: one more surface than WithMaxSurfaces, or one more
// component (or buffered v0.8 message) for a surface than WithMaxComponents.
type LimitError struct {
	// What is "surfaces" or "components".
	What string
	// Max is the limit.
	Max int
	// SurfaceID is the surface of the refused message.
	SurfaceID string
}

func (e *LimitError) Error() string {
	if e.What == "surfaces" {
		return fmt.Sprintf("parser: surface %q refused: the parser already holds %d surfaces (WithMaxSurfaces)", e.SurfaceID, e.Max)
	}
	return fmt.Sprintf("parser: surface %q: more than %d components (WithMaxComponents)", e.SurfaceID, e.Max)
}

// Unwrap returns ErrLimit.
func (e *LimitError) Unwrap() error { return ErrLimit }

// BlockError reports a block that failed. The block is dropped: the messages
// it yielded before the failure stand, the rest of it is skipped, and parsing
// continues after its end.
type BlockError struct {
	// Block is the 0-based index of the block in the stream.
	Block int
	// Offset is the stream offset of the block's first content byte.
	Offset int64
	// Before is the number of parts returned by the same Feed or Close call
	// that precede the failure in the stream, so that a caller can report
	// the error in place.
	Before int
	Err    error
}

func (e *BlockError) Error() string {
	// The cause's own "parser: " prefix is not repeated.
	return fmt.Sprintf("parser: block %d (at byte %d) dropped: %s", e.Block, e.Offset, strings.TrimPrefix(e.Err.Error(), "parser: "))
}

// Unwrap returns the cause.
func (e *BlockError) Unwrap() error { return e.Err }

// BlockErrors returns the errors a Feed or Close call returned: its one
// *BlockError, or each of several joined, in stream order (each one's
// Before places it among the call's parts); nil for nil. Feed and Close
// return no other kind of error but ErrClosed, which comes back alone.
func BlockErrors(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
