package parser

import (
	"flag"
	"fmt"
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// refFieldStreams are streams with the reference-only fields detail,
// summary, root and template in every value shape, v0.9 and v0.8: a
// component still arriving whose references arrive later or earlier, in a
// later block, a list of references growing, and a surface left by one
// block updated by the next. Keys in order (see canonShapeCases).
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
// their recorded messages, byte for byte (see matchRecorded).
func TestRefFieldsMatchRecorded(t *testing.T) {
	t.Parallel() // long: runs beside the other long tests
	matchRecorded(t, refFieldStreams)
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
// their recorded messages byte for byte in both modes, fed one byte at a
// time, in chunks of a random size and in two pieces split at a few
// random bytes (-refs.streams for more streams, which must be recorded
// first: see golden_paths_test.go).
func TestRefFieldsRandomMatchRecorded(t *testing.T) {
	t.Parallel() // long: runs beside the other long tests
	g := newPathGolden(t)
	n := g.randomStreams(*refStreamsN, 150)
	checkRandomRecorded(t, g, n, randomRefStream, func(bool) []Option { return nil })
}
