package jsontape

import (
	"errors"
	"fmt"
)

// ErrSyntax is the sentinel of JSON syntax errors (see *SyntaxError).
var ErrSyntax = errors.New("jsontape: invalid JSON")

// SyntaxError is a JSON syntax error found by Tape.Parse (invalid UTF-8
// included).
type SyntaxError struct {
	Offset int    // byte offset of the error
	Reason string // what is wrong there
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("jsontape: invalid JSON at offset %d: %s", e.Offset, e.Reason)
}

// Unwrap returns ErrSyntax.
func (e *SyntaxError) Unwrap() error { return ErrSyntax }

// ErrDepth is the sentinel of texts nested too deep (see *DepthError).
var ErrDepth = errors.New("jsontape: nesting deeper than the limit")

// DepthError is Tape.Parse's error for a value nested more than MaxDepth
// containers deep.
type DepthError struct {
	Offset int // byte offset of the first value too deep
}

func (e *DepthError) Error() string {
	return fmt.Sprintf("jsontape: value at offset %d is nested more than %d containers deep", e.Offset, MaxDepth)
}

// Unwrap returns ErrDepth.
func (e *DepthError) Unwrap() error { return ErrDepth }

func unexpectedCharError(offset int, c byte) error {
	return &SyntaxError{offset, fmt.Sprintf("unexpected character %q", c)}
}
