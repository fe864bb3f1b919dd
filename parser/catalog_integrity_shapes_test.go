package parser

import (
	"encoding/json"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// shapesCatalog is a catalog whose components hold ids in every place the
// reference looks for them (child, children, explicitList, template,
// componentId, tabs) and in places it does not (target, slots, cells).
func shapesCatalog(t testing.TB, version string, s2c any) *protocol.Catalog {
	t.Helper()
	var comps map[string]any
	err := json.Unmarshal([]byte(`{
	"Card": {"type":"object","properties":{"child":{"type":"string","title":"ComponentId"}}},
	"Column": {"type":"object","properties":{"children":{"type":"array","items":{"type":"string","title":"ComponentId"}}}},
	"Foo": {"type":"object","properties":{"target":{"type":"string","title":"ComponentId"},"slots":{"type":"array","items":{"type":"string","title":"ComponentId"}},"cells":{"type":"object","properties":{"explicitList":{"type":"array"}}}}},
	"Tabs": {"type":"object","properties":{"tabs":{"type":"array","items":{"type":"object","properties":{"child":{"type":"string","title":"ComponentId"}}}}}},
	"Text": {"type":"object"}
	}`), &comps)
	if err != nil {
		t.Fatal(err)
	}
	spec := protocol.CatalogSpec{Version: version, S2CSchema: s2c, CatalogSchema: map[string]any{"catalogId": "x", "components": comps}}
	cat, err := protocol.LoadCatalog(spec, "")
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// TestCompleteJudgementOnReferenceShapes: the judgement from what the
// engine has agrees with the message decoded again, for ids in every shape
// of reference, escaped ids, duplicates and unknown components, with
// components at byte level, decoded, or mixed, loose and strict.
func TestCompleteJudgementOnReferenceShapes(t *testing.T) {
	cat := shapesCatalog(t, "0.9", nil)
	msgs := []string{
		`{"id":"a","component":"Foo","target":"a"}`,
		`{"id":"a","component":"Foo","slots":["b","a"]}`,
		`{"id":"a","component":"Foo","detail":"a"}`,
		`{"id":"a","component":"Foo","summary":"a"}`,
		`{"id":"a","component":"Foo","root":"a"}`,
		`{"id":"a","component":"Foo","template":["a"]}`,
		`{"id":"a","component":"Foo","template":"a"}`,
		`{"id":"a","component":"Card","child":{"componentId":"a"}}`,
		`{"id":"a","component":"Column","children":{"template":{"componentId":"a"}}}`,
		`{"id":"a","component":"Column","children":{"explicitList":["a"]}}`,
		`{"id":"a","component":"Column","children":{"componentId":"a"}}`,
		`{"id":"a","component":"Column","children":[{"child":"a"}]}`,
		`{"id":"a","component":"Foo","slots":[{"child":"a"}]}`,
		`{"id":"a","component":"Foo","other":[{"child":"a"}]}`,
		`{"id":"a","component":"Foo","cells":{"explicitList":["a"]}}`,
		`{"id":"a","component":"Foo","cells":{"template":{"componentId":"a"}}}`,
		`{"id":"a","component":"Foo","cells":{"componentId":"a"}}`,
		`{"id":"a","component":"Foo","target":{"componentId":"a"}}`,
		`{"id":"a","component":"Foo","detail":{"componentId":"a"}}`,
		`{"id":"a","component":"Tabs","tabs":[{"child":"a"}]}`,
		`{"id":"a","component":"Zed","child":"a"}`,
		`{"id":"a","component":"Zed","contentChild":"a"}`,
		`{"id":"a","component":"Zed","entryPointChild":"a"}`,
		`{"id":"a","component":"Zed","x":{"child":"a"}}`,
		`{"id":"a","component":"Zed","x":[{"child":"a"}]}`,
		`{"id":"a","component":"Zed","x":[[{"child":"a"}]]}`,
		`{"id":"a","component":"Zed","children":[["a"]]}`,
		`{"id":"\u0061","component":"Card","child":"a"}`,
		`{"id":"a","component":"Card","child":"\u0061"}`,
		`{"id":"a","component":"Foo","target":"\u0061"}`,
		`{"id":"a","component":"Foo","detail":"\u0061"}`,
		`{"id":"a","component":"Card","componentId":"a"}`,
		`{"id":"a","component":"Card","child":"b"},{"id":"b","component":"Foo","target":"a"}`,
		`{"id":"a","component":"Card","child":"b"},{"id":"b","component":"Foo","detail":"a"}`,
		`{"id":"a","component":"Card","child":"b"},{"id":"b","component":"Foo","slots":["a"]}`,
		`{"id":"a","component":"Card","child":"b"},{"id":"b","component":"Tabs","tabs":[{"child":"a"}]}`,
		`{"id":"\u0061","component":"Text"},{"id":"a","component":"Text"}`,
		`{"id":"a","component":"Text"},{"id":"a","component":"Text","component":"Card"}`,
		`{"id":"a","component":"Card","child":"b"},{"id":"b","component":"Zed","x":[{"child":"a"}]}`,
		`{"id":"a","component":"Card","child":"b"},{"id":"b","component":"Column","children":{"template":{"componentId":"a"}}}`,
		`{"id":"a","component":"Card","child":"b"},{"id":"b","component":"Foo","cells":{"template":{"componentId":"a"}}}`,
		`{"id":"a","component":"Card","child":"b"},{"id":"b","component":"Foo","cells":{"componentId":"a"}}`,
		`{"id":"a","component":"Card","child":"b"},{"id":"b","component":"Foo","target":{"componentId":"a"}}`,
		`{"id":"a","component":"Card","child":"b"},{"id":"b","component":"Foo","detail":{"componentId":"a"}}`,
		`{"id":"a","component":"Card","child":"b"},{"id":"b","component":"Foo","root":"a"}`,
	}
	for _, m := range msgs {
		for _, mask := range []uint64{allStubs, oddStubs, noStubs, 1} {
			for _, strict := range []bool{false, true} {
				e, msg, ok := withStubs(t, cat, v09Msg(m), mask)
				if !ok {
					t.Fatalf("no decode %s", m)
				}
				err := e.validate(msg, strict)
				if diff, _ := judgementDiff(e, msg, strict, err); diff != "" {
					t.Errorf("%s mask %x strict %v stubs %d: %s", m, mask, strict, e.sc.stubs, diff)
				}
			}
		}
	}
}

// TestCompleteJudgementOnComponentShapes: the same for components whose
// 'component' is an object, a number, empty, null or missing, in v0.9 and
// v0.8.
func TestCompleteJudgementOnComponentShapes(t *testing.T) {
	for _, tc := range []struct {
		v08 bool
		m   string
	}{
		{false, `{"id":"a","component":{"Card":{"child":"a"}}}`},
		{false, `{"id":"a","component":{"Foo":{"target":"a"}}}`},
		{false, `{"id":"a","component":{"Foo":{},"Card":{"child":"a"}}}`},
		{false, `{"id":"a","component":7,"child":"a"}`},
		{false, `{"id":"a","child":"a"}`},
		{false, `{"id":"a","component":"","child":"a"}`},
		{false, `{"id":"a","component":null,"child":"a"}`},
		{true, `{"id":"a","component":"Card","child":"a"}`},
		{true, `{"id":"a","component":"Foo","target":"a"}`},
		{true, `{"id":"a","component":{"Foo":{"target":"a"}}}`},
		{true, `{"id":"a","component":{"Foo":{"slots":["a"]}}}`},
		{true, `{"id":"a","component":{"Foo":{"detail":"a"}}}`},
		{true, `{"id":"a","component":{"Zed":{"x":[{"child":"a"}]}}}`},
		{true, `{"id":"a","component":{"Foo":{},"Card":{"child":"a"}}}`},
		{true, `{"id":"a","component":{"Card":{"child":"a"},"Foo":{}}}`},
		{true, `{"id":"a","component":{"Card":7,"Foo":{"target":"a"}}}`},
		{true, `{"id":"a","component":{"":{"child":"a"}}}`},
		{true, `{"id":"a","component":{"Card":{"child":"b"}}},{"id":"b","component":{"Foo":{"cells":{"componentId":"a"}}}}`},
	} {
		ver := "0.9"
		wrap := v09Msg
		if tc.v08 {
			ver, wrap = "0.8", v08Msg
		}
		cat := shapesCatalog(t, ver, nil)
		for _, mask := range []uint64{allStubs, oddStubs, noStubs, 1} {
			for _, strict := range []bool{false, true} {
				e, msg, ok := withStubs(t, cat, wrap(tc.m), mask)
				if !ok {
					t.Fatalf("no decode %s", tc.m)
				}
				err := e.validate(msg, strict)
				if diff, _ := judgementDiff(e, msg, strict, err); diff != "" {
					t.Errorf("%s mask %x strict %v stubs %d: %s", tc.m, mask, strict, e.sc.stubs, diff)
				}
			}
		}
	}
}
