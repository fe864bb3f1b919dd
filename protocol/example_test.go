package protocol_test

import (
	"encoding/json"
	"fmt"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// Validate a v0.9 payload against an inline catalog and report the failure
// in the protocol's standard agent-facing shape.
func Example_validate() {
	s2c := map[string]any{
		"type":     "object",
		"required": []any{"version"},
		"properties": map[string]any{
			"version": map[string]any{"const": "v0.9"},
		},
	}
	cat, err := protocol.NewCatalog(protocol.V09, s2c, map[string]any{"catalogId": "demo", "components": map[string]any{}}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	payload := []byte(`[
	  {"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
	    {"id": "root", "component": "Card", "child": "root"}]}}
	]`)
	err = cat.ValidateJSON(payload)
	for _, ve := range protocol.AsValidationErrors(err) {
		b, _ := json.Marshal(ve.Report())
		fmt.Println(string(b))
	}
	// Output:
	// {"code":"VALIDATION_FAILED","surfaceId":"s","path":"/components","message":"Self-reference detected: Component 'root' references itself in field 'child'"}
}
