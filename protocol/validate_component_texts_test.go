package protocol

import (
	"fmt"
	"strings"
	"testing"
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

// TestComponentPlansUnreadTexts: the texts a verdict says it did not read
// can be anything: with any of them replaced, or all of them, each
// component's message has the verdict's MessageVerdict; and a "path"
// member's text is never among them.
func TestComponentPlansUnreadTexts(t *testing.T) {
	for _, tc := range adversarialCases() {
		t.Run(tc.name, func(t *testing.T) {
			cat := tc.catalog(t)
			close := tc.end()
			judge := cat.componentPlan([]byte(advOpen), []byte(close)).judge
			counts := map[string]int{}
			var texts []int32
			for _, comp := range textComponents() {
				texts = append(texts[:0], -1)
				valid, decided, _ := judge(comp, "", &texts)
				if !decided {
					if len(texts) != 1 {
						t.Errorf("%.80s: undecided, and texts set", comp)
					}
					continue
				}
				counts[fmt.Sprintf("texts %d", len(texts)/2)]++
				for i := 0; i < len(texts); i += 2 {
					if strings.HasSuffix(comp[:texts[i]], `"path":"`) {
						t.Errorf("%.80s: the text of a path is unread", comp)
					}
					for _, s := range otherTexts {
						one := withTexts(comp, texts[i:i+2], s)
						if v, d := cat.MessageVerdict(advOpen + one + close); v != valid || !d {
							t.Errorf("%.80s has verdict (%v, true); %.80s has (%v, %v)", comp, valid, one, v, d)
						}
					}
				}
				for _, s := range otherTexts {
					all := withTexts(comp, texts, s)
					if v, d := cat.MessageVerdict(advOpen + all + close); v != valid || !d {
						t.Errorf("%.80s has verdict (%v, true); %.80s has (%v, %v)", comp, valid, all, v, d)
					}
				}
			}
			t.Logf("%v", counts)
		})
	}
}

// TestComponentPlanTextsRead names texts that must be read (the type the
// dispatch reads, an id a pattern reads, a path) and texts that must not
// be (a text any string satisfies, a child's id), so that a verdict that
// reports no text, or every text, fails.
func TestComponentPlanTextsRead(t *testing.T) {
	tests := []struct {
		name, cid, comp string
		unread          []string
	}{
		{name: "text and id", comp: `{"component":"Text","id":"a","text":"t"}`, unread: []string{"a", "t"}},
		{name: "id read by a pattern", cid: `{"type": "string", "pattern": "^[a-z]+$"}`, comp: `{"component":"Text","text":"t","id":"a"}`, unread: []string{"t"}},
		{name: "child", comp: `{"component":"Row","id":"a","children":[{"component":"Text","id":"b","text":"t"}]}`, unread: []string{"a", "b", "t"}},
		{name: "path", comp: `{"component":"Text","id":"a","text":"t","p":{"path":"/ok"}}`, unread: []string{"a", "t"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cat := adversarialCatalog(t, advS2C, advItems, "", tt.cid)
			var texts []int32
			_, decided, _ := cat.componentPlan([]byte(advOpen), []byte(advClose)).judge(tt.comp, "", &texts)
			var got []string
			for i := 0; i < len(texts); i += 2 {
				got = append(got, tt.comp[texts[i]:texts[i+1]])
			}
			if !decided || fmt.Sprint(got) != fmt.Sprint(tt.unread) {
				t.Errorf("decided %v, unread %q; want decided, unread %q", decided, got, tt.unread)
			}
		})
	}
}
