package parser

// The top-level fields protocol.ComponentRefs reads references from
// besides the child fields, in a v0.9 component or a v0.8 definition's
// properties, and a component's own "componentId".
//
// "detail", "summary" and "root" hold one id, "template" a list of ids:
// protocol.ComponentRefs counts a string of the first three and the
// strings of a "template" list (a string "template" is no reference), in
// cfRef slots. Those are references only: the processing rewrites no
// child there (processFast, processGrown and the placeholder lists skip
// them). An object in them, or any other element of a list, is a plain
// value; one holding a child field makes the component a nested one
// (entry_nested.go), whose order reader takes the references
// protocol.ComponentRefs reads there (a "componentId" in a "detail"
// object, the "child" of an object in a "template" list).
//
// A component's own "componentId" is rewritten by the processing (it is a
// child field) but is no reference: a string id there is a cfOwnID slot.
//
// The generic path read such a component, and wrote it with sorted keys:
// it is kept in its canonical encoding (compScanner.sorted), whose slots
// are in protocol.ComponentRefs's order (see fastComp.refs).

import (
	"strings"

	"github.com/buger/jsonparser"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// refList is topKey's field for a reference field holding a list of ids
// ("template"); its slots are cfRef ones.
const refList = cfRef + 1

// refField reads the value at b[i], at nesting depth depth, of the
// reference field field (cfRef: one id, refList: a list of ids).
func (c *compScanner) refField(b []byte, i int, field int, depth int) (int, bool) {
	c.sorted = true
	switch {
	case field == cfRef && b[i] == '"':
		return c.slot(b, i, cfRef)
	case field == refList && b[i] == '[':
		return c.refElements(b, i, depth)
	}
	return c.value(b, i, depth)
}

// refElements reads a list of ids at b[i] == '[': its strings are
// references, anything else in it is a value.
func (c *compScanner) refElements(b []byte, i int, depth int) (int, bool) {
	c.out = append(c.out, '[')
	i = jsonwire.SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		c.out = append(c.out, ']')
		return i + 1, true
	}
	for {
		var ok, more bool
		if i = jsonwire.SkipSpace(b, i); i < len(b) && b[i] == '"' {
			i, ok = c.slot(b, i, cfRef)
		} else {
			i, ok = c.value(b, i, depth+1)
		}
		if !ok {
			return i, false
		}
		if i, more, ok = c.sep(b, i, ']'); !more {
			return i, ok
		}
	}
}

// ownComponentID reads the value at b[i], at nesting depth depth, of the
// component's own componentId (a cfOwnID slot when it is a string).
func (c *compScanner) ownComponentID(b []byte, i int, depth int) (int, bool) {
	c.sorted = true
	switch b[i] {
	case '"':
		return c.slot(b, i, cfOwnID)
	case '[':
		// (Processed as a list of child ids, no reference: a nested one.)
		return c.childValue(b, i, cfOwnID, depth)
	}
	// A componentId or a child in an object, which would be read, takes
	// the generic path (value).
	return c.value(b, i, depth)
}

// A catalog's reference fields of a component's type (its RefFields) are
// read as protocol.ComponentRefs reads them: a name among the type's
// single fields (a Modal's "trigger") is read as "detail" is, one among its
// list fields as "template" is (a "template" among the single fields
// holds one id); a list field also stops the "child" of the objects of its
// list from counting (see orderReader.propRefs). The processing rewrites
// only child fields (placeholderSet.walk): those fields are references
// only, cfRef slots. A component of such a type is read once without the
// catalog (its type is then known), then again in its canonical encoding
// (as the generic path, which read it before, wrote it) with its type's
// fields (rules), which leaves no checkpoint (entry_resume.go): every
// checkpoint is one of a read without them.

// catalogRead is the catalog's say on the component just read (compFast):
// read again with the reference fields of its type (v0.8: of each type of
// its definition) when they need it (see ruleKinds), the generic path when
// the reader cannot take them.
func (c *compScanner) catalogRead() int {
	// (On every read with a catalog, a sniff's too: the type is found in
	// place, without listing the members.)
	own, ok := false, true
	if c.v08 {
		jsonparser.ObjectEach(c.out, func(typ, _ []byte, _ jsonparser.ValueType, _ int) error {
			o, k := ruleKinds(c.cat.RefFields(string(typ)))
			own, ok = own || o, ok && k
			return nil
		}, "component")
	} else {
		typ, _, _, _ := jsonparser.Get(c.out, "component") // (a string: see topMember)
		name := string(typ)
		if strings.IndexByte(name, '\\') >= 0 {
			name, _ = jsonwire.Unescape(typ) // (an escape its canonical encoding keeps)
		}
		c.single, c.lists = c.cat.RefFields(name)
		own, ok = ruleKinds(c.single, c.lists)
	}
	switch {
	case !ok:
		c.slow = true
		return compSlow
	case !own:
		return compFast
	}
	c.rules = true
	return c.reread(c.out, true)
}

// ruleKinds reports whether a type's reference fields single and list make
// its components read differently from a type without (own): a name that
// is no well-known one of its kind, or a list field whose list's objects'
// "child" would count ("template", a single name); and whether the reader
// can take them (ok): not a child list among the single fields, nor a
// component's own componentId, id or type.
func ruleKinds(single, list []string) (own, ok bool) {
	for _, k := range single {
		switch k {
		case "child", "contentChild", "entryPointChild", "detail", "summary", "root":
		case "children", "explicitList", "componentId", "id", "component":
			return own, false
		default:
			own = true
		}
	}
	for _, k := range list {
		switch k {
		case "children", "explicitList":
		case "componentId", "id", "component":
			return own, false
		default:
			own = true
		}
	}
	return own, true
}

// ruleField is topKey's field of key k under the type's reference fields
// (rules): a child field keeps its own (a single name wins over a list
// one, as in protocol.ComponentRefs), a single field is cfRef, a list field
// refList.
func (c *compScanner) ruleField(k []byte, field int) int {
	switch {
	case field >= 0 && field < cfOwnID:
		return field
	case hasName(c.single, k):
		return cfRef
	case hasName(c.lists, k) && field != cfRef:
		return refList
	}
	return field
}

// hasName reports whether names holds k.
func hasName(names []string, k []byte) bool {
	for _, n := range names {
		if n == string(k) {
			return true
		}
	}
	return false
}
