package protocol_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// FuzzValidate feeds arbitrary JSON payloads to a v0.9 and a v0.8 catalog
// and to the catalog-free checks. It asserts that validation never panics
// and that every failure is a *ValidationError matching ErrValidation.
func FuzzValidate(f *testing.F) {
	cases, _ := loadValidatorSuite(f)
	for _, c := range cases {
		steps := c.Steps
		if len(steps) == 0 {
			steps = []validatorStep{{Payload: c.Payload}}
		}
		for _, s := range steps {
			if b, err := json.Marshal(s.Payload); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte(`[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"root"}]}}]`))
	f.Add([]byte(`{"beginRendering":{"surfaceId":1}}`))
	f.Add([]byte(`[[[[[[[[[]]]]]]]]]`))
	cat09 := loadSimplified(f, "0.9")
	cat08 := loadSimplified(f, "0.8")
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, cat := range []*protocol.Catalog{cat09, cat08, nil} {
			for _, strict := range []bool{true, false} {
				err := cat.ValidateJSON(data, protocol.WithStrictIntegrity(strict))
				if err == nil {
					continue
				}
				if !errors.Is(err, protocol.ErrValidation) {
					t.Fatalf("error does not match ErrValidation: %v", err)
				}
				if len(protocol.AsValidationErrors(err)) == 0 {
					t.Fatalf("error is not a ValidationError: %T", err)
				}
			}
		}
	})
}
