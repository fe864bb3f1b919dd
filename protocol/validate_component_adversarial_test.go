package protocol

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// The verdict on a component alone against MessageVerdict on its message,
// on message and component schemas built to stress the plans: combinators
// around the components array and at the message level, conditionals,
// consts and enums on containers, $ref chains and recursion, unevaluated
// and additional properties, item counts, a wrapper whose validity depends
// on the surface id, ids read by patterns behind $refs, allOf and dispatch
// (where the verdict must not say it is free of the id), nesting and
// function calls at their limits.

// adversarialCatalog is a v0.9 catalog whose message schema is s2c, in
// which COMPONENTS stands for the components array's schema, and whose
// components document is comps (CID stands for the component id's
// schema, Text and Row use it).
func adversarialCatalog(t testing.TB, s2c, components, comps, cid string) *Catalog {
	t.Helper()
	if comps == "" {
		comps = `{"components": {
			"Text": {"type": "object", "properties": {"component": {"const": "Text"}, "id": CID, "text": {"type": "string"}}, "required": ["component", "id", "text"]},
			"Row": {"type": "object", "properties": {"component": {"const": "Row"}, "id": CID, "children": {"type": "array", "items": {"$ref": "#/$defs/anyComponent"}}}, "required": ["component", "id"]}},
			"$defs": {"anyComponent": {"oneOf": [{"$ref": "#/components/Text"}, {"$ref": "#/components/Row"}]}, "pid": {"type": "string", "pattern": "^[a-z]+$"}, "pid2": {"$ref": "#/$defs/pid"}}}`
	}
	if cid == "" {
		cid = `{"type": "string"}`
	}
	return catalogFromText(t, strings.Replace(s2c, "COMPONENTS", components, 1), strings.ReplaceAll(comps, "CID", cid))
}

const (
	advS2C = `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
	"properties": {"version": {"const": "v0.9"}, "updateComponents": {"type": "object", "required": ["surfaceId", "components"],
		"properties": {"surfaceId": {"type": "string"}, "components": COMPONENTS}}}, "required": ["version", "updateComponents"]}`
	advItems = `{"type": "array", "items": {"$ref": "catalog.json#/$defs/anyComponent"}}`
	advText  = `catalog.json#/components/Text`
	advRow   = `catalog.json#/components/Row`
	advOpen  = `{"updateComponents":{"components":[`
	advClose = `],"surfaceId":"s"},"version":"v0.9"}`
)

// advComponents are the components every case is judged on.
func advComponents() []string {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	call := func(n int) string {
		s := `{"call":"f","args":{}}`
		for i := 1; i < n; i++ {
			s = `{"call":"f","args":{"a":` + s + `}}`
		}
		return s
	}
	return []string{
		`{"component":"Text","id":"a","text":"t"}`, `{"component":"Text","id":"A1","text":"t"}`, `{"component":"Text","id":"a"}`,
		`{"component":"Row","id":"a","children":[]}`, `{"component":"Row","id":"a","children":[{"component":"Text","id":"b","text":"t"}]}`,
		`{"component":"Row","id":"a","children":[{"component":"Row","id":"b","children":[{"component":"Text","id":"c"}]}]}`,
		`{"component":"Row","id":"loading_x","children":[]}`, `{"component":"Row","id":"","children":[]}`,
		`{"component":"Row","id":"a","children":[],"x":1}`, `{"component":"Row","id":7}`, `{"id":"a","component":"Row"}`,
		`{"component":"Text","id":"a","text":"t","path":"/a/~2"}`, `{"component":"Text","id":"a","text":"t","p":{"path":"/ok"}}`,
		`{"component":"Text","id":"a","text":"t","id":"b"}`, `{"component":"Text","\u0069d":"a","text":"t"}`,
		`{"component":"Text","id":"a\u0041","text":"t"}`, "{\"component\":\"Text\",\"id\":\"a\xff\",\"text\":\"t\"}",
		`{"component":"Text","id":"a","text":"t","x":` + deep(46) + `}`, `{"component":"Text","id":"a","text":"t","x":` + deep(47) + `}`,
		`{"component":"Text","id":"a","text":"t","x":` + deep(48) + `}`, `{"component":"Text","id":"a","text":"t","x":[` + deep(46) + `,1]}`,
		`{"component":"Text","id":"a","text":"t","x":` + call(5) + `}`, `{"component":"Text","id":"a","text":"t","x":` + call(6) + `}`,
		`{"component":"Text","id":"a","text":"t","x":` + call(6) + `,"path":"/a/~2"}`,
		`{"component":"Nope","id":"a"}`, `{}`, `7`, `"x"`, `[]`, `null`, `[`, ``, `{"a":1},{"b":2}`, ` {"component":"Text","id":"a","text":"t"} `,
	}
}

// advIDs are the ids a verdict free of the id is checked with.
var advIDs = []string{"", "a", "Z9", "loading_x", strings.Repeat("q", 40), "\u00e9\u2028", "a\"b"}

// advCase is an adversarial catalog (see adversarialCatalog) and the
// wrapper's end, with what is expected of its one-component plan.
type advCase struct {
	name, s2c, components, comps, cid, close string
	plan                                     bool // a plan is expected
	idRead                                   bool // some decided verdict reads the id
}

// catalog loads the case's catalog.
func (tc advCase) catalog(t testing.TB) *Catalog {
	t.Helper()
	s2c := tc.s2c
	if tc.name == "recursive components" {
		s2c = strings.Replace(s2c, `"required": ["version"`, `"$defs": {"R": {"type": ["object", "array", "string", "number"], "items": {"$ref": "#/$defs/R"}, "additionalProperties": {"$ref": "#/$defs/R"}, "maxProperties": 3}}, "required": ["version"`, 1)
	}
	return adversarialCatalog(t, s2c, tc.components, tc.comps, tc.cid)
}

// end is the case's wrapper end.
func (tc advCase) end() string {
	if tc.close != "" {
		return tc.close
	}
	return advClose
}

// adversarialCases are the catalogs and wrappers the plans are tried on.
func adversarialCases() []advCase {
	wrap := func(s string) string {
		return strings.Replace(advS2C, `"type": "object",`, `"type": "object", `+s+`,`, 1)
	}
	atComps := func(items string) string { // a message-level schema reaching the components array
		return `{"properties": {"updateComponents": {"properties": {"components": ` + items + `}}}}`
	}
	itemsOf := func(ref string) string { return `{"items": {"$ref": "` + ref + `"}}` }
	var many []string
	for i := 0; i < 20; i++ {
		many = append(many, fmt.Sprintf(`{"items": {"$ref": "%s"}, "maxItems": %d}`, advText, 5+i))
	}
	return []advCase{
		{name: "oneOf items", s2c: advS2C, components: advItems, plan: true},
		{name: "message oneOf reading into components", s2c: wrap(`"oneOf": [` + atComps(itemsOf(advText)) + `, ` + atComps(itemsOf(advRow)) + `]`), components: advItems, plan: true},
		{name: "message anyOf reading into components", s2c: wrap(`"anyOf": [` + atComps(itemsOf(advText)) + `, ` + atComps(itemsOf(advRow)) + `]`), components: `{"type": "array"}`, plan: true},
		{name: "not around the items", s2c: advS2C, components: `{"not": ` + itemsOf(advText) + `}`, plan: true},
		{name: "not not", s2c: advS2C, components: `{"not": {"not": ` + itemsOf(advText) + `}}`, plan: true},
		{name: "allOf items twice", s2c: advS2C, components: `{"allOf": [` + itemsOf(advText) + `, {"items": {"required": ["text"]}}]}`, plan: true},
		{name: "if items then surface pattern else version", s2c: wrap(`"if": ` + atComps(itemsOf(advText)) + `, "then": {"properties": {"updateComponents": {"properties": {"surfaceId": {"pattern": "^z"}}}}}, "else": {"properties": {"version": {"const": "v1"}}}`), components: advItems, plan: true},
		{name: "if on the surface then items", s2c: wrap(`"if": {"properties": {"updateComponents": {"properties": {"surfaceId": {"const": "s"}}}}}, "then": ` + atComps(itemsOf(advText)) + `, "else": ` + atComps(itemsOf(advRow))), components: `{"type": "array"}`, plan: true},
		{name: "if on the surface, other surface", s2c: wrap(`"if": {"properties": {"updateComponents": {"properties": {"surfaceId": {"const": "s"}}}}}, "then": ` + atComps(itemsOf(advText)) + `, "else": ` + atComps(itemsOf(advRow))), components: `{"type": "array"}`, close: `],"surfaceId":"t"},"version":"v0.9"}`, plan: true},
		{name: "surface id pattern fails", s2c: advS2C, components: advItems, close: `],"surfaceId":"s","surfaceId2":1},"version":"v0.9"}`, plan: true},
		{name: "surface id pattern", s2c: strings.Replace(advS2C, `"surfaceId": {"type": "string"}`, `"surfaceId": {"type": "string", "pattern": "^[0-9]+$"}`, 1), components: advItems, plan: true},
		{name: "minItems 2", s2c: advS2C, components: `{"minItems": 2, "items": {"$ref": "catalog.json#/$defs/anyComponent"}}`, plan: true},
		{name: "maxItems 0", s2c: advS2C, components: `{"maxItems": 0, "items": {"$ref": "catalog.json#/$defs/anyComponent"}}`, plan: true},
		{name: "const on the components array", s2c: advS2C, components: `{"const": [{"component":"Text","id":"a","text":"t"}]}`},
		{name: "enum on the components array", s2c: advS2C, components: `{"enum": [[{"component":"Text","id":"a","text":"t"}], 7]}`},
		{name: "enum on the body, only in one branch", s2c: wrap(`"anyOf": [{"properties": {"version": {"const": "v1"}}}, {"properties": {"updateComponents": {"enum": [{"surfaceId": "s", "components": []}]}}}]`), components: advItems},
		{name: "const on a component", s2c: advS2C, components: `{"items": {"const": {"component":"Text","id":"a","text":"t"}}}`, plan: true, idRead: true},
		{name: "enum of components", s2c: advS2C, components: `{"items": {"enum": [{"component":"Text","id":"a","text":"t"}, {"component":"Row","id":"a","children":[]}, 7]}}`, plan: true, idRead: true},
		{name: "ref chain to the items", s2c: strings.Replace(advS2C, `"required": ["version"`, `"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/C"}, "C": `+advItems+`}, "required": ["version"`, 1), components: `{"$ref": "#/$defs/A"}`, plan: true},
		{name: "additionalProperties false on the body", s2c: strings.Replace(advS2C, `"required": ["surfaceId", "components"],`, `"required": ["surfaceId", "components"], "additionalProperties": false,`, 1), components: advItems, close: `],"surfaceId":"s","x":1},"version":"v0.9"}`, plan: true},
		{name: "unevaluatedProperties false with components from allOf", s2c: strings.Replace(advS2C, `"required": ["surfaceId", "components"],`, `"required": ["surfaceId", "components"], "unevaluatedProperties": false, "allOf": [{"properties": {"components": `+itemsOf(advText)+`}}],`, 1), components: `true`, plan: true},
		{name: "a tree too big", s2c: wrap(`"allOf": [` + atComps(`{"anyOf": [`+strings.Join(many, ",")+`]}`) + `]`), components: `{"type": "array"}`},
		{name: "additionalProperties false on components", s2c: advS2C, components: advItems, comps: `{"components": {
			"Text": {"type": "object", "properties": {"component": {"const": "Text"}, "id": CID, "text": {"type": "string"}}, "required": ["component", "id", "text"], "additionalProperties": false},
			"Row": {"type": "object", "properties": {"component": {"const": "Row"}, "id": CID, "children": {"type": "array", "items": {"$ref": "#/$defs/anyComponent"}}}, "required": ["component", "id"], "unevaluatedProperties": false}},
			"$defs": {"anyComponent": {"oneOf": [{"$ref": "#/components/Text"}, {"$ref": "#/components/Row"}]}}}`, plan: true},
		{name: "id pattern", s2c: advS2C, components: advItems, cid: `{"type": "string", "pattern": "^[a-z]+$"}`, plan: true, idRead: true},
		{name: "id pattern behind a ref chain", s2c: advS2C, components: advItems, cid: `{"$ref": "#/$defs/pid2"}`, plan: true, idRead: true},
		{name: "id pattern in an allOf", s2c: advS2C, components: advItems, cid: `{"allOf": [{"type": "string"}, {"$ref": "#/$defs/pid"}]}`, plan: true, idRead: true},
		{name: "id pattern in a not", s2c: advS2C, components: advItems, cid: `{"not": {"pattern": "^A"}}`, plan: true, idRead: true},
		{name: "id length", s2c: advS2C, components: advItems, cid: `{"maxLength": 3}`, plan: true, idRead: true},
		{name: "id enum", s2c: advS2C, components: advItems, cid: `{"enum": ["a", "b", "c", "d", "e", "f", "g", "h", "i", "loading_x"]}`, plan: true, idRead: true},
		{name: "id not a const", s2c: advS2C, components: advItems, cid: `{"not": {"const": "a"}}`, plan: true, idRead: true},
		{name: "id read by additionalProperties", s2c: advS2C, components: `{"items": {"properties": {"component": {"type": "string"}}, "additionalProperties": {"pattern": "^[a-z]*$"}}}`, plan: true, idRead: true},
		{name: "id read by unevaluatedProperties", s2c: advS2C, components: `{"items": {"properties": {"component": true}, "unevaluatedProperties": {"maxLength": 1}}}`, plan: true, idRead: true},
		{name: "dispatch on the id", s2c: advS2C, components: `{"items": {"allOf": [{"if": {"properties": {"id": {"const": "a"}}, "required": ["id"]}, "then": {"required": ["text"]}}, {"if": {"properties": {"id": {"const": "b"}}, "required": ["id"]}, "then": {"required": ["children"]}}]}}`, plan: true, idRead: true},
		{name: "id compared in the component's own conditional", s2c: advS2C, components: `{"items": {"if": {"properties": {"id": {"pattern": "^loading_"}}}, "then": {"required": ["children"]}}}`, plan: true, idRead: true},
		{name: "recursive components", s2c: advS2C, components: `{"items": {"$ref": "#/$defs/R"}}`, plan: true},
		{name: "endless recursion", s2c: strings.Replace(advS2C, `"required": ["version"`, `"$defs": {"L": {"anyOf": [{"$ref": "#/$defs/L"}]}}, "required": ["version"`, 1), components: `{"items": {"$ref": "#/$defs/L"}}`, plan: true},
	}
}

func TestComponentPlansAdversarial(t *testing.T) {
	for _, tc := range adversarialCases() {
		t.Run(tc.name, func(t *testing.T) {
			cat := tc.catalog(t)
			close := tc.end()
			p := cat.componentPlan([]byte(advOpen), []byte(close))
			if (len(p.steps) > 0) != tc.plan {
				t.Errorf("plan of %d steps, want a plan: %v", len(p.steps), tc.plan)
			}
			counts := map[string]int{}
			for _, comp := range advComponents() {
				valid, decided, free := p.judge(comp, "id", nil)
				wantValid, wantDecided := cat.MessageVerdict(advOpen + comp + close)
				// (Undecided is always an answer: the caller takes the
				// message's path.)
				if decided && (valid != wantValid || !wantDecided) {
					t.Errorf("%.80s: verdict (%v, %v), MessageVerdict (%v, %v)", comp, valid, decided, wantValid, wantDecided)
				}
				if !decided && wantDecided {
					counts["left undecided"]++
				}
				counts[fmt.Sprintf("valid %v decided %v free %v", valid, decided, free)]++
				if decided && !free && strings.Contains(comp, `"id":"`) {
					counts["id read"]++
				}
				if !free {
					continue
				}
				for _, id := range advIDs {
					q, _ := json.Marshal(id)
					other := strings.Replace(comp, `"id":"a"`, `"id":`+string(q), 1)
					if v, d := cat.MessageVerdict(advOpen + other + close); v != valid || d != decided {
						t.Errorf("%.80s, free of its id, has verdict (%v, %v); with id %q MessageVerdict says (%v, %v)", comp, valid, decided, id, v, d)
					}
				}
			}
			if (counts["id read"] > 0) != tc.idRead {
				t.Errorf("%d decided verdicts read the id, want some: %v", counts["id read"], tc.idRead)
			}
			t.Logf("%v", counts)
		})
	}
}

// TestComponentPlansConcurrent: goroutines asking one catalog for the
// plans of more wrappers than its cache holds (maxComponentPlans), each
// plan's verdicts checked against MessageVerdict (run with -race).
func TestComponentPlansConcurrent(t *testing.T) {
	cat := adversarialCatalog(t, strings.Replace(advS2C, `"surfaceId": {"type": "string"}`, `"surfaceId": {"type": "string", "pattern": "^s[0-9]*[02468]$"}`, 1), advItems, "", `{"type": "string", "pattern": "^[a-z]+$"}`)
	comps := []string{`{"component":"Text","id":"a","text":"t"}`, `{"component":"Text","id":"A","text":"t"}`, `{"component":"Row","id":"a"}`, `{"component":"Text","id":"a"}`}
	eachWrapperConcurrently(t, func(_ int, close string) string {
		judge := cat.componentPlan([]byte(advOpen), []byte(close)).judge
		for _, comp := range comps {
			valid, decided, _ := judge(comp, "id", nil)
			wantValid, wantDecided := cat.MessageVerdict(advOpen + comp + close)
			if !decided || valid != wantValid || !wantDecided {
				return fmt.Sprintf("%s in …%s: verdict (%v, %v), MessageVerdict (%v, %v)", comp, close, valid, decided, wantValid, wantDecided)
			}
		}
		return ""
	})
	if n := cat.plans.cached(); n == 0 || n > maxComponentPlans {
		t.Errorf("%d plans cached, want 1..%d", n, maxComponentPlans)
	}
}

// eachWrapperConcurrently runs check on 8 goroutines, each over the
// wrappers of surfaces s0, s1, ... (more of them than a catalog's cache
// of plans holds) in an order of its own, and reports each goroutine's
// first complaint ("": none).
func eachWrapperConcurrently(t *testing.T, check func(surface int, close string) string) {
	const workers, wrappers = 8, 3 * maxComponentPlans / 2
	errs := make(chan string, workers)
	for w := range workers {
		go func() {
			bad := ""
			for i := 0; i < wrappers && bad == ""; i++ {
				surface := (i*7 + w*13) % wrappers
				bad = check(surface, fmt.Sprintf(`],"surfaceId":"s%d"},"version":"v0.9"}`, surface))
			}
			errs <- bad
		}()
	}
	for range workers {
		if bad := <-errs; bad != "" {
			t.Error(bad)
		}
	}
}
