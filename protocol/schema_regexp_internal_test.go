package protocol

import "testing"

func TestSchemaRegexp(t *testing.T) {
	const ident = `^[\p{XID_Start}_][\p{XID_Continue}]*$` // the v1.0 common types' extension keys
	cases := []struct {
		name, pattern, s string
		want             bool
	}{
		{"identifier", ident, "a2ui_ext", true},
		{"identifier, underscore first", ident, "_x", true},
		{"identifier, other scripts", ident, "名前ñ", true},
		{"identifier, combining mark", ident, "e\u0301", true},
		{"not an identifier, digit first", ident, "1abc", false},
		{"not an identifier, hyphen", ident, "a-b", false},
		{"outside a class", `^\p{XID_Start}\p{ID_Continue}+$`, "é9", true},
		{"outside a class, no match", `^\p{XID_Start}$`, "9", false},
		{"Go's own properties stay", `^\p{Lu}+$`, "AB", true},
		{"escaped bracket", `^\[\p{XID_Start}\]$`, "[a]", true},
		{"no property", `^a+$`, "aaa", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			re, err := schemaRegexp(tc.pattern)
			if err != nil {
				t.Fatal(err)
			}
			if got := re.MatchString(tc.s); got != tc.want {
				t.Fatalf("%s matches %q: %v, want %v", tc.pattern, tc.s, got, tc.want)
			}
		})
	}
	if _, err := schemaRegexp(`\p{NoSuchProperty}`); err == nil {
		t.Fatal("an unknown property compiled")
	}
}

// TestCatalogWithIdentifierPattern loads a catalog whose common types use
// \p{XID_Start} (as the v1.0 common types do), which Go's regexp alone
// rejects, and validates against it.
func TestCatalogWithIdentifierPattern(t *testing.T) {
	common := map[string]any{
		"$defs": map[string]any{
			"Ext": map[string]any{
				"type":                 "object",
				"patternProperties":    map[string]any{`^[\p{XID_Start}_][\p{XID_Continue}]*$`: map[string]any{}},
				"additionalProperties": false,
			},
		},
	}
	s2c := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"version": map[string]any{"type": "string"},
			"ext":     map[string]any{"$ref": "common_types.json#/$defs/Ext"},
		},
	}
	cat, err := NewCatalog(V09, s2c, map[string]any{"catalogId": "c", "components": map[string]any{}}, common)
	if err != nil {
		t.Fatalf("NewCatalog: %v", err)
	}
	cases := []struct {
		name  string
		ext   map[string]any
		valid bool
	}{
		{"identifier keys", map[string]any{"a2ui_x": 1, "名前": 2}, true},
		{"a key that is not an identifier", map[string]any{"1x": 1}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := cat.Validate([]any{map[string]any{"version": "v0.9", "ext": tc.ext}})
			if (err == nil) != tc.valid {
				t.Fatalf("Validate: %v, want valid=%v", err, tc.valid)
			}
		})
	}
}
