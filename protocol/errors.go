package protocol

import (
	"errors"
	"strings"
)

// Sentinel errors. Every *ValidationError matches ErrValidation and exactly
// one of the more specific sentinels below it, so callers can write
// errors.Is(err, protocol.ErrCycle).
var (
	// ErrValidation matches every validation failure.
	ErrValidation = errors.New("protocol: validation failed")

	// ErrSchema: the payload does not match the catalog's JSON Schema.
	ErrSchema = errors.New("protocol: schema validation failed")
	// ErrDuplicateID: two components of one update share an id.
	ErrDuplicateID = errors.New("protocol: duplicate component id")
	// ErrMissingRoot: the surface's root component is not among the components.
	ErrMissingRoot = errors.New("protocol: missing root component")
	// ErrDanglingRef: a component references an id that does not exist.
	ErrDanglingRef = errors.New("protocol: dangling component reference")
	// ErrSelfReference: a component references itself.
	ErrSelfReference = errors.New("protocol: component self-reference")
	// ErrCycle: the component references form a cycle.
	ErrCycle = errors.New("protocol: circular component reference")
	// ErrOrphan: a component is not reachable from the root.
	ErrOrphan = errors.New("protocol: orphaned component")
	// ErrRecursionLimit: the component tree, the JSON nesting or nested
	// function calls are deeper than the protocol allows.
	ErrRecursionLimit = errors.New("protocol: recursion limit exceeded")
	// ErrInvalidPath: a data binding "path" is not a valid JSON Pointer.
	ErrInvalidPath = errors.New("protocol: invalid path syntax")

	// ErrCatalog matches every error from loading or compiling a catalog.
	ErrCatalog = errors.New("protocol: invalid catalog")
)

// CodeValidationFailed is the protocol's error code for validation failures
// reported back to an agent.
const CodeValidationFailed = "VALIDATION_FAILED"

// ValidationError is one validation failure of an A2UI payload.
//
// Message is the human text, identical to what the reference SDK reports
// (e.g. "Circular reference detected involving component 'c1'" or, for
// schema failures, "Validation failed: 123 is not of type 'string'"), so
// that it matches the conformance suites' expect_error patterns. Details
// holds, for schema failures under oneOf/anyOf, the failures of each
// alternative ("'version' is a required property", ...).
type ValidationError struct {
	// MessageIndex is the index of the failing message in the validated
	// list, or -1 when not known (e.g. AnalyzeTopology on bare components).
	MessageIndex int
	// SurfaceID is the surface the failing message addresses, if known.
	SurfaceID string
	// Path is a JSON Pointer into the failing message's body (the object
	// under its kind key, e.g. "/components/0/text"), or "" for the body.
	Path string
	// Message is the reference-compatible description of the failure.
	Message string
	// Details lists nested schema failures (may be empty), those of the
	// most plausible oneOf/anyOf alternative first.
	Details []string
	// Summary, when set, is a shorter description naming the most specific
	// failure (e.g. "Validation failed: 123 is not of type 'string'" where
	// Message says the message matched none of the alternatives). Report
	// uses it.
	Summary string
	// Kind is the specific sentinel (ErrSchema, ErrCycle, ...).
	Kind error
}

// Error renders "protocol: <message>" followed by the details, one per line
// prefixed with "  - ", under a "Context failures:" line.
func (e *ValidationError) Error() string {
	var b strings.Builder
	b.WriteString("protocol: ")
	b.WriteString(e.Message)
	if len(e.Details) > 0 {
		b.WriteString("\nContext failures:")
		for _, d := range e.Details {
			b.WriteString("\n  - ")
			b.WriteString(d)
		}
	}
	return b.String()
}

// Unwrap returns ErrValidation and the specific Kind sentinel.
func (e *ValidationError) Unwrap() []error {
	if e.Kind == nil {
		return []error{ErrValidation}
	}
	return []error{ErrValidation, e.Kind}
}

// ErrorReport is the protocol's standard agent-facing validation error
// shape: {"code":"VALIDATION_FAILED","surfaceId":…,"path":…,"message":…}.
type ErrorReport struct {
	Code      string `json:"code"`
	SurfaceID string `json:"surfaceId"`
	Path      string `json:"path"`
	Message   string `json:"message"`
}

// Report renders the error in the standard agent-facing shape. The message
// is Summary when set, otherwise Message.
func (e *ValidationError) Report() ErrorReport {
	msg := e.Message
	if e.Summary != "" {
		msg = e.Summary
	}
	path := e.Path
	if path == "" {
		path = "/"
	}
	return ErrorReport{Code: CodeValidationFailed, SurfaceID: e.SurfaceID, Path: path, Message: msg}
}

// ValidationErrors is returned when a payload has several failures (at most
// one per message). It is never empty.
type ValidationErrors []*ValidationError

// Error joins the errors' texts, one per line.
func (es ValidationErrors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// Unwrap returns the individual errors, so errors.Is and errors.As see each.
func (es ValidationErrors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// AsValidationErrors flattens err into its *ValidationError values: a single
// *ValidationError, a ValidationErrors list, or anything wrapping either.
// It returns nil when err holds no validation error.
func AsValidationErrors(err error) []*ValidationError {
	var list ValidationErrors
	if errors.As(err, &list) {
		return list
	}
	var one *ValidationError
	if errors.As(err, &one) {
		return []*ValidationError{one}
	}
	return nil
}

// CatalogError reports a catalog that cannot be loaded or compiled.
type CatalogError struct {
	// Source names the file or schema at fault ("s2c_schema", a path, ...).
	Source string
	Err    error
}

func (e *CatalogError) Error() string {
	// The cause's own "protocol: " prefix is not repeated.
	cause := strings.TrimPrefix(e.Err.Error(), "protocol: ")
	if e.Source == "" {
		return "protocol: catalog: " + cause
	}
	return "protocol: catalog " + e.Source + ": " + cause
}

// Unwrap returns ErrCatalog and the underlying cause.
func (e *CatalogError) Unwrap() []error { return []error{ErrCatalog, e.Err} }
