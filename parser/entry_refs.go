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
// The pinned outputs have such a component with sorted keys: it is kept
// in its canonical encoding (compScanner.sorted), whose slots
// are in protocol.ComponentRefs's order (see fastComp.refs).

import (
	"bytes"

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
	// A componentId or a child in an object is read by value (which
	// sends a child field to the nested reader).
	return c.value(b, i, depth)
}

// A catalog's reference fields of a component's type (its RefFields) are
// read as protocol.ComponentRefs reads them: a name among the type's
// single fields (a Modal's "trigger") is read as "detail" is, one among its
// list fields as "template" is (a "template" among the single fields
// holds one id); a list field also stops the "child" of the objects of its
// list from counting (see orderReader.propRefs). The processing rewrites
// only child fields (the reference's placeholder walk): those fields are references
// only, cfRef slots. A component of such a type is read once without the
// catalog (its type is then known), then again in its canonical encoding
// (as the pinned outputs have it) with its type's
// fields (rules), which leaves no checkpoint (entry_resume.go): every
// checkpoint is one of a read without them.

// catalogRead is the catalog's say on the component just read (compFast):
// read again with the reference fields of its type (v0.8: of each type of
// its definition) when they need it (see ruleKinds), as a nested component
// (its references read by the order reader, with the catalog) when its
// slots cannot say them.
func (c *compScanner) catalogRead() int {
	// (On every read with a catalog, a sniff's too: the type is found in
	// place, without listing the members.)
	own, odd := false, false
	if c.v08 {
		jsonparser.ObjectEach(c.out, func(typ, _ []byte, _ jsonparser.ValueType, _ int) error {
			o, d := ruleKinds(c.cat.RefFields(typeName(typ)))
			own, odd = own || o, odd || d
			return nil
		}, "component")
	} else {
		typ := leadingType(c.out)
		if typ == nil {
			typ, _, _, _ = jsonparser.Get(c.out, "component") // (a string: see topMember)
		}
		c.single, c.lists = c.cat.RefFields(typeName(typ))
		own, odd = ruleKinds(c.single, c.lists)
	}
	if !own && !odd {
		return compFast
	}
	c.rules = true
	r := c.reread(c.out, true)
	c.nested = c.nested || odd
	return r
}

// leadingType returns the text of comp's "component" member when comp
// starts as models write a v0.9 component, {"id":"…","component":"…",
// with plain texts and no whitespace (else nil): jsonparser.Get's answer,
// the first "component" member's, without its search.
func leadingType(comp []byte) []byte {
	at := leadingComponent(comp)
	if at < 0 || comp[at] != '"' {
		return nil
	}
	end := jsonwire.PlainRun(comp, at+1)
	if end == len(comp) || comp[end] != '"' {
		return nil
	}
	return comp[at+1 : end]
}

// leadingDefinition returns the first type of the v0.8 definition comp
// and the bytes from its properties object on, when comp starts as models
// write one, {"id":"…","component":{"…":{, with plain texts, a type named
// and no whitespace (else nil, nil): what jsonparser.ObjectEach gives
// first on the "component" member, without the search and without
// reading to the properties' end (jsonparser.Get on props stops there).
func leadingDefinition(comp []byte) (typ, props []byte) {
	at := leadingComponent(comp)
	if at < 0 || !bytes.HasPrefix(comp[at:], []byte(`{"`)) {
		return nil, nil
	}
	end := jsonwire.PlainRun(comp, at+2)
	if end == at+2 || !bytes.HasPrefix(comp[end:], []byte(`":{`)) {
		return nil, nil
	}
	return comp[at+2 : end], comp[end+2:]
}

// leadingComponent returns where the value of comp's "component" member
// starts when comp starts {"id":"…","component": with a plain id and no
// whitespace, else -1 (or when nothing follows).
func leadingComponent(comp []byte) int {
	const id, typ = `{"id":"`, `","component":`
	if !bytes.HasPrefix(comp, []byte(id)) {
		return -1
	}
	at := jsonwire.PlainRun(comp, len(id))
	if !bytes.HasPrefix(comp[at:], []byte(typ)) || at+len(typ) == len(comp) {
		return -1
	}
	return at + len(typ)
}

// ruleKinds reports whether a type's reference fields single and list make
// its components read differently from a type without (own): a name that
// is no well-known one of its kind, or a list field whose list's objects'
// "child" would count ("template", a single name); and whether its slots
// cannot say its references (odd: a child list among the single fields,
// or a component's own componentId, id or type among either), which the
// order reader then reads (see nestedOrder).
func ruleKinds(single, list []string) (own, odd bool) {
	for _, k := range single {
		switch k {
		case "child", "contentChild", "entryPointChild", "detail", "summary", "root":
		case "children", "explicitList", "componentId", "id", "component":
			odd = true
		default:
			own = true
		}
	}
	for _, k := range list {
		switch k {
		case "children", "explicitList":
		case "componentId", "id", "component":
			odd = true
		default:
			own = true
		}
	}
	return own, odd
}

// ruleField is topKey's field of key k under the type's reference fields
// (rules): a child field or the component's componentId keeps its own (a
// single name wins over a list one, as in protocol.ComponentRefs), a
// single field is cfRef, a list field refList.
func (c *compScanner) ruleField(k []byte, field int) int {
	switch {
	case field >= 0 && field <= cfOwnID:
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
