package main

import (
	"bytes"
	"encoding/json"

	"github.com/a2ui-stream/a2ui-stream/processor"
)

// stateError is one entry of the "errors" array of the canonical state
// "apply --state" prints: a failure in the list (input line) with the given
// 0-based index.
type stateError struct {
	List    int    `json:"list"`
	Message string `json:"message"`
}

// stateJSON renders the canonical state of p: its processor.Snapshot plus
// an "errors" array (empty when errs is), with object keys sorted at every
// level, 2-space indentation and a trailing newline.
func stateJSON(p *processor.Processor, errs []stateError) ([]byte, error) {
	snap, err := p.Snapshot()
	if err != nil {
		return nil, err
	}
	list := make([]any, len(errs))
	for i, e := range errs {
		list[i] = map[string]any{"list": e.List, "message": e.Message}
	}
	snap["errors"] = list
	return marshalCanonical(snap)
}

// marshalCanonical encodes plain JSON values with object keys sorted at
// every level (encoding/json sorts map keys), 2-space indentation, no HTML
// escaping and a trailing newline.
func marshalCanonical(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
