package protocol_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// anyComponentS2C is a minimal v0.9 server-to-client schema whose
// components refer to catalog.json#/$defs/anyComponent.
const anyComponentS2C = `{
  "$id": "https://a2ui.org/specification/v0_9/server_to_client.json",
  "type": "object",
  "properties": {
    "version": {"const": "v0.9"},
    "updateComponents": {
      "type": "object",
      "properties": {
        "surfaceId": {"type": "string"},
        "components": {"type": "array", "items": {"$ref": "catalog.json#/$defs/anyComponent"}}
      }
    }
  }
}`

func decodeObject(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return m
}

func updateWith(components ...any) []any {
	return []any{map[string]any{"version": "v0.9", "updateComponents": map[string]any{
		"surfaceId": "s", "components": components}}}
}

// A v0.9 catalog without $defs.anyComponent validates each component
// against its type's schema in "components"; an unknown type is an error
// worded as the reference's.
func TestCatalogWithoutAnyComponent(t *testing.T) {
	const textOnly = `{"catalogId": "c", "components": {"Text": {"type": "object",
	  "properties": {"text": {"type": "string"}}, "required": ["text"]}}}`
	const closed = `{"catalogId": "c", "components": {"Text": {"type": "object",
	  "properties": {"text": {"type": "string"}}, "additionalProperties": false}}}`
	const common = `{"catalogId": "c", "components": {"Text": {"type": "object",
	  "allOf": [{"$ref": "#/$defs/ComponentCommon"}],
	  "properties": {"component": {"const": "Text"}, "text": {"type": "string"}},
	  "unevaluatedProperties": false}},
	  "$defs": {"ComponentCommon": {"properties": {"id": {"type": "string"}}}}}`
	const empty = `{"catalogId": "c", "components": {}}`
	const slashName = `{"catalogId": "c", "components": {"a/b~c d": {"type": "object",
	  "properties": {"n": {"type": "integer"}}}}}`

	tests := []struct {
		name      string
		catalog   string
		component any
		// wantErr is "" for a valid component, else a text Error() must
		// contain; wantReport, if set, the Report message.
		wantErr    string
		wantReport string
		wantPath   string
	}{
		{name: "known_type_valid", catalog: textOnly,
			component: map[string]any{"id": "root", "component": "Text", "text": "hi"}},
		{name: "unknown_type", catalog: textOnly,
			component: map[string]any{"id": "root", "component": "Nope", "text": "hi"},
			wantErr:   "Unknown component type: Nope", wantReport: "Validation failed: Unknown component type: Nope",
			wantPath: "/components/0/component"},
		{name: "non_string_type", catalog: textOnly,
			component: map[string]any{"id": "root", "component": 123.0},
			wantErr:   "Unknown component type: 123"},
		{name: "missing_type", catalog: textOnly,
			component: map[string]any{"id": "root", "text": "hi"},
			wantErr:   "'component' is a required property"},
		{name: "type_schema_violated", catalog: textOnly,
			component: map[string]any{"id": "root", "component": "Text", "text": 5.0},
			wantErr:   "5 is not of type 'string'", wantPath: "/components/0/text"},
		{name: "type_required_missing", catalog: textOnly,
			component: map[string]any{"id": "root", "component": "Text"},
			wantErr:   "'text' is a required property"},
		{name: "closed_schema_admits_id_and_component", catalog: closed,
			component: map[string]any{"id": "root", "component": "Text", "text": "hi"}},
		{name: "closed_schema_rejects_other_keys", catalog: closed,
			component: map[string]any{"id": "root", "component": "Text", "text": "hi", "extra": true},
			wantErr:   "'extra' was unexpected"},
		{name: "component_common_defines_id", catalog: common,
			component: map[string]any{"id": "root", "component": "Text", "text": "hi"}},
		{name: "component_common_checks_id", catalog: common,
			component: map[string]any{"id": 7.0, "component": "Text", "text": "hi"},
			wantErr:   "7 is not of type 'string'"},
		{name: "empty_catalog_knows_no_type", catalog: empty,
			component: map[string]any{"id": "root", "component": "Text"},
			wantErr:   "Unknown component type: Text"},
		{name: "escaped_type_name_valid", catalog: slashName,
			component: map[string]any{"id": "root", "component": "a/b~c d", "n": 1.0}},
		{name: "escaped_type_name_checked", catalog: slashName,
			component: map[string]any{"id": "root", "component": "a/b~c d", "n": "x"},
			wantErr:   "'x' is not of type 'integer'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cat, err := protocol.NewCatalog(protocol.V09, decodeObject(t, anyComponentS2C), decodeObject(t, tt.catalog), nil)
			if err != nil {
				t.Fatalf("NewCatalog: %v", err)
			}
			err = cat.ValidateSchema(updateWith(tt.component))
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("valid component rejected: %v", err)
				}
				return
			}
			var ve *protocol.ValidationError
			if !errors.As(err, &ve) || !errors.Is(err, protocol.ErrSchema) {
				t.Fatalf("err = %v, want a schema *ValidationError", err)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %q, want it to contain %q", err, tt.wantErr)
			}
			if tt.wantReport != "" && ve.Report().Message != tt.wantReport {
				t.Fatalf("report message = %q, want %q", ve.Report().Message, tt.wantReport)
			}
			if tt.wantPath != "" && ve.Path != tt.wantPath {
				t.Fatalf("path = %q, want %q", ve.Path, tt.wantPath)
			}
		})
	}
}

// A catalog that declares its own anyComponent keeps it: an unknown type
// is reported in the words of its own schema, not as synthesised.
func TestCatalogOwnAnyComponentKept(t *testing.T) {
	catalog := decodeObject(t, `{"catalogId": "c",
	  "components": {"Text": {"type": "object", "properties": {"component": {"const": "Text"}}, "required": ["component"]}},
	  "$defs": {"anyComponent": {"oneOf": [{"$ref": "#/components/Text"}]}}}`)
	cat, err := protocol.NewCatalog(protocol.V09, decodeObject(t, anyComponentS2C), catalog, nil)
	if err != nil {
		t.Fatalf("NewCatalog: %v", err)
	}
	if err := cat.ValidateSchema(updateWith(map[string]any{"id": "root", "component": "Text"})); err != nil {
		t.Fatalf("valid component rejected: %v", err)
	}
	err = cat.ValidateSchema(updateWith(map[string]any{"id": "root", "component": "Nope"}))
	if err == nil || strings.Contains(err.Error(), "Unknown component type") ||
		!strings.Contains(err.Error(), "is not valid under any of the given schemas") {
		t.Fatalf("err = %v, want the catalog's own oneOf failure", err)
	}
}

// The streaming suite's catalogs (inline, without anyComponent, some
// without common types) load against the suite's v0.9 schema.
func TestLoadCatalogWithoutAnyComponent(t *testing.T) {
	spec := protocol.CatalogSpec{
		Version:   "0.9",
		S2CSchema: "test_data/simplified_s2c_v09.json",
		CatalogSchema: map[string]any{"catalogId": "test_catalog", "components": map[string]any{
			"Text": map[string]any{"type": "object", "properties": map[string]any{
				"text": map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}}}}}},
	}
	cat, err := protocol.LoadCatalog(spec, conformanceDir(t))
	if err != nil {
		t.Fatalf("LoadCatalog: %v", err)
	}
	ok := updateWith(map[string]any{"id": "root", "component": "Text", "text": map[string]any{"path": "a/b"}})
	if err := cat.Validate(ok); err != nil {
		t.Fatalf("valid payload rejected: %v", err)
	}
	bad := updateWith(map[string]any{"id": "root", "component": "Button"})
	if err := cat.Validate(bad); !errors.Is(err, protocol.ErrSchema) || !strings.Contains(err.Error(), "Unknown component type: Button") {
		t.Fatalf("err = %v, want Unknown component type: Button", err)
	}
}
