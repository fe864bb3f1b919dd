package parser

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// checkFullComponents compares the full component set a renderer holds
// after applying the delta yields (d) with the one the complete messages
// leave (c), orphans included, surface by surface:
//
//   - every component of c is in d: in the v0.9 family with the same
//     encoding; in v0.8 (whose snapshots normalise data binding paths) by id;
//   - every other component of d is a placeholder of a whole id, encoded as
//     the family's placeholder: "loading_"+X where a component of c names X
//     in a child field, or "loading_children_"+P for a component P of c (a
//     child list still arriving). A placeholder for a prefix of an id that
//     was still arriving is an orphan no later yield replaces.
func checkFullComponents(c, d *uiState, v09 bool) error {
	var errs []string
	for _, sid := range sortedKeysOf(c.comps, d.comps) {
		cc, dc := c.comps[sid], d.comps[sid]
		kids := map[string]bool{}
		for _, enc := range cc {
			comp, _ := decodeObject([]byte(enc))
			collectChildIDs(comp, kids)
		}
		for _, id := range sortedKeysOf(cc, nil) {
			got, ok := dc[id]
			switch {
			case !ok:
				errs = append(errs, fmt.Sprintf("surface %q: component %q missing", sid, id))
			case v09 && got != cc[id]:
				errs = append(errs, fmt.Sprintf("surface %q: component %q is %s, want %s", sid, id, got, cc[id]))
			}
		}
		for _, id := range sortedKeysOf(dc, nil) {
			if _, ok := cc[id]; ok {
				continue
			}
			whole := false
			if x, ok := strings.CutPrefix(id, "loading_"); ok {
				p, isList := strings.CutPrefix(x, "children_")
				_, parent := cc[p]
				whole = kids[x] || (isList && parent)
			}
			if !whole {
				errs = append(errs, fmt.Sprintf("surface %q: orphan %q is neither a component of the complete messages nor the placeholder of a whole id: %s", sid, id, dc[id]))
				continue
			}
			if want := placeholderEncoding(id, v09); dc[id] != want {
				errs = append(errs, fmt.Sprintf("surface %q: placeholder %s, want %s", sid, dc[id], want))
			}
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("full component sets (complete vs delta) differ:\n%s", strings.Join(errs, "\n"))
	}
	return nil
}

// collectChildIDs adds to ids every id that v names in a child field, at
// any depth (the fields whose missing ids get placeholders).
func collectChildIDs(v any, ids map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if slices.Contains(childFields[:], k) {
				switch cv := val.(type) {
				case string:
					ids[cv] = true
				case []any:
					for _, el := range cv {
						if s, ok := el.(string); ok {
							ids[s] = true
						}
					}
				}
			}
			collectChildIDs(val, ids)
		}
	case []any:
		for _, el := range x {
			collectChildIDs(el, ids)
		}
	}
}

// placeholderEncoding is the canonical encoding of placeholder id.
func placeholderEncoding(id string, v09 bool) string {
	if v09 {
		return canonicalJSON(map[string]any{"id": id, "component": "Row", "children": []any{}})
	}
	return canonicalJSON(map[string]any{"id": id, "component": map[string]any{"Row": map[string]any{"children": map[string]any{"explicitList": []any{}}}}})
}

// sortedKeysOf returns the keys of a and b, sorted, each once.
func sortedKeysOf[V any](a, b map[string]V) []string {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// TestCheckFullComponents holds the full-set comparison to what it must
// catch: each case is a complete state and a delta state.
func TestCheckFullComponents(t *testing.T) {
	complete := map[string]string{
		"root": `{"children":["ab","c"],"component":"Column","id":"root"}`,
		"ab":   `{"component":"Text","id":"ab","text":"x"}`,
	}
	with := func(extra map[string]string) map[string]map[string]string {
		m := map[string]string{}
		for k, v := range complete {
			m[k] = v
		}
		for k, v := range extra {
			if v == "" {
				delete(m, k)
			} else {
				m[k] = v
			}
		}
		return map[string]map[string]string{"s": m}
	}
	tests := []struct {
		name    string
		delta   map[string]map[string]string
		wantErr string // "" when the states must agree
	}{
		{"same components", with(nil), ""},
		{"placeholders of whole ids", with(map[string]string{
			"loading_ab":            placeholderEncoding("loading_ab", true),
			"loading_c":             placeholderEncoding("loading_c", true),
			"loading_children_root": placeholderEncoding("loading_children_root", true),
		}), ""},
		{"placeholder of a prefix", with(map[string]string{"loading_a": placeholderEncoding("loading_a", true)}), `orphan "loading_a"`},
		{"placeholder of the empty id", with(map[string]string{"loading_": placeholderEncoding("loading_", true)}), `orphan "loading_"`},
		{"list placeholder of no component", with(map[string]string{"loading_children_zz": placeholderEncoding("loading_children_zz", true)}), `orphan "loading_children_zz"`},
		{"placeholder with content", with(map[string]string{"loading_c": `{"component":"Text","id":"loading_c"}`}), `placeholder {"component":"Text"`},
		{"component missing", with(map[string]string{"ab": ""}), `component "ab" missing`},
		{"component changed", with(map[string]string{"ab": `{"component":"Text","id":"ab","text":"y"}`}), `component "ab" is`},
		{"surface missing", map[string]map[string]string{}, `component "root" missing`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, d := newUIState(), newUIState()
			c.comps = with(nil)
			d.comps = tc.delta
			err := checkFullComponents(c, d, true)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("unexpected difference: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("err = %v, want one with %q", err, tc.wantErr)
			}
		})
	}
}

// TestPutBackComponentSeesArrivedChild: v0.8 messages held until
// beginRendering are replayed one at a time, so an earlier form of a
// component ("a" listing "x", processed while x was missing) can be put
// back after a later one replaced it. When x then arrives nothing waits for
// it, so the component must not trust what its earlier processing found
// missing: once the root reaches "a" again, "a" lists x itself, not
// loading_x (the processing that skipped the lookup of a child it had found
// missing wrote loading_x).
func TestPutBackComponentSeesArrivedChild(t *testing.T) {
	held := `{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Column":{"children":{"explicitList":["a"]}}}}]}},` +
		`{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Text":{"text":{"literalString":"t"}}}}]}},` +
		`{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Row":{"children":{"explicitList":["x"]}}}},{"id":"root","component":{"Row":{"children":{"explicitList":[]}}}}]}},` +
		`{"beginRendering":{"surfaceId":"s","root":"root"}}`
	later := `{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"x","component":{"Text":{"text":{"literalString":"t"}}}},{"id":"root","component":{"Column":{"children":{"explicitList":["a"]}}}}]}}`
	for _, c := range []struct{ name, in string }{
		{"two_blocks", "<a2ui-json>[" + held + "]</a2ui-json><a2ui-json>[" + later + "]</a2ui-json>"},
		{"one_block", "<a2ui-json>[" + held + "," + later + "]</a2ui-json>"},
	} {
		for _, mode := range []Mode{ModeProgressive, ModeDelta} {
			for _, n := range []int{1, 7, len(c.in)} {
				t.Run(fmt.Sprintf("%s/%s/chunk_%d", c.name, mode, n), func(t *testing.T) {
					msgs, _ := runMode(t, mode, nil, chunked([]byte(c.in), n))
					last := ""
					for _, m := range msgStrings(msgs) {
						if strings.Contains(m, `"id":"a"`) {
							last = m
						}
					}
					if !strings.Contains(last, `"explicitList":["x"]`) || strings.Contains(last, "loading_x") {
						t.Errorf("last yield of a: %s\nwant it listing x itself", last)
					}
				})
			}
		}
	}
}
