package processor

import (
	"errors"
	"fmt"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// Sentinel errors. Every failure of a message is a *MessageError that wraps
// one of these (or a protocol validation error), so callers can test with
// errors.Is.
var (
	// ErrInvalidMessage: the message is not a well-formed A2UI envelope
	// (not an object, no or several kind keys, a missing or mistyped field).
	ErrInvalidMessage = errors.New("processor: invalid message")
	// ErrUnsupported: the message kind is recognised (v0.10/1.0 additions
	// such as callFunction) but this processor does not apply it.
	ErrUnsupported = errors.New("processor: unsupported message")
	// ErrVersion: the message's version does not fit its kind or surface.
	ErrVersion = errors.New("processor: version mismatch")
	// ErrSurfaceExists: createSurface for a surface that already exists.
	ErrSurfaceExists = errors.New("processor: surface already exists")
	// ErrUnknownSurface: an update addresses a surface that does not exist.
	ErrUnknownSurface = errors.New("processor: unknown surface")
	// ErrUnknownCatalog: createSurface names a catalog the processor was
	// not configured with (only when catalogs are configured).
	ErrUnknownCatalog = errors.New("processor: unknown catalog")
	// ErrDataPath: an updateDataModel path cannot be written (it goes
	// through a primitive, or uses a non-numeric segment on an array).
	ErrDataPath = errors.New("processor: invalid data model path")
	// ErrLimit: applying the message would exceed a configured memory bound.
	ErrLimit = errors.New("processor: limit exceeded")
	// ErrNotArray: a list given to ProcessJSON is not a JSON array.
	ErrNotArray = errors.New("processor: list is not a JSON array")
)

// MessageError is the failure of one message of a list. The message changed
// nothing; the rest of the list was still applied.
type MessageError struct {
	// Index is the message's 0-based position in its list.
	Index int
	// SurfaceID is the surface the message addresses ("" if unknown).
	SurfaceID string
	// Kind is the message's kind ("" if it could not be determined).
	Kind protocol.Kind
	// Path is a JSON Pointer into the message body (the object under the
	// kind key), e.g. "/components/3/id"; "" means the whole body.
	Path string
	// Err is the cause: one of this package's sentinels (wrapped with
	// detail) or a *protocol.ValidationError.
	Err error
}

func (e *MessageError) Error() string {
	var where string
	switch {
	case e.Kind != "" && e.SurfaceID != "":
		where = fmt.Sprintf(" (%s, surface %q)", e.Kind, e.SurfaceID)
	case e.Kind != "":
		where = fmt.Sprintf(" (%s)", e.Kind)
	case e.SurfaceID != "":
		where = fmt.Sprintf(" (surface %q)", e.SurfaceID)
	}
	return fmt.Sprintf("processor: message %d%s: %s", e.Index, where, causeText(e.Err))
}

// Unwrap returns the cause.
func (e *MessageError) Unwrap() error { return e.Err }

// Report renders the failure in the protocol's standard agent-facing form,
// {"code":"VALIDATION_FAILED","surfaceId":…,"path":…,"message":…}, ready to
// be fed back to the agent's model.
func (e *MessageError) Report() protocol.ErrorReport {
	path := e.Path
	msg := causeText(e.Err)
	var ve *protocol.ValidationError
	if errors.As(e.Err, &ve) {
		r := ve.Report()
		msg = r.Message
		if path == "" && ve.Path != "" {
			path = ve.Path
		}
	}
	if path == "" {
		path = "/"
	}
	return protocol.ErrorReport{Code: protocol.CodeValidationFailed, SurfaceID: e.SurfaceID, Path: path, Message: msg}
}

// causeText strips the package prefix of a cause, so that a MessageError
// reads "processor: message 1 (...): unknown surface "x"" rather than
// repeating "processor:".
func causeText(err error) string {
	if err == nil {
		return "unknown error"
	}
	s := err.Error()
	for _, p := range []string{"processor: ", "protocol: "} {
		if len(s) > len(p) && s[:len(p)] == p {
			return s[len(p):]
		}
	}
	return s
}

// fail builds a MessageError cause at a body path.
func fail(path string, sentinel error, format string, args ...any) *MessageError {
	return &MessageError{Path: path, Err: fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)}
}
