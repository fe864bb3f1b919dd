package parser

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/buger/jsonparser"
)

// refFieldStreams are streams with the reference-only fields detail,
// summary, root and template (entry_refs.go) in every value shape, v0.9
// and v0.8: a component still arriving whose references arrive later or
// earlier, in a later block, a list of references growing, and a surface
// at rest (frozen) touched by the next block. Keys in order (see
// canonShapeCases).
var refFieldStreams = []struct{ name, in string }{
	{"references_arrive_later", fastCS + `{"updateComponents":{"components":[{"children":["a"],"component":"Column","id":"root"},{"child":"c","component":"Card","detail":"d","id":"a","summary":"s"},{"component":"Text","id":"d","text":"D"},{"component":"Text","id":"c","text":"C"},{"component":"Text","id":"s","text":"S"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"references_arrived_earlier", fastCS + `{"updateComponents":{"components":[{"component":"Text","id":"d","text":"D"},{"component":"Text","id":"s","text":"S"},{"children":["a"],"component":"Column","id":"root"},{"child":"c","component":"Card","detail":"d","id":"a","summary":"s"},{"component":"Text","id":"c","text":"C"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"template_list_growing", fastCS + `{"updateComponents":{"components":[{"children":["a","b"],"component":"X","id":"root","template":["a","c","q","t1","t2","t3","t4","t5","t6"]},{"component":"Text","id":"t3","text":"3"},{"component":"Text","id":"a","text":"A"},{"component":"Text","id":"q","text":"Q"},{"component":"Text","id":"t1","text":"1"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"only_template", fastCS + `{"updateComponents":{"components":[{"component":"X","id":"root","template":["p","r","p","s"]},{"component":"Text","id":"r","text":"R"},{"children":["zz"],"component":"Column","id":"p"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"root_field_reaches", fastCS + `{"updateComponents":{"components":[{"component":"Surface","id":"root","root":"inner"},{"child":"e","component":"Card","id":"inner"},{"component":"Text","id":"e","text":"E"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"value_shapes", fastCS + `{"updateComponents":{"components":[{"children":["a","b","c"],"component":"Column","id":"root"},{"component":"X","detail":{"k":"d","v":[1,"x"]},"id":"a","root":["x"],"summary":7,"template":"s"},{"component":"X","detail":null,"id":"b","summary":true,"template":[1,{"k":"v"},null,"x",[2,"y"],"",false]},{"component":"X","id":"c","template":{"a":{"b":"c"}}},{"component":"Text","id":"x","text":"X"},{"component":"Text","id":"s","text":"S"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"self_and_cycle", fastCS + `{"updateComponents":{"components":[{"child":"a","component":"Card","detail":"root","id":"root"},{"component":"X","id":"a","summary":"root","template":["a","b"]},{"component":"Text","id":"b","text":"B"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"escaped_reference", fastCS + `{"updateComponents":{"components":[{"component":"X","detail":"q\"x","id":"root","template":["b\\","c\n"]},{"component":"Text","id":"q\"x","text":"Q"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"reference_in_a_later_block", fastCS + `{"updateComponents":{"components":[{"children":["a"],"component":"Column","id":"root"},{"component":"X","detail":"d","id":"a","template":["t","u"]}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>` +
		` prose <a2ui-json>[{"updateComponents":{"components":[{"component":"Text","id":"u","text":"U"},{"child":"e","component":"Card","id":"d"},{"component":"Text","id":"t","text":"T"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"at_rest_then_touched", fastCS + `{"updateComponents":{"components":[{"child":"a","component":"Card","detail":"d","id":"root"},{"component":"X","id":"a","template":["d","a"]},{"component":"Text","id":"d","text":"D"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>` +
		`<a2ui-json>[{"updateComponents":{"components":[{"component":"X","id":"a","summary":"n","template":["d","n","m"]},{"component":"Text","id":"n","text":"N"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>` +
		`<a2ui-json>[{"updateComponents":{"components":[{"component":"Text","id":"d","text":"D2"},{"component":"Text","id":"m","text":"M"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"v08_properties", fastCSv08 + `{"surfaceUpdate":{"components":[{"component":{"Column":{"children":{"explicitList":["a","b"]}}},"id":"root"},{"component":{"Card":{"child":"c","detail":"d","root":"r","summary":{"x":1},"template":["t",2,"u"]}},"id":"a"},{"component":{"Text":{"text":{"literalString":"d"}}},"id":"d"},{"component":{"List":{"template":"s"}},"id":"b"},{"component":{"Text":{"text":{"literalString":"t"}}},"id":"t"},{"component":{"Text":{"text":{"literalString":"c"}}},"id":"c"}],"surfaceId":"s"}}]</a2ui-json>`},
	{"v08_outside_and_later_block", fastCSv08 + `{"surfaceUpdate":{"components":[{"component":{"Card":{"detail":"d","template":["t"]}},"detail":"zz","id":"root"}],"surfaceId":"s"}}]</a2ui-json>` +
		`<a2ui-json>[{"surfaceUpdate":{"components":[{"component":{"Text":{"text":{"literalString":"t"}}},"id":"t"},{"component":{"Card":{"child":"e","summary":"t"}},"id":"d"}],"surfaceId":"s"}}]</a2ui-json>`},
}

// TestRefFieldsMatchRecorded: streams with the reference-only fields give
// their recorded messages (the generic path's), byte for byte (see
// matchRecorded), and their components are read at byte level.
func TestRefFieldsMatchRecorded(t *testing.T) {
	t.Parallel() // long: runs beside the other long tests
	matchRecorded(t, refFieldStreams)
	checkByteLevel(t, []byte(refFieldStreams[0].in), []string{"root", "a", "d", "c"})
	checkByteLevel(t, []byte(refFieldStreams[5].in), []string{"a", "b", "c"})
	// The surface at rest is frozen, and thawed by the next block, and the
	// output is the one of a parser that keeps its blocks' state.
	for _, mode := range []Mode{ModeProgressive, ModeDelta} {
		ok, freezes, thaws := checkReleaseCounts(t, mode, chunksOf([]byte(refFieldStreams[9].in), 5), refFieldStreams[9].name)
		if ok && (freezes == 0 || thaws == 0) {
			t.Errorf("%v: %d freezes, %d thaws, want some", mode, freezes, thaws)
		}
	}
}

// TestRefFieldsIncrementalMatchesFull: the incremental processing of
// components with reference-only fields (processGrown, growFast's
// appendedRefs) gives what processing them from scratch gives.
func TestRefFieldsIncrementalMatchesFull(t *testing.T) {
	checkSameWithHook(t, refFieldStreams, "incremental", "from scratch", func(e *progressiveEngine) {
		for _, s := range e.seen {
			for _, ent := range s.comps {
				ent.slotsKept = false
			}
		}
	})
}

var refStreamsN = flag.Int("refs.streams", 0, "random streams of TestRefFieldsRandomMatchRecorded (0: 150, 37 with -short)")

// randomRefStream writes a v0.9 (or v08) stream of 1 to 3 blocks updating
// one surface, from seed: components whose keys (in order) mix the child
// fields children and child with detail, summary, root and template in
// every value shape, and a componentId of their own; ids are drawn from a
// small set, so references arrive before and after their components, in
// later blocks, and name the component itself.
func randomRefStream(seed int64, v08 bool) []byte {
	r := rand.New(rand.NewSource(seed))
	ids := []string{"root", "a", "b", "c", "d", "e", "f"}
	id := func() string { return strconv.Quote(ids[r.Intn(len(ids))]) }
	idList := func() string {
		var l []string
		for n := r.Intn(5); n > 0; n-- {
			l = append(l, id())
		}
		return "[" + strings.Join(l, ",") + "]"
	}
	// A value for a reference field: mostly ids, else any shape.
	refValue := func(list bool) string {
		switch k := r.Intn(10); {
		case k < 5 && !list:
			return id()
		case k < 5:
			l := strings.TrimSuffix(idList(), "]")
			if r.Intn(3) == 0 {
				if len(l) > 1 {
					l += ","
				}
				l += [...]string{`1`, `{"k":"v"}`, `null`, `[2,"x"]`, `""`}[r.Intn(5)]
			}
			return l + "]"
		case k < 7:
			return id()
		case k == 7:
			return idList()
		case k == 8:
			return `{"k":` + id() + `,"n":[1]}`
		}
		return [...]string{`7`, `null`, `true`, `""`}[r.Intn(4)]
	}
	var b strings.Builder
	writeSurfaceStart(&b, v08)
	for range 1 + r.Intn(3) {
		var comps []string
		for c := range 1 + r.Intn(5) {
			cid := id()
			if c == 0 && r.Intn(2) == 0 {
				cid = `"root"` // (reachable: what it references is yielded)
			}
			props := map[string]string{}
			for _, f := range []string{"children", "child", "detail", "summary", "root", "template", "componentId", "text"} {
				if r.Intn(3) != 0 {
					continue
				}
				switch f {
				case "children":
					props[f] = idList()
					if v08 && r.Intn(2) == 0 {
						props[f] = `{"explicitList":` + props[f] + `}`
					}
				case "child", "componentId":
					props[f] = id()
				case "template":
					props[f] = refValue(true)
				case "text":
					if v08 {
						props[f] = `{"literalString":"x"}`
					} else {
						props[f] = `"x"`
					}
				default:
					props[f] = refValue(false)
				}
			}
			typ := [...]string{"Card", "Column", "Text"}[r.Intn(3)]
			keys := make([]string, 0, len(props))
			for k := range props {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			var members []string
			for _, k := range keys {
				members = append(members, strconv.Quote(k)+":"+props[k])
			}
			obj := "{" + strings.Join(members, ",") + "}"
			if v08 {
				comps = append(comps, fmt.Sprintf(`{"component":{%q:%s},"id":%s}`, typ, obj, cid))
			} else {
				members = append(members, `"component":"`+typ+`"`, `"id":`+cid)
				slices.SortFunc(members, func(x, y string) int {
					return strings.Compare(x[:strings.IndexByte(x[1:], '"')+2], y[:strings.IndexByte(y[1:], '"')+2])
				})
				comps = append(comps, "{"+strings.Join(members, ",")+"}")
			}
		}
		writeComponentBlock(&b, v08, comps)
	}
	return []byte(b.String())
}

// TestRefFieldsRandomMatchRecorded: random streams mixing the reference-only
// fields with child fields (see randomRefStream), v0.9 and v0.8, give
// their recorded messages (the generic path's) byte for byte in both
// modes, fed one byte at a time, in chunks of a random size and in two
// pieces split at a few random bytes (-refs.streams for more streams,
// which must be recorded first: see golden_paths_test.go).
func TestRefFieldsRandomMatchRecorded(t *testing.T) {
	t.Parallel() // long: runs beside the other long tests
	g := newPathGolden(t)
	n := g.randomStreams(*refStreamsN, 150)
	checkRandomRecorded(t, g, n, randomRefStream, func(bool) []Option { return nil })
}

// leadingTypeCases are components whose type leadingType finds, or leaves
// to jsonparser.Get.
var leadingTypeCases = []struct {
	name, comp, want string
	found            bool
}{
	{name: "usual order", comp: `{"id":"a","component":"Text","text":"t"}`, want: "Text", found: true},
	{name: "type last", comp: `{"id":"a-1","component":"Row"}`, want: "Row", found: true},
	{name: "empty id", comp: `{"id":"","component":"Text"}`, want: "Text", found: true},
	{name: "cut in the type", comp: `{"id":"a","component":"Te`},
	{name: "type first", comp: `{"component":"Text","id":"a"}`},
	{name: "whitespace", comp: `{"id": "a","component":"Text"}`},
	{name: "escaped id", comp: `{"id":"a\"b","component":"Text"}`},
	{name: "escaped type", comp: `{"id":"a","component":"T\u0065xt"}`},
	{name: "type not a string", comp: `{"id":"a","component":{"Text":{}}}`},
	{name: "another member second", comp: `{"id":"a","text":"t","component":"Text"}`},
	{name: "id lookalike in the id", comp: `{"id":"a,\"component\":\"X","component":"Text"}`},
}

// TestLeadingType: where leadingType finds a type, it is the one
// jsonparser.Get finds.
func TestLeadingType(t *testing.T) {
	for _, tc := range leadingTypeCases {
		t.Run(tc.name, func(t *testing.T) {
			got := leadingType([]byte(tc.comp))
			if (got != nil) != tc.found || string(got) != tc.want {
				t.Fatalf("leadingType = %q (found %v), want %q (found %v)", got, got != nil, tc.want, tc.found)
			}
			if want, _, _, _ := jsonparser.Get([]byte(tc.comp), "component"); got != nil && string(got) != string(want) {
				t.Errorf("jsonparser.Get finds %q", want)
			}
		})
	}
}

func FuzzLeadingType(f *testing.F) {
	for _, tc := range leadingTypeCases {
		f.Add(tc.comp)
	}
	f.Fuzz(func(t *testing.T, comp string) {
		got := leadingType([]byte(comp))
		if got == nil {
			return
		}
		if want, _, _, err := jsonparser.Get([]byte(comp), "component"); err != nil || string(got) != string(want) {
			t.Errorf("%q: leadingType = %q, jsonparser.Get = %q (%v)", comp, got, want, err)
		}
	})
}

// leadingDefinitionCases are v0.8 definitions whose first type and
// properties leadingDefinition finds, or leaves to jsonparser.
var leadingDefinitionCases = []struct {
	name, comp, want string
	found            bool
}{
	{name: "usual order", comp: `{"id":"a","component":{"Text":{"text":{"literalString":"t"},"usageHint":"h1"}}}`, want: "Text", found: true},
	{name: "empty properties", comp: `{"id":"a","component":{"Row":{}}}`, want: "Row", found: true},
	{name: "two types", comp: `{"id":"a","component":{"A":{"x":1},"B":{"text":"t"}}}`, want: "A", found: true},
	{name: "a path in the properties", comp: `{"id":"a","component":{"Text":{"path":"/p"}}}`, want: "Text", found: true},
	{name: "properties not an object", comp: `{"id":"a","component":{"Text":"x"}}`},
	{name: "a path first", comp: `{"id":"a","component":{"path":"/p"}}`},
	{name: "empty type", comp: `{"id":"a","component":{"":{},"Text":{"text":"t"}}}`},
	{name: "type first", comp: `{"component":{"Text":{}},"id":"a"}`},
	{name: "whitespace", comp: `{"id":"a","component": {"Text":{}}}`},
	{name: "escaped type", comp: `{"id":"a","component":{"T\u0065xt":{}}}`},
	{name: "weight first", comp: `{"id":"a","weight":1,"component":{"Text":{}}}`},
	{name: "nothing after", comp: `{"id":"a","component":`},
}

// requiredLike are keys checked on a definition's properties.
var requiredLike = []string{"text", "usageHint", "x", "path", "child", "children", ""}

// TestLeadingDefinition: where leadingDefinition finds a type, it is the
// first jsonparser.ObjectEach gives on the "component" member, and
// jsonparser.Get on the bytes from its properties on finds the keys Get
// finds on the properties alone.
func TestLeadingDefinition(t *testing.T) {
	for _, tc := range leadingDefinitionCases {
		t.Run(tc.name, func(t *testing.T) {
			typ, _ := leadingDefinition([]byte(tc.comp))
			if (typ != nil) != tc.found || string(typ) != tc.want {
				t.Fatalf("leadingDefinition type %q (found %v), want %q (found %v)", typ, typ != nil, tc.want, tc.found)
			}
			if msg := leadingDefinitionAgrees(tc.comp); msg != "" {
				t.Error(msg)
			}
		})
	}
}

// leadingDefinitionAgrees compares leadingDefinition with jsonparser on
// comp, a JSON object ("": they agree).
func leadingDefinitionAgrees(comp string) string {
	typ, props := leadingDefinition([]byte(comp))
	if typ == nil {
		return ""
	}
	var first, value []byte
	err := jsonparser.ObjectEach([]byte(comp), func(k, v []byte, _ jsonparser.ValueType, _ int) error {
		if first == nil {
			first, value = k, v
		}
		return nil
	}, "component")
	if err != nil || string(first) != string(typ) {
		return fmt.Sprintf("%s: type %q, jsonparser's first %q (%v)", comp, typ, first, err)
	}
	for _, k := range requiredLike {
		_, _, _, err1 := jsonparser.Get(props, k)
		_, _, _, err2 := jsonparser.Get(value, k)
		if (err1 == nil) != (err2 == nil) {
			return fmt.Sprintf("%s: %q found from the properties on: %v, in the properties: %v", comp, k, err1 == nil, err2 == nil)
		}
	}
	return ""
}

func FuzzLeadingDefinition(f *testing.F) {
	for _, tc := range leadingDefinitionCases {
		f.Add(tc.comp)
	}
	f.Fuzz(func(t *testing.T, comp string) {
		if !json.Valid([]byte(comp)) {
			return // (renderable reads the reader's output, JSON)
		}
		if msg := leadingDefinitionAgrees(comp); msg != "" {
			t.Error(msg)
		}
	})
}

// firstKeyCases are properties objects and a key firstKey finds first, or
// leaves to jsonparser.Get.
var firstKeyCases = []struct {
	name, obj, key string
	want           bool
}{
	{name: "first", obj: `{"text":{"literalString":"t"},"usageHint":"h1"}`, key: "text", want: true},
	{name: "second", obj: `{"usageHint":"h1","text":{"literalString":"t"}}`, key: "text"},
	{name: "a longer key", obj: `{"texts":1}`, key: "text"},
	{name: "a shorter key", obj: `{"tex":1}`, key: "text"},
	{name: "whitespace", obj: `{ "text":1}`, key: "text"},
	{name: "escaped", obj: `{"t\u0065xt":1}`, key: "text"},
	{name: "empty key", obj: `{"":1}`, key: "", want: true},
	{name: "cut", obj: `{"text"`, key: "text"},
	{name: "not an object", obj: `["text",1]`, key: "text"},
}

// TestFirstKey: where firstKey finds a key, jsonparser.Get finds it too.
func TestFirstKey(t *testing.T) {
	for _, tc := range firstKeyCases {
		t.Run(tc.name, func(t *testing.T) {
			if got := firstKey([]byte(tc.obj), tc.key); got != tc.want {
				t.Fatalf("firstKey = %v, want %v", got, tc.want)
			}
			if _, _, _, err := jsonparser.Get([]byte(tc.obj), tc.key); tc.want && err != nil {
				t.Errorf("jsonparser.Get does not find it: %v", err)
			}
		})
	}
}

func FuzzFirstKey(f *testing.F) {
	for _, tc := range firstKeyCases {
		f.Add(tc.obj, tc.key)
	}
	f.Fuzz(func(t *testing.T, obj, key string) {
		if !json.Valid([]byte(obj)) || !firstKey([]byte(obj), key) {
			return
		}
		if _, _, _, err := jsonparser.Get([]byte(obj), key); err != nil {
			t.Errorf("%q: firstKey finds %q, jsonparser.Get does not: %v", obj, key, err)
		}
	})
}
