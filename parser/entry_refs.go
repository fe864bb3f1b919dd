package parser

// The top-level reference fields protocol.ComponentRefs reads besides the
// child fields, in a v0.9 component or a v0.8 definition's properties:
// "detail", "summary" and "root" (one id), "template" (a list of ids),
// and "componentId", which the processing rewrites (it is a child field)
// but which is no reference. A string id in them is a child slot; the
// processing leaves those of the reference fields as they are
// (processFast). The generic path read such a component, and wrote it with
// sorted keys: it is kept in its canonical encoding (compScanner.sorted).

import "github.com/a2ui-stream/a2ui-stream/internal/jsonwire"

// special reads the value at b[i], at nesting depth depth, of the special
// field field.
func (c *compScanner) special(b []byte, i int, field int, depth int) (int, bool) {
	c.sorted = true
	switch {
	case b[i] == '"':
		return c.slot(b, i, field)
	case field == cfOwnID && b[i] == '[':
		// (Processed as a list of child ids.)
		c.slow = true
		return i, false
	case field == cfTemplate && b[i] == '[':
		return c.refList(b, i, depth)
	}
	// A componentId or a child in an object, which would be read, takes
	// the generic path (value).
	return c.value(b, i, depth)
}

// refList reads a "template" list at b[i] == '[': its strings are
// references, anything else in it is a value.
func (c *compScanner) refList(b []byte, i int, depth int) (int, bool) {
	c.out = append(c.out, '[')
	i = jsonwire.SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		c.out = append(c.out, ']')
		return i + 1, true
	}
	for {
		var ok, more bool
		if i = jsonwire.SkipSpace(b, i); i < len(b) && b[i] == '"' {
			i, ok = c.slot(b, i, cfTemplate)
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
