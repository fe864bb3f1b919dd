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

var fieldStreamsN = flag.Int("fields.streams", 0, "random streams of TestFieldShapesRandomMatchRecorded (0: 150, 37 with -short)")

// fieldCatalogs are the specification's v0.9 basic and v0.8 standard
// catalogs with types whose reference fields are child-list fields read
// as single ones, or a component's own componentId, id or type: Odd (a
// single "children" and "explicitList", v0.8 a single "id"), Weird
// (single "componentId", "id" and "component", v0.9) and Listy (a list
// "componentId" and "component", v0.9 "id" too).
func fieldCatalogs(t *testing.T) (v09, v08 *protocol.Catalog) {
	t.Helper()
	id09 := map[string]any{"$ref": "https://a2ui.org/specification/v0_9/common_types.json#/$defs/ComponentId"}
	ids09 := map[string]any{"type": "array", "items": id09}
	// Any value (the reference field's kind stays the schema's).
	orAny := func(s map[string]any) map[string]any { return map[string]any{"anyOf": []any{s, map[string]any{}}} }
	typed := func(name string, props map[string]any) map[string]any {
		if _, ok := props["component"]; !ok {
			props["component"] = map[string]any{"const": name}
		}
		return map[string]any{"type": "object", "allOf": []any{
			map[string]any{"$ref": "https://a2ui.org/specification/v0_9/common_types.json#/$defs/ComponentCommon"},
			map[string]any{"type": "object", "properties": props, "required": []any{"component"}},
		}}
	}
	id08 := map[string]any{"type": "string", "title": "ComponentId"}
	ids08 := map[string]any{"type": "array", "items": id08}
	v09 = catalogWith(t, speccatalog.BasicV09Spec(t),
		namedType{"Listy", typed("Listy", map[string]any{"componentId": orAny(ids09), "id": map[string]any{"anyOf": []any{map[string]any{"type": "string"}, ids09}}, "component": map[string]any{"anyOf": []any{map[string]any{"const": "Listy"}, ids09}}})},
		namedType{"Odd", typed("Odd", map[string]any{"children": orAny(id09), "explicitList": orAny(id09)})},
		namedType{"Weird", typed("Weird", map[string]any{"componentId": orAny(id09), "id": id09, "component": map[string]any{"allOf": []any{map[string]any{"const": "Weird"}, id09}}})},
	)
	v08 = catalogWith(t, speccatalog.StandardV08Spec(t),
		namedType{"Listy", map[string]any{"type": "object", "properties": map[string]any{"componentId": orAny(ids08), "component": orAny(ids08)}}},
		namedType{"Odd", map[string]any{"type": "object", "properties": map[string]any{"children": orAny(id08), "explicitList": orAny(id08), "id": orAny(id08)}}},
	)
	for _, c := range []*protocol.Catalog{v09, v08} {
		for typ, want := range map[string][2][]string{
			"Odd":   {{"children", "explicitList"}, nil},
			"Listy": {nil, {"component", "componentId"}},
		} {
			if c == v09 && typ == "Listy" {
				want[1] = []string{"component", "componentId", "id"}
			}
			if c == v08 && typ == "Odd" {
				want[0] = append(want[0], "id")
			}
			if single, list := c.RefFields(typ); !slices.Equal(single, want[0]) || !slices.Equal(list, want[1]) {
				t.Fatalf("v%s catalog: %s has reference fields %q, %q; want %q, %q", c.Version(), typ, single, list, want[0], want[1])
			}
		}
	}
	if single, _ := v09.RefFields("Weird"); !slices.Equal(single, []string{"component", "componentId", "id"}) {
		t.Fatalf("Weird has single reference fields %q", single)
	}
	return v09, v08
}

// namedType is a component type's name and schema.
type namedType struct {
	name   string
	schema map[string]any
}

// catalogWith loads spec's catalog with the component types types added,
// in their order (the order of anyComponent's oneOf shows in validation
// errors).
func catalogWith(t *testing.T, spec protocol.CatalogSpec, types ...namedType) *protocol.Catalog {
	t.Helper()
	cat := readSchema(t, spec.CatalogSchema)
	comps := cat["components"].(map[string]any)
	for _, ty := range types {
		name := ty.name
		comps[name] = ty.schema
		if defs, ok := cat["$defs"].(map[string]any); ok {
			ac := defs["anyComponent"].(map[string]any)
			ac["oneOf"] = append(ac["oneOf"].([]any), map[string]any{"$ref": "#/components/" + name})
		}
	}
	spec.CatalogSchema = cat
	c, err := protocol.LoadCatalog(spec, "")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// fieldShapes are streams of child fields of shapes the schema rejects (a
// "children" or "explicitList" that is no list, a "child" that is no
// string), v0.8 definitions of odd shapes (properties that are no object,
// an empty type, a type named as a child field, "id" or "component"
// properties) and types that keep an escape (keys in order, see
// byteLevelShapes), their children arriving later.
var fieldShapes = []byteShape{
	{"v09_children_and_explicitList_of_other_shapes", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"children":["a","b","c"],"component":"Column","id":"root"},{"children":"x","component":"Row","id":"a"},{"component":"Row","explicitList":{"componentId":"y","k":{"child":"z"}},"id":"b"},{"children":null,"component":"Row","explicitList":7,"id":"c"}]}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Text","id":"x","text":"x"},{"component":"Text","id":"z","text":"z"}]}}]</a2ui-json>`},
	{"v09_child_fields_of_other_shapes", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"child":["a","x",{"child":"y"}],"component":"Card","contentChild":5,"entryPointChild":[],"id":"root"},{"child":null,"component":"Card","id":"a"}]}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Text","id":"y","text":"y"},{"component":"Text","id":"x","text":"x"}]}}]</a2ui-json>`},
	{"v09_type_with_an_escape", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"children":["a"],"component":"Column","id":"root"},{"child":"b","component":"Ca\"rd","id":"a"}]}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Text","id":"b","text":"b"}]}}]</a2ui-json>`},
	{"v08_field_shapes", fastCSv08 + `{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Column":{"children":{"explicitList":["a","b","c","d"]}}},"id":"root"},{"component":{"Row":{"children":"x","explicitList":null}},"id":"a"},{"component":{"Card":{"child":["y"],"contentChild":3}},"id":"b"},{"component":{"Row":{"children":{"explicitList":"z"}}},"id":"c"},{"component":{"Card":{"child":"x","component":"q","id":"p"}},"id":"d"}]}},{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Text":{"text":{"literalString":"x"}}},"id":"x"},{"component":{"Text":{"text":{"literalString":"y"}}},"id":"y"}]}}]</a2ui-json>`},
	{"v08_definitions_of_other_shapes", fastCSv08 + `{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Column":{"children":{"explicitList":["a","b","c","d","e"]}}},"id":"root"},{"component":{"Text":"hello"},"id":"a"},{"component":{"Card":[{"child":"x"}]},"id":"b"},{"component":{"":{"child":"y"}},"id":"c"},{"component":{"child":"x"},"id":"d"},{"component":{"R\"w":{"child":"y"}},"id":"e"}]}},{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Text":{"text":{"literalString":"x"}}},"id":"x"},{"component":{"Text":{"text":{"literalString":"y"}}},"id":"y"}]}}]</a2ui-json>`},
}

// TestFieldShapesMatchRecorded: each shape gives, call by call, its
// recorded bytes (see golden_paths_test.go), both modes, one byte at a
// time, split at every byte and at a few chunk sizes, with and without a
// catalog.
func TestFieldShapesMatchRecorded(t *testing.T) {
	t.Parallel()
	checkByteLevelShapes(t, fieldShapes)
}

// TestFieldShapesWithOddCatalogsMatchRecorded: streams of the types of
// fieldCatalogs (but Weird, whose components all name themselves, which
// the catalog's checks reject) give their recorded bytes with that
// catalog, both modes, one byte at a time and split at every byte.
func TestFieldShapesWithOddCatalogsMatchRecorded(t *testing.T) {
	t.Parallel()
	g := newPathGolden(t)
	v09, v08 := fieldCatalogs(t)
	for _, tc := range []byteShape{
		{"v09_odd", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"children":["a","b","c"],"component":"Column","id":"root"},{"children":"x","component":"Odd","id":"a"},{"children":["y",{"child":"x"}],"component":"Odd","explicitList":"z","id":"b"},{"child":"x","component":"Card","id":"c"},{"component":"Listy","componentId":["x","z"],"id":"d"}]}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Text","id":"x","text":"x"},{"component":"Text","id":"y","text":"y"}]}}]</a2ui-json>`},
		{"v08_odd", fastCSv08 + `{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Column":{"children":{"explicitList":["a","b"]}}},"id":"root"},{"component":{"Odd":{"children":"x","explicitList":["y"],"id":"z"}},"id":"a"},{"component":{"Listy":{"component":["x"],"componentId":["y","q"]}},"id":"b"}]}},{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Text":{"text":{"literalString":"x"}}},"id":"x"},{"component":{"Text":{"text":{"literalString":"y"}}},"id":"y"}]}}]</a2ui-json>`},
	} {
		cat := WithCatalog(v09)
		if strings.HasPrefix(tc.name, "v08") {
			cat = WithCatalog(v08)
		}
		in := []byte(tc.in)
		t.Run(tc.name, func(t *testing.T) {
			g.checkModes(t, tc.name, renderBytes, splitsOf(in, true, 1), cat)
		})
	}
}

// TestFieldShapesRandomMatchRecorded: random streams of components whose
// child fields and v0.8 definitions take the shapes of fieldShapes beside
// the common ones (randomFieldStream), with no catalog, the family's or
// fieldCatalogs', give their recorded bytes in both modes, fed one byte
// at a time, in chunks of a random size and split at random bytes
// (-fields.streams for more).
func TestFieldShapesRandomMatchRecorded(t *testing.T) {
	t.Parallel()
	odd09, odd08 := fieldCatalogs(t)
	std09, std08 := speccatalog.BasicV09(t), speccatalog.StandardV08(t)
	g := newPathGolden(t)
	n := g.randomStreams(*fieldStreamsN, 150)
	for k, cats := range [][2]*protocol.Catalog{{nil, nil}, {std09, std08}, {odd09, odd08}} {
		t.Run(fmt.Sprintf("catalogs%d", k), func(t *testing.T) {
			checkRandomRecordedAs(t, g, fmt.Sprintf("catalogs%d ", k), n/3, randomFieldStream, func(v08 bool) []Option {
				c := cats[0]
				if v08 {
					c = cats[1]
				}
				if c == nil {
					return nil
				}
				return []Option{WithCatalog(c)}
			})
		})
	}
}

// randomFieldStream is a stream of blocks of components (surface "s") of
// the types of fieldCatalogs and common ones, whose child fields take any
// shape (an id, a list of ids and other values, an object with a
// componentId or a child, a number, a literal, an empty object or list)
// and, in v0.8, whose definitions take odd shapes (properties that are no
// object, an empty type, a type named as a child field, an escape in the
// type). Keys are in order at every depth; ids come from a small set, so
// that children arrive before and after their parents.
func randomFieldStream(seed int64, v08 bool) []byte {
	r := rand.New(rand.NewSource(seed))
	ids := []string{"root", "a", "b", "c", "d"}
	id := func() string { return strconv.Quote(ids[r.Intn(len(ids))]) }
	var value func(depth int) string
	value = func(depth int) string {
		switch k := r.Intn(11); {
		case k < 3:
			return id()
		case k < 5 && depth < 2:
			var l []string
			for range r.Intn(3) {
				l = append(l, value(depth+1))
			}
			return "[" + strings.Join(l, ",") + "]"
		case k == 5:
			return sortedObject(map[string]string{"componentId": id(), "n": "1"})
		case k == 6 && depth < 2:
			return sortedObject(map[string]string{"child": value(depth + 1)})
		case k == 7:
			return sortedObject(map[string]string{"explicitList": "[" + id() + "]"})
		}
		return [...]string{"7", "null", "true", "{}", "[]", `""`}[r.Intn(6)]
	}
	fieldNames := []string{"children", "explicitList", "child", "contentChild", "entryPointChild", "componentId", "text"}
	props := func() map[string]string {
		m := map[string]string{}
		for range 1 + r.Intn(3) {
			m[fieldNames[r.Intn(len(fieldNames))]] = value(0)
		}
		return m
	}
	types := []string{"Column", "Card", "Odd", "Weird", "Listy", "Text"}
	comp := func(cid string) string {
		typ := types[r.Intn(len(types))]
		if !v08 {
			m := props()
			m["component"], m["id"] = strconv.Quote(typ), cid
			if r.Intn(8) == 0 {
				m["component"] = `"Ca\"rd"`
			}
			return sortedObject(m)
		}
		var def string
		switch r.Intn(8) {
		case 0:
			def = sortedObject(map[string]string{typ: value(0)})
		case 1:
			def = sortedObject(map[string]string{"": sortedObject(props())})
		case 2:
			def = sortedObject(map[string]string{fieldNames[r.Intn(6)]: value(0)})
		case 3:
			def = sortedObject(map[string]string{`Ca\"rd`: sortedObject(props())})
		default:
			p := props()
			if r.Intn(4) == 0 {
				p["id"], p["component"] = id(), id()
			}
			def = sortedObject(map[string]string{typ: sortedObject(p)})
		}
		return sortedObject(map[string]string{"component": def, "id": cid})
	}
	var b strings.Builder
	writeSurfaceStart(&b, v08)
	for range 1 + r.Intn(3) {
		var comps []string
		perm := r.Perm(len(ids))
		for c := range 1 + r.Intn(4) {
			comps = append(comps, comp(strconv.Quote(ids[perm[c]])))
		}
		writeComponentBlock(&b, v08, comps)
	}
	return []byte(b.String())
}
