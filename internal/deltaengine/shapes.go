package deltaengine

import "bytes"

// The scanner's reading of a component's shape: the child ids of the
// common shapes, recorded as it reads them (childString, childID), and
// what makes a component odd (see walk.go), read in canonical form.

// childString handles a string value in a component, at depth d in frame
// top: a child id of a common shape is recorded (see walk.go), a child
// field's string of another shape makes the component odd.
func (k *Engine) childString(d int, top *frame, a, b int) {
	if top.key == kPath && top.open == '{' && k.inDefinition(d) {
		// v0.8: a path the reference's walk keeps as it is: "/" and a
		// name, with no escape.
		v := k.buf[a:b]
		if top.pathOK = len(v) > 0 && v[0] == '/' && (len(v) == 1 || v[1] != '/') && bytes.IndexByte(v, '\\') < 0; !top.pathOK {
			k.odd = true
		}
	}
	switch {
	case top.open == '[':
		if k.commonList(d - 1) {
			// (The walk's rank: "children" first, "explicitList" next;
			// v0.8's children object's explicitList after every field.)
			rank := uint16(0)
			if d-1 == 8 {
				rank = 7
			} else if k.stack[d-2].key == kExplicitList {
				rank = 1
			}
			k.childID(a, b, rank)
		}
	case top.key >= kChild && top.key <= kEntryPointChild && (!k.v08 && d == 5 || k.v08 && d == 7 && k.stack[4].key == kComponent):
		k.childID(a, b, 2+uint16(top.key-kChild)) // (child, contentChild, entryPointChild: after the lists)
	case childField(top.key):
		k.odd = true // ("children" a string, a componentId, ...)
	}
}

// childID records the child id buf[a:b] of a common child field, of rank
// in the reference's walk (see walkRanks).
func (k *Engine) childID(a, b int, rank uint16) {
	if k.escapedID(a, b) {
		k.odd = true // an id with an escape is read in the canonical form (see ownID)
	}
	if b-a > len("children_") && string(k.buf[a:a+len("children_")]) == "children_" {
		k.phSlot = true // (see component)
	}
	c := k.compStart
	k.slots = append(k.slots, slot{int32(a - c), int32(b - c), slotRewrite | slotRef, rank})
}

// commonList reports whether the list at stack[at] is a child list of a
// common shape: a v0.9 component's "children", a v0.8 definition's
// properties' "children", or the "explicitList" of their object.
func (k *Engine) commonList(at int) bool {
	if !k.v08 {
		return at == 5 && (k.stack[4].key == kChildren || k.stack[4].key == kExplicitList)
	}
	return k.stack[4].key == kComponent && (at == 7 && k.stack[6].key == kChildren ||
		at == 8 && k.stack[7].key == kExplicitList && k.stack[6].key == kChildren)
}

// commonKey reports whether a child field or a reference field of class c,
// met at depth d in a component, is one of a common shape's (see walk.go):
// a child field of a v0.9 component's top level, of a v0.8 definition's
// properties, or v0.8's "explicitList" in its "children" object.
func (k *Engine) commonKey(d int, c uint8) bool {
	switch {
	case c == kExplicitList && !k.v08:
		return d == 5 // (a children-like list)
	case c == kExplicitList:
		return d == 8 && k.stack[6].key == kChildren && k.stack[4].key == kComponent
	case c > kChildren:
		return false
	case !k.v08:
		return d == 5
	}
	return d == 7 && k.stack[4].key == kComponent
}

// oddValue notes a container c opened at depth d in a component that
// makes it odd: a child field's value of another shape than the common
// ones (a list for "children", for v0.8's "children" a list or an object,
// a list for its "explicitList"), a container in a child list, or an object in a list
// at the top level of the component's properties.
func (k *Engine) oddValue(c byte, d int) {
	p := &k.stack[d-1]
	switch {
	case p.open == '{' && childField(p.key):
		common := !k.v08 && d == 5 && (p.key == kChildren || p.key == kExplicitList) && c == '[' ||
			k.v08 && d == 7 && p.key == kChildren ||
			k.v08 && d == 8 && p.key == kExplicitList && c == '['
		k.odd = k.odd || !common
	case p.open == '[' && k.stack[d-2].open == '{' && childField(k.stack[d-2].key):
		k.odd = true
	case p.open == '[' && c == '{' && (!k.v08 && d == 6 || k.v08 && d == 8):
		k.odd = true
	}
}

// definitionKey notes key top.key read in an object of a v0.8 definition:
// a component whose paths the reference's walk would write otherwise
// than they came (see normalizePaths: one that is no "/name" string, or
// beside other keys without a "componentId") is odd.
func (k *Engine) definitionKey(top *frame) {
	k.pathSeen = k.pathSeen || top.key == kPath
	top.path = top.path || top.key == kPath
	top.cid = top.cid || top.key == kComponentID
	if top.keys < 2 {
		top.keys++
	}
	if top.path && top.keys > 1 && !top.cid {
		k.odd = true
	}
}

// inDefinition reports whether depth d (the stack's length) is inside the
// definition of the open v0.8 component, where the reference's walk
// normalises paths.
func (k *Engine) inDefinition(d int) bool {
	return k.v08 && d >= 6 && k.compStart >= 0 && k.stack[4].key == kComponent
}
