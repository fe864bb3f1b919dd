package protocol_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// numbersCatalog checks messages {"k": {...}} whose members use every
// numeric keyword.
func numbersCatalog(t testing.TB) *protocol.Catalog {
	t.Helper()
	s2c := map[string]any{
		"type": "object",
		"properties": map[string]any{"k": map[string]any{
			"type": "object",
			"properties": map[string]any{
				"min":    map[string]any{"type": "number", "minimum": json.Number("0")},
				"exMin":  map[string]any{"type": "number", "exclusiveMinimum": json.Number("0")},
				"max":    map[string]any{"type": "number", "maximum": json.Number("10")},
				"int":    map[string]any{"type": "integer"},
				"even":   map[string]any{"multipleOf": json.Number("2")},
				"unique": map[string]any{"type": "array", "uniqueItems": true},
				"one":    map[string]any{"enum": []any{json.Number("1"), "x"}},
			},
		}},
	}
	cat, err := protocol.NewCatalog(protocol.V09, s2c, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// Numbers with huge exponents or many digits must get the verdict their
// value deserves, without the schema library's exact arithmetic taking
// time exponential in the exponent's length or dereferencing nil on an
// exponent it cannot convert.
func TestValidateSchemaExtremeNumbers(t *testing.T) {
	cat := numbersCatalog(t)
	uniques := make([]string, 25)
	for i := range uniques {
		uniques[i] = fmt.Sprint(i)
	}
	uniques[3] = "1e10000000"
	tests := []struct {
		name      string
		body      string
		wantMatch string // "" means valid
	}{
		{"minimum_beyond_library_exponent", `{"min":1e10000000}`, ""},
		{"minimum_negative_beyond_library_exponent", `{"min":-1e10000000}`, "-inf is less than the minimum of 0"},
		{"exclusive_minimum_tiny", `{"exMin":1e-10000000}`, ""},
		{"exclusive_minimum_negative_tiny", `{"exMin":-1e-10000000}`, "is less than or equal to the minimum of 0"},
		{"maximum_huge", `{"max":1e999999}`, "inf is greater than the maximum of 10"},
		{"maximum_long_digits", `{"max":9.` + strings.Repeat("9", 300) + `}`, ""},
		{"maximum_long_digits_above", `{"max":10.` + strings.Repeat("0", 300) + `1}`, "is greater than the maximum of 10"},
		{"integer_huge_exponent", `{"int":1e999999}`, ""},
		{"integer_tiny_exponent", `{"int":1.5e-999999}`, "is not of type 'integer'"},
		{"integer_long_fraction", `{"int":1.` + strings.Repeat("0", 300) + `1}`, "is not of type 'integer'"},
		{"integer_long_trailing_zeros", `{"int":1.` + strings.Repeat("0", 300) + `}`, ""},
		{"multiple_of_beyond_library_exponent", `{"even":1e10000000}`, ""},
		{"unique_items_beyond_library_exponent", `{"unique":[` + strings.Join(uniques, ",") + `]}`, ""},
		{"enum_huge", `{"one":1e999999}`, "is not one of [1, 'x']"},
		{"enum_equal_long_text", `{"one":1.` + strings.Repeat("0", 300) + `}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var msg any
			dec := json.NewDecoder(strings.NewReader(`{"k":` + tt.body + `}`))
			dec.UseNumber()
			if err := dec.Decode(&msg); err != nil {
				t.Fatal(err)
			}
			err := cat.ValidateSchema([]any{msg})
			if tt.wantMatch == "" {
				if err != nil {
					t.Fatalf("want valid, got %v", err)
				}
				return
			}
			if !errors.Is(err, protocol.ErrSchema) {
				t.Fatalf("want ErrSchema, got %v", err)
			}
			if !strings.Contains(err.Error(), tt.wantMatch) {
				t.Fatalf("error %q does not contain %q", err, tt.wantMatch)
			}
		})
	}
}

// A json.Number that is not a JSON number (only a Go caller can build
// one) is a schema failure naming it, not a panic in the schema library.
func TestValidateSchemaInvalidNumber(t *testing.T) {
	cat := numbersCatalog(t)
	msgs := []any{
		map[string]any{"k": map[string]any{"min": json.Number("1")}},
		map[string]any{"k": map[string]any{"min": json.Number("abc"), "max": json.Number("")}},
	}
	err := cat.ValidateSchema(msgs)
	if !errors.Is(err, protocol.ErrSchema) {
		t.Fatalf("want ErrSchema, got %v", err)
	}
	ves := protocol.AsValidationErrors(err)
	if len(ves) != 1 {
		t.Fatalf("want one error, got %v", err)
	}
	// Keys are searched in sorted order: "max" comes first.
	if ve := ves[0]; ve.MessageIndex != 1 || ve.Path != "/max" || ve.Message != "Validation failed: invalid JSON number ''" {
		t.Fatalf("got index %d path %q message %q", ve.MessageIndex, ve.Path, ve.Message)
	}
}
