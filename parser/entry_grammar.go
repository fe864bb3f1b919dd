package parser

// The fast component scanner's grammar (see entry_read.go): one
// method per place in a component object, each returning where it stopped.

import "github.com/a2ui-stream/a2ui-stream/internal/jsonwire"

// topObject reads the component object at b[i] == '{'.
func (c *compScanner) topObject(b []byte, i int) (int, bool) {
	c.out = append(c.out, '{')
	i = jsonwire.SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		c.skip = true // no id (see compSkip)
		return i + 1, false
	}
	i, ok := c.topMember(b, i)
	if !ok {
		return i, false
	}
	return c.topRest(b, i)
}

// memberKey reads the key of an object member at b[i] (after whitespace)
// into out, where it starts at ka. A key with an escape may be a special
// name in disguise: the component is read in its canonical encoding, where
// a key with an escape is no special name.
func (c *compScanner) memberKey(b []byte, i int) (next, ka int, ok bool) {
	i = jsonwire.SkipSpace(b, i)
	ka = len(c.out) + 1
	i, esc, ok := c.str(b, i)
	if ok && esc && !c.canonIn {
		c.needCanon()
		ok = false
	}
	return i, ka, ok
}

// colon reads the ':' after a member's key, with the whitespace around it,
// and reports false when no value byte follows yet.
func (c *compScanner) colon(b []byte, i int) (int, bool) {
	i = jsonwire.SkipSpace(b, i)
	if i >= len(b) || b[i] != ':' {
		return i, false
	}
	c.out = append(c.out, ':')
	i = jsonwire.SkipSpace(b, i+1)
	return i, i < len(b)
}

// topRest reads what follows a member of the component object: more
// members or its end.
func (c *compScanner) topRest(b []byte, i int) (int, bool) {
	for {
		var more, ok bool
		if i, more, ok = c.sep(b, i, '}'); !more {
			return i, ok
		}
		c.mark(atTopMember, i, 0)
		if i, ok = c.topMember(b, i); !ok {
			return i, false
		}
	}
}

// topMember reads a member of the component object at b[i] (after
// whitespace).
func (c *compScanner) topMember(b []byte, i int) (int, bool) {
	i, ka, ok := c.memberKey(b, i)
	if !ok {
		return i, false
	}
	key := c.out[ka : len(c.out)-1]
	bit, field := topKey(key)
	if c.rules && !c.v08 && bit&(seenID|seenComponent) == 0 {
		field = c.ruleField(key, field)
	}
	if c.v08 && field >= 0 {
		// Outside a v0.8 definition: neither processed nor a reference.
		field, c.sorted = -1, true
	}
	if c.seen&bit != 0 {
		c.needCanon()
		return i, false
	}
	if !c.newKey(0, ka, len(c.out)-1) {
		return i, false
	}
	c.seen |= bit
	if i, ok = c.colon(b, i); !ok {
		return i, false
	}
	switch {
	case bit == seenComponent && c.v08:
		if b[i] != '{' {
			c.skip = true // (a v0.8 type that is no object: see compSkip)
			return i, false
		}
		if i, ok = c.def(b, i); !ok {
			return i, false
		}
		c.compOK = true
	case bit == seenID && b[i] != '"':
		c.skip = true // (an id that is no string: see compSkip)
		return i, false
	case bit == seenID || bit == seenComponent:
		if b[i] != '"' {
			c.skip = true // (a v0.9 type that is no string: see compSkip)
			return i, false
		}
		a := len(c.out) + 1
		var esc bool
		i, esc, ok = c.str(b, i)
		if !ok {
			return i, false
		}
		z := len(c.out) - 1
		if esc && !c.canonIn {
			// (An escape the canonical encoding keeps: the id's decoding
			// is the component's id, see ownID, the type's its type, see
			// typeName.)
			c.needCanon()
			return i, false
		}
		if z == a {
			c.skip = true // (an empty id or type: see compSkip)
			return i, false
		}
		if bit == seenID {
			c.idA, c.idB, c.idEsc = a, z, esc
		} else {
			c.compOK = true
		}
		if c.rules && !c.v08 && hasName(c.single, key) {
			// (A catalog's reference field: a reference only, see
			// catalogRead.)
			c.slots = append(c.slots, childSlot{field: cfRef, esc: esc, a: int32(a), b: int32(z)})
		}
	case field == cfChildren && b[i] == '{':
		if i, ok = c.template(b, i, 2); !ok {
			return i, false
		}
	case field == cfChildren || field == cfExplicitList:
		if i, ok = c.list(b, i, field, atTopList, 1); !ok {
			return i, false
		}
	case field == cfOwnID:
		if i, ok = c.ownComponentID(b, i, 1); !ok {
			return i, false
		}
	case field >= cfRef:
		if i, ok = c.refField(b, i, field, 1); !ok {
			return i, false
		}
	case field >= 0 && b[i] != '"':
		if i, ok = c.childValue(b, i, field, 1); !ok {
			return i, false
		}
	case field >= 0:
		if i, ok = c.slot(b, i, field); !ok {
			return i, false
		}
	case c.v08:
		// Only the component definition is read for references and
		// rewritten; an empty object elsewhere does not count.
		empty := c.emptyObj
		c.noWalk = true
		i, ok = c.value(b, i, 1)
		c.noWalk = false
		if !ok {
			return i, false
		}
		c.emptyObj = empty
	default:
		if b[i] == '[' {
			i, ok = c.topArray(b, i)
		} else {
			c.vctx, c.vs = atTopValue, c.vs[:0]
			i, ok = c.value(b, i, 1)
			c.vctx = atNone
		}
		if !ok {
			return i, false
		}
	}
	return i, true
}

// def reads a v0.8 component definition {"Type": props} at b[i] == '{'.
// An empty one is an empty object (never rendered while it arrives), and
// the component is kept in canonical encoding, as the pinned outputs have
// it (see canonical).
func (c *compScanner) def(b []byte, i int) (int, bool) {
	c.out = append(c.out, '{')
	c.x().defPath.start(c, len(c.out)-1)
	i = jsonwire.SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		c.emptyObj, c.sorted = true, true
		c.out = append(c.out, '}')
		return i + 1, true
	}
	i, path, cf, ok := c.defType(b, i)
	if !ok {
		return i, false
	}
	if !path {
		if i, ok = c.defValue(b, i, cf); !ok {
			return i, false
		}
	}
	return c.defRest(b, i)
}

// openObject writes the '{' at b[i] and skips the space after it. An empty
// object is read whole (its '}' written, emptyObj set): empty reports it,
// next is then past it.
func (c *compScanner) openObject(b []byte, i int) (next int, empty bool) {
	c.out = append(c.out, '{')
	i = jsonwire.SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		c.emptyObj = true
		c.out = append(c.out, '}')
		return i + 1, true
	}
	return i, false
}

// props reads the properties of a v0.8 component at b[i] == '{'.
func (c *compScanner) props(b []byte, i int) (int, bool) {
	var empty bool
	if i, empty = c.openObject(b, i); empty {
		return i, true
	}
	c.propSeen, c.propBase = 0, len(c.keys)
	c.x().propPath.start(c, len(c.out)-1)
	if i < c.real {
		c.mark(atProp, i, 0) // (b[i] was looked at: a byte of every later version)
	}
	i, ok := c.propMember(b, i)
	if !ok {
		return i, false
	}
	return c.propRest(b, i)
}

// propRest reads what follows a property: more properties or the end of
// the object.
func (c *compScanner) propRest(b []byte, i int) (int, bool) {
	for {
		var more, ok bool
		if i, more, ok = c.sep(b, i, '}'); !more {
			if ok {
				c.keys = c.keys[:c.propBase]
				c.x().propPath.end(c)
			}
			return i, ok
		}
		c.mark(atProp, i, 0)
		if i, ok = c.propMember(b, i); !ok {
			return i, false
		}
	}
}

// propMember reads a property of a v0.8 component at b[i] (after
// whitespace).
func (c *compScanner) propMember(b []byte, i int) (int, bool) {
	i, ka, ok := c.memberKey(b, i)
	if !ok {
		return i, false
	}
	key := c.out[ka : len(c.out)-1]
	bit, field := topKey(key)
	if bit&(seenID|seenComponent) != 0 {
		bit = 0 // (an "id" or "component" property: any other one)
	}
	if i, path, ok := c.x().propPath.member(c, b, i, key); path || !ok {
		return i, ok
	}
	if c.rules {
		field = c.ruleField(key, field)
	}
	if bit != 0 && c.propSeen&bit != 0 {
		c.needCanon()
		return i, false
	}
	if !c.newKey(c.propBase, ka, len(c.out)-1) {
		return i, false
	}
	c.propSeen |= bit
	if i, ok = c.colon(b, i); !ok {
		return i, false
	}
	switch {
	case field == cfChildren && b[i] == '{' && listObject(b, i):
		return c.nestedList(b, i)
	case field == cfChildren && b[i] == '{':
		// Another object: walked as a template is (its componentId a
		// reference in "children", protocol.ComponentRefs reads it so).
		return c.template(b, i, 3)
	case field == cfChildren || field == cfExplicitList:
		return c.list(b, i, field, atPropList, 2)
	case field == cfOwnID:
		return c.ownComponentID(b, i, 2)
	case field >= cfRef:
		return c.refField(b, i, field, 2)
	case field >= 0 && b[i] != '"':
		return c.childValue(b, i, field, 2)
	case field >= 0:
		return c.slot(b, i, field)
	case b[i] == '[':
		return c.topArray(b, i)
	}
	c.vctx, c.vs = atPropValue, c.vs[:0]
	i, ok = c.value(b, i, 2)
	c.vctx = atNone
	return i, ok
}

// list reads a list of child ids at b[i], the value of a member at
// nesting depth depth; at is where the list is, for the checkpoints
// between its elements. An empty one is recorded (see emptyList). A value
// of another shape is read as childValue reads it.
func (c *compScanner) list(b []byte, i int, field int, at resumePoint, depth int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	if b[i] != '[' {
		return c.childValue(b, i, field, depth)
	}
	c.out = append(c.out, '[')
	i = jsonwire.SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		c.empty = append(c.empty, emptyList{field: uint8(field), at: int32(len(c.out))})
		c.out = append(c.out, ']')
		return i + 1, true
	}
	if at != atNone && i < c.real {
		c.mark(at, i, uint8(field))
	}
	return c.elements(b, i, field, at, depth)
}

// elements reads the child ids of a list (the value of a member at
// nesting depth depth) from b[i], the start of one, and the list's end.
// An element that is not a string is no child id (child ids are strings:
// protocol.ComponentRefs skips it too): it is a value, kept as it is and
// walked as any other (a child field in an object there is read).
func (c *compScanner) elements(b []byte, i int, field int, at resumePoint, depth int) (int, bool) {
	for {
		i = jsonwire.SkipSpace(b, i)
		if i >= len(b) {
			return i, false
		}
		var ok bool
		if b[i] == '"' {
			i, ok = c.slot(b, i, field)
		} else {
			i, ok = c.value(b, i, depth+1)
		}
		if !ok {
			return i, false
		}
		var more bool
		if i, more, ok = c.sep(b, i, ']'); !more {
			return i, ok
		}
		if at != atNone {
			c.mark(at, i, uint8(field))
		}
	}
}

// sep reads what follows a member or an element: whitespace, then ','
// (more follows: more is true) or the container's closing byte, copying
// either to out; ok is false for anything else.
func (c *compScanner) sep(b []byte, i int, close byte) (next int, more, ok bool) {
	if next, more, ok = jsonwire.Separator(b, i, close); ok {
		c.out = append(c.out, b[next-1])
	}
	return next, more, ok
}

// slot reads a child id string at b[i] == '"'.
func (c *compScanner) slot(b []byte, i int, field int) (int, bool) {
	a := len(c.out) + 1
	i, esc, ok := c.str(b, i)
	if !ok {
		return i, false
	}
	if esc && !c.canonIn {
		c.needCanon()
		return i, false
	}
	// (An escape the canonical encoding keeps: the placeholder's prefix
	// goes before the quoted id as it is, its lookups decode it.)
	c.slots = append(c.slots, childSlot{field: uint8(field), esc: esc, a: int32(a), b: int32(len(c.out) - 1)})
	return i, true
}

// topArray reads a top-level array property. One holding an object
// (protocol.ComponentRefs reads "child" from such items: value sends a
// child field to the nested reader) is kept in its canonical encoding, as
// the pinned outputs have it.
func (c *compScanner) topArray(b []byte, i int) (int, bool) {
	c.out = append(c.out, '[')
	i = jsonwire.SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		c.out = append(c.out, ']')
		return i + 1, true
	}
	for {
		i = jsonwire.SkipSpace(b, i)
		if i < len(b) && b[i] == '{' {
			c.sorted = true
		}
		var ok bool
		i, ok = c.value(b, i, 2)
		if !ok {
			return i, false
		}
		var more bool
		if i, more, ok = c.sep(b, i, ']'); !more {
			return i, ok
		}
	}
}
