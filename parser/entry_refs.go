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

import "github.com/a2ui-stream/a2ui-stream/internal/jsonwire"

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
