package a2a

import (
	"errors"
	"fmt"
)

// Sentinel errors. The typed errors below wrap one of these; test with
// errors.Is and errors.As.
var (
	// ErrNotExtensionURI reports a URI that is not an A2UI extension URI.
	ErrNotExtensionURI = errors.New("a2a: not an A2UI extension URI")
	// ErrMalformedPart reports an A2A part that is not valid JSON or has no
	// recognisable shape.
	ErrMalformedPart = errors.New("a2a: malformed part")
	// ErrMalformedMetadata reports client metadata of the wrong shape.
	ErrMalformedMetadata = errors.New("a2a: malformed client metadata")
	// ErrInvalidEvent reports a client-to-server event that breaks its
	// version's rules.
	ErrInvalidEvent = errors.New("a2a: invalid client event")
	// ErrResponseTooLarge reports a runner that produced more output than the
	// server buffers for a non-streaming reply.
	ErrResponseTooLarge = errors.New("a2a: runner output exceeds the response limit")
	// ErrServerClosed reports a Server used after Close.
	ErrServerClosed = errors.New("a2a: server is closed")
)

// PartError reports a problem with the part at Index of a list of parts.
type PartError struct {
	Index int
	Err   error
}

func (e *PartError) Error() string { return fmt.Sprintf("a2a: part %d: %v", e.Index, e.Err) }

// Unwrap returns the cause.
func (e *PartError) Unwrap() error { return e.Err }

// MetadataError reports a malformed client metadata entry. Key is the
// metadata key ("a2uiClientCapabilities" or "a2uiClientDataModel").
type MetadataError struct {
	Key string
	Msg string
}

func (e *MetadataError) Error() string {
	return fmt.Sprintf("a2a: metadata %s: %s", e.Key, e.Msg)
}

// Unwrap returns ErrMalformedMetadata.
func (e *MetadataError) Unwrap() error { return ErrMalformedMetadata }

// EventError reports a client-to-server event at Index (in the order the
// parts carry them) that breaks the rules of its version.
type EventError struct {
	Index int
	Msg   string
}

func (e *EventError) Error() string { return fmt.Sprintf("a2a: event %d: %s", e.Index, e.Msg) }

// Unwrap returns ErrInvalidEvent.
func (e *EventError) Unwrap() error { return ErrInvalidEvent }
