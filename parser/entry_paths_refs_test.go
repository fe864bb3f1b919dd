package parser

import (
	"fmt"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/speccatalog"
)

// TestCompScannerPaths checks the v0.8 data-binding paths the byte-level
// reader takes (compFast, its bytes the canonical encoding when a path is
// normalised, and the processed bytes with the normalisation applied) and
// those it leaves to the generic path (compUnread).
func TestCompScannerPaths(t *testing.T) {
	const pre, post = `{"component":{"Text":`, `},"id":"r"}`
	for _, tc := range []struct {
		name string
		comp string
		want int
		out  string // compFast: the bytes kept
		proc string // compFast: with the normalisation
	}{
		{"already normal", pre + `{"text":{"path":"/x"}}` + post, compFast,
			pre + `{"text":{"path":"/x"}}` + post, pre + `{"text":{"path":"/x"}}` + post},
		{"other keys cleared", `{"id":"r","component":{"Text":{"text":{"path":"/x","literalString":"a"},"usageHint":"h1"}}}`, compFast,
			pre + `{"text":{"literalString":"a","path":"/x"},"usageHint":"h1"}` + post, pre + `{"text":{"path":"/x"},"usageHint":"h1"}` + post},
		{"leading slashes", pre + `{"text":{"path":"///x"}}` + post, compFast,
			pre + `{"text":{"path":"///x"}}` + post, pre + `{"text":{"path":"/x"}}` + post},
		{"only slashes", pre + `{"text":{"path":"//"}}` + post, compFast,
			pre + `{"text":{"path":"//"}}` + post, pre + `{"text":{"path":"/"}}` + post},
		{"no leading slash", pre + `{"text":{"literalString":"a","path":"x\"y"}}` + post, compFast,
			pre + `{"text":{"literalString":"a","path":"x\"y"}}` + post, pre + `{"text":{"literalString":"a","path":"/x\"y"}}` + post},
		{"empty path", pre + `{"text":{"path":""}}` + post, compFast,
			pre + `{"text":{"path":""}}` + post, pre + `{"text":{"path":"/"}}` + post},
		{"number and literals", pre + `{"a":{"path":-1.50e3},"b":{"path":true},"c":{"path":false},"d":{"path":null,"x":1}}` + post, compFast,
			pre + `{"a":{"path":-1.50e3},"b":{"path":true},"c":{"path":false},"d":{"path":null,"x":1}}` + post,
			pre + `{"a":{"path":"/-1.50e3"},"b":{"path":"/True"},"c":{"path":"/False"},"d":{"path":null,"x":1}}` + post},
		{"in arrays", pre + `{"items":[{"path":"a"},[{"path":"/b","x":{"path":"c"}}]]}` + post, compFast,
			pre + `{"items":[{"path":"a"},[{"path":"/b","x":{"path":"c"}}]]}` + post, pre + `{"items":[{"path":"/a"},[{"path":"/b"}]]}` + post},
		{"cleared object drops inner edits", pre + `{"text":{"a":{"path":"q"},"path":"/p"}}` + post, compFast,
			pre + `{"text":{"a":{"path":"q"},"path":"/p"}}` + post, pre + `{"text":{"path":"/p"}}` + post},
		{"escaped slash", pre + `{"text":{"path":"\/\/x"}}` + post, compFast,
			pre + `{"text":{"path":"//x"}}` + post, pre + `{"text":{"path":"/x"}}` + post},
		{"outside the definition", `{"component":{"Text":{"text":"a"}},"id":"r","w":{"path":"x","z":1}}`, compFast,
			`{"component":{"Text":{"text":"a"}},"id":"r","w":{"path":"x","z":1}}`, `{"component":{"Text":{"text":"a"}},"id":"r","w":{"path":"x","z":1}}`},
		{"with slots", `{"id":"r","component":{"Card":{"title":{"path":"t"},"child":"k"}}}`, compFast,
			`{"component":{"Card":{"child":"k","title":{"path":"t"}}},"id":"r"}`, `{"component":{"Card":{"child":"loading_k","title":{"path":"/t"}}},"id":"r"}`},
		{"template path kept", `{"component":{"List":{"children":{"template":{"componentId":"i","dataBinding":"/d","path":"///p"}}}},"id":"r"}`, compFast,
			`{"component":{"List":{"children":{"template":{"componentId":"i","dataBinding":"/d","path":"///p"}}}},"id":"r"}`,
			`{"component":{"List":{"children":{"template":{"componentId":"loading_i","dataBinding":"/d","path":"/p"}}}},"id":"r"}`},
		{"template path cleared", `{"component":{"List":{"children":{"template":{"dataBinding":"/d","path":"/p"}}}},"id":"r"}`, compFast,
			`{"component":{"List":{"children":{"template":{"dataBinding":"/d","path":"/p"}}}},"id":"r"}`,
			`{"component":{"List":{"children":{"template":{"path":"/p"}}}},"id":"r"}`},
		{"template path prefixed", `{"component":{"List":{"children":{"template":{"componentId":7,"path":"p"}}}},"id":"r"}`, compFast,
			`{"component":{"List":{"children":{"template":{"componentId":7,"path":"p"}}}},"id":"r"}`,
			`{"component":{"List":{"children":{"template":{"componentId":7,"path":"/p"}}}},"id":"r"}`},
		{"object path", pre + `{"text":{"path":{"b":[1,"<\b"],"a":{"path":"q"}}}}` + post, compFast,
			pre + `{"text":{"path":{"a":{"path":"q"},"b":[1,"<\u0008"]}}}` + post, pre + `{"text":{"path":"/{\"a\":{\"path\":\"q\"},\"b\":[1,\"\\u003c\\b\"]}"}}` + post},
		{"list path", pre + `{"text":{"path":[],"x":1},"u":{"path":[null,2.50]}}` + post, compFast,
			pre + `{"text":{"path":[],"x":1},"u":{"path":[null,2.50]}}` + post, pre + `{"text":{"path":"/[]","x":1},"u":{"path":"/[null,2.50]"}}` + post},
		{"path with componentId", pre + `{"text":{"componentId":"c","path":"//x","z":1}}` + post, compFast,
			pre + `{"text":{"componentId":"c","path":"//x","z":1}}` + post, pre + `{"text":{"componentId":"loading_c","path":"/x","z":1}}` + post},
		{"path with a componentId not a string", pre + `{"text":{"componentId":5,"path":"/x","z":1}}` + post, compFast,
			pre + `{"text":{"componentId":5,"path":"/x","z":1}}` + post, pre + `{"text":{"componentId":5,"path":"/x","z":1}}` + post},
		{"path property", pre + `{"b":{"path":"q"},"child":"c","path":"//x"}` + post, compFast,
			pre + `{"b":{"path":"q"},"child":"c","path":"//x"}` + post, pre + `{"path":"/x"}` + post},
		{"definition path", `{"id":"r","component":{"Text":{"text":{"path":"q"}},"path":"/x"}}`, compFast,
			`{"component":{"Text":{"text":{"path":"q"}},"path":"/x"},"id":"r"}`, `{"component":{"path":"/x"},"id":"r"}`},
		{"definition path only", `{"id":"r","component":{"path":7}}`, compFast,
			`{"component":{"path":7},"id":"r"}`, `{"component":{"path":"/7"},"id":"r"}`},
		{"definition path first", `{"id":"r","component":{"path":{"a":1},"x":{"child":"c"}}}`, compFast,
			`{"component":{"path":{"a":1},"x":{"child":"c"}},"id":"r"}`, `{"component":{"path":"/{\"a\":1}","x":{"child":"loading_c"}},"id":"r"}`},
		{"path property beside a componentId", pre + `{"componentId":"i","path":"//x","z":1}` + post, compFast,
			pre + `{"componentId":"i","path":"//x","z":1}` + post, pre + `{"componentId":"loading_i","path":"/x","z":1}` + post},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c compScanner
			got := c.scanAt([]byte(tc.comp), true, 1, 0)
			if got != tc.want {
				t.Fatalf("outcome %d, want %d", got, tc.want)
			}
			if got != compFast {
				return
			}
			if string(c.out) != tc.out {
				t.Errorf("bytes %s, want %s", c.out, tc.out)
			}
			// The processed form, every child missing (a reference the
			// processing does not walk is no child).
			var names idNames
			fc := c.result(&names)
			var out []byte
			last, j := 0, 0
			for _, sl := range fc.slots {
				if sl.field == cfRef {
					continue
				}
				out, last, j = fc.putEdits(out, last, j, int(sl.a))
				out = append(append(out, fc.src[last:sl.a]...), "loading_"...)
				last = int(sl.a)
			}
			out, last, _ = fc.putEdits(out, last, j, len(fc.src))
			if out = append(out, fc.src[last:]...); string(out) != tc.proc {
				t.Errorf("processed %s, want %s", out, tc.proc)
			}
		})
	}
}

// pathShapeCases are v0.8 streams with data-binding paths the processing
// normalises, read at byte level (entry_paths.go); every component has its
// keys in order (see canonShapeCases).
var pathShapeCases = []struct{ name, in string }{
	{"cleared_and_prefixed", fastCSv08 + `{"surfaceUpdate":{"components":[{"component":{"Column":{"children":{"explicitList":["a","b","c"]}}},"id":"root"},{"component":{"Text":{"text":{"literalString":"hi","path":"/name"},"usageHint":{"path":"h"}}},"id":"a"},{"component":{"Text":{"text":{"path":"//x"}}},"id":"b"},{"component":{"Text":{"text":{"path":""}}},"id":"c"}],"surfaceId":"s"}}]</a2ui-json>`},
	{"scalars_and_arrays", fastCSv08 + `{"surfaceUpdate":{"components":[{"component":{"List":{"children":{"explicitList":["a"]},"items":[{"path":12.5},[{"path":true,"x":{"path":"q"}}],{"path":null,"y":false}]}},"id":"root"},{"component":{"Text":{"text":{"a":{"path":"q"},"path":"/p"}}},"id":"a","weight":{"path":"w","z":1}}],"surfaceId":"s"}}]</a2ui-json>`},
	{"with_placeholders", fastCSv08 + `{"surfaceUpdate":{"components":[{"component":{"Column":{"alignment":{"path":"al"},"children":{"explicitList":["a","zz"]},"distribution":{"literalString":"x","path":"/d"}}},"id":"root"},{"component":{"Card":{"child":"gone","title":{"path":"t"}}},"id":"a"}],"surfaceId":"s"}}]</a2ui-json>`},
	{"with_open_list", fastCSv08 + `{"surfaceUpdate":{"components":[{"component":{"Row":{"alignment":{"path":"x"},"children":{"explicitList":[]},"label":{"path":"y"}}},"id":"root"}],"surfaceId":"s"}}]</a2ui-json>`},
	{"template_paths", fastCSv08 + `{"surfaceUpdate":{"components":[{"component":{"Column":{"children":{"explicitList":["a","b","c"]}}},"id":"root"},{"component":{"List":{"children":{"template":{"componentId":"i","dataBinding":"/d","path":"///p"}}}},"id":"a"},{"component":{"List":{"children":{"template":{"dataBinding":"/d","path":"/p"}}}},"id":"b"},{"component":{"List":{"children":{"template":{"componentId":7,"path":"p"}}}},"id":"c"},{"component":{"Text":{"text":{"literalString":"i"}}},"id":"i"}],"surfaceId":"s"}}]</a2ui-json>`},
	// Paths that are objects or lists (what they hold is not walked), and
	// objects cleared by their path whose child fields go (protocol.
	// ComponentRefs may still read them: references, no placeholders).
	{"object_and_list_paths", fastCSv08 + `{"surfaceUpdate":{"components":[{"component":{"Column":{"children":{"explicitList":["a","b"]}}},"id":"root"},{"component":{"Text":{"text":{"path":{"child":"gone","children":[],"x":{"path":"/q","z":1}}},"usageHint":{"path":["<&>",{"children":["g2"]}]}}},"id":"a"},{"component":{"Card":{"child":"c","title":{"path":{}}}},"id":"b"}],"surfaceId":"s"}}]</a2ui-json>`},
	{"cleared_objects_with_children", fastCSv08 + `{"surfaceUpdate":{"components":[{"component":{"Column":{"children":{"explicitList":["a","b","t"]}}},"id":"root"},{"component":{"Card":{"extra":{"child":"c1","children":["d1",""],"path":"/p","x":{"children":[]}},"title":{"literalString":"t"}}},"id":"a"},{"component":{"Tabs":{"tabItems":[{"child":"c2","path":"//p"},{"child":"c3","title":{"path":"t"}}]}},"id":"b"},{"component":{"Text":{"text":{"componentId":"c4","literalString":"x","path":"///w"}}},"id":"t"},{"component":{"Text":{"text":{"literalString":"c3"}}},"id":"c3"}],"surfaceId":"s"}}]</a2ui-json>`},
	// A path as a definition's member or a property.
	{"definition_and_property_paths", fastCSv08 + `{"surfaceUpdate":{"components":[{"component":{"Column":{"children":{"explicitList":["a","b","c","d"]}}},"id":"root"},{"component":{"Card":{"child":"c1","path":"/p","title":{"literalString":"t"}}},"id":"a"},{"component":{"Card":{"child":"c2","componentId":"c3","path":"//p"}},"id":"b"},{"component":{"Card":{"child":"c4"},"path":"/d"},"id":"c"},{"component":{"Text":{"text":{"literalString":"x"}},"path":["q"]},"id":"d"},{"component":{"path":"p"},"id":"e"}],"surfaceId":"s"}}]</a2ui-json>`},
	// v0.8 "children" objects that are no {"explicitList"} nor
	// {"template"} first: walked as a template is; a path there.
	{"children_objects", fastCSv08 + `{"surfaceUpdate":{"components":[{"component":{"Column":{"children":{"explicitList":["a","b","c","d","e"]}}},"id":"root"},{"component":{"List":{"children":{"componentId":"i1"}}},"id":"a"},{"component":{"List":{"children":{"componentId":"i2","path":"//p"}}},"id":"b"},{"component":{"List":{"children":{"path":"/p","template":{"componentId":"i3","dataBinding":"/d"}}}},"id":"c"},{"component":{"List":{"children":{"dataBinding":"/d","explicitList":["i4",7]}}},"id":"d"},{"component":{"List":{"children":{"child":"i5","explicitList":[]}}},"id":"e"}],"surfaceId":"s"}}]</a2ui-json>`},
	// A v0.8 template that is no object: a value, walked, no reference.
	{"templates_not_objects", fastCSv08 + `{"surfaceUpdate":{"components":[{"component":{"Column":{"children":{"explicitList":["a","b"]}}},"id":"root"},{"component":{"List":{"children":{"template":"x"}}},"id":"a"},{"component":{"List":{"children":{"template":["x",{"child":"c","path":"p"}],"z":{"children":[]}}}},"id":"b"}],"surfaceId":"s"}}]</a2ui-json>`},
	{"escapes", fastCSv08 + `{"surfaceUpdate":{"components":[{"component":{"Text":{"text":{"literalString":"a\"b","path":"\/\/x\ty"},"usageHint":{"path":"q\\"}}},"id":"root"}],"surfaceId":"s"}}]</a2ui-json>`},
}

// TestPathShapesMatchRecorded: streams with v0.8 paths to normalise give
// their recorded messages (the generic path's), byte for byte (see
// matchRecorded).
func TestPathShapesMatchRecorded(t *testing.T) {
	t.Parallel() // long: runs beside the other long tests
	matchRecorded(t, pathShapeCases)
}

// TestPathShapesByteLevel: components with paths that are objects or
// lists, or objects their path clears, are read at byte level, with
// their recorded (the generic path's) placeholders, waits and output with
// a catalog.
func TestPathShapesByteLevel(t *testing.T) {
	checkByteLevel(t, []byte(pathShapeCases[5].in), []string{"a", "b"})
	checkByteLevel(t, []byte(pathShapeCases[6].in), []string{"a", "b", "t"})
	checkByteLevel(t, []byte(pathShapeCases[7].in), []string{"a", "b", "c", "d", "e"})
	checkByteLevel(t, []byte(pathShapeCases[8].in), []string{"a", "b", "c", "d", "e"})
	checkByteLevel(t, []byte(pathShapeCases[9].in), []string{"a", "b"})
	g := newPathGolden(t)
	for _, tc := range pathShapeCases[5:10] {
		checkSameEntries(t, g, tc.name, chunked([]byte(tc.in), 1))
		// (With a catalog: its verdicts on the definitions.)
		g.checkModes(t, tc.name+"/catalog", renderBytes, splitsOf([]byte(tc.in), false, 1, 0), WithCatalog(speccatalog.StandardV08(t)))
	}
}

// TestCompScannerRefs checks the special reference fields (entry_refs.go):
// the outcome, the bytes kept (their canonical encoding) and the slots.
func TestCompScannerRefs(t *testing.T) {
	for _, tc := range []struct {
		name string
		v08  bool
		comp string
		want int
		out  string // compFast: the bytes kept
		ids  string // compFast: the child slots, field:id
		refs string // compFast: its references, in order
	}{
		// detail, summary and root hold one id, template a list of ids:
		// references only (cfRef, 8); any other value is a plain value.
		{"detail and summary", false, `{"id":"r","summary":"s","component":"Card","detail":"d","child":"c"}`, compFast,
			`{"child":"c","component":"Card","detail":"d","id":"r","summary":"s"}`, "[2:c 8:d 8:s]", "[c d s]"},
		{"root", false, `{"id":"r","component":"X","root":"a"}`, compFast,
			`{"component":"X","id":"r","root":"a"}`, "[8:a]", "[a]"},
		{"template string", false, `{"id":"r","component":"List","template":"s"}`, compFast,
			`{"component":"List","id":"r","template":"s"}`, "[]", "[]"},
		{"template list", false, `{"id":"r","component":"X","template":["p",1,{"k":"v"},"q","p"]}`, compFast,
			`{"component":"X","id":"r","template":["p",1,{"k":"v"},"q","p"]}`, "[8:p 8:q 8:p]", "[p q]"},
		{"template empty list", false, `{"id":"r","component":"X","template":[ ]}`, compFast,
			`{"component":"X","id":"r","template":[]}`, "[]", "[]"},
		{"template object", false, `{"id":"r","component":"X","template":{"a":"b"}}`, compFast,
			`{"component":"X","id":"r","template":{"a":"b"}}`, "[]", "[]"},
		{"detail object", false, `{"id":"r","component":"X","detail":{"a":[1]}}`, compFast,
			`{"component":"X","detail":{"a":[1]},"id":"r"}`, "[]", "[]"},
		{"detail list", false, `{"id":"r","component":"X","detail":["a"],"root":null,"summary":7}`, compFast,
			`{"component":"X","detail":["a"],"id":"r","root":null,"summary":7}`, "[]", "[]"},
		{"self and children", false, `{"id":"r","template":["z","r"],"children":["z"],"component":"X","detail":"z"}`, compFast,
			`{"children":["z"],"component":"X","detail":"z","id":"r","template":["z","r"]}`, "[0:z 8:z 8:z 8:r]", "[z r]"},
		{"v08 reference properties", true, `{"id":"r","component":{"Card":{"detail":"d","componentId":"m","template":["t"],"child":"c"}}}`, compFast,
			`{"component":{"Card":{"child":"c","componentId":"m","detail":"d","template":["t"]}},"id":"r"}`, "[2:c 5:m 8:d 8:t]", "[c d t]"},
		{"v08 reference fields outside the definition", true, `{"id":"r","detail":"d","component":{"Text":{}}}`, compFast,
			`{"component":{"Text":{}},"detail":"d","id":"r"}`, "[]", "[]"},
		{"template list with a child field", false, `{"id":"r","component":"X","template":[{"child":"a"}]}`, compFast,
			`{"component":"X","id":"r","template":[{"child":"a"}]}`, "[2:a]", "[a]"},
		{"detail escaped id", false, `{"id":"r","component":"X","detail":"a\u0062"}`, compFast,
			`{"component":"X","detail":"ab","id":"r"}`, "[8:ab]", "[ab]"},
		{"own componentId", false, `{"id":"r","component":"X","componentId":"m","child":"c"}`, compFast,
			`{"child":"c","component":"X","componentId":"m","id":"r"}`, "[2:c 5:m]", "[c]"},
		{"v08 own componentId", true, `{"id":"r","component":{"Card":{"componentId":"m","child":"c"}}}`, compFast,
			`{"component":{"Card":{"child":"c","componentId":"m"}},"id":"r"}`, "[2:c 5:m]", "[c]"},
		{"v08 outside the definition", true, `{"id":"r","child":"c","component":{"Text":{}},"x":{"children":["a"]}}`, compFast,
			`{"child":"c","component":{"Text":{}},"id":"r","x":{"children":["a"]}}`, "[]", "[]"},
		{"detail with componentId", false, `{"id":"r","component":"X","detail":{"componentId":"a"}}`, compFast,
			`{"component":"X","detail":{"componentId":"a"},"id":"r"}`, "[5:a]", "[a]"},
		{"own componentId list", false, `{"id":"r","component":"X","componentId":["a",1,"b"]}`, compFast,
			`{"component":"X","componentId":["a",1,"b"],"id":"r"}`, "[5:a 5:b]", "[]"},
		{"own componentId not a string", false, `{"id":"r","component":"X","componentId":{"a":1}}`, compFast,
			`{"component":"X","componentId":{"a":1},"id":"r"}`, "[]", "[]"},
		{"template with componentId", false, `{"id":"r","component":"X","template":{"componentId":"a"}}`, compFast,
			`{"component":"X","id":"r","template":{"componentId":"a"}}`, "[5:a]", "[a]"},
		{"summary with children", false, `{"id":"r","component":"X","summary":{"children":["a"]}}`, compFast,
			`{"component":"X","id":"r","summary":{"children":["a"]}}`, "[0:a]", "[]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := checkScan(t, tc.comp, tc.v08, tc.want, tc.out, tc.ids)
			if c == nil {
				return
			}
			var names idNames
			if refs, _ := c.result(&names).refs(&names); fmt.Sprint(refs) != tc.refs {
				t.Errorf("references %v, want %s", refs, tc.refs)
			}
		})
	}
}

// refShapeCases are streams with the special reference fields, read at
// byte level (entry_refs.go); keys in order (see canonShapeCases).
var refShapeCases = []struct{ name, in string }{
	{"detail_summary_root", fastCS + `{"updateComponents":{"components":[{"child":"a","component":"Card","detail":"d","id":"root","summary":"s"},{"component":"X","id":"a","root":"b"},{"component":"Text","id":"d","text":"x"},{"component":"Text","id":"b","text":"y"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"own_componentId_and_template", fastCS + `{"updateComponents":{"components":[{"children":["a","b"],"component":"Column","id":"root"},{"child":"c","component":"X","componentId":"m","id":"a"},{"component":"Row","id":"b","template":["p",1,{"k":"v"},"q"]},{"component":"Text","id":"m","text":"late"},{"component":"Text","id":"p","text":"p"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"componentIds_not_strings", fastCS + `{"updateComponents":{"components":[{"children":["a","b","c"],"component":"Column","id":"root"},{"children":{"componentId":7,"path":"/p"},"component":"List","id":"a"},{"component":"X","componentId":{"k":[1,null]},"id":"b"},{"component":"X","componentId":false,"id":"c"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"v08_properties_and_outside", fastCSv08 + `{"surfaceUpdate":{"components":[{"component":{"Column":{"children":{"explicitList":["a","b"]}}},"id":"root"},{"component":{"Card":{"child":"c","componentId":"m","detail":"d","template":["t"]}},"id":"a"},{"child":"zz","component":{"Text":{"text":{"literalString":"x"}}},"id":"b","x":{"children":["q"],"path":"p"}},{"component":{"Text":{"text":{"literalString":"m"}}},"id":"m"}],"surfaceId":"s"}}]</a2ui-json>`},
	// Found by a differential run against the tree before (session 12)
	// while these fields were read at byte level: a string "template"
	// counted as a reference, and placeholders for "detail", "summary" and
	// "template" ids of a component still arriving.
	{"review_template_string", `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s0","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s0","components":[{"component":"List","id":"root","template":"s"},{"component":"Text","id":"s","text":"x"}]}}]</a2ui-json>`},
	{"review_v08_template_string", `<a2ui-json>[{"beginRendering":{"surfaceId":"s0","root":"root"}},{"surfaceUpdate":{"surfaceId":"s0","components":[{"component":{"List":{"template":"s"}},"id":"root"},{"component":{"Text":{"text":{"literalString":"x"}}},"id":"s"}]}}]</a2ui-json>`},
	{"review_detail_open", `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"children":["s"],"component":"Column","id":"root"},{"component":"X","detail":"r","id":"s"}]}}]</a2ui-json>`},
	{"review_template_list_open", `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"children":["s"],"component":"Column","id":"root"},{"component":"Custom","id":"s","template":["p","r"]}]}}]</a2ui-json>`},
}

// TestRefShapesMatchRecorded: streams with the special reference fields
// give their recorded messages (the generic path's), byte for byte
// (see matchRecorded).
func TestRefShapesMatchRecorded(t *testing.T) {
	t.Parallel() // long: runs beside the other long tests
	matchRecorded(t, refShapeCases)
}

// escShapeCases are streams with child ids whose canonical encoding keeps
// an escape (a '"', a '\\', a control character), read at byte level;
// keys in order (see canonShapeCases). The second block touches the
// surface the first left at rest (packed, release_freeze.go).
var escShapeCases = []struct{ name, in string }{
	{"escaped_child_ids", fastCS + `{"updateComponents":{"components":[{"children":["q\"x","b\\","c\n","d"],"component":"Column","id":"root"},{"child":"e\u0001","component":"Card","id":"d"},{"component":"Text","id":"b\u005c","text":"b"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>` +
		`<a2ui-json>[{"updateComponents":{"components":[{"component":"Text","id":"q\"x","text":"q"},{"component":"Text","id":"e\u0001","text":"e"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"escaped_child_ids_at_rest", fastCS + `{"updateComponents":{"components":[{"children":["q\"x"],"component":"Column","id":"root"},{"component":"Text","id":"q\"x","text":"q"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>` +
		`<a2ui-json>[{"updateComponents":{"components":[{"component":"Text","id":"q\"x","text":"changed"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"v08_escaped_child_ids", fastCSv08 + `{"surfaceUpdate":{"components":[{"component":{"Column":{"children":{"explicitList":["a\"","b"]}}},"id":"root"},{"component":{"Card":{"child":"\t"}},"id":"b"}],"surfaceId":"s"}},{"surfaceUpdate":{"components":[{"component":{"Text":{"text":{"literalString":"a"}}},"id":"a\""}],"surfaceId":"s"}}]</a2ui-json>`},
	// A component's own id that keeps an escape (its id is the decoding,
	// its bytes keep the canonical encoding).
	{"escaped_own_ids", fastCS + `{"updateComponents":{"components":[{"children":["q\"x","b\\","e\u0001"],"component":"Column","id":"root"},{"children":[],"component":"Row","id":"q\"x"},{"child":"b\u005cq","component":"Card","id":"b\\","label":"x"},{"children":["z\t","e\u0002"],"component":"Row","id":"e\u0001"}],"surfaceId":"s"},"version":"v0.9"},{"updateComponents":{"components":[{"children":["n"],"component":"Row","id":"q\"x"},{"component":"Text","id":"z\t","text":"z"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>` +
		`<a2ui-json>[{"updateComponents":{"components":[{"component":"Text","id":"b\\","text":"changed"},{"component":"Text","id":"n","text":"n"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"escaped_own_id_self_reference", fastCS + `{"updateComponents":{"components":[{"child":"b\\","component":"Card","id":"root"},{"child":"b\u005c","component":"Card","id":"b\\"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"v08_escaped_own_ids", fastCSv08 + `{"surfaceUpdate":{"components":[{"component":{"Column":{"children":{"explicitList":["a\"","b"]}}},"id":"root"},{"component":{"Row":{"children":{"explicitList":[]}}},"id":"a\""},{"component":{"Card":{"child":"\t"}},"id":"b"}],"surfaceId":"s"}},{"surfaceUpdate":{"components":[{"component":{"Text":{"text":{"literalString":"a"}}},"id":"\t"},{"component":{"Row":{"children":{"explicitList":["b"]}}},"id":"a\""}],"surfaceId":"s"}}]</a2ui-json>`},
}

// TestEscapedOwnIDsByteLevel: components whose own id keeps an escape are
// read at byte level, under their decoded ids.
func TestEscapedOwnIDsByteLevel(t *testing.T) {
	checkByteLevel(t, []byte(escShapeCases[3].in), []string{"q\"x", "b\\", "e\x01"})
	checkByteLevel(t, []byte(escShapeCases[5].in), []string{"a\""})
	g := newPathGolden(t)
	for _, tc := range escShapeCases[3:6] {
		checkSameEntries(t, g, tc.name, chunked([]byte(tc.in), 1))
	}
}

// TestEscapedIDsMatchRecorded: streams with child ids that keep an escape
// give their recorded messages (the generic path's), byte for byte
// (see matchRecorded).
func TestEscapedIDsMatchRecorded(t *testing.T) {
	t.Parallel() // long: runs beside the other long tests
	matchRecorded(t, escShapeCases)
}
