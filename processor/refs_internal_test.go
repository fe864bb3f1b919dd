package processor

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/a2ui-stream/a2ui-stream/internal/jsontape"
	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// refStrings renders references (spans of chunk) as sorted "id@field"
// strings.
func refStrings(ids []span, infos []refInfo, chunk string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.in(chunk) + "@" + infos[i].field(chunk)
	}
	sort.Strings(out)
	return out
}

func protocolRefStrings(comp map[string]any, refs protocol.RefFieldsFunc) []string {
	var out []string
	for _, r := range protocol.ComponentRefs(nil, comp, refs) {
		out = append(out, r.ID+"@"+r.Field)
	}
	sort.Strings(out)
	return out
}

// checkRefsAgree compares appendRefs with protocol.ComponentRefs on one
// component.
func checkRefsAgree(t *testing.T, name, compJSON string, v08 bool, refs protocol.RefFieldsFunc) {
	t.Helper()
	p := Processor{work: &work{wantWhere: true}}
	var tp jsontape.Tape
	if err := tp.Parse(compJSON); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	p.setSource(compJSON, 1)
	p.upd, p.uinfo, p.pend = []comp{{}}, []updInfo{{}}, []string{compJSON}
	if merr := p.parseComponent(&tp, 0, 0, v08, true, refs); merr != nil {
		t.Fatalf("%s: %v", name, merr)
	}
	c := &p.upd[0]
	got := refStrings(p.urefs[c.refs:c.refs+c.nrefs], p.urefx[c.refs:c.refs+c.nrefs], p.pend[-c.chunk-1])
	var m map[string]any
	if err := json.Unmarshal([]byte(compJSON), &m); err != nil {
		t.Fatal(err)
	}
	want := protocolRefStrings(m, refs)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("%s: refs %v, protocol.ComponentRefs %v\ncomponent: %s", name, got, want, compJSON)
	}
}

// TestRefsMatchProtocol holds the raw-JSON reference extraction to
// protocol.ComponentRefs, on hand-made edge cases and on every component of
// the specification's example payloads.
func TestRefsMatchProtocol(t *testing.T) {
	catalogRefs := func(typ string) (single, list []string) {
		switch typ {
		case "Tabs":
			return nil, []string{"tabs"}
		case "Modal":
			return []string{"trigger", "content"}, nil
		}
		return nil, nil
	}
	cases := map[string]string{
		"child":                `{"id":"a","component":"Card","child":"b"}`,
		"children_array":       `{"id":"a","component":"Column","children":["b","c",3]}`,
		"children_template":    `{"id":"a","component":"List","children":{"path":"/x","componentId":"t"}}`,
		"children_explicit":    `{"id":"a","component":"List","children":{"explicitList":["b"]}}`,
		"children_template_v8": `{"id":"a","component":"List","children":{"template":{"componentId":"t","dataBinding":"/x"}}}`,
		"child_component_id":   `{"id":"a","component":"Card","child":{"componentId":"t"}}`,
		"tabs":                 `{"id":"a","component":"Tabs","tabs":[{"title":"x","child":"b"},{"title":"y","child":"c"},"z"]}`,
		"tabs_heuristic":       `{"id":"a","component":"Other","tabs":[{"title":"x","child":"b"}]}`,
		"modal":                `{"id":"a","component":"Modal","trigger":"b","content":"c"}`,
		"modal_no_catalog":     `{"id":"a","component":"Modal2","trigger":"b","content":"c"}`,
		"root_key":             `{"id":"a","component":"X","root":"b","detail":"c","summary":"d"}`,
		"non_refs":             `{"id":"a","component":"Text","text":"child","options":[{"label":"l","value":"v"}]}`,
		"children_of_objects":  `{"id":"a","component":"Column","children":[{"child":"b"}]}`,
		"null_explicit":        `{"id":"a","component":"List","children":{"explicitList":null,"componentId":"x"}}`,
	}
	for name, js := range cases {
		checkRefsAgree(t, name, js, false, catalogRefs)
		checkRefsAgree(t, name+"/no_catalog", js, false, nil)
	}
	checkRefsAgree(t, "v08_row", `{"id":"a","weight":1,"component":{"Row":{"children":{"explicitList":["b","c"]}}}}`, true, nil)
	checkRefsAgree(t, "v08_list", `{"id":"a","component":{"List":{"children":{"template":{"componentId":"t","dataBinding":"/items"}}}}}`, true, nil)

	for _, set := range []struct {
		v08 bool
		dir []string
	}{
		{false, []string{"a2ui", "specification", "v0_9_1", "catalogs", "basic", "examples"}},
		{true, []string{"a2ui", "specification", "v0_8", "json", "catalogs", "basic", "examples"}},
	} {
		files, _ := filepath.Glob(filepath.Join(shareddata.Path(t, set.dir...), "*.json"))
		if len(files) == 0 {
			t.Fatal("no examples")
		}
		n := 0
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			doc := gjson.ParseBytes(data)
			if m := doc.Get("messages"); m.Exists() {
				doc = m
			}
			doc.ForEach(func(_, msg gjson.Result) bool {
				for _, kind := range []string{"updateComponents", "surfaceUpdate"} {
					msg.Get(kind + ".components").ForEach(func(_, c gjson.Result) bool {
						n++
						checkRefsAgree(t, filepath.Base(f), c.Raw, set.v08, nil)
						return true
					})
				}
				return true
			})
		}
		if n < 100 {
			t.Errorf("only %d example components checked", n)
		}
	}
}
