package parser

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
)

var nestedStreams = flag.Int("nested.streams", 40, "random streams of TestNestedRandomMatchesRecorded")

// nestedShapes are streams whose components have child fields below the
// top level (keys in order, see byteLevelShapes).
var nestedShapes = []byteShape{
	{"v09_tabs_child_later", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Tabs","id":"root","tabs":[{"child":"a","title":"A"},{"child":"b","title":"B"},{"child":"a","title":"C"}]},{"component":"Text","id":"a","text":"x"}]}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Text","id":"b","text":"y"}]}}]</a2ui-json>`},
	{"v09_extra_and_open_lists", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"children":["k"],"component":"Card","extra":{"child":"c","children":[]},"id":"root","x":{"children":["a","b"]}},{"component":"Text","id":"b","text":"y"},{"component":"Text","id":"k","text":"k"}]}}]</a2ui-json>`},
	{"v09_template_with_child", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"children":{"child":"h","componentId":"item","path":"/items"},"component":"List","id":"root"},{"component":"Text","id":"item","text":"i"}]}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Text","id":"h","text":"h"}]}}]</a2ui-json>`},
	{"v08_nested", fastCSv08 + `{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Card":{"child":"c"},"Row":{"children":{"explicitList":["a","b"],"more":{"child":"d"}}}},"id":"root"},{"component":{"Text":{"text":{"literalString":"a"}}},"id":"a"}]}},{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Text":{"text":{"literalString":"d"}}},"id":"d"},{"component":{"Tabs":{"tabItems":[{"child":"e","title":{"literalString":"T"}}]}},"id":"c"}]}}]</a2ui-json>`},
	// A surface left by one block, then updated by the next.
	{"v09_nested_beside_reference_only", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Tabs","detail":"d","id":"root","tabs":[{"child":"a","title":"A"}],"template":["p"]},{"component":"Text","id":"a","text":"x"}]}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Text","id":"d","text":"d"},{"component":"Text","id":"p","text":"p"}]}}]</a2ui-json>`},
	{"v09_at_rest_then_touched", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Tabs","id":"root","tabs":[{"child":"a","title":"A"}]},{"component":"Text","id":"a","text":"x"}]}}]</a2ui-json> then <a2ui-json>[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Text","id":"z","text":"z"},{"component":"Tabs","id":"root","tabs":[{"child":"a","title":"A"},{"child":"q","title":"Q"}]}]}}]</a2ui-json>`},
}

// TestNestedShapesMatchRecorded: each shape gives, call by call, its
// recorded bytes (see golden_paths_test.go), both modes, one byte at a
// time, split at every byte and at a few chunk sizes, with and without a
// catalog.
func TestNestedShapesMatchRecorded(t *testing.T) {
	t.Parallel()
	checkByteLevelShapes(t, nestedShapes)
}

// TestNestedRandomMatchesRecorded: random streams of components mixing
// child fields below the top level with top-level ones, cut at random
// chunk sizes and one byte at a time, give their recorded bytes in both
// modes (-nested.streams sets how many; those beyond the default 40 must
// be recorded first, see golden_paths_test.go).
func TestNestedRandomMatchesRecorded(t *testing.T) {
	t.Parallel()
	g := newPathGolden(t)
	g.partial = *nestedStreams != 40
	for seed := range uint64(*nestedStreams) {
		r := rand.New(rand.NewPCG(seed, 15))
		v08 := r.IntN(2) == 0
		in := []byte(randomNestedStream(r, v08))
		splits := splitsOf(in, false, 1, 1+r.IntN(7), 1+r.IntN(40))
		g.checkModes(t, fmt.Sprintf("seed=%d v08=%v", seed, v08), renderRaw, splits)
		if t.Failed() {
			t.Fatalf("seed %d, stream %s", seed, in)
		}
	}
}

// randomNestedStream is a block (or two) of components with ids from a
// small set, keys in order at every depth.
func randomNestedStream(r *rand.Rand, v08 bool) string {
	// Component k references ids after its own (no cycles), or one that
	// never arrives.
	// Ids are JSON string bodies: some keep an escape in their canonical
	// encoding, written at times in another encoding.
	ids := []string{"root", "a", "b", "c", "d", "e"}
	if r.IntN(2) == 0 {
		ids = []string{"root", `a\"`, "b", `c\\`, "d", `e\u0001`}
	}
	cur := 0
	id := func() string {
		if k := cur + 1 + r.IntN(len(ids)-cur); k < len(ids) {
			return ids[k]
		}
		return "m"
	}
	str := func(s string) string {
		if r.IntN(3) == 0 {
			s = strings.NewReplacer(`\\`, `\u005c`, `\u0001`, `\u0001`).Replace(s)
		}
		return `"` + s + `"`
	}
	list := func() string {
		var el []string
		for range r.IntN(3) {
			el = append(el, str(id()))
		}
		return "[" + strings.Join(el, ",") + "]"
	}
	path := func() string {
		return []string{`"/p"`, `"//p"`, `"p"`, `null`, `7`, `{"child":"q","children":[]}`, `["x",{"path":"/y"}]`}[r.IntN(7)]
	}
	var obj func(depth int) string
	obj = func(depth int) string {
		m := map[string]string{}
		for range 1 + r.IntN(3) {
			switch k := r.IntN(11); {
			case k == 10 && v08:
				// Data-binding paths (normalised in v0.8): one that clears
				// its object, one beside a componentId, one that is an
				// object or a list (not walked), other kinds.
				m["path"] = path()
			case k == 0:
				m["child"] = str(id())
			case k == 1:
				m["children"] = list()
			case k == 2:
				m["contentChild"] = str(id())
			case k == 3 && depth < 3:
				m["x"] = obj(depth + 1)
			case k == 4 && depth < 3:
				m["items"] = "[" + obj(depth+1) + "," + obj(depth+1) + "]"
			case k == 5:
				m["title"] = str("t")
			case k == 6 && depth > 0:
				m["componentId"] = str(id())
			case k == 7:
				m["explicitList"] = list()
			case k == 8 && r.IntN(2) == 0:
				// (A plain value below the top level: in its canonical
				// encoding, since a value with another escape keeps the
				// stream's bytes in a component written in stream order,
				// where the outputs were first recorded with the
				// canonical ones.)
				m[[]string{"detail", "template"}[r.IntN(2)]] = `"` + id() + `"`
			default:
				m["n"] = "1"
			}
		}
		return sortedObject(m)
	}
	comp := func() string {
		cur = r.IntN(len(ids) - 1)
		if r.IntN(3) == 0 {
			cur = 0
		}
		props := map[string]string{}
		for range 1 + r.IntN(4) {
			switch k := r.IntN(8); k {
			case 0:
				props["child"] = str(id())
			case 1:
				if v08 && r.IntN(3) == 0 {
					// (An object walked as a template is.)
					props["children"] = obj(1)
				} else if v08 && r.IntN(4) == 0 {
					props["children"] = `{"template":` + []string{str(id()), list(), obj(1)}[r.IntN(3)] + `}`
				} else if v08 {
					props["children"] = `{"explicitList":` + list() + `}`
				} else {
					props["children"] = list()
				}
			case 2:
				props["tabs"] = "[" + obj(1) + "," + obj(1) + "]"
			case 3:
				props["extra"] = obj(1)
			case 4:
				props["zz"] = obj(1)
			case 5:
				// Reference-only fields (detail, summary, root) beside
				// nested ones, and holding them.
				if r.IntN(2) == 0 {
					props[[]string{"detail", "summary", "root"}[r.IntN(3)]] = str(id())
				} else {
					props[[]string{"detail", "summary", "root"}[r.IntN(3)]] = obj(1)
				}
			case 6:
				if r.IntN(2) == 0 {
					props["template"] = list()
				} else {
					props["template"] = "[" + obj(1) + "," + str(id()) + "]"
				}
			default:
				props["text"] = str("t")
			}
		}
		if v08 {
			if r.IntN(6) == 0 {
				props["path"] = path()
			}
			def := map[string]string{"Card": sortedObject(props)}
			if r.IntN(4) == 0 {
				def["Row"] = obj(1)
			}
			if r.IntN(8) == 0 {
				def["path"] = path()
			}
			return sortedObject(map[string]string{"component": sortedObject(def), "id": str(ids[cur])})
		}
		props["component"], props["id"] = str("Card"), str(ids[cur])
		return sortedObject(props)
	}
	var b strings.Builder
	if v08 {
		b.WriteString(`<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"root"}}`)
	} else {
		b.WriteString(`<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}}`)
	}
	for range 1 + r.IntN(3) {
		var cs []string
		for range 1 + r.IntN(3) {
			cs = append(cs, comp())
		}
		if v08 {
			b.WriteString(`,{"surfaceUpdate":{"surfaceId":"s","components":[` + strings.Join(cs, ",") + `]}}`)
		} else {
			b.WriteString(`,{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` + strings.Join(cs, ",") + `]}}`)
		}
		if r.IntN(3) == 0 && v08 {
			b.WriteString(`]</a2ui-json> and <a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"root"}}`)
		} else if r.IntN(3) == 0 {
			b.WriteString(`]</a2ui-json> and <a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"t","catalogId":"c"}}`)
		}
	}
	b.WriteString(`]</a2ui-json>`)
	return b.String()
}

// sortedObject writes m's members in key order.
func sortedObject(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q:%s", k, m[k])
	}
	b.WriteByte('}')
	return b.String()
}
