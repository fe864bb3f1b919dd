package protocol

import (
	"encoding/json"
	"strings"
	"testing"
)

// componentPlanCatalog is a small v0.9 catalog (Text and Row) under the
// server-to-client schema s2c, whose "ITEMS" stands for the components
// array's schema.
func componentPlanCatalog(t *testing.T, s2c, items string) *Catalog {
	t.Helper()
	return catalogFromText(t, strings.Replace(s2c, "ITEMS", items, 1), `{"components": {
		"Text": {"type": "object", "properties": {"component": {"const": "Text"}, "id": {"type": "string"}, "text": {"type": "string"}}, "required": ["component", "id", "text"]},
		"Row": {"type": "object", "properties": {"component": {"const": "Row"}, "id": {"type": "string", "maxLength": 8}, "children": {"type": "array"}}, "required": ["component", "id"]}}}`)
}

// cached is the number of plans in the cache.
func (cache *wrapperCache[P]) cached() int {
	cache.mu.Lock()
	defer cache.mu.Unlock()
	return len(cache.plans)
}

// catalogFromText is the v0.9 catalog of message schema s2c and components
// document comps, which the fast validator takes.
func catalogFromText(t testing.TB, s2c, comps string) *Catalog {
	t.Helper()
	var docs [2]map[string]any
	for i, text := range []string{s2c, comps} {
		d := json.NewDecoder(strings.NewReader(text))
		d.UseNumber()
		if err := d.Decode(&docs[i]); err != nil {
			t.Fatalf("%v: %s", err, text)
		}
	}
	cat, err := NewCatalog("0.9", docs[0], docs[1], nil)
	if err != nil {
		t.Fatal(err)
	}
	if cat.fast == nil {
		t.Fatal("the fast validator does not take the test's catalog")
	}
	return cat
}

const planS2C = `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
	"properties": {"version": {"const": "v0.9"}, "updateComponents": {"type": "object", "required": ["surfaceId", "components"],
		"properties": {"surfaceId": {"type": "string"}, "components": ITEMS}}}, "required": ["version", "updateComponents"]}`

// TestComponentPlans: on wrappers and schemas of other shapes than the
// specification's, the verdict on a component alone is MessageVerdict's
// on its message (decided or not), and the plan has the shape expected:
// one question, several (the components' schema reached twice), none
// (the wrapper invalid whatever the component), or no plan at all (a
// const comparing the whole message, a "call" key in the wrapper, a
// wrapper that is not JSON), where everything is undecided.
func TestComponentPlans(t *testing.T) {
	const open = `{"updateComponents":{"components":[`
	const close = `],"surfaceId":"s"},"version":"v0.9"}`
	oneOf := `{"type": "array", "items": {"$ref": "catalog.json#/$defs/anyComponent"}}`
	twice := `{"anyOf": [{"items": {"$ref": "catalog.json#/components/Text"}}, {"items": {"$ref": "catalog.json#/components/Row"}, "maxItems": 1}]}`
	comps := []string{
		`{"component":"Text","id":"a","text":"t"}`, `{"component":"Text","id":"a"}`,
		`{"component":"Row","id":"a","children":[]}`, `{"component":"Row","id":"aaaaaaaaaaaa"}`,
		`{"component":"Row","id":"a","children":[{"path":"/a/~2"}]}`, `{"component":"Row","id":"a","id":"b"}`,
		`{"component":"Nope","id":"a"}`, `7`, `[`, `{"component":"Text","id":"a","text":"t","x":` + strings.Repeat("[", 47) + strings.Repeat("]", 47) + `}`,
	}
	for _, tc := range []struct {
		name, s2c, items, close string
		steps                   int // the plan's steps (0: no plan)
		decides                 bool
	}{
		{"one question", planS2C, oneOf, close, 3, true},
		{"two questions", planS2C, twice, close, 5, true},
		{"invalid wrapper", planS2C, oneOf, `],"surfaceId":7},"version":"v0.9"}`, 3, true},
		{"const on the message", strings.Replace(planS2C, `"type": "object",`, `"type": "object", "not": {"const": {"a": 1}},`, 1), oneOf, close, 0, false},
		{"call in the wrapper", planS2C, oneOf, `],"surfaceId":"s","call":"f"},"version":"v0.9"}`, 0, false},
		{"wrapper not JSON", planS2C, oneOf, `],"surfaceId":"s"`, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cat := componentPlanCatalog(t, tc.s2c, tc.items)
			p := cat.buildPlan(open, tc.close)
			if len(p.steps) != tc.steps {
				t.Errorf("plan of %d steps, want %d", len(p.steps), tc.steps)
			}
			decided := 0
			for _, comp := range comps {
				valid, dec, _ := p.verdict(comp, "", nil)
				wantValid, wantDec := cat.MessageVerdict(open + comp + tc.close)
				if tc.steps == 0 {
					wantValid, wantDec = false, false
				}
				if valid != wantValid || dec != wantDec {
					t.Errorf("%s: verdict (%v, %v), want (%v, %v)", comp, valid, dec, wantValid, wantDec)
				}
				if dec {
					decided++
				}
			}
			if (decided > 0) != tc.decides {
				t.Errorf("%d verdicts decided", decided)
			}
		})
	}
}
