package processor_test

import (
	"bytes"
	"encoding/json"

	"github.com/a2ui-stream/a2ui-stream/processor"
)

// stateError is an entry of the "errors" array of the canonical state the
// golden files hold (the form "a2ui-stream apply --state" prints).
type stateError struct {
	List    int
	Message string
}

// stateJSON renders p's Snapshot and errs in the canonical form of the
// golden files: keys sorted at every level, 2-space indentation, trailing
// newline. The command line renders "apply --state" the same way.
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
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(snap); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
