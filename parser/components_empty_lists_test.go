package parser

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/speccatalog"
)

// emptyListComponents returns, for the components in message m that have
// an empty child list or the loading_children_ placeholder of one, or a
// template child list (hasTemplate), their bytes as the parser wrote them.
// The parser writes such a component in canonical encoding (keys sorted,
// see canonShapeCases), so renderCanonical compares these byte for byte,
// where other components are compared up to key order.
func emptyListComponents(m []byte) string {
	var out strings.Builder
	var walk func(raw json.RawMessage)
	walk = func(raw json.RawMessage) {
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return
		}
		for k, v := range obj {
			var list []json.RawMessage
			if k != "components" || json.Unmarshal(v, &list) != nil {
				walk(v)
				continue
			}
			for _, c := range list {
				var comp map[string]any
				if json.Unmarshal(c, &comp) == nil && (hasEmptyOrOpenList(comp, comp["id"]) || hasTemplate(comp)) {
					fmt.Fprintf(&out, "exact=%s;", c)
				}
			}
		}
	}
	walk(m)
	return out.String()
}

// hasTemplate reports whether v holds a template child list: a
// "children" object with a "componentId" (v0.9) or a "template" (v0.8).
// Such a component is also written with its keys sorted.
func hasTemplate(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if m, ok := val.(map[string]any); ok && k == "children" {
				_, id := m["componentId"]
				_, tpl := m["template"]
				if id || tpl {
					return true
				}
			}
			if hasTemplate(val) {
				return true
			}
		}
	case []any:
		for _, val := range x {
			if hasTemplate(val) {
				return true
			}
		}
	}
	return false
}

// hasEmptyOrOpenList reports whether v holds a "children" or
// "explicitList" list that is empty or holds only loading_children_<id>.
func hasEmptyOrOpenList(v any, id any) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if l, ok := val.([]any); ok && (k == "children" || k == "explicitList") {
				if len(l) == 0 || (len(l) == 1 && l[0] == fmt.Sprint("loading_children_", id)) {
					return true
				}
			}
			if hasEmptyOrOpenList(val, id) {
				return true
			}
		}
	case []any:
		for _, item := range x {
			if hasEmptyOrOpenList(item, id) {
				return true
			}
		}
	}
	return false
}

const fastCSv08 = `<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"root"}},`

// emptyListCases are components whose child lists are empty while they
// arrive (open), stay empty (closed), or are filled later.
var emptyListCases = []struct {
	name string
	in   string
}{
	{"v09_open_then_filled", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["alpha","beta"],"gap":2},{"id":"alpha","component":"Text","text":"a"},{"id":"beta","component":"Row","children":[  ]}]}}]</a2ui-json>`},
	{"v09_closed_then_filled", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":[],"style":{"b":1,"a":{"d":[2,{"f":1,"e":0}],"c":"x"}},"align":"start"}]}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["a"],"align":"start"},{"id":"a","component":"Text","text":"t"}]}}]</a2ui-json>`},
	{"v09_both_lists_and_children", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"c1","explicitList":[],"children":[],"contentChild":"c2"},{"id":"c2","component":"Text","text":"two"}]}}]</a2ui-json>`},
	{"v09_list_then_empty_list", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Card","explicitList":["m1","m2"],"children":[],"t":1}]}}]</a2ui-json>`},
	// A child named like the placeholder of an empty list, in a list
	// that is not empty: the list's first version (open, empty) and the
	// complete one read the same (review: the parser's previous engine
	// once wrote the second in the stream's key order, an extra yield).
	{"v09_child_named_like_the_placeholder_only", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["children_root"]}]}}]</a2ui-json>`},
	{"v09_child_named_like_the_placeholder", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"children_root","children":[]},{"id":"children_root","component":"Text","text":"x"}]}}]</a2ui-json>`},
	{"v09_escapes_with_empty_list", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"q\"uote \u00e9 <&>","children":[],"z":"\u2028"}]}}]</a2ui-json>`},
	{"v09_line_separator_in_key_with_empty_list", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","a` + "\u2028" + `b":1,"children":[]}]}}]</a2ui-json>`},
	{"v09_invalid_utf8_with_empty_list", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"bad ` + "\xff\xfe" + ` bytes","children":[]}]}}]</a2ui-json>`},
	{"v09_non_ascii_with_empty_list", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"héllo wörld","é":1,"e":2,"children":[]}]}}]</a2ui-json>`},
	// More than two empty lists in one component (the nested ones too).
	{"v09_many_empty_lists", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"children":["m"],"component":"Column","id":"root"},{"children":[],"component":"Card","id":"m","tabs":[{"child":"c","explicitList":[]},{"children":[]},{"children":[],"explicitList":["z"]}],"x":{"children":[]}}]}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"children":["c"],"component":"Card","id":"m","tabs":[{"children":[]}]},{"component":"Text","id":"c","text":"c"}]}}]</a2ui-json>`},
	{"v08_many_empty_lists", fastCSv08 + `{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Card":{"children":{"explicitList":[]},"tabItems":[{"children":{"explicitList":[]}},{"children":[],"explicitList":[]}]}},"id":"root"}]}}]</a2ui-json>`},
	{"v08_explicitList_open_then_filled", fastCSv08 + `{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Column":{"children":{"explicitList":["a","b"]},"alignment":"center"}}},{"id":"a","component":{"Text":{"text":{"literalString":"hello"}}}},{"id":"b","component":{"List":{"direction":"vertical","children":{"explicitList":[]}}}}]}}]</a2ui-json>`},
	{"v08_explicitList_closed_then_filled", fastCSv08 + `{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Row":{"distribution":"start","children":{"explicitList":[]},"alignment":"center"}},"weight":1}]}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Row":{"children":{"explicitList":["a"]}}}},{"id":"a","component":{"Text":{"text":{"path":"/t"}}}}]}}]</a2ui-json>`},
	{"v08_list_property_and_child", fastCSv08 + `{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Card":{"explicitList":[],"child":"c","children":["d"]}}},{"id":"c","component":{"Text":{"text":{"literalString":"c"}}}}]}}]</a2ui-json>`},
	{"v08_empty_definition_then_duplicate", fastCSv08 + `{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Column":{"children":{"explicitList":["d","n"]}}}},{"id":"d","component":{},"component":{"Text":{"text":{"literalString":"dup"}}}},{"id":"n","component":{"Row":{"children":{},"children":{"explicitList":["x"]}}}}]}}]</a2ui-json>`},
	{"v08_empty_definition_then_more", fastCSv08 + `{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{},"weight":1},{"id":"x","component":{"Row":{"children":{},"alignment":"center"}}},{"id":"y","component":{"Row":{"children":{}}}}]}}]</a2ui-json>`},
}

// TestFastPathEmptyLists: components with empty child lists give call by
// call their recorded messages (see golden_paths_test.go; those
// components byte for byte, see renderCanonical), with and without a
// catalog, fed one byte at a time, in two pieces split at every byte, and
// at a few chunk sizes.
func TestFastPathEmptyLists(t *testing.T) {
	t.Parallel() // long: runs beside the other long tests, after the sequential ones (the heap measurements among them)
	g := newPathGolden(t)
	v09, v08 := WithCatalog(speccatalog.BasicV09(t)), WithCatalog(speccatalog.StandardV08(t))
	for _, tc := range emptyListCases {
		cat := v09
		if strings.HasPrefix(tc.name, "v08") {
			cat = v08
		}
		in := []byte(tc.in)
		for _, opts := range []struct {
			name string
			opts []Option
		}{{"no catalog", nil}, {"catalog", []Option{cat}}} {
			name := tc.name + "/" + opts.name
			t.Run(name, func(t *testing.T) {
				g.checkModes(t, name, renderCanonical, splitsOf(in, true, 1, 3, 16, 0), opts.opts...)
			})
		}
	}
}
