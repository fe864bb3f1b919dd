package parser

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/speccatalog"
)

var elementStreams = flag.Int("elements.streams", 300, "random streams of TestNonStringElementsRandomMatchRecorded")

// TestNonStringElementNoChild states the rule for an element of a child
// list that is not a string: child ids are strings (protocol.ComponentRefs
// skips anything else), so it is no child: kept as it is, with no
// placeholder and no wait, even when a component's id is its encoding.
// (The parser once made "loading_" + its JSON of it.) An object there is
// walked as any other value: its child fields are. (The recorded outputs
// of TestNonStringElementsMatchRecorded agree.)
func TestNonStringElementNoChild(t *testing.T) {
	in := fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"children":[1,"a",null,{"child":"b"},["c"]],"component":"Column","id":"root"},{"component":"Text","id":"1","text":"one"}]}}]</a2ui-json>`
	for _, mode := range []Mode{ModeProgressive, ModeDelta} {
		out := strings.Join(renderRaw(t, newPathParser(t, []Option{WithMode(mode)}), chunked([]byte(in), 1)), "\n")
		for _, want := range []string{`"children":[1,"loading_a",null,{"child":"loading_b"},["c"]]`, `"id":"loading_a"`, `"id":"loading_b"`} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: no %s in\n%s", mode, want, out)
			}
		}
		for _, bad := range []string{`loading_1`, `loading_null`, `loading_{`, `loading_[`, `loading_c`} {
			if strings.Contains(out, bad) {
				t.Errorf("%s: %s in\n%s", mode, bad, out)
			}
		}
	}
}

// elementShapes are streams whose child lists hold elements that are not
// strings, at the top level, in an explicitList, below the top level and
// in a component's own componentId (keys in order, see byteLevelShapes).
var elementShapes = []byteShape{
	{"v09_numbers_then_child", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"children":[7,"a",1.5e3,"b"],"component":"Column","id":"root"},{"component":"Text","id":"7","text":"x"}]}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Text","id":"a","text":"y"}]}}]</a2ui-json>`},
	{"v09_objects_and_lists", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"children":[{"child":"a","k":1},null,["b"],true,"c",{"children":[]}],"component":"Column","id":"root"},{"component":"Text","id":"c","text":"y"}]}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Text","id":"a","text":"y"}]}}]</a2ui-json>`},
	{"v09_at_depth_and_own_componentId", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Card","componentId":["a",2],"explicitList":[false,"b"],"id":"root","x":{"children":["a",{"n":1},3]}},{"component":"Text","id":"b","text":"y"}]}}]</a2ui-json>`},
	{"v08_explicitList", fastCSv08 + `{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Column":{"children":{"explicitList":[1,"a",{"child":"b"},null]}}},"id":"root"},{"component":{"Text":{"text":{"literalString":"a"}}},"id":"a"}]}},{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Text":{"text":{"literalString":"b"}}},"id":"b"}]}}]</a2ui-json>`},
}

// TestNonStringElementsMatchRecorded: each shape gives, call by call, its
// recorded bytes (see golden_paths_test.go), both modes, one byte at a
// time, split at every byte and at a few chunk sizes, with and without a
// catalog.
func TestNonStringElementsMatchRecorded(t *testing.T) {
	t.Parallel()
	checkByteLevelShapes(t, elementShapes)
}

// TestNonStringElementsRandomMatchRecorded: random streams of components
// whose child lists mix ids with other values (numbers, literals, lists,
// objects with child fields), beside the common shapes, cut at random
// chunk sizes and one byte at a time, give their recorded bytes in both
// modes, with and without a catalog (-elements.streams sets how many;
// those beyond the default 300 must be recorded first, see
// golden_paths_test.go).
func TestNonStringElementsRandomMatchRecorded(t *testing.T) {
	t.Parallel()
	g := newPathGolden(t)
	g.partial = *elementStreams != 300
	v09, v08 := WithCatalog(speccatalog.BasicV09(t)), WithCatalog(speccatalog.StandardV08(t))
	for seed := range uint64(*elementStreams) {
		r := rand.New(rand.NewPCG(seed, 16))
		v08mode := r.IntN(2) == 0
		in := []byte(randomElementStream(r, v08mode))
		opts := []Option(nil)
		if r.IntN(2) == 0 {
			opts = []Option{v09}
			if v08mode {
				opts = []Option{v08}
			}
		}
		n := 1 + r.IntN(9)
		if seed%4 == 0 {
			n = 1
		}
		g.checkModes(t, fmt.Sprintf("seed=%d v08=%v", seed, v08mode), renderBytes, [][][]byte{chunked(in, n)}, opts...)
		if t.Failed() {
			t.Fatalf("seed %d, chunks of %d, catalog %v, stream %s", seed, n, opts != nil, in)
		}
	}
}

// randomElementStream is a block of components of types with child lists
// (Column, Card), whose lists mix ids (some never arriving) with other
// values, keys in order at every depth.
func randomElementStream(r *rand.Rand, v08 bool) string {
	ids := []string{"root", "a", "b", "c", "1", "d"}
	str := func(s string) string { return `"` + s + `"` }
	var elem func(depth int) string
	elem = func(depth int) string {
		switch k := r.IntN(12); {
		case k < 5:
			return str(ids[1+r.IntN(len(ids)-1)])
		case k == 5:
			return "1"
		case k == 6:
			return []string{"null", "true", "-2.5e1", "0"}[r.IntN(4)]
		case k == 7 && depth < 2:
			return "[" + elem(depth+1) + "]"
		case k == 8 && depth < 2:
			return sortedObject(map[string]string{"child": str(ids[1+r.IntN(len(ids)-1)]), "n": "1"})
		case k == 9 && depth < 2:
			return sortedObject(map[string]string{"children": "[" + elem(depth+1) + "," + elem(depth+1) + "]"})
		case k == 10:
			return "{}"
		}
		return "[]"
	}
	list := func() string {
		var el []string
		for range r.IntN(4) {
			el = append(el, elem(0))
		}
		return "[" + strings.Join(el, ",") + "]"
	}
	comp := func(id string) string {
		props := map[string]string{}
		typ := "Column"
		for range 1 + r.IntN(3) {
			switch r.IntN(6) {
			case 0, 1:
				if v08 {
					props["children"] = `{"explicitList":` + list() + `}`
				} else {
					props["children"] = list()
				}
			case 2:
				props["x"] = sortedObject(map[string]string{"explicitList": list()})
			case 3:
				typ = "Card"
				props["child"] = str(ids[1+r.IntN(len(ids)-1)])
			case 4:
				props["componentId"] = list()
			default:
				props["text"] = str("t")
			}
		}
		if v08 {
			if len(props) == 0 || typ == "Text" {
				typ = "Text"
			}
			return sortedObject(map[string]string{"component": sortedObject(map[string]string{typ: sortedObject(props)}), "id": str(id)})
		}
		props["component"], props["id"] = str(typ), str(id)
		return sortedObject(props)
	}
	text := func(id string) string {
		if v08 {
			return `{"component":{"Text":{"text":{"literalString":"x"}}},"id":` + str(id) + `}`
		}
		return `{"component":"Text","id":` + str(id) + `,"text":"x"}`
	}
	var b strings.Builder
	if v08 {
		b.WriteString(`<a2ui-json>[{"beginRendering":{"root":"root","surfaceId":"s"}}`)
	} else {
		b.WriteString(`<a2ui-json>[{"version":"v0.9","createSurface":{"catalogId":"c","surfaceId":"s"}}`)
	}
	for range 1 + r.IntN(3) {
		var cs []string
		for range 1 + r.IntN(3) {
			id := ids[r.IntN(len(ids))]
			if r.IntN(2) == 0 && id != "root" {
				cs = append(cs, text(id))
			} else {
				cs = append(cs, comp(id))
			}
		}
		if v08 {
			b.WriteString(`,{"surfaceUpdate":{"components":[` + strings.Join(cs, ",") + `],"surfaceId":"s"}}`)
		} else {
			b.WriteString(`,{"version":"v0.9","updateComponents":{"components":[` + strings.Join(cs, ",") + `],"surfaceId":"s"}}`)
		}
	}
	b.WriteString(`]</a2ui-json>`)
	return b.String()
}
