package protocol

import (
	"fmt"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/protocoltape"
)

// textComponents are components with strings in every place the schemas
// of adversarialCases read one: a component's type (the dispatch), its id
// (patterns, enums, conditionals), its text, a "path" member (the
// protocol's limits), array items, members deeper down, a function call.
func textComponents() []string {
	return append(advComponents(),
		`{"component":"Text","text":"t","id":"a"}`,
		`{"id":"a","text":"t","component":"Text"}`,
		`{"component":"Row","children":["loading_b","c"],"id":"a"}`,
		`{"component":"Text","id":"a","text":"t","path":"/ok"}`,
		`{"component":"Row","id":"a","children":[{"component":"Text","text":"t","id":"b"}]}`,
		`{"component":"Row","id":"a","x":["q","r"],"y":{"z":"w"}}`,
		`{"component":"Text","id":"a","text":"t","x":{"call":"f","args":{"a":"b"}}}`,
		`{"component":"Text","id":"a","text":""}`,
	)
}

// otherTexts are what a text the verdict did not read is replaced with:
// among them a type, ids that patterns and enums tell apart, a path the
// limits refuse, an escape and a non-ASCII letter.
var otherTexts = []string{"", "t", "a", "A1", "Text", "Row", "loading_x", "/a/~2", "/ok", `q\"r`, "\u00e9", strings.Repeat("q", 40)}

// withTexts returns comp with its texts at spans (offset pairs, in order)
// replaced by s.
func withTexts(comp string, spans []int32, s string) string {
	var b strings.Builder
	at := 0
	for i := 0; i < len(spans); i += 2 {
		b.WriteString(comp[at:spans[i]])
		b.WriteString(s)
		at = int(spans[i+1])
	}
	b.WriteString(comp[at:])
	return b.String()
}

// grownList returns comp with the list closing at offset at grown by n
// string items of text s.
func grownList(comp string, at int32, n int, s string) string {
	return comp[:at] + strings.Repeat(`,"`+s+`"`, n) + comp[at:]
}

// TestComponentPlansUnreadTexts: what a verdict says it did not read can
// be anything: with any of its texts replaced, or all of them, or any of
// its lists grown by string items, each component's message has the
// verdict's MessageVerdict; and a "path" member's text is never among
// them.
func TestComponentPlansUnreadTexts(t *testing.T) {
	for _, tc := range adversarialCases() {
		t.Run(tc.name, func(t *testing.T) {
			cat := tc.catalog(t)
			close := tc.end()
			judge := cat.componentPlan([]byte(advOpen), []byte(close)).judge
			counts := map[string]int{}
			check := func(comp, other string, valid bool) {
				t.Helper()
				if v, d := cat.MessageVerdict(advOpen + other + close); v != valid || !d {
					t.Errorf("%.80s has verdict (%v, true); %.80s has (%v, %v)", comp, valid, other, v, d)
				}
			}
			var u protocoltape.Unread
			for _, comp := range textComponents() {
				u.Texts = append(u.Texts[:0], -1)
				valid, decided, _ := judge(comp, "", &u)
				if !decided {
					if len(u.Texts) != 1 {
						t.Errorf("%.80s: undecided, and texts set", comp)
					}
					continue
				}
				counts[fmt.Sprintf("texts %d lists %d", len(u.Texts)/2, len(u.Lists))]++
				for i := 0; i < len(u.Texts); i += 2 {
					if strings.HasSuffix(comp[:u.Texts[i]], `"path":"`) {
						t.Errorf("%.80s: the text of a path is unread", comp)
					}
					for _, s := range otherTexts {
						check(comp, withTexts(comp, u.Texts[i:i+2], s), valid)
					}
				}
				for _, s := range otherTexts {
					check(comp, withTexts(comp, u.Texts, s), valid)
				}
				for _, at := range u.Lists {
					if comp[at] != ']' {
						t.Fatalf("%.80s: list at %d, not a closing bracket", comp, at)
					}
					for _, s := range otherTexts {
						check(comp, grownList(comp, at, 1, s), valid)
						check(comp, grownList(comp, at, 3, s), valid)
					}
				}
			}
			t.Logf("%v", counts)
		})
	}
}

// TestComponentPlanTextsRead names texts and lists that must be read (the
// type the dispatch reads, an id a pattern reads, a path, a list whose
// count is bounded, a list of objects) and ones that must not be (a text
// any string satisfies, a child's id, a list of such texts), so that a
// verdict that reports nothing, or everything, fails.
func TestComponentPlanTextsRead(t *testing.T) {
	const comps = `{"components": {
		"Text": {"type": "object", "properties": {"component": {"const": "Text"}, "id": CID, "text": {"type": "string"}}, "required": ["component", "id", "text"]},
		"Row": {"type": "object", "properties": {"component": {"const": "Row"}, "id": CID, "ids": {"type": "array", "items": {"type": "string"}}, "few": {"type": "array", "items": {"type": "string"}, "maxItems": 3}, "children": {"type": "array", "items": {"$ref": "#/$defs/anyComponent"}}}, "required": ["component", "id"]}},
		"$defs": {"anyComponent": {"oneOf": [{"$ref": "#/components/Text"}, {"$ref": "#/components/Row"}]}}}`
	tests := []struct {
		name, cid, comp string
		unread          []string // the texts, then the lists (from their opening bracket)
	}{
		{name: "text and id", comp: `{"component":"Text","id":"a","text":"t"}`, unread: []string{"a", "t"}},
		{name: "id read by a pattern", cid: `{"type": "string", "pattern": "^[a-z]+$"}`, comp: `{"component":"Text","text":"t","id":"a"}`, unread: []string{"t"}},
		{name: "child", comp: `{"component":"Row","id":"a","children":[{"component":"Text","id":"b","text":"t"}]}`, unread: []string{"a", "b", "t"}},
		{name: "path", comp: `{"component":"Text","id":"a","text":"t","p":{"path":"/ok"}}`, unread: []string{"a", "t"}},
		{name: "list of ids", comp: `{"component":"Row","id":"a","ids":["b","c"]}`, unread: []string{"a", "b", "c", `["b","c"]`}},
		{name: "list bounded", comp: `{"component":"Row","id":"a","few":["b","c"]}`, unread: []string{"a", "b", "c"}},
		{name: "empty list", comp: `{"component":"Row","id":"a","ids":[]}`, unread: []string{"a"}},
		{name: "list of a number", comp: `{"component":"Row","id":"a","ids":["b",1]}`, unread: []string{"a", "b"}},
		{name: "list of ids read by a pattern", cid: `{"type": "string", "pattern": "^[a-z]+$"}`, comp: `{"component":"Row","id":"a","x":["b","c"]}`, unread: []string{"b", "c", `["b","c"]`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cat := adversarialCatalog(t, advS2C, advItems, comps, tt.cid)
			var u protocoltape.Unread
			_, decided, _ := cat.componentPlan([]byte(advOpen), []byte(advClose)).judge(tt.comp, "", &u)
			var got []string
			for i := 0; i < len(u.Texts); i += 2 {
				got = append(got, tt.comp[u.Texts[i]:u.Texts[i+1]])
			}
			for _, at := range u.Lists {
				got = append(got, tt.comp[strings.LastIndexByte(tt.comp[:at], '['):at+1])
			}
			if !decided || fmt.Sprint(got) != fmt.Sprint(tt.unread) {
				t.Errorf("decided %v, unread %q; want decided, unread %q", decided, got, tt.unread)
			}
		})
	}
}
