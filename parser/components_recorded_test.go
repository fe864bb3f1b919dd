package parser

import (
	"fmt"
	"testing"
)

// TestFastPathMatchesRecordedOnSuite: the streaming suite's cases, fed as
// their steps and in chunks of 1, 3 and 16 bytes, give their recorded
// messages (see golden_paths_test.go) up to key order (renderCanonical).
func TestFastPathMatchesRecordedOnSuite(t *testing.T) {
	g := newPathGolden(t)
	cases, _ := loadStreamingSuite(t)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			var steps [][]byte
			var all []byte
			for _, st := range c.Steps {
				steps = append(steps, []byte(st.Input))
				all = append(all, st.Input...)
			}
			g.checkModes(t, t.Name()[len(g.name)+1:], renderCanonical, append([][][]byte{steps}, splitsOf(all, false, 1, 3, 16)...))
		})
	}
}

// TestFastPathMatchesRecordedOnCorpus: corpus turns, in chunks of 1, 5, 16
// and 256 bytes, give their recorded messages up to key order.
func TestFastPathMatchesRecordedOnCorpus(t *testing.T) {
	t.Parallel() // long: runs beside the other long tests, after the sequential ones (the heap measurements among them)
	g := newPathGolden(t)
	picked := []int{0, 1, 2, 7, 42, 99, 150, 199}
	for _, corpus := range []string{"stream_v09", "stream_v08"} {
		turns := corpusTurns(t, corpus, picked...)
		for ti, turn := range turns {
			for _, n := range []int{1, 5, 16, 256} {
				name := fmt.Sprintf("%s/turn%d/chunk%d", corpus, picked[ti], n)
				t.Run(name, func(t *testing.T) {
					g.checkModes(t, name, renderCanonical, [][][]byte{chunked(turn, n)})
				})
			}
		}
	}
}

const fastCS = `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},`

// fastPathCases are streams of components of common and odd shapes
// (leaves and children, whitespace and escapes, empty and template child
// lists, keys twice, self-references and cycles, an id that is no string,
// v0.8 definitions and paths to normalise, components sent again, invalid
// JSON) and of data model messages of odd shapes.
var fastPathCases = []struct {
	name string
	in   string
}{
	{"leaf_and_children", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["a","b","a"]},{"id":"a","component":"Text","text":"x y z"},{"id":"b","component":"Button","child":"a"}]}}]</a2ui-json>`},
	{"whitespace_and_escapes", fastCS + `{ "version" : "v0.9" , "updateComponents" : { "surfaceId" : "s" , "components" : [ { "id" : "root" , "component" : "Column" , "children" : [ "a" , "b\u0041" ] } , { "id" : "a" , "component" : "Text" , "text" : "q\"uote\\ \u00e9 ok" , "n": -1.5e3, "t": true, "f": false, "z": null } ] } } ]</a2ui-json>`},
	{"empty_children_reads_buffer", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":[]},{"id":"x","component":"Text","text":"t"}]}}]</a2ui-json>`},
	{"nested_child_field_and_tabs", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Tabs","tabs":[{"title":"a","child":"t1"}],"extra":{"child":"zz"}},{"id":"t1","component":"Text","text":"x"}]}}]</a2ui-json>`},
	{"empty_object_in_partial", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"abc","style":{},"more":"def"}]}}]</a2ui-json>`},
	{"duplicate_and_odd_keys", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"a","child":"b"},{"id":"a","component":"Text","text":"1","root":"x"},{"id":"b","component":"Text","text":"2","componentId":"a"}]}}]</a2ui-json>`},
	{"duplicate_plain_keys", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"a","":"","":"x","text":"b"},{"id":"n","component":"Text","style":{"c":1,"d":{"e":1,"e":2},"c":2}}]}}]</a2ui-json>`},
	{"many_keys", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"t"` + manyKeys(40) + `,"style":{` + manyKeys(40)[1:] + `}}]}}]</a2ui-json>`},
	{"v08_duplicate_prop_keys", `<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"root"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Text":{"text":{"literalString":"x"},"usageHint":"h1","usageHint":"h2"}}}]}}]</a2ui-json>`},
	{"self_reference", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"root"}]}}]</a2ui-json>`},
	{"cycle", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"a"},{"id":"a","component":"Card","child":"root"}]}}]</a2ui-json>`},
	{"components_in_create_surface", `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"},"updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"x"}]}}]</a2ui-json>`},
	{"bare_object", `<a2ui-json>{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}}</a2ui-json><a2ui-json>{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Row","children":["a"]},{"id":"a","component":"Text","text":"hello world"}]}}</a2ui-json>`},
	{"invalid_component", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":tru}]}}]</a2ui-json>`},
	{"v08_shapes", `<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"root"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Column":{"children":{"explicitList":["a","b","c","a"]},"alignment":"center"}}},{"id":"a","component":{"Text":{"text":{"literalString":"hello there"},"usageHint":"h2"}}},{"id":"b","component":{"Button":{"child":"bt","action":{"name":"go","context":[{"key":"k","value":{"path":"/x"}}]}}}},{"id":"bt","component":{"Text":{"text":{"path":"/label"}}}},{"id":"c","component":{"TextField":{"label":{"literalString":"Name"},"text":{"path":"name"}}}}]}}]</a2ui-json>`},
	{"v08_paths_to_normalise", `<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"root"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Row":{"children":{"explicitList":["a","b","c"]}}}},{"id":"a","component":{"Text":{"text":{"path":"//double","literalString":"x"}}}},{"id":"b","component":{"Text":{"text":{"path":7}}}},{"id":"c","component":{"Text":{"text":{"literalString":"y","path":"/z"}}}}]}}]</a2ui-json>`},
	{"v08_template_and_odd", `<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"root"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"List":{"children":{"template":{"componentId":"item","dataBinding":"/items"}}}}},{"id":"item","component":{"Card":{"child":"root"}},"weight":{}},{"id":"e","component":{"Text":{}}},{"id":"two","component":{"Text":{"text":{"literalString":"a"}},"Image":{"url":{"literalString":"b"}}}},{"id":"list","component":{"Column":{"children":{"explicitList":[]}}}}]}}]</a2ui-json>`},
	{"v08_pending_before_begin", `<a2ui-json>[{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Card":{"child":"a"}}},{"id":"a","component":{"Text":{"text":{"literalString":"late"}}}}]}},{"beginRendering":{"surfaceId":"s","root":"root"}}]</a2ui-json>`},
	{"partial_regrows_after_complete", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["a","b"]},{"id":"a","component":"Text","text":"first version"},{"id":"a","component":"Text","text":"second, longer version"},{"id":"b","component":"Text","text":"bee"}]}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Text","text":"third version"},{"id":"root","component":"Column","children":["b","a","c"]},{"id":"c","component":"Text","text":"sea"}]}}]</a2ui-json>`},
	{"children_cut_then_arrive", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["alpha","beta","gamma"]},{"id":"beta","component":"Row","children":["alpha","delta"]},{"id":"alpha","component":"Text","text":"a a a"},{"id":"delta","component":"Card","child":"gamma"},{"id":"gamma","component":"Text","text":"g g g"}]}}]</a2ui-json>`},
	{"non_string_id", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":7,"component":"Text"},{"id":"root","component":"Column","children":[7,"a"]},{"id":"a","component":"Text","text":"x"}]}}]</a2ui-json>`},
	{"placeholder_named_like_its_parent", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["loading_x"]},{"id":"loading_x","component":"Card","child":"x"}]}}]</a2ui-json>`},
	{"data_bad_path", fastCS + `{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/a/~2","value":{"k":"a long enough value","k2":"another long value"}}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/ok","value":{"k":"a long enough value"}}}]</a2ui-json>`},
	{"v08_data_wrong_type", `<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"root"}},{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"a","valueString":"a long enough value"},{"key":"n","valueNumber":"not a number at all"},{"key":"b","valueString":"after it"}]}},{"dataModelUpdate":{"surfaceId":"s","contents":{"x":"an object of contents","y":"with two keys"}}}]</a2ui-json>`},
	{"modal_refs_of_its_own", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Modal","trigger":"b","content":"c"},{"id":"b","component":"Text","text":"open"},{"id":"c","component":"Text","text":"inside"}]}}]</a2ui-json>`},
	{"template_children", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["list","other","l2"]},{"id":"pre","component":"Text","text":"arrived first"},{"id":"list","component":"List","children":{ "path" : "/items", "componentId" : "item" },"direction":"vertical"},{"id":"other","component":"Card","weight":2,"children":{"componentId":"x","extra":{"z":[1,{"k":"v"}],"a":true}},"child":"y"},{"id":"none","component":"List","children":{"path":"/p"}},{"id":"l2","component":"List","children":{"componentId":"pre"}},{"id":"item","component":"Text","text":{"path":"name"}},{"id":"y","component":"Text","text":"why"}]}}]</a2ui-json>`},
	{"template_odd", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["a","b","c","d","e"]},{"id":"a","component":"List","children":{}},{"id":"b","component":"List","children":{"componentId":7}},{"id":"c","component":"List","children":{"componentId":"x","explicitList":["y"]}},{"id":"d","component":"List","children":{"componentId":"x","componentId":"z"}},{"id":"e","component":"List","children":{"template":{"componentId":"x"}}},{"id":"x","component":"Text","text":"ex"}]}}]</a2ui-json>`},
	{"v08_template", `<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"root"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Column":{"children":{"explicitList":["list","both"]}}}},{"id":"list","component":{"List":{"direction":"vertical","children":{ "template" : { "dataBinding" : "/items", "componentId" : "item" } }}}},{"id":"both","weight":1,"component":{"Row":{"explicitList":["t"],"children":{"template":{"componentId":"item2","dataBinding":"/more"}}}}},{"id":"item","component":{"Text":{"text":{"path":"/name"}}}},{"id":"t","component":{"Text":{"text":{"literalString":"tee"}}}}]}}]</a2ui-json>`},
	{"v08_template_odd", `<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"root"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Column":{"children":{"explicitList":["a","b","c"]}}}},{"id":"a","component":{"List":{"children":{"template":{"componentId":"x","path":"/p"}}}}},{"id":"b","component":{"List":{"children":{"template":{}}}}},{"id":"c","component":{"List":{"children":{"template":{"componentId":"x"},"explicitList":["x"]}}}},{"id":"x","component":{"Text":{"text":{"literalString":"ex"}}}}]}}]</a2ui-json>`},
	{"v08_required_missing", `<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"root"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Column":{"children":{"explicitList":["a","b"]}}}},{"id":"a","component":{"Image":{"usageHint":"avatar"}}},{"id":"b","component":{"Text":{"text":{"literalString":"long enough to be cut"}}}}]}}]</a2ui-json>`},
}

// TestFastPathCases: fastPathCases, in chunks of 1, 2, 7 and 16 bytes and
// whole, give their recorded messages up to key order.
func TestFastPathCases(t *testing.T) {
	g := newPathGolden(t)
	for _, tc := range fastPathCases {
		t.Run(tc.name, func(t *testing.T) {
			g.checkModes(t, tc.name, renderCanonical, splitsOf([]byte(tc.in), false, 1, 2, 7, 16, 0))
		})
	}
}

// manyKeys returns n members ,"k0":0,"k1":1,... for a JSON object.
func manyKeys(n int) string {
	var b []byte
	for i := range n {
		b = fmt.Appendf(b, `,"k%d":%d`, i, i)
	}
	return string(b)
}
