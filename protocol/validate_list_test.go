package protocol

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// The verdict on a message of components known valid alone (listPlan)
// against MessageVerdict on the message, on the adversarial catalogs and
// on catalogs built to test the item count.

// listCase is a catalog for the list plans: an adversarial case, and what
// its list verdicts are expected to decide.
type listCase struct {
	advCase
	decidesValid, decidesInvalid bool
}

// listCases are the adversarial cases and cases about item counts and
// item schemas reached more than once. (A wrapper where no message of one
// component is valid, e.g. one that asks for two, or whose surface id is
// invalid, decides nothing: no component is known valid alone in it. One
// whose valid messages of one component take paths that answer no item
// question alike, e.g. texts or rows, leaves undecided the messages whose
// walk asks one.)
func listCases() []listCase {
	items := func(extra string) string {
		return `{"type": "array", ` + extra + `"items": {"$ref": "catalog.json#/$defs/anyComponent"}}`
	}
	itemsOf := func(ref, extra string) string { return `{` + extra + `"items": {"$ref": "` + ref + `"}}` }
	var out []listCase
	for _, tc := range adversarialCases() {
		lc := listCase{advCase: tc}
		switch tc.name {
		case "oneOf items", "not not", "recursive components", "allOf items twice",
			"ref chain to the items", "unevaluatedProperties false with components from allOf",
			"additionalProperties false on components", "id pattern", "id pattern behind a ref chain", "id pattern in an allOf",
			"id pattern in a not", "id length", "id enum", "id not a const", "id read by additionalProperties",
			"id read by unevaluatedProperties", "dispatch on the id", "id compared in the component's own conditional",
			"const on a component", "enum of components", "surface id pattern fails", "if on the surface then items", "if on the surface, other surface":
			lc.decidesValid = true
		}
		out = append(out, lc)
	}
	return append(out,
		listCase{advCase{name: "maxItems 3", s2c: advS2C, components: items(`"maxItems": 3, `)}, true, true},
		listCase{advCase{name: "one, or three or more", s2c: advS2C, components: items(`"anyOf": [{"maxItems": 1}, {"minItems": 3}], `)}, true, true},
		listCase{advCase{name: "count in a not", s2c: advS2C, components: items(`"not": {"minItems": 2, "maxItems": 3}, `)}, true, true},
		listCase{advCase{name: "count in one branch, items in the other", s2c: advS2C, components: `{"anyOf": [{"maxItems": 1}, ` + itemsOf(advText, "") + `]}`}, true, false},
		listCase{advCase{name: "texts or one row", s2c: advS2C, components: `{"anyOf": [` + itemsOf(advText, "") + `, ` + itemsOf(advRow, `"maxItems": 1, `) + `]}`}, false, false},
		listCase{advCase{name: "texts or rows", s2c: advS2C, components: `{"oneOf": [` + itemsOf(advText, "") + `, ` + itemsOf(advRow, "") + `]}`}, false, false},
		listCase{advCase{name: "items twice with counts", s2c: advS2C, components: `{"allOf": [` + itemsOf("catalog.json#/$defs/anyComponent", `"maxItems": 5, `) + `, ` + itemsOf("catalog.json#/$defs/anyComponent", `"minItems": 1, `) + `]}`}, true, true},
		listCase{advCase{name: "count and version", s2c: strings.Replace(advS2C, `"type": "object",`, `"type": "object", "if": {"properties": {"version": {"const": "v0.9"}}}, "then": {"properties": {"updateComponents": {"properties": {"components": {"maxItems": 2}}}}},`, 1), components: items("")}, true, true},
	)
}

// listComponents are components to build messages of, more than
// advComponents's valid ones.
func listComponents() []string {
	out := advComponents()
	for _, id := range []string{"b", "zz", "loading_y", "Q"} {
		out = append(out, `{"component":"Text","id":"`+id+`","text":"`+id+`"}`, `{"component":"Row","id":"`+id+`","children":[]}`)
	}
	return out
}

// validAlone returns those of comps that are one JSON value whose message
// of one component in the wrapper is valid and decided.
func validAlone(cat *Catalog, open, close string, comps []string) []string {
	var out []string
	for _, c := range comps {
		if v, d := cat.MessageVerdict(open + c + close); v && d && json.Valid([]byte(c)) {
			out = append(out, c)
		}
	}
	return out
}

// checkList compares the list verdict on comps (each valid alone) with
// MessageVerdict on their message, and returns the verdict.
func checkList(t *testing.T, cat *Catalog, close string, comps []string) (valid, decided bool) {
	t.Helper()
	valid, decided = cat.listPlan([]byte(advOpen), []byte(close)).verdict(len(comps))
	if len(comps) == 0 {
		if decided {
			t.Errorf("no components: verdict decided (%v)", valid)
		}
		return valid, decided
	}
	msg := advOpen + strings.Join(comps, ",") + close
	wantValid, wantDecided := cat.MessageVerdict(msg)
	if decided && (valid != wantValid || !wantDecided) {
		t.Errorf("%d components %.200s: verdict (%v, %v), MessageVerdict (%v, %v)", len(comps), msg, valid, decided, wantValid, wantDecided)
	}
	return valid, decided
}

// listCounts are the numbers of components the messages are built with.
var listCounts = []int{0, 1, 2, 3, 4, 5, 6, 7, 24, 25, 26}

func TestListPlans(t *testing.T) {
	for _, tc := range listCases() {
		t.Run(tc.name, func(t *testing.T) {
			cat := tc.catalog(t)
			close := tc.end()
			valids := validAlone(cat, advOpen, close, listComponents())
			counts := map[string]int{}
			for _, n := range listCounts {
				for r := 0; r < len(valids) || r == 0; r++ {
					var comps []string
					for i := 0; i < n && len(valids) > 0; i++ {
						comps = append(comps, valids[(r+i*(r+1))%len(valids)])
					}
					valid, decided := checkList(t, cat, close, comps)
					counts[fmt.Sprintf("valid %v decided %v", valid, decided)]++
				}
			}
			if got := counts["valid true decided true"] > 0; got != tc.decidesValid {
				t.Errorf("decides valid: %v, want %v", got, tc.decidesValid)
			}
			if got := counts["valid false decided true"] > 0; got != tc.decidesInvalid {
				t.Errorf("decides invalid: %v, want %v", got, tc.decidesInvalid)
			}
			t.Logf("%d components valid alone: %v", len(valids), counts)
		})
	}
}

// TestListPlansConcurrent: goroutines asking one catalog for the list
// plans of more wrappers than its cache holds, each plan's verdicts
// checked against MessageVerdict (run with -race).
func TestListPlansConcurrent(t *testing.T) {
	cat := adversarialCatalog(t, strings.Replace(advS2C, `"surfaceId": {"type": "string"}`, `"surfaceId": {"type": "string", "pattern": "^s[0-9]*[02468]$"}`, 1),
		`{"maxItems": 3, "items": {"$ref": "catalog.json#/$defs/anyComponent"}}`, "", `{"type": "string", "pattern": "^[a-z]+$"}`)
	comps := []string{`{"component":"Text","id":"a","text":"t"}`, `{"component":"Row","id":"b"}`}
	eachWrapperConcurrently(t, func(surface int, close string) string {
		verdict := cat.listPlan([]byte(advOpen), []byte(close)).verdict
		for n := 1; n <= 5; n++ {
			list := make([]string, n)
			for k := range list {
				list[k] = comps[k%2]
			}
			valid, decided := verdict(n)
			wantValid, wantDecided := cat.MessageVerdict(advOpen + strings.Join(list, ",") + close)
			// (On an odd surface, no component is valid alone.)
			if decided && (valid != wantValid || !wantDecided) || !decided && surface%2 == 0 {
				return fmt.Sprintf("%d components in …%s: verdict (%v, %v), MessageVerdict (%v, %v)", n, close, valid, decided, wantValid, wantDecided)
			}
		}
		return ""
	})
	if n := cat.lists.cached(); n == 0 || n > maxComponentPlans {
		t.Errorf("%d list plans cached, want 1..%d", n, maxComponentPlans)
	}
}

// FuzzListVerdict: the verdict on a message of components valid alone is
// MessageVerdict's on it, for the list cases' catalogs, on components
// (one a line, those not valid alone dropped) repeated to n, seeded from
// TestListPlans's table.
func FuzzListVerdict(f *testing.F) {
	cases := listCases()
	cats := make([]*Catalog, len(cases))
	lines := strings.Join(listComponents(), "\n")
	for i, tc := range cases {
		cats[i] = tc.catalog(f)
		for _, n := range []uint8{1, 2, 3, 25} {
			f.Add(uint8(i), n, lines)
		}
	}
	f.Fuzz(func(t *testing.T, ci, n uint8, lines string) {
		i := int(ci) % len(cases)
		close := cases[i].end()
		comps := validAlone(cats[i], advOpen, close, strings.Split(lines, "\n"))
		if len(comps) == 0 {
			return
		}
		list := make([]string, int(n)%40)
		for k := range list {
			list[k] = comps[k%len(comps)]
		}
		checkList(t, cats[i], close, list)
	})
}
