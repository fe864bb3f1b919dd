package parser

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// surfaceRuleCatalog is the v0.9 basic catalog with a rule of the message
// about one surface: on surface "strict" no component may be a Row (the
// type of the placeholders), so the same placeholder is valid on one
// surface and invalid on another.
func surfaceRuleCatalog(t testing.TB) *protocol.Catalog {
	var rule any
	if err := json.Unmarshal([]byte(`{
		"if": {"required": ["updateComponents"], "properties": {"updateComponents": {"required": ["surfaceId"], "properties": {"surfaceId": {"const": "strict"}}}}},
		"then": {"properties": {"updateComponents": {"properties": {"components": {"items": {"not": {"required": ["component"], "properties": {"component": {"const": "Row"}}}}}}}}}
	}`), &rule); err != nil {
		t.Fatal(err)
	}
	return v09Mutated(t, func(s2c, _ map[string]any) { s2c["allOf"] = []any{rule} })
}

// readSchema decodes the schema file at path (a CatalogSpec's file name),
// for a test to change it.
func readSchema(t testing.TB, path any) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(path.(string))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestPlaceholderVerdictPerSurface: a placeholder's verdict belongs to
// the surface it was judged on. Surface "strict" refuses the Row
// placeholder that "loose" accepts; its snapshot waiting on a missing
// child must not be yielded, whether or not "loose" went before it in the
// same block, and "loose" is yielded either way.
func TestPlaceholderVerdictPerSurface(t *testing.T) {
	cat := surfaceRuleCatalog(t)
	surface := func(sid string) string {
		return `{"version":"v0.9","createSurface":{"surfaceId":"` + sid + `","catalogId":"https://a2ui.org/specification/v0_9/basic_catalog.json"}},` +
			`{"version":"v0.9","updateComponents":{"surfaceId":"` + sid + `","components":[{"id":"root","component":"Card","child":"later"}]}}`
	}
	yielded := func(t *testing.T, mode Mode, sids ...string) map[string]bool {
		var list []string
		for _, sid := range sids {
			list = append(list, surface(sid))
		}
		in := "<a2ui-json>[" + strings.Join(list, ",") + "]</a2ui-json>"
		parts, errs := collect(t, []string{in}, WithMode(mode), WithCatalog(cat))
		if len(errs) > 0 {
			t.Logf("errors: %v", errs)
		}
		got := map[string]bool{}
		for _, p := range parts {
			for _, m := range p.Messages {
				if strings.Contains(string(m), `"updateComponents"`) && strings.Contains(string(m), `"loading_later"`) {
					for _, sid := range sids {
						if strings.Contains(string(m), `"surfaceId":"`+sid+`"`) {
							got[sid] = true
						}
					}
				}
			}
		}
		return got
	}
	for _, mode := range []Mode{ModeProgressive, ModeDelta} {
		t.Run(mode.String(), func(t *testing.T) {
			for _, order := range [][]string{{"strict"}, {"loose"}, {"loose", "strict"}, {"strict", "loose"}} {
				got := yielded(t, mode, order...)
				if got["strict"] {
					t.Errorf("%v: surface strict's snapshot with a Row placeholder was yielded", order)
				}
				if slices.Contains(order, "loose") && !got["loose"] {
					t.Errorf("%v: surface loose's snapshot was not yielded", order)
				}
			}
		})
	}
}
