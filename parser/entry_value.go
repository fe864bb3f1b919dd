package parser

// The component reader's plain values (see entry_grammar.go): any JSON
// value, kept as it is, with what the processing walks in it (a child
// field, a v0.8 data-binding path). The open objects and lists of a value
// are frames (compScanner.vs), so that a read of a top-level member's
// value or a v0.8 property's can take checkpoints inside it and a later
// read resume there (entry_resume.go).

import "github.com/a2ui-stream/a2ui-stream/internal/jsonwire"

// vframe is an open object or list of the value being read.
type vframe struct {
	arr   bool // a list
	hasID bool // (object) a "componentId" key read
	depth int  // its nesting depth
	// (object) at: offset of its '{' in out; keys: the keys read; edits:
	// len(edits) at its start; base: len(keys) at its start; va, vb: a
	// path string starting with '/' in out (see pathObject), va -1: none.
	at, keys, edits, base, va, vb int
}

// value reads any JSON value at b[i] (after whitespace).
func (c *compScanner) value(b []byte, i int, depth int) (int, bool) {
	if depth > maxDecodeDepth || i >= len(b) {
		return i, false
	}
	switch ch := b[i]; {
	case ch == '"':
		i, _, ok := c.str(b, i)
		if ok && i-1 == c.real {
			c.markStr(i - 1)
		}
		return i, ok
	case ch == '{':
		var empty bool
		if i, empty = c.openObject(b, i); empty {
			return i, true
		}
		c.vs = append(c.vs, vframe{depth: depth, at: len(c.out) - 1, edits: len(c.edits), base: len(c.keys), va: -1})
		if i < c.real {
			c.markValue(i) // (b[i] was looked at: a byte of every later version)
		}
		return c.objFrom(b, i, false)
	case ch == '[':
		c.out = append(c.out, '[')
		i = jsonwire.SkipSpace(b, i+1)
		if i < len(b) && b[i] == ']' {
			c.out = append(c.out, ']')
			return i + 1, true
		}
		c.vs = append(c.vs, vframe{arr: true, depth: depth})
		if i < c.real {
			c.markValue(i)
		}
		return c.arrFrom(b, i, false)
	case ch == 't' || ch == 'f' || ch == 'n':
		return c.lit(b, i)
	case ch == '-' || (ch >= '0' && ch <= '9'):
		return c.num(b, i)
	}
	return i, false
}

// objFrom reads the rest of the object of the innermost frame from b[i]:
// from the start of a member, or (after) from what follows one.
func (c *compScanner) objFrom(b []byte, i int, after bool) (int, bool) {
	k := len(c.vs) - 1
	for {
		if after {
			var more, ok bool
			if i, more, ok = c.sep(b, i, '}'); !more {
				if f := &c.vs[k]; ok {
					c.keys = c.keys[:f.base]
					if f.va >= 0 {
						c.pathObject(f.at, f.va, f.vb, f.keys, f.edits, c.noWalk || f.hasID)
					}
				}
				c.vs = c.vs[:k]
				return i, ok
			}
			c.markValue(i)
		}
		after = true
		i = jsonwire.SkipSpace(b, i)
		ka := len(c.out) + 1
		var ok, esc bool
		i, esc, ok = c.str(b, i)
		if !ok {
			return i, false
		}
		key := c.out[ka : len(c.out)-1]
		if esc && !c.canonIn {
			c.needCanon()
			return i, false
		}
		cf := -1
		if isChildField(key) {
			if !c.noWalk {
				cf = childFieldOf(key) // (read below, see childValue)
			}
			c.sorted = true // (no reference, not processed: noWalk)
		}
		if !c.newKey(c.vs[k].base, ka, len(c.out)-1) {
			return i, false
		}
		f := &c.vs[k]
		f.keys++
		isPath := c.v08 && string(key) == "path"
		f.hasID = f.hasID || string(key) == "componentId"
		i = jsonwire.SkipSpace(b, i)
		if i >= len(b) || b[i] != ':' {
			return i, false
		}
		c.out = append(c.out, ':')
		a, depth := len(c.out), f.depth
		if cf >= 0 || isPath {
			// (Read with what follows it: no checkpoint inside.)
			ctx := c.vctx
			c.vctx = atNone
			if cf >= 0 {
				i, ok = c.childValue(b, jsonwire.SkipSpace(b, i+1), cf, depth+1)
			} else {
				i, ok = c.value(b, jsonwire.SkipSpace(b, i+1), depth+1)
			}
			c.vctx = ctx
		} else {
			i, ok = c.value(b, jsonwire.SkipSpace(b, i+1), depth+1)
		}
		if !ok {
			return i, false
		}
		if isPath {
			// v0.8 data bindings are normalised (entry_paths.go).
			var lead bool
			if lead, ok = c.pathValue(a, !c.noWalk); !ok {
				return i, false
			}
			if lead {
				c.vs[k].va, c.vs[k].vb = a, len(c.out)
			}
		}
	}
}

// arrFrom is objFrom for a list.
func (c *compScanner) arrFrom(b []byte, i int, after bool) (int, bool) {
	k := len(c.vs) - 1
	for {
		if after {
			var more, ok bool
			if i, more, ok = c.sep(b, i, ']'); !more {
				c.vs = c.vs[:k]
				return i, ok
			}
			c.markValue(i)
		}
		after = true
		var ok bool
		if i, ok = c.value(b, jsonwire.SkipSpace(b, i), c.vs[k].depth+1); !ok {
			return i, false
		}
	}
}

// lit copies the literal at b[i].
func (c *compScanner) lit(b []byte, i int) (int, bool) {
	n := jsonwire.LiteralLen(b, i)
	if n == 0 {
		return i, false
	}
	c.out = append(c.out, b[i:i+n]...)
	return i + n, true
}

// num reads a number (strict grammar).
func (c *compScanner) num(b []byte, i int) (int, bool) {
	j, st := jsonwire.ScanNumber(b, i, jsonwire.NumStart)
	if !st.Complete() {
		return j, false
	}
	c.out = append(c.out, b[i:j]...)
	return j, true
}

// str copies the string literal at b[i] (which must be '"'), validating
// its escapes; esc reports whether it has any.
func (c *compScanner) str(b []byte, i int) (next int, esc, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return i, false, false
	}
	end, esc, ok := jsonwire.ScanString(b, i+1)
	if !ok {
		return end, esc, false
	}
	c.out = append(c.out, b[i:end+1]...)
	return end + 1, esc, true
}
