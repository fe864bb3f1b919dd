package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"sort"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
)

// originalSchema compiles c's payload schema over its catalog as given
// (with a synthesised anyComponent where it has none), as c.schema was
// before it was compiled over reportOneOfs's rewrite.
func originalSchema(tb testing.TB, c *Catalog) *jsonschema.Schema {
	tb.Helper()
	cat := c.catalog
	if c.family == FamilyV09 {
		if cat == nil {
			cat = map[string]any{}
		}
		cat, _ = withAnyComponent(cat)
	}
	sch, err := c.compileWith(cat, false)
	if err != nil {
		tb.Fatal(err)
	}
	return sch
}

// checkSameReport fails unless the report schema and the original schema
// of c agree on msgs: both valid, or both invalid with the same flattened
// failures and the same error.
func checkSameReport(t *testing.T, name string, c *Catalog, orig *jsonschema.Schema, msgs []any) (invalid bool) {
	t.Helper()
	want, got := orig.Validate(msgs), c.schema.Validate(msgs)
	if (want == nil) != (got == nil) {
		t.Fatalf("%s: report schema says %v, the catalog's %v", name, got, want)
	}
	if want == nil {
		return false
	}
	var wv, gv *jsonschema.ValidationError
	if !errors.As(want, &wv) || !errors.As(got, &gv) {
		t.Fatalf("%s: not validation errors: %T, %T", name, want, got)
	}
	// The library reports unevaluated properties in map order: compare
	// in schemaFailure's order.
	we, ge := flattenSchemaError(wv, msgs, c.typeSchemaURLs), flattenSchemaError(gv, msgs, c.typeSchemaURLs)
	sortEntries(we)
	sortEntries(ge)
	if !reflect.DeepEqual(we, ge) {
		t.Fatalf("%s: failures differ:\nreport   %v\noriginal %v", name, ge, we)
	}
	wf, gf := schemaFailure(want, msgs, c.typeSchemaURLs), schemaFailure(got, msgs, c.typeSchemaURLs)
	if !reflect.DeepEqual(wf, gf) {
		t.Fatalf("%s: errors differ:\nreport   %#v\noriginal %#v", name, gf, wf)
	}
	return true
}

// specCatalog loads a basic catalog of the specification (dir v0_9,
// v0_9_1, v0_10).
func specCatalog(tb testing.TB, version, dir string) *Catalog {
	tb.Helper()
	d := shareddata.Path(tb, "a2ui", "specification", dir)
	cat, err := LoadCatalog(CatalogSpec{
		Version:           version,
		S2CSchema:         d + "/json/server_to_client.json",
		CatalogSchema:     d + "/catalogs/basic/catalog.json",
		CommonTypesSchema: d + "/json/common_types.json",
	}, "")
	if err != nil {
		tb.Fatal(err)
	}
	return cat
}

// corpusUpdates returns the first n updateComponents messages of the v0.9
// corpus with at least minComps components.
func corpusUpdates(tb testing.TB, n, minComps int) []map[string]any {
	tb.Helper()
	data, err := os.ReadFile(shareddata.Path(tb, "corpus", "stream_v09.txt"))
	if err != nil {
		tb.Fatal(err)
	}
	open, closing := []byte("<a2ui-json>"), []byte("</a2ui-json>")
	var out []map[string]any
	for len(out) < n {
		i := bytes.Index(data, open)
		if i < 0 {
			break
		}
		data = data[i+len(open):]
		j := bytes.Index(data, closing)
		if j < 0 {
			break
		}
		v, err := decodeJSON(data[:j])
		data = data[j:]
		list, _ := v.([]any)
		if err != nil {
			continue
		}
		for _, m := range list {
			msg, _ := m.(map[string]any)
			comps, _, ok := MessageComponents(msg)
			if ok && len(comps) >= minComps && len(out) < n {
				out = append(out, msg)
			}
		}
	}
	if len(out) < n {
		tb.Fatalf("%d updates of %d components in the corpus, want %d", len(out), minComps, n)
	}
	return out
}

// componentFaults lists invalid variants of an update: for components
// spread over the list, each property dropped, or set to a value of
// another type, an unknown type, a component that is not an object; and
// one variant with two faulty components.
func componentFaults(msg map[string]any, limit int) []map[string]any {
	var out []map[string]any
	edit := func(f func(comps []any)) {
		m := cloneValue(msg).(map[string]any)
		body := m[string(KindUpdateComponents)].(map[string]any)
		f(body["components"].([]any))
		out = append(out, m)
	}
	comps := msg[string(KindUpdateComponents)].(map[string]any)["components"].([]any)
	wrong := []any{json.Number("42"), true, map[string]any{}, []any{"x"}, map[string]any{"path": 7}}
	for j, step := 0, max(1, len(comps)/5); j < len(comps); j += step {
		keys := sortedKeys(comps[j].(map[string]any))
		for ki, k := range keys {
			edit(func(cs []any) { delete(cs[j].(map[string]any), k) })
			edit(func(cs []any) { cs[j].(map[string]any)[k] = wrong[(j+ki)%len(wrong)] })
		}
		edit(func(cs []any) { cs[j].(map[string]any)["component"] = "Nope" })
		edit(func(cs []any) { cs[j].(map[string]any)["extra"] = "x" })
	}
	edit(func(cs []any) { cs[len(cs)-1] = "not-a-component" })
	edit(func(cs []any) {
		delete(cs[0].(map[string]any), "component")
		cs[len(cs)-1].(map[string]any)["component"] = 5
	})
	if len(out) > limit {
		// Keep an even spread, the last (combined) faults included.
		kept := make([]map[string]any, 0, limit)
		for i := 0; i < limit; i++ {
			kept = append(kept, out[(len(out)-1)-i*(len(out)-1)/(limit-1)])
		}
		out = kept
	}
	return out
}

func cloneValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = cloneValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = cloneValue(e)
		}
		return out
	}
	return v
}

// TestReportSchemaMatchesCatalog: the report schema (c.schema, compiled
// over reportOneOfs's rewrite) gives exactly the failures of the catalog
// as given, on faulty variants of corpus updates under the
// specification's basic catalogs (whose anyComponent is a oneOf over
// component types), alone and after a createSurface, and on every payload
// of the validator suite under its case's catalog.
func TestReportSchemaMatchesCatalog(t *testing.T) {
	limit := 24
	if testing.Short() {
		limit = 8
	}
	msgs := corpusUpdates(t, 2, 20)
	for _, tc := range []struct{ version, dir, wire string }{
		{"0.9", "v0_9", "v0.9"}, {"0.9.1", "v0_9_1", "v0.9"}, {"0.10", "v0_10", "v0.10"},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			cat := specCatalog(t, tc.version, tc.dir)
			if _, changed := reportOneOfs(cat.catalog); !changed {
				t.Fatal("the basic catalog's anyComponent was not rewritten")
			}
			orig := originalSchema(t, cat)
			create := map[string]any{"version": tc.wire, "createSurface": map[string]any{"surfaceId": "s", "catalogId": cat.CatalogID()}}
			invalid := 0
			for mi, m := range msgs {
				m = cloneValue(m).(map[string]any)
				m["version"] = tc.wire
				if checkSameReport(t, fmt.Sprintf("message %d", mi), cat, orig, []any{m}) {
					t.Fatalf("message %d: corpus message invalid", mi)
				}
				for vi, v := range componentFaults(m, limit) {
					name := fmt.Sprintf("message %d variant %d", mi, vi)
					if checkSameReport(t, name, cat, orig, []any{v}) {
						invalid++
					}
					if vi%4 == 0 {
						checkSameReport(t, name+" after createSurface", cat, orig, []any{create, v})
					}
				}
			}
			if invalid < limit {
				t.Fatalf("only %d invalid variants", invalid)
			}
		})
	}
	t.Run("validator_suite", func(t *testing.T) {
		cases := loadValidatorSuite(t)
		sort.SliceStable(cases, func(i, j int) bool { return cases[i].Name < cases[j].Name })
		rewritten := 0
		for _, c := range cases {
			if c.Catalog.schema == nil {
				continue
			}
			if _, changed := reportOneOfs(c.Catalog.catalog); changed {
				rewritten++
			}
			orig := originalSchema(t, c.Catalog)
			for i, p := range c.Payloads {
				msgs, ok := p.([]any)
				if !ok {
					msgs = []any{p}
				}
				checkSameReport(t, fmt.Sprintf("%s payload %d", c.Name, i), c.Catalog, orig, msgs)
			}
		}
		// Only a rewritten catalog tests anything here (one compiled as
		// given is compared with itself).
		if rewritten == 0 {
			t.Fatal("no suite catalog was rewritten: the comparison tests nothing")
		}
		t.Logf("%d cases, %d with a rewritten catalog", len(cases), rewritten)
	})
}

// TestReportOneOfs: a discriminated oneOf becomes its dispatch with the
// oneOf as the fallback ("else"); anything else is left alone, and the
// input is not modified.
func TestReportOneOfs(t *testing.T) {
	card := map[string]any{"type": "object", "properties": map[string]any{"component": map[string]any{"const": "Card"}}, "required": []any{"component"}}
	text := map[string]any{"type": "object", "properties": map[string]any{"component": map[string]any{"const": "Text"}}, "required": []any{"component"}}
	loose := map[string]any{"properties": map[string]any{"component": map[string]any{"const": "Loose"}}}
	mk := func(refs ...string) map[string]any {
		alts := make([]any, len(refs))
		for i, r := range refs {
			alts[i] = map[string]any{"$ref": "#/components/" + r}
		}
		return map[string]any{
			"components": map[string]any{"Card": card, "Text": text, "Loose": loose},
			"$defs":      map[string]any{"anyComponent": map[string]any{"oneOf": alts}},
		}
	}
	for _, tt := range []struct {
		name    string
		cat     map[string]any
		changed bool
	}{
		{"pinned_alternatives", mk("Card", "Text"), true},
		{"unpinned_alternative_kept", mk("Card", "Loose"), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := cloneValue(tt.cat)
			out, changed := reportOneOfs(tt.cat)
			if changed != tt.changed {
				t.Fatalf("changed = %v, want %v", changed, tt.changed)
			}
			anyComp := out["$defs"].(map[string]any)["anyComponent"].(map[string]any)
			orig := tt.cat["$defs"].(map[string]any)["anyComponent"]
			if tt.changed {
				d, _ := dispatchFor(orig.(map[string]any), tt.cat)
				want := map[string]any{"if": d, "else": orig}
				if !reflect.DeepEqual(anyComp, want) {
					t.Fatalf("anyComponent = %v, want %v", anyComp, want)
				}
			} else if !reflect.DeepEqual(anyComp, orig) {
				t.Fatalf("anyComponent = %v, want it unchanged", anyComp)
			}
			if !reflect.DeepEqual(before, tt.cat) {
				t.Fatal("input catalog was modified")
			}
		})
	}
}
