package protocol_test

import (
	"bytes"
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

// FuzzParseCatalogSpec checks that any catalog block either parses or fails
// with a *CatalogError, never a panic, and that a block read as JSON (its
// first byte after a BOM and whitespace is '{' or '[') is accepted only
// when it is exactly one valid JSON value, whose syntax errors name an
// offset inside the block.
func FuzzParseCatalogSpec(f *testing.F) {
	for _, s := range []string{
		`{"version":"0.9","s2c_schema":"a","catalog_schema":"b"}`,
		`{"version":"0.9","s2c_schema":"a","catalog_schema":"b"} xyz`,
		`{"version":"0.9","s2c_schema":"a","catalog_schema":"b"}}`,
		"\ufeff{\"version\":\"0.9\",\"s2c_schema\":{},\"catalog_schema\":{}}\n",
		"version: \"0.9\"\ns2c_schema: a\ncatalog_schema: b\n",
		`{version: "0.9"}`, `[1] ]`, "", "\ufeff",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := protocol.ParseCatalogSpec(data)
		body := bytes.TrimPrefix(data, []byte("\ufeff"))
		trimmed := bytes.TrimLeft(body, " \t\r\n")
		isJSON := len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[')
		if err == nil {
			if isJSON && !json.Valid(body) {
				t.Fatalf("%q accepted, but it is not one valid JSON value", data)
			}
			return
		}
		if !errors.Is(err, protocol.ErrCatalog) {
			t.Fatalf("error is not a catalog error: %v", err)
		}
		var se *protocol.JSONSyntaxError
		if errors.As(err, &se) {
			if !isJSON {
				t.Fatalf("%q is not read as JSON, yet the error is a JSON syntax error: %v", data, err)
			}
			if se.Offset < 0 || se.Offset > len(data) {
				t.Fatalf("offset %d outside the %d-byte block: %v", se.Offset, len(data), err)
			}
		}
	})
}
