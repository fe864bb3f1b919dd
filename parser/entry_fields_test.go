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

// TestCompScannerFieldShapes: child fields of a shape the schema rejects
// (a "children" or "explicitList" that is no list, a "child" that is no
// string), v0.8 definitions of odd shapes (properties that are no object,
// an empty type, a type named as a child field, an "id" or "component"
// property), a type that keeps an escape, and the types whose catalog
// names a child field, componentId, id or component among their reference
// fields, are read at byte level (in canonical encoding), their slots
// walked as placeholderSet.walk walks the decoded form and their
// references those protocol.ComponentRefs reads from it.
func TestCompScannerFieldShapes(t *testing.T) {
	v09, v08 := fieldCatalogs(t)
	for _, tc := range []struct {
		scanCase
		cat  bool // with fieldCatalogs' catalog of the family
		refs string
	}{
		// A "children" or "explicitList" that is no list (nor, for
		// "children", an object): a string is walked (the generic walk
		// rewrites it) but no reference; an object is walked.
		{scanCase{"v09 children a string", false, `{"id":"t","component":"Column","children":"a"}`, compFast,
			`{"children":"a","component":"Column","id":"t"}`, "[0:a]"}, false, "[]"},
		{scanCase{"v09 explicitList an object, children a number", false, `{"id":"t","component":"Row","explicitList":{"componentId":"a","k":{"child":"b"}},"children":7}`, compFast,
			`{"children":7,"component":"Row","explicitList":{"componentId":"a","k":{"child":"b"}},"id":"t"}`, "[5:a 2:b]"}, false, "[a]"},
		{scanCase{"v08 children a string", true, `{"id":"t","component":{"Column":{"children":"a"}}}`, compFast,
			`{"component":{"Column":{"children":"a"}},"id":"t"}`, "[0:a]"}, false, "[]"},
		{scanCase{"v08 explicitList a string", true, `{"id":"t","component":{"Column":{"children":{"explicitList":"a"}}}}`, compFast,
			`{"component":{"Column":{"children":{"explicitList":"a"}}},"id":"t"}`, "[7:a]"}, false, "[]"},
		{scanCase{"v08 explicitList property null", true, `{"id":"t","component":{"Row":{"explicitList":null,"child":"c"}}}`, compFast,
			`{"component":{"Row":{"child":"c","explicitList":null}},"id":"t"}`, "[2:c]"}, false, "[c]"},
		// A "child", "contentChild" or "entryPointChild" that is no string
		// nor object: a list's strings are walked, no reference (but the
		// "child" of an object in it is one); anything else is a value.
		{scanCase{"v09 child a list", false, `{"id":"t","component":"Card","child":["a",{"child":"b"}],"contentChild":5}`, compFast,
			`{"child":["a",{"child":"b"}],"component":"Card","contentChild":5,"id":"t"}`, "[2:a 2:b]"}, false, "[b]"},
		{scanCase{"v09 entryPointChild true", false, `{"id":"t","component":"Card","entryPointChild":true}`, compFast,
			`{"component":"Card","entryPointChild":true,"id":"t"}`, "[]"}, false, "[]"},
		{scanCase{"v08 child a list", true, `{"id":"t","component":{"Card":{"child":["a"],"contentChild":null}}}`, compFast,
			`{"component":{"Card":{"child":["a"],"contentChild":null}},"id":"t"}`, "[2:a]"}, false, "[]"},
		// v0.8 definitions.
		{scanCase{"v08 properties a string", true, `{"id":"t","component":{"Text":"hello"}}`, compFast,
			`{"component":{"Text":"hello"},"id":"t"}`, "[]"}, false, "[]"},
		{scanCase{"v08 properties a list with a child", true, `{"id":"t","component":{"Card":[{"child":"a"}]}}`, compFast,
			`{"component":{"Card":[{"child":"a"}]},"id":"t"}`, "[2:a]"}, false, "[]"},
		{scanCase{"v08 empty type", true, `{"id":"t","component":{"":{"child":"a"}}}`, compFast,
			`{"component":{"":{"child":"a"}},"id":"t"}`, "[2:a]"}, false, "[]"},
		{scanCase{"v08 type named child", true, `{"id":"t","component":{"child":"a"}}`, compFast,
			`{"component":{"child":"a"},"id":"t"}`, "[2:a]"}, false, "[]"},
		{scanCase{"v08 type named children", true, `{"id":"t","component":{"children":{"explicitList":["a"]}}}`, compFast,
			`{"component":{"children":{"explicitList":["a"]}},"id":"t"}`, "[1:a]"}, false, "[a]"},
		{scanCase{"v08 id and component properties", true, `{"id":"t","component":{"Card":{"id":"x","component":"y","child":"a"}}}`, compFast,
			`{"id":"t","component":{"Card":{"id":"x","component":"y","child":"a"}}}`, "[2:a]"}, false, "[a]"},
		// A type that keeps an escape in its canonical encoding.
		{scanCase{"v09 type with an escape", false, `{"id":"t","component":"R\"w","child":"a"}`, compFast,
			`{"child":"a","component":"R\"w","id":"t"}`, "[2:a]"}, false, "[a]"},
		{scanCase{"v08 type with an escape", true, `{"id":"t","component":{"R\"w":{"child":"a"}}}`, compFast,
			`{"component":{"R\"w":{"child":"a"}},"id":"t"}`, "[2:a]"}, false, "[a]"},
		// Catalogs naming child fields, componentId, id or component
		// among a type's reference fields (see fieldCatalogs).
		{scanCase{"v09 single children a string", false, `{"id":"t","component":"Odd","children":"a"}`, compFast,
			`{"children":"a","component":"Odd","id":"t"}`, "[0:a]"}, true, "[a]"},
		{scanCase{"v09 single children a list", false, `{"id":"t","component":"Odd","children":["a",{"child":"b"}]}`, compFast,
			`{"children":["a",{"child":"b"}],"component":"Odd","id":"t"}`, "[0:a 2:b]"}, true, "[b]"},
		{scanCase{"v09 single componentId, id and component", false, `{"id":"t","component":"Weird","componentId":"a","child":"c"}`, compFast,
			`{"child":"c","component":"Weird","componentId":"a","id":"t"}`, "[2:c 8:Weird 5:a 8:t]"}, true, "[c Weird a t]"},
		{scanCase{"v09 list componentId", false, `{"id":"t","component":"Listy","componentId":["a","b"],"id2":"x"}`, compFast,
			`{"component":"Listy","componentId":["a","b"],"id":"t","id2":"x"}`, "[5:a 5:b]"}, true, "[a b]"},
		{scanCase{"v08 single explicitList and id", true, `{"id":"t","component":{"Odd":{"explicitList":["a"],"id":"b","children":"c"}}}`, compFast,
			`{"component":{"Odd":{"children":"c","explicitList":["a"],"id":"b"}},"id":"t"}`, "[0:c 1:a 8:b]"}, true, "[c b]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c compScanner
			if tc.cat {
				c.cat = v09
				if tc.v08 {
					c.cat = v08
				}
			}
			got := c.scanAt([]byte(tc.comp), tc.v08, 1, 0)
			if got != tc.want {
				t.Fatalf("outcome %d, want %d", got, tc.want)
			}
			if string(c.out) != tc.out {
				t.Errorf("bytes %s, want %s", c.out, tc.out)
			}
			var s []string
			for _, sl := range c.slots {
				s = append(s, fmt.Sprintf("%d:%s", sl.field, c.out[sl.a:sl.b]))
			}
			if got := "[" + strings.Join(s, " ") + "]"; got != tc.ids {
				t.Errorf("slots %s, want %s", got, tc.ids)
			}
			var names idNames
			if refs, _ := c.result(&names).refs(&names); fmt.Sprint(refs) != tc.refs {
				t.Errorf("references %v, want %s", refs, tc.refs)
			}
		})
	}
}

// fieldCatalogs are the specification's v0.9 basic and v0.8 standard
// catalogs with types whose reference fields the reader reads through its
// order reader (ruleKinds' odd): Odd (a single "children" and
// "explicitList", a single "id"), Weird (single "componentId", "id" and
// "component", v0.9) and Listy (a list "componentId", "id" and
// "component").
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

// fieldShapes are streams of the field shapes of TestCompScannerFieldShapes
// (keys in order, see byteLevelShapes), their children arriving later.
var fieldShapes = []byteShape{
	{"v09_children_and_explicitList_of_other_shapes", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"children":["a","b","c"],"component":"Column","id":"root"},{"children":"x","component":"Row","id":"a"},{"component":"Row","explicitList":{"componentId":"y","k":{"child":"z"}},"id":"b"},{"children":null,"component":"Row","explicitList":7,"id":"c"}]}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Text","id":"x","text":"x"},{"component":"Text","id":"z","text":"z"}]}}]</a2ui-json>`, []string{"root", "a", "b", "c"}},
	{"v09_child_fields_of_other_shapes", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"child":["a","x",{"child":"y"}],"component":"Card","contentChild":5,"entryPointChild":[],"id":"root"},{"child":null,"component":"Card","id":"a"}]}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Text","id":"y","text":"y"},{"component":"Text","id":"x","text":"x"}]}}]</a2ui-json>`, []string{"root", "a"}},
	{"v09_type_with_an_escape", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"children":["a"],"component":"Column","id":"root"},{"child":"b","component":"Ca\"rd","id":"a"}]}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Text","id":"b","text":"b"}]}}]</a2ui-json>`, []string{"root", "a"}},
	{"v08_field_shapes", fastCSv08 + `{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Column":{"children":{"explicitList":["a","b","c","d"]}}},"id":"root"},{"component":{"Row":{"children":"x","explicitList":null}},"id":"a"},{"component":{"Card":{"child":["y"],"contentChild":3}},"id":"b"},{"component":{"Row":{"children":{"explicitList":"z"}}},"id":"c"},{"component":{"Card":{"child":"x","component":"q","id":"p"}},"id":"d"}]}},{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Text":{"text":{"literalString":"x"}}},"id":"x"},{"component":{"Text":{"text":{"literalString":"y"}}},"id":"y"}]}}]</a2ui-json>`, []string{"root", "a", "b", "c", "d"}},
	{"v08_definitions_of_other_shapes", fastCSv08 + `{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Column":{"children":{"explicitList":["a","b","c","d","e"]}}},"id":"root"},{"component":{"Text":"hello"},"id":"a"},{"component":{"Card":[{"child":"x"}]},"id":"b"},{"component":{"":{"child":"y"}},"id":"c"},{"component":{"child":"x"},"id":"d"},{"component":{"R\"w":{"child":"y"}},"id":"e"}]}},{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Text":{"text":{"literalString":"x"}}},"id":"x"},{"component":{"Text":{"text":{"literalString":"y"}}},"id":"y"}]}}]</a2ui-json>`, []string{"root", "a", "b", "c", "d", "e"}},
}

// TestFieldShapesMatchRecorded: each shape is read at byte level and gives,
// call by call, the generic path's bytes, both modes, one byte at a time,
// split at every byte, with and without a catalog, with the same entries.
func TestFieldShapesMatchRecorded(t *testing.T) {
	t.Parallel()
	checkByteLevelShapes(t, fieldShapes)
}

// TestFieldShapesWithOddCatalogsMatchRecorded: streams of the types of fieldCatalogs
// (but Weird, whose components all name themselves, which the catalog's
// checks reject) are read at byte level and give the generic path's bytes with that
// catalog, both modes, one byte at a time and split at every byte.
func TestFieldShapesWithOddCatalogsMatchRecorded(t *testing.T) {
	t.Parallel()
	g := newPathGolden(t)
	v09, v08 := fieldCatalogs(t)
	for _, tc := range []byteShape{
		{"v09_odd", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"children":["a","b","c"],"component":"Column","id":"root"},{"children":"x","component":"Odd","id":"a"},{"children":["y",{"child":"x"}],"component":"Odd","explicitList":"z","id":"b"},{"child":"x","component":"Card","id":"c"},{"component":"Listy","componentId":["x","z"],"id":"d"}]}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Text","id":"x","text":"x"},{"component":"Text","id":"y","text":"y"}]}}]</a2ui-json>`, []string{"root", "a", "b", "c", "d"}},
		{"v08_odd", fastCSv08 + `{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Column":{"children":{"explicitList":["a","b"]}}},"id":"root"},{"component":{"Odd":{"children":"x","explicitList":["y"],"id":"z"}},"id":"a"},{"component":{"Listy":{"component":["x"],"componentId":["y","q"]}},"id":"b"}]}},{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Text":{"text":{"literalString":"x"}}},"id":"x"},{"component":{"Text":{"text":{"literalString":"y"}}},"id":"y"}]}}]</a2ui-json>`, []string{"root", "a", "b"}},
	} {
		cat := WithCatalog(v09)
		if strings.HasPrefix(tc.name, "v08") {
			cat = WithCatalog(v08)
		}
		in := []byte(tc.in)
		t.Run(tc.name, func(t *testing.T) {
			fast := byteLevelComps(t, in, cat)
			for _, id := range tc.byteLevel {
				if !fast[id] {
					t.Errorf("component %s not read at byte level", id)
				}
			}
			g.checkModes(t, tc.name, renderBytes, splitsOf(in, true, 1), cat)
		})
	}
}

// TestFieldShapesRandomMatchRecorded: random streams of components whose
// child fields and v0.8 definitions take the shapes of
// TestCompScannerFieldShapes beside the common ones (randomFieldStream),
// with no catalog, the family's or fieldCatalogs', give the generic
// path's bytes in both modes, fed one byte at a time, in chunks of a
// random size and split at random bytes (-fields.streams for more).
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
