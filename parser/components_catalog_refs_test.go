package parser

import (
	"flag"
	"fmt"
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/speccatalog"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// refCatalogs are the specification's v0.9 basic and v0.8 standard
// catalogs with two types of their own: Panel, with the single reference
// fields header and template and the list fields items, slots and detail
// (a single name among the list fields), and Odd, whose "children" holds
// one id (a child-list field that is a single reference field).
func refCatalogs(t *testing.T) (v09, v08 *protocol.Catalog) {
	t.Helper()
	id09 := map[string]any{"$ref": "https://a2ui.org/specification/v0_9/common_types.json#/$defs/ComponentId"}
	list09 := map[string]any{"$ref": "https://a2ui.org/specification/v0_9/common_types.json#/$defs/ChildList"}
	load := func(spec protocol.CatalogSpec, panel, odd map[string]any) *protocol.Catalog {
		return catalogWith(t, spec, namedType{"Panel", panel}, namedType{"Odd", odd})
	}
	// A list of ids or objects (a list field for RefFields).
	idsOr := func(id map[string]any) map[string]any {
		return map[string]any{"type": "array", "items": map[string]any{"anyOf": []any{id, map[string]any{"type": "object"}}}}
	}
	// Any value (the reference field's kind stays the schema's).
	orAny := func(s map[string]any) map[string]any { return map[string]any{"anyOf": []any{s, map[string]any{}}} }
	typed := func(name string, props map[string]any) map[string]any {
		props["component"] = map[string]any{"const": name}
		return map[string]any{"type": "object", "allOf": []any{
			map[string]any{"$ref": "https://a2ui.org/specification/v0_9/common_types.json#/$defs/ComponentCommon"},
			map[string]any{"type": "object", "properties": props, "required": []any{"component"}},
		}}
	}
	v09 = load(speccatalog.BasicV09Spec(t),
		typed("Panel", map[string]any{"header": orAny(id09), "template": orAny(id09), "items": orAny(list09), "slots": orAny(idsOr(id09)), "detail": orAny(idsOr(id09))}),
		typed("Odd", map[string]any{"children": id09}))
	id08 := map[string]any{"type": "string", "title": "ComponentId"}
	list08 := map[string]any{"type": "object", "properties": map[string]any{"explicitList": map[string]any{"type": "array", "items": map[string]any{"type": "string"}}}}
	v08 = load(speccatalog.StandardV08Spec(t),
		map[string]any{"type": "object", "properties": map[string]any{"header": orAny(id08), "template": orAny(id08), "items": orAny(list08), "slots": orAny(idsOr(id08)), "detail": orAny(list08)}},
		map[string]any{"type": "object", "properties": map[string]any{"children": id08}})
	for _, c := range []*protocol.Catalog{v09, v08} {
		for typ, want := range map[string][2][]string{
			"Panel": {{"header", "template"}, {"detail", "items", "slots"}},
			"Odd":   {{"children"}, nil},
		} {
			if single, list := c.RefFields(typ); !slices.Equal(single, want[0]) || !slices.Equal(list, want[1]) {
				t.Fatalf("v%s catalog: %s has reference fields %q, %q; want %q, %q", c.Version(), typ, single, list, want[0], want[1])
			}
		}
	}
	return v09, v08
}

// catalogRefStreams are streams with components of types with reference
// fields of their own: the v0.9 basic catalog's Modal (trigger, content)
// and the test catalogs' Panel and Odd (see refCatalogs); keys in stream
// order, the type last in some (it is known only once the component is
// read).
var catalogRefStreams = []struct {
	name, in string
}{
	{"v09_modal_refs_arrive_later", fastCS + `{"updateComponents":{"components":[{"children":["m"],"component":"Column","id":"root"},{"id":"m","component":"Modal","trigger":"b","content":"c"},{"component":"Text","id":"b","text":"open it"},{"component":"Text","id":"c","text":"inside"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"v09_modal_refs_arrived_earlier", fastCS + `{"updateComponents":{"components":[{"component":"Text","id":"b","text":"open it"},{"component":"Text","id":"c","text":"inside"},{"children":["m"],"component":"Column","id":"root"},{"content":"c","id":"m","trigger":"b","component":"Modal"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"v09_modal_type_last", fastCS + `{"updateComponents":{"components":[{"id":"root","trigger":"b","content":"c","component":"Modal"},{"component":"Text","id":"c","text":"inside"},{"component":"Text","id":"b","text":"open it"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"v09_modal_escapes", fastCS + `{"updateComponents":{"components":[{"id":"root","component":"Modal","trigger":"q\"x","content":"e\\"},{"id":"q\"x","component":"Modal","trigger":"e\\","content":"e\\"},{"component":"Text","id":"e\\","text":"E"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"v09_modal_in_later_blocks", fastCS + `{"updateComponents":{"components":[{"child":"m","component":"Card","id":"root"},{"id":"m","component":"Modal","trigger":"b","content":"c"},{"component":"Text","id":"b","text":"B"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>` +
		`<a2ui-json>[{"updateComponents":{"components":[{"id":"m","component":"Modal","trigger":"c","content":"n"},{"component":"Text","id":"n","text":"N"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>` +
		`<a2ui-json>[{"updateComponents":{"components":[{"component":"Text","id":"c","text":"C"},{"component":"Text","id":"b","text":"B2"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"v09_panel_fields", fastCS + `{"updateComponents":{"components":[{"id":"root","component":"Panel","header":"h","template":"t","items":["i1","i2","i3"],"slots":["s1",{"child":"x"},{"k":[1]}],"detail":["d1",{"child":"y"}],"children":["w"],"text":"z"},{"component":"Text","id":"i2","text":"2"},{"component":"Text","id":"h","text":"H"},{"component":"Text","id":"x","text":"X"},{"component":"Text","id":"t","text":"T"},{"component":"Text","id":"s1","text":"S"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"v09_panel_value_shapes", fastCS + `{"updateComponents":{"components":[{"children":["a","b","c","d","e"],"component":"Column","id":"root"},{"id":"a","component":"Panel","items":{"explicitList":["x","y"]}},{"id":"b","items":{"componentId":"y","path":"/p"},"component":"Panel"},{"id":"c","component":"Panel","items":{"template":{"componentId":"z"}},"header":{"componentId":"x"}},{"id":"d","component":"Panel","items":"x","header":["y",{"child":"z"}],"template":{"k":"z"}},{"id":"e","component":"Panel","header":7,"slots":{"explicitList":["z"]},"template":["y"]},{"component":"Text","id":"y","text":"Y"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"v09_odd", fastCS + `{"updateComponents":{"components":[{"id":"root","component":"Odd","children":"a"},{"id":"a","component":"Modal","trigger":"b","content":"b"},{"component":"Text","id":"b","text":"B"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"v08_panel_fields", fastCSv08 + `{"surfaceUpdate":{"components":[{"id":"root","component":{"Panel":{"header":"h","template":"t","items":{"explicitList":["i1","i2"]},"slots":["s1",{"child":"x"}],"detail":{"explicitList":["d1"]},"child":"w"}}},{"component":{"Text":{"text":{"literalString":"H"}}},"id":"h"},{"component":{"Text":{"text":{"literalString":"2"}}},"id":"i2"},{"component":{"Text":{"text":{"literalString":"T"}}},"id":"t"}],"surfaceId":"s"}}]</a2ui-json>`},
	{"v08_two_types", fastCSv08 + `{"surfaceUpdate":{"components":[{"id":"root","component":{"Panel":{"header":"b","slots":["c"]},"Card":{"child":"a"}}},{"component":{"Text":{"text":{"literalString":"C"}}},"id":"c"},{"id":"b","component":{"Panel":{"items":{"template":{"componentId":"a","dataBinding":"/x"}},"header":{"componentId":"c"}}}}],"surfaceId":"s"}}]</a2ui-json>`},
	{"v08_odd_and_modal", fastCSv08 + `{"surfaceUpdate":{"components":[{"id":"root","component":{"Odd":{"children":"m"}}},{"component":{"Modal":{"contentChild":"b","entryPointChild":"a"}},"id":"m"},{"component":{"Text":{"text":{"literalString":"A"}}},"id":"a"}],"surfaceId":"s"}}]</a2ui-json>`},
}

// TestCatalogRefFieldsMatchRecorded: with their catalog, the streams of
// components of types with reference fields of their own, and of Odd,
// give their recorded messages byte for byte, in both modes, fed one byte
// at a time, in two pieces split at every byte and at a few chunk sizes,
// a surface among them updated by later blocks.
func TestCatalogRefFieldsMatchRecorded(t *testing.T) {
	t.Parallel() // long: runs beside the other long tests
	g := newPathGolden(t)
	v09, v08 := refCatalogs(t)
	for _, tc := range catalogRefStreams {
		t.Run(tc.name, func(t *testing.T) {
			cat := WithCatalog(v09)
			if strings.HasPrefix(tc.name, "v08") {
				cat = WithCatalog(v08)
			}
			in := []byte(tc.in)
			g.checkModes(t, tc.name, renderBytes, splitsOf(in, true, 1, 3, 16, 0), cat)
		})
	}
}

var catRefStreamsN = flag.Int("catrefs.streams", 0, "random streams of TestCatalogRefFieldsRandomMatchRecorded (0: 200, 50 with -short)")

// randomCatalogRefStream writes a v0.9 (or v0.8) stream of 1 to 3 blocks
// updating one surface, from seed, for the catalogs of refCatalogs:
// components of the types Modal (v0.9: trigger and content, ids or, now
// and then, another shape), Panel (its reference fields and child fields
// in every value shape), Odd, Card, Column and Text. The types with
// reference fields of their own (and Odd) have their members in a random
// order, the others in key order (see canonShapeCases); ids are drawn
// from a small set, so references arrive before and after their
// components and name the component itself.
func randomCatalogRefStream(seed int64, v08 bool) []byte {
	r := rand.New(rand.NewSource(seed))
	ids := []string{"root", "a", "b", "c", "d", "e"}
	id := func() string { return strconv.Quote(ids[r.Intn(len(ids))]) }
	idList := func() string {
		var l []string
		for n := r.Intn(4); n > 0; n-- {
			l = append(l, id())
		}
		return "[" + strings.Join(l, ",") + "]"
	}
	value := func() string {
		switch k := r.Intn(12); {
		case k < 5:
			return id()
		case k < 7:
			return idList()
		case k == 7:
			return `{"explicitList":` + idList() + `}`
		case k == 8:
			return `{"componentId":` + id() + `}`
		case k == 9:
			return `[` + id() + `,{"child":` + id() + `,"n":1}]`
		case k == 10:
			return `{"template":{"componentId":` + id() + `,"dataBinding":"/x"}}`
		}
		return [...]string{`7`, `null`, `{"k":"v"}`, `""`}[r.Intn(4)]
	}
	text := `"x"`
	if v08 {
		text = `{"literalString":"x"}`
	}
	// fields writes the members of a component of type typ.
	fields := func(typ string) (members []string, shuffle bool) {
		add := func(k, v string) { members = append(members, strconv.Quote(k)+":"+v) }
		switch typ {
		case "Panel":
			for _, f := range []string{"trigger", "content", "header", "items", "slots", "template", "detail", "children", "child"} {
				if r.Intn(3) == 0 {
					add(f, value())
				}
			}
			if r.Intn(2) == 0 {
				add("text", text)
			}
			return members, true
		case "Modal":
			if v08 {
				add("contentChild", id())
				add("entryPointChild", id())
				return members, false
			}
			for _, f := range []string{"trigger", "content"} {
				if r.Intn(6) == 0 {
					add(f, value())
				} else {
					add(f, id())
				}
			}
			return members, true
		case "Odd":
			add("children", id())
			return members, true
		case "Card":
			add("child", id())
		case "Column":
			if v08 {
				add("children", `{"explicitList":`+idList()+`}`)
			} else {
				add("children", idList())
			}
		default:
			add("text", text)
		}
		return members, false
	}
	var b strings.Builder
	writeSurfaceStart(&b, v08)
	for range 1 + r.Intn(3) {
		var comps []string
		perm := r.Perm(len(ids)) // (no id twice in a block)
		for c := range 1 + r.Intn(4) {
			cid := strconv.Quote(ids[perm[c]])
			typ := [...]string{"Modal", "Modal", "Panel", "Panel", "Odd", "Card", "Column", "Text"}[r.Intn(8)]
			members, shuffle := fields(typ)
			var top []string
			if v08 {
				if shuffle {
					r.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
				}
				def := fmt.Sprintf(`{%q:{%s}}`, typ, strings.Join(members, ","))
				if r.Intn(6) == 0 {
					// (Until its second type arrives, a Card.)
					def = fmt.Sprintf(`{"Card":{"child":%s},%q:{%s}}`, id(), typ, strings.Join(members, ","))
					shuffle = false
				}
				top = []string{`"component":` + def, `"id":` + cid}
			} else {
				top = append(members, `"component":"`+typ+`"`, `"id":`+cid)
			}
			if shuffle {
				r.Shuffle(len(top), func(i, j int) { top[i], top[j] = top[j], top[i] })
			} else {
				slices.Sort(top) // (no key is a prefix of another's quoted form)
			}
			comps = append(comps, "{"+strings.Join(top, ",")+"}")
		}
		writeComponentBlock(&b, v08, comps)
	}
	return []byte(b.String())
}

// TestCatalogRefFieldsRandomMatchRecorded: random streams of components of
// types with reference fields of their own (see randomCatalogRefStream),
// v0.9 and v0.8, with their catalog, give their recorded messages byte
// for byte in both modes, fed one byte at a time, in chunks of a random
// size and in two pieces split at a few random bytes
// (-catrefs.streams for more streams, which must be recorded first: see
// golden_paths_test.go).
func TestCatalogRefFieldsRandomMatchRecorded(t *testing.T) {
	t.Parallel() // long: runs beside the other long tests
	v09Cat, v08Cat := refCatalogs(t)
	g := newPathGolden(t)
	n := g.randomStreams(*catRefStreamsN, 200)
	checkRandomRecorded(t, g, n, randomCatalogRefStream, func(v08 bool) []Option {
		if v08 {
			return []Option{WithCatalog(v08Cat)}
		}
		return []Option{WithCatalog(v09Cat)}
	})
}
