package protocol

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
)

// suiteCase is one case of the validator conformance suite: its name, its
// catalog, and its payloads (of the case and of its steps) as JSON values.
type suiteCase struct {
	Name     string
	Catalog  *Catalog
	Payloads []any
}

// loadValidatorSuite loads every case of the validator conformance suite.
func loadValidatorSuite(tb testing.TB) []suiteCase {
	tb.Helper()
	path := shareddata.Path(tb, "a2ui", "conformance", "suites", "validator.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var raw []struct {
		Name    string `yaml:"name"`
		Catalog any    `yaml:"catalog"`
		Payload any    `yaml:"payload"`
		Steps   []struct {
			Payload any `yaml:"payload"`
		} `yaml:"steps"`
	}
	if err := yaml.Unmarshal(data, &raw); err != nil {
		tb.Fatal(err)
	}
	var cases []suiteCase
	for _, c := range raw {
		spec, err := CatalogSpecFromValue(c.Catalog)
		if err != nil {
			tb.Fatalf("%s: %v", c.Name, err)
		}
		cat, err := LoadCatalog(spec, filepath.Dir(filepath.Dir(path)))
		if err != nil {
			tb.Fatalf("%s: %v", c.Name, err)
		}
		sc := suiteCase{Name: c.Name, Catalog: cat}
		all := []any{c.Payload}
		for _, st := range c.Steps {
			all = append(all, st.Payload)
		}
		for _, p := range all {
			if p == nil {
				continue
			}
			v, err := toJSONValue(p)
			if err != nil {
				tb.Fatal(err)
			}
			sc.Payloads = append(sc.Payloads, v)
		}
		cases = append(cases, sc)
	}
	return cases
}

// suiteCatalogsAndPayloads returns every catalog of the validator suite and
// every payload, as JSON text.
func suiteCatalogsAndPayloads(tb testing.TB) ([]*Catalog, [][]byte) {
	tb.Helper()
	var cats []*Catalog
	var payloads [][]byte
	for _, c := range loadValidatorSuite(tb) {
		cats = append(cats, c.Catalog)
		for _, v := range c.Payloads {
			b, err := json.Marshal(v)
			if err != nil {
				tb.Fatal(err)
			}
			payloads = append(payloads, b)
		}
	}
	return cats, payloads
}

// The quick (dispatching, validity-only) schema must accept exactly what
// the full schema accepts.
func checkQuickAgrees(t *testing.T, cats []*Catalog, payload []byte) {
	v, err := decodeJSON(payload)
	if err != nil {
		return
	}
	msgs, ok := v.([]any)
	if !ok {
		msgs = []any{v}
	}
	for i, cat := range cats {
		quick := cat.quick.Validate(msgs) == nil
		full := cat.schema.Validate(msgs) == nil
		if quick != full {
			t.Fatalf("catalog %d (%s): quick valid=%v, full valid=%v for %s", i, cat.CatalogID(), quick, full, payload)
		}
	}
}

func TestQuickSchemaAgrees(t *testing.T) {
	cats, payloads := suiteCatalogsAndPayloads(t)
	extra := []string{
		`[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"r","component":"Nope"}]}}]`,
		`[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"r"}]}}]`,
		`[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":["r"]}}]`,
		`[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"r","component":"Card","child":5}]}}]`,
		`[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"r","component":"Text","text":{"path":"/x"}}]}}]`,
	}
	for _, e := range extra {
		payloads = append(payloads, []byte(e))
	}
	for _, p := range payloads {
		checkQuickAgrees(t, cats, p)
	}
}

func FuzzQuickSchemaAgrees(f *testing.F) {
	cats, payloads := suiteCatalogsAndPayloads(f)
	for _, p := range payloads {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkQuickAgrees(t, cats, data)
	})
}

func TestDispatchOneOfs(t *testing.T) {
	card := map[string]any{"type": "object", "properties": map[string]any{"component": map[string]any{"const": "Card"}}, "required": []any{"component"}}
	text := map[string]any{"allOf": []any{map[string]any{"properties": map[string]any{"component": map[string]any{"const": "Text"}}, "required": []any{"id", "component"}}}}
	loose := map[string]any{"properties": map[string]any{"component": map[string]any{"const": "Loose"}}} // not required
	mk := func(refs ...string) map[string]any {
		alts := make([]any, len(refs))
		for i, r := range refs {
			alts[i] = map[string]any{"$ref": "#/components/" + r}
		}
		return map[string]any{
			"components": map[string]any{"Card": card, "Text": text, "Loose": loose},
			"$defs":      map[string]any{"anyComponent": map[string]any{"oneOf": alts, "discriminator": map[string]any{"propertyName": "component"}}},
		}
	}
	tests := []struct {
		name     string
		cat      map[string]any
		dispatch bool
	}{
		{"pinned_alternatives", mk("Card", "Text"), true},
		{"unpinned_alternative_kept", mk("Card", "Loose"), false},
		{"duplicate_constant_kept", mk("Card", "Card"), false},
		{"missing_target_kept", mk("Card", "Ghost"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := dispatchOneOfs(tt.cat)
			anyComp := out["$defs"].(map[string]any)["anyComponent"].(map[string]any)
			_, hasOneOf := anyComp["oneOf"]
			if hasOneOf == tt.dispatch {
				t.Fatalf("oneOf kept = %v, want dispatch %v: %v", hasOneOf, tt.dispatch, anyComp)
			}
			if _, still := tt.cat["$defs"].(map[string]any)["anyComponent"].(map[string]any)["oneOf"]; !still {
				t.Fatal("input catalog was modified")
			}
		})
	}
}

// A oneOf over component schemas that do not all require an object still
// accepts a non-object exactly when one alternative does: the dispatch
// must not be stricter than the oneOf it replaces.
func TestDispatchOneOfsNonObject(t *testing.T) {
	pinned := func(name string, object bool) map[string]any {
		s := map[string]any{
			"properties": map[string]any{"component": map[string]any{"const": name}},
			"required":   []any{"component"},
		}
		if object {
			s["type"] = "object"
		}
		return s
	}
	catalog := map[string]any{
		"components": map[string]any{"A": pinned("A", false), "B": pinned("B", true), "C": pinned("C", true)},
		"$defs": map[string]any{"anyComponent": map[string]any{"oneOf": []any{
			map[string]any{"$ref": "#/components/A"}, map[string]any{"$ref": "#/components/B"}, map[string]any{"$ref": "#/components/C"},
		}}},
	}
	s2c := map[string]any{"type": "object", "properties": map[string]any{"c": map[string]any{"$ref": "catalog.json#/$defs/anyComponent"}}}
	cat, err := NewCatalog(V09, s2c, catalog, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, msg string
		valid     bool
	}{
		{"string_matches_only_untyped_alternative", `{"c":"x"}`, true},
		{"number_matches_only_untyped_alternative", `{"c":1}`, true},
		{"object_dispatched", `{"c":{"component":"B"}}`, true},
		{"object_unknown_type", `{"c":{"component":"D"}}`, false},
		{"object_without_type", `{"c":{}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := decodeJSON([]byte(tt.msg))
			if err != nil {
				t.Fatal(err)
			}
			if full := cat.schema.Validate([]any{v}) == nil; full != tt.valid {
				t.Fatalf("full schema valid = %v, want %v", full, tt.valid)
			}
			checkQuickAgrees(t, []*Catalog{cat}, []byte("["+tt.msg+"]"))
			if valid, decided := cat.fastVerdict(tt.msg); !decided || valid != tt.valid {
				t.Fatalf("fast verdict %v (decided %v), want %v", valid, decided, tt.valid)
			}
		})
	}
}
