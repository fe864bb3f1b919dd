package parser

import "github.com/a2ui-stream/a2ui-stream/internal/jsonwire"

// This file is the byte-level path for the common component shapes, without
// a catalog: a v0.9-family component (string "component") whose only
// component references are top-level "child"-like strings and
// "children"-like lists of strings, and a v0.8 component ("component": {Type:
// props}) whose references are such properties (or "children":
// {"explicitList": [...]}) and whose data bindings are already normalised
// ({"path": "/x"} alone). Such a component is kept as its compact
// JSON bytes, never decoded into maps: its references and the positions of
// its child ids are read in one pass, and its processed form (placeholders
// for missing children) is the bytes with those ids rewritten. Anything
// else takes the generic path (decoded maps), which gives the same
// observable result.

// Outcomes of compScanner.scan.
const (
	compInvalid = iota // not exactly one JSON object
	compSlow           // needs the generic path (which decides validity)
	compFast           // read at byte level
)

// Child field indexes in childFields.
const (
	cfChildren = iota
	cfExplicitList
	cfChild
	cfContentChild
	cfEntryPointChild
	cfComponentID
	cfNestedList // v0.8 "children": {"explicitList": [...]}, met after the others
)

// childSlot is one child id in a fast component's bytes.
type childSlot struct {
	field uint8 // index in childFields
	a, b  int32 // bounds of the id (inside the quotes) in src
}

// fastComp is a component read at byte level. Its bytes are immutable once
// built, except while owned; pns is a cache filled when it is processed.
type fastComp struct {
	id       string
	src      []byte      // compact JSON of the component
	slots    []childSlot // child ids, in byte order
	emptyObj bool        // an empty object in it (v0.8: in its definition)
	inline   [2]childSlot
	pns      []*phName // placeholders of the slots, once looked up
	// arrived caches, for the surface arrivedIn, which of the first 64
	// slots name a component that arrived (a component never leaves its
	// surface's table, so a set bit stays true).
	arrivedIn *surfaceState
	arrived   uint64
	// owned: a healed partial component that only its entry holds, which
	// may be updated in place as it grows (see growFast).
	owned bool
}

// slotID returns the id of slot i.
func (fc *fastComp) slotID(i int) []byte {
	sl := fc.slots[i]
	return fc.src[sl.a:sl.b]
}

// refs lists the distinct ids the component references, in the order
// protocol.ComponentRefs gives them (property names sorted, then list
// order), and whether it references itself.
func (fc *fastComp) refs(names *idNames) ([]string, bool) {
	if len(fc.slots) == 0 {
		return nil, false
	}
	out := make([]string, 0, len(fc.slots))
	self := false
	var set map[string]struct{}
	// Sorted property order: child, children, contentChild,
	// entryPointChild, explicitList.
	for _, f := range [...]uint8{cfChild, cfChildren, cfContentChild, cfEntryPointChild, cfExplicitList} {
		for i, sl := range fc.slots {
			if sl.field != f && (f != cfChildren || sl.field != cfNestedList) {
				continue
			}
			id := fc.slotID(i)
			if string(id) == fc.id {
				self = true
			}
			if set == nil && len(out) >= 16 {
				set = make(map[string]struct{}, len(fc.slots))
				for _, x := range out {
					set[x] = struct{}{}
				}
			}
			if set != nil {
				if _, dup := set[string(id)]; dup {
					continue
				}
			} else if containsBytes(out, id) {
				continue
			}
			s := names.id(id)
			if set != nil {
				set[s] = struct{}{}
			}
			out = append(out, s)
		}
	}
	return out, self
}

func containsBytes(list []string, b []byte) bool {
	for _, x := range list {
		if x == string(b) {
			return true
		}
	}
	return false
}

// compScanner validates a component's JSON (as strictly as the generic
// decoder) and reads it at byte level, writing its compact form to out.
// Its buffers are reused between calls.
type compScanner struct {
	out      []byte
	slots    []childSlot
	idA, idB int
	compOK   bool
	emptyObj bool
	seen     uint8 // top-level special keys seen
	slow     bool
	v08      bool // reading a v0.8 component
	// keys holds the bounds (in out) of the keys read so far in the
	// objects being read, innermost last: a duplicate key needs the
	// generic path (decoding keeps the last value).
	keys []keySpan
	// The properties of the v0.8 definition being read: their special
	// keys seen, and where their keys start in keys.
	propSeen uint8
	propBase int
	// The checkpoint of the last read (see scanAt), of the object starting
	// at offset start of the scanner's buffer in message generation gen.
	mk    scanMark
	gen   uint64
	start int
}

// keySpan is the bounds of a key in compScanner.out.
type keySpan struct{ a, b int }

// maxFastKeys bounds the keys of one object read at byte level, so that
// looking for a duplicate stays cheap; an object with more takes the
// generic path.
const maxFastKeys = 32

// newKey records the key out[a:b] of the object whose keys start at
// keys[base], and reports false (the component needs the generic path)
// when the object already has it, or has maxFastKeys keys already.
func (c *compScanner) newKey(base, a, b int) bool {
	if len(c.keys)-base >= maxFastKeys {
		c.slow = true
		return false
	}
	key := c.out[a:b]
	for _, k := range c.keys[base:] {
		if string(c.out[k.a:k.b]) == string(key) {
			c.slow = true
			return false
		}
	}
	c.keys = append(c.keys, keySpan{a, b})
	return true
}

// Top-level special keys (bits of compScanner.seen).
const (
	seenID = 1 << iota
	seenComponent
	seenChildren
	seenExplicitList
	seenChild
	seenContentChild
	seenEntryPointChild
)

// scan reads b, which must hold exactly one JSON object, as a component of
// the v0.9 family or (v08) of v0.8, from its start, taking checkpoints as
// it reads. The engine calls scanAt, which records which object the
// checkpoints belong to: a direct call would leave checkpoints of b under
// the identity of the object read before.
func (c *compScanner) scan(b []byte, v08 bool) int {
	c.out, c.slots, c.keys = c.out[:0], c.slots[:0], c.keys[:0]
	c.idA, c.idB, c.compOK, c.emptyObj, c.seen, c.slow = -1, -1, false, false, 0, false
	c.v08 = v08
	c.mk.at = atNone
	i := jsonwire.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return compInvalid
	}
	i, ok := c.topObject(b, i)
	return c.outcome(b, i, ok)
}

// outcome is the result of a read of b that ended at b[i], successfully
// or not (ok).
func (c *compScanner) outcome(b []byte, i int, ok bool) int {
	if c.slow {
		return compSlow
	}
	if !ok || jsonwire.SkipSpace(b, i) != len(b) {
		return compInvalid
	}
	if c.idA < 0 || !c.compOK {
		return compSlow
	}
	return compFast
}

// result copies the scanned component into a new fastComp.
func (c *compScanner) result(names *idNames) *fastComp {
	src := make([]byte, len(c.out))
	copy(src, c.out)
	fc := &fastComp{id: names.id(src[c.idA:c.idB]), src: src, emptyObj: c.emptyObj}
	if n := len(c.slots); n <= len(fc.inline) {
		fc.slots = fc.inline[:n:n]
		copy(fc.slots, c.slots)
	} else {
		fc.slots = make([]childSlot, n)
		copy(fc.slots, c.slots)
	}
	return fc
}

// topKey classifies a top-level key of a component.
func topKey(k []byte) (bit uint8, field int, slow bool) {
	switch string(k) {
	case "id":
		return seenID, -1, false
	case "component":
		return seenComponent, -1, false
	case "children":
		return seenChildren, cfChildren, false
	case "explicitList":
		return seenExplicitList, cfExplicitList, false
	case "child":
		return seenChild, cfChild, false
	case "contentChild":
		return seenContentChild, cfContentChild, false
	case "entryPointChild":
		return seenEntryPointChild, cfEntryPointChild, false
	case "detail", "summary", "root", "template", "componentId":
		return 0, -1, true
	}
	return 0, -1, false
}

// isChildField reports whether k is one of childFields.
func isChildField(k []byte) bool {
	switch string(k) {
	case "children", "explicitList", "child", "contentChild", "entryPointChild", "componentId":
		return true
	}
	return false
}

// topObject reads the component object at b[i] == '{'.
func (c *compScanner) topObject(b []byte, i int) (int, bool) {
	c.out = append(c.out, '{')
	i = jsonwire.SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		c.slow = true // no id
		return i + 1, false
	}
	i, ok := c.topMember(b, i)
	if !ok {
		return i, false
	}
	return c.topRest(b, i)
}

// memberKey reads the key of an object member at b[i] (after whitespace)
// into out, where it starts at ka; a key with an escape needs the generic
// path.
func (c *compScanner) memberKey(b []byte, i int) (next, ka int, ok bool) {
	i = jsonwire.SkipSpace(b, i)
	ka = len(c.out) + 1
	i, esc, ok := c.str(b, i)
	if ok && esc {
		c.slow, ok = true, false
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
	bit, field, slow := topKey(key)
	if slow || c.seen&bit != 0 || (c.v08 && field >= 0) {
		c.slow = true
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
			c.slow = true
			return i, false
		}
		if i, ok = c.def(b, i); !ok {
			return i, false
		}
		c.compOK = true
	case bit == seenID || bit == seenComponent:
		if b[i] != '"' {
			c.slow = true
			return i, false
		}
		a := len(c.out) + 1
		var esc bool
		i, esc, ok = c.str(b, i)
		if !ok {
			return i, false
		}
		z := len(c.out) - 1
		if esc || z == a {
			c.slow = true
			return i, false
		}
		if bit == seenID {
			c.idA, c.idB = a, z
		} else {
			c.compOK = true
		}
	case field == cfChildren || field == cfExplicitList:
		if i, ok = c.list(b, i, field, atTopList); !ok {
			return i, false
		}
	case field >= 0:
		if b[i] != '"' {
			c.slow = true
			return i, false
		}
		if i, ok = c.slot(b, i, field); !ok {
			return i, false
		}
	case c.v08:
		// Only the component definition is read for references and
		// rewritten; an empty object elsewhere does not count.
		empty := c.emptyObj
		if i, ok = c.value(b, i, 1); !ok {
			return i, false
		}
		c.emptyObj = empty
	default:
		if b[i] == '[' {
			i, ok = c.topArray(b, i)
		} else {
			i, ok = c.value(b, i, 1)
		}
		if !ok {
			return i, false
		}
	}
	return i, true
}

// def reads a v0.8 component definition {"Type": props} at b[i] == '{'.
func (c *compScanner) def(b []byte, i int) (int, bool) {
	c.out = append(c.out, '{')
	i = jsonwire.SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		c.slow = true
		return i + 1, false
	}
	ka := len(c.out) + 1
	i, esc, ok := c.str(b, i)
	if !ok {
		return i, false
	}
	if key := c.out[ka : len(c.out)-1]; esc || len(key) == 0 || isChildField(key) || string(key) == "path" {
		c.slow = true
		return i, false
	}
	i = jsonwire.SkipSpace(b, i)
	if i >= len(b) || b[i] != ':' {
		return i, false
	}
	c.out = append(c.out, ':')
	i = jsonwire.SkipSpace(b, i+1)
	if i >= len(b) {
		return i, false
	}
	if b[i] != '{' {
		c.slow = true
		return i, false
	}
	if i, ok = c.props(b, i); !ok {
		return i, false
	}
	return c.defEnd(b, i)
}

// defEnd reads the end of a v0.8 component definition, after its
// properties.
func (c *compScanner) defEnd(b []byte, i int) (int, bool) {
	i = jsonwire.SkipSpace(b, i)
	if i >= len(b) {
		return i, false
	}
	if b[i] != '}' {
		c.slow = b[i] == ',' // several types
		return i, false
	}
	c.out = append(c.out, '}')
	return i + 1, true
}

// props reads the properties of a v0.8 component at b[i] == '{'.
func (c *compScanner) props(b []byte, i int) (int, bool) {
	c.out = append(c.out, '{')
	i = jsonwire.SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		c.emptyObj = true
		c.out = append(c.out, '}')
		return i + 1, true
	}
	c.propSeen, c.propBase = 0, len(c.keys)
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
	bit, field, slow := topKey(key)
	if slow || string(key) == "path" || (bit != 0 && c.propSeen&bit != 0) || bit == seenID || bit == seenComponent {
		c.slow = true
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
	case field == cfChildren && b[i] == '{':
		return c.nestedList(b, i)
	case field == cfChildren || field == cfExplicitList:
		return c.list(b, i, field, atPropList)
	case field >= 0:
		if b[i] != '"' {
			c.slow = true
			return i, false
		}
		return c.slot(b, i, field)
	case b[i] == '[':
		return c.topArray(b, i)
	}
	return c.value(b, i, 2)
}

// nestedList reads a v0.8 {"explicitList": [ids]} at b[i] == '{'.
func (c *compScanner) nestedList(b []byte, i int) (int, bool) {
	c.out = append(c.out, '{')
	i = jsonwire.SkipSpace(b, i+1)
	ka := len(c.out) + 1
	i, esc, ok := c.str(b, i)
	if !ok {
		c.slow = c.slow || (i < len(b) && b[i] == '}')
		return i, false
	}
	if esc || string(c.out[ka:len(c.out)-1]) != "explicitList" {
		c.slow = true
		return i, false
	}
	i = jsonwire.SkipSpace(b, i)
	if i >= len(b) || b[i] != ':' {
		return i, false
	}
	c.out = append(c.out, ':')
	if i, ok = c.list(b, jsonwire.SkipSpace(b, i+1), cfNestedList, atNestedList); !ok {
		return i, false
	}
	return c.nestedEnd(b, i)
}

// nestedEnd reads the end of a v0.8 {"explicitList": [ids]}, after the
// list.
func (c *compScanner) nestedEnd(b []byte, i int) (int, bool) {
	i = jsonwire.SkipSpace(b, i)
	if i >= len(b) {
		return i, false
	}
	if b[i] != '}' {
		c.slow = b[i] == ','
		return i, false
	}
	c.out = append(c.out, '}')
	return i + 1, true
}

// list reads a non-empty list of child ids at b[i]; at is where the list
// is, for the checkpoints between its elements.
func (c *compScanner) list(b []byte, i int, field int, at resumePoint) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	if b[i] != '[' {
		c.slow = true
		return i, false
	}
	c.out = append(c.out, '[')
	i = jsonwire.SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		c.slow = true // an empty list reads the buffer
		return i, false
	}
	return c.elements(b, i, field, at)
}

// elements reads the child ids of a list from b[i], the start of one,
// and the list's end.
func (c *compScanner) elements(b []byte, i int, field int, at resumePoint) (int, bool) {
	for {
		i = jsonwire.SkipSpace(b, i)
		if i >= len(b) || b[i] != '"' {
			c.slow = i < len(b)
			return i, false
		}
		var ok bool
		if i, ok = c.slot(b, i, field); !ok {
			return i, false
		}
		var more bool
		if i, more, ok = c.sep(b, i, ']'); !more {
			return i, ok
		}
		c.mark(at, i, uint8(field))
	}
}

// sep reads what follows a member or an element: whitespace, then ','
// (more follows: more is true) or the container's closing byte, copying
// either to out; ok is false for anything else.
func (c *compScanner) sep(b []byte, i int, close byte) (next int, more, ok bool) {
	i = jsonwire.SkipSpace(b, i)
	if i < len(b) {
		switch b[i] {
		case ',':
			c.out = append(c.out, ',')
			return i + 1, true, true
		case close:
			c.out = append(c.out, close)
			return i + 1, false, true
		}
	}
	return i, false, false
}

// slot reads a child id string at b[i] == '"'.
func (c *compScanner) slot(b []byte, i int, field int) (int, bool) {
	a := len(c.out) + 1
	i, esc, ok := c.str(b, i)
	if !ok {
		return i, false
	}
	if esc {
		c.slow = true
		return i, false
	}
	c.slots = append(c.slots, childSlot{field: uint8(field), a: int32(a), b: int32(len(c.out) - 1)})
	return i, true
}

// topArray reads a top-level array property: one holding an object takes
// the generic path (protocol.ComponentRefs reads "child" from such items).
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
			c.slow = true
			return i, false
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

// value reads any JSON value at b[i] (after whitespace).
func (c *compScanner) value(b []byte, i int, depth int) (int, bool) {
	if depth > maxDecodeDepth || i >= len(b) {
		return i, false
	}
	switch ch := b[i]; {
	case ch == '"':
		i, _, ok := c.str(b, i)
		return i, ok
	case ch == '{':
		c.out = append(c.out, '{')
		i = jsonwire.SkipSpace(b, i+1)
		if i < len(b) && b[i] == '}' {
			c.emptyObj = true
			c.out = append(c.out, '}')
			return i + 1, true
		}
		keys, path := 0, false
		base := len(c.keys)
		for {
			i = jsonwire.SkipSpace(b, i)
			ka := len(c.out) + 1
			var ok, esc bool
			i, esc, ok = c.str(b, i)
			if !ok {
				return i, false
			}
			key := c.out[ka : len(c.out)-1]
			if esc || isChildField(key) {
				c.slow = true
				return i, false
			}
			if !c.newKey(base, ka, len(c.out)-1) {
				return i, false
			}
			keys++
			isPath := c.v08 && string(key) == "path"
			i = jsonwire.SkipSpace(b, i)
			if i >= len(b) || b[i] != ':' {
				return i, false
			}
			c.out = append(c.out, ':')
			va := len(c.out)
			i, ok = c.value(b, jsonwire.SkipSpace(b, i+1), depth+1)
			if !ok {
				return i, false
			}
			if isPath {
				// v0.8 data bindings are normalised to {"path": "/x"}: only
				// one already in that form stays as it is.
				v := c.out[va:]
				if len(v) < 3 || v[0] != '"' || v[1] != '/' || v[2] == '/' || bytesHasByte(v, '\\') {
					c.slow = true
					return i, false
				}
				path = true
			}
			if path && keys > 1 {
				c.slow = true
				return i, false
			}
			var more bool
			if i, more, ok = c.sep(b, i, '}'); !more {
				if ok {
					c.keys = c.keys[:base]
				}
				return i, ok
			}
		}
	case ch == '[':
		c.out = append(c.out, '[')
		i = jsonwire.SkipSpace(b, i+1)
		if i < len(b) && b[i] == ']' {
			c.out = append(c.out, ']')
			return i + 1, true
		}
		for {
			var ok bool
			i, ok = c.value(b, jsonwire.SkipSpace(b, i), depth+1)
			if !ok {
				return i, false
			}
			var more bool
			if i, more, ok = c.sep(b, i, ']'); !more {
				return i, ok
			}
		}
	case ch == 't':
		return c.lit(b, i, "true")
	case ch == 'f':
		return c.lit(b, i, "false")
	case ch == 'n':
		return c.lit(b, i, "null")
	case ch == '-' || (ch >= '0' && ch <= '9'):
		return c.num(b, i)
	}
	return i, false
}

func (c *compScanner) lit(b []byte, i int, word string) (int, bool) {
	if len(b)-i < len(word) || string(b[i:i+len(word)]) != word {
		return i, false
	}
	c.out = append(c.out, word...)
	return i + len(word), true
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
	start := i
	i++
	for {
		if i = jsonwire.PlainRun(b, i); i >= len(b) {
			return i, esc, false
		}
		ch := b[i]
		switch {
		case ch == '"':
			c.out = append(c.out, b[start:i+1]...)
			return i + 1, esc, true
		case ch < 0x20:
			return i, esc, false
		case ch == '\\':
			esc = true
			if i+1 >= len(b) {
				return i, esc, false
			}
			k := jsonwire.EscapeLen(b, i)
			if k == 0 {
				return i, esc, false
			}
			i += k
			continue
		}
		i++
	}
}

// idNames interns component ids and their placeholders, so that the
// byte-level path does not allocate them again for every healed version of
// a component.
type idNames struct {
	ids map[string]string
	phs map[string]*phName // id -> its placeholder
}

// phName is the placeholder of a missing child.
type phName struct {
	id, ph string
	js     []byte // encoding of the placeholder component
	mark   uint64 // processing epoch it was last used in (see processFast)
	idx    int    // its index in that processing's waits
}

// maxNames bounds the interned names (the tables start afresh beyond it).
const maxNames = 1 << 16

// id returns id as an interned string.
func (n *idNames) id(b []byte) string {
	if s, ok := n.ids[string(b)]; ok {
		return s
	}
	if n.ids == nil || len(n.ids) >= maxNames {
		n.ids = make(map[string]string, 64)
	}
	s := string(b)
	n.ids[s] = s
	return s
}

// placeholder returns the placeholder of child id b; enc encodes a
// placeholder component.
func (n *idNames) placeholder(b []byte, enc func(string) []byte) *phName {
	if p, ok := n.phs[string(b)]; ok {
		return p
	}
	if n.phs == nil || len(n.phs) >= maxNames {
		n.phs = make(map[string]*phName, 64)
	}
	id := n.id(b)
	p := &phName{id: id, ph: "loading_" + id}
	p.js = enc(p.ph)
	n.phs[id] = p
	return p
}

func bytesHasByte(b []byte, x byte) bool {
	for _, c := range b {
		if c == x {
			return true
		}
	}
	return false
}
