package parser

// The fast component scanner's reader of a template child list: v0.9
// "children": {"componentId": "item", "path": "/items"} and v0.8
// "children": {"template": {"componentId": "item", "dataBinding": "/items"}}.
// Its componentId is a child slot (cfComponentID), which the processing
// rewrites like any other (placeholderSet.processFast) and which counts as
// a "children" reference (protocol.ComponentRefs reads it there). The
// pinned outputs have such a component with its keys sorted: a component
// with a template is rewritten in that encoding (see canonical), as one
// with an empty list is.

import "github.com/a2ui-stream/a2ui-stream/internal/jsonwire"

// template reads the template object at b[i] == '{' whose members' values
// are at nesting depth depth. Its other child fields, and a "template"
// (which protocol.ComponentRefs reads before a componentId), are read as
// child fields below the top level are (entry_nested.go).
func (c *compScanner) template(b []byte, i int, depth int) (int, bool) {
	c.sorted = true
	var empty bool
	if i, empty = c.openObject(b, i); empty {
		return i, true
	}
	base := len(c.keys)
	at, edits, keys, hasID := len(c.out)-1, len(c.edits), 0, false
	va, vb := -1, 0 // a v0.8 path string starting with '/' (see pathObject)
	for {
		var ka int
		var ok bool
		if i, ka, ok = c.memberKey(b, i); !ok {
			return i, false
		}
		key := c.out[ka : len(c.out)-1]
		id, path := string(key) == "componentId", c.v08 && string(key) == "path"
		cf := -1
		switch {
		case id:
		case isChildField(key):
			cf = childFieldOf(key)
		case string(key) == "template":
			c.nested = true // (protocol.ComponentRefs reads it first)
		}
		hasID, keys = hasID || id, keys+1
		if !c.newKey(base, ka, len(c.out)-1) {
			return i, false
		}
		if i, ok = c.colon(b, i); !ok {
			return i, false
		}
		a := len(c.out)
		switch {
		case cf >= 0:
			i, ok = c.childValue(b, i, cf, depth)
		case id && b[i] == '[':
			// (Processed as a list of child ids, no reference.)
			i, ok = c.childValue(b, i, cfOwnID, depth)
		case id && b[i] == '"':
			i, ok = c.slot(b, i, cfComponentID)
		default:
			// A componentId of another type is neither a reference nor
			// processed (an object's members are, as value reads them).
			i, ok = c.value(b, i, depth)
		}
		if !ok {
			return i, false
		}
		if path {
			var lead bool
			if lead, ok = c.pathValue(a, true); !ok {
				return i, false
			}
			if lead {
				va, vb = a, len(c.out)
			}
		}
		var more bool
		if i, more, ok = c.sep(b, i, '}'); !more {
			if ok {
				c.keys = c.keys[:base]
				if va >= 0 {
					c.pathObject(at, va, vb, keys, edits, hasID)
				}
			}
			return i, ok
		}
	}
}

// listObject reports whether the object at b[i] == '{' is empty or starts
// with an "explicitList" or a "template" (written as such), or is cut
// before its first key's end: nestedList reads it.
func listObject(b []byte, i int) bool {
	j := jsonwire.SkipSpace(b, i+1)
	if j >= len(b) || b[j] == '}' {
		return true
	}
	k := b[j:]
	for _, name := range [...]string{`"explicitList"`, `"template"`} {
		if n := min(len(k), len(name)); string(k[:n]) == name[:n] { // (k may be cut short of it)
			return true
		}
	}
	return false
}

// nestedList reads a v0.8 {"explicitList": [ids]} at b[i] == '{'. An
// empty one is an empty object, as an empty definition is (see def).
func (c *compScanner) nestedList(b []byte, i int) (int, bool) {
	c.out = append(c.out, '{')
	c.x().listPath.start(c, len(c.out)-1)
	c.x().listPath.keys = 1 // (its first, read below)
	i = jsonwire.SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		c.emptyObj, c.sorted = true, true
		c.out = append(c.out, '}')
		return i + 1, true
	}
	ka := len(c.out) + 1
	i, esc, ok := c.str(b, i)
	if !ok {
		return i, false
	}
	if key := c.out[ka : len(c.out)-1]; !esc && string(key) == "template" {
		if i, ok = c.colon(b, i); !ok {
			return i, false
		}
		if b[i] == '{' {
			i, ok = c.template(b, i, 4)
		} else {
			// A template that is no object: a value (walked), no
			// reference.
			c.sorted = true
			i, ok = c.value(b, i, 4)
		}
		if !ok {
			return i, false
		}
		return c.listObjRest(b, i)
	}
	if esc || string(c.out[ka:len(c.out)-1]) != "explicitList" {
		c.stopped = true
		return i, false
	}
	if i, ok = c.colon(b, i); !ok {
		return i, false
	}
	if i, ok = c.list(b, i, cfNestedList, atNestedList, 3); !ok {
		return i, false
	}
	return c.listObjRest(b, i)
}
