package parser

// Child fields below the top level of a component read at byte level:
// in an object or a list of objects of a property (Tabs' "tabs":
// [{"child": ...}], "extra": {"child": ...}), in a template, in a v0.8
// definition's second type or an {"explicitList": [...]} object's second
// member, and a child field whose value is an object ("child":
// {"componentId": ...}). The processing (the reference's placeholder walk) applies the
// placeholder rule to every object at any depth, and protocol.ComponentRefs
// reads some of these as references: such a component is read in its
// canonical encoding (compScanner.sorted), its child ids and empty child
// lists are slots as the top-level ones are (their byte positions are all
// processFast needs to rewrite them), and the order in which the walk
// meets them and the references' order are read from its bytes by
// nestedOrder, which follows the walk and ComponentRefs step by step.

import (
	"cmp"
	"slices"
	"unsafe"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// childFieldOf is the index in childFields of child field k (a
// componentId below the top level is cfOwnID: no reference of its own).
func childFieldOf(k []byte) int {
	switch string(k) {
	case "children":
		return cfChildren
	case "explicitList":
		return cfExplicitList
	case "child":
		return cfChild
	case "contentChild":
		return cfContentChild
	case "entryPointChild":
		return cfEntryPointChild
	}
	return cfOwnID
}

// childValue reads the value at b[i] of child field cf (a childFields
// index) below the top level, or at the top level when it is of a shape
// the schema rejects there (a "children" that is a string, a "child" that
// is a list, ...), as the reference's placeholder walk walks it: a string is a slot, a
// list's strings slots (an empty "children" or "explicitList" an empty
// list), anything else a value, walked. The component is nested: its
// references are the ones protocol.ComponentRefs reads (none in a
// "children" string, say), see nestedOrder.
func (c *compScanner) childValue(b []byte, i int, cf int, depth int) (int, bool) {
	c.nested, c.sorted = true, true
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case '"':
		return c.slot(b, i, cf)
	case '[':
		if j := jsonwire.SkipSpace(b, i+1); cf != cfChildren && cf != cfExplicitList && j < len(b) && b[j] == ']' {
			c.out = append(c.out, '[', ']')
			return j + 1, true
		}
		return c.list(b, i, cf, atNone, depth)
	}
	return c.value(b, i, depth)
}

// defType reads a member of a v0.8 definition at b[i]: a type and its
// colon, taking the type's reference fields under the catalog's rules, or
// a "path" member with its value (path; see defPath). A type with an
// escape is read in its canonical encoding (its decoding is the type, see
// typeName). An empty type (protocol.ComponentRefs reads no reference
// there) or one named as a child field cf (the reference's placeholder walk walks it as
// that field of the definition) make the component nested.
func (c *compScanner) defType(b []byte, i int) (next int, path bool, cf int, ok bool) {
	ka := len(c.out) + 1
	i, esc, ok := c.str(b, i)
	if ok && esc && !c.canonIn {
		c.needCanon()
		ok = false
	}
	if !ok {
		return i, false, -1, false
	}
	key := c.out[ka : len(c.out)-1]
	if i, path, ok := c.x().defPath.member(c, b, i, key); path || !ok {
		return i, path, -1, ok
	}
	cf = -1
	if len(key) == 0 || isChildField(key) {
		c.nested, c.sorted = true, true
		if len(key) > 0 {
			cf = childFieldOf(key)
		}
	}
	if c.rules {
		c.single, c.lists = c.cat.RefFields(typeName(key))
	}
	i, ok = c.colon(b, i)
	return i, false, cf, ok
}

// defValue reads the value at b[i] of a type of a v0.8 definition named as
// child field cf (-1: none): its properties (an object), else the child
// field's value (childValue), else a value, walked (nested).
func (c *compScanner) defValue(b []byte, i int, cf int) (int, bool) {
	switch {
	case b[i] == '{':
		return c.props(b, i)
	case cf >= 0:
		return c.childValue(b, i, cf, 2)
	}
	c.nested, c.sorted = true, true
	return c.value(b, i, 2)
}

// typeName is the type named by the bytes k of a JSON string (its
// escapes decoded), to look up a catalog's fields with: without escapes,
// it is k itself, valid while k does not change, and never kept.
func typeName(k []byte) string {
	if !slices.Contains(k, '\\') {
		return unsafe.String(unsafe.SliceData(k), len(k))
	}
	s, _ := jsonwire.Unescape(k)
	return s
}

// defRest reads what follows a type of a v0.8 definition: its end, or
// more types (each walked, its properties read as the first's).
func (c *compScanner) defRest(b []byte, i int) (int, bool) {
	for {
		var more, ok bool
		if i, more, ok = c.sep(b, i, '}'); !more {
			if ok {
				c.x().defPath.end(c)
			}
			return i, ok
		}
		c.nested, c.sorted = true, true
		var path bool
		var cf int
		if i, path, cf, ok = c.defType(b, jsonwire.SkipSpace(b, i)); !ok {
			return i, false
		}
		if path {
			continue
		}
		if i, ok = c.defValue(b, i, cf); !ok {
			return i, false
		}
	}
}

// listObjRest reads what follows the first member of a v0.8
// {"explicitList": [...]} or {"template": {...}} object: its end, or more
// members, walked (a "path" there as objPath reads it).
func (c *compScanner) listObjRest(b []byte, i int) (int, bool) {
	for {
		var more, ok bool
		if i, more, ok = c.sep(b, i, '}'); !more {
			if ok {
				c.x().listPath.end(c)
			}
			return i, ok
		}
		c.nested, c.sorted = true, true
		var ka int
		if i, ka, ok = c.memberKey(b, i); !ok {
			return i, false
		}
		key := c.out[ka : len(c.out)-1]
		var path bool
		if i, path, ok = c.x().listPath.member(c, b, i, key); path || !ok {
			if !ok {
				return i, false
			}
			continue
		}
		cf := -1
		if isChildField(key) {
			cf = childFieldOf(key)
		}
		if i, ok = c.colon(b, i); !ok {
			return i, false
		}
		if cf >= 0 {
			i, ok = c.childValue(b, i, cf, 4)
		} else {
			i, ok = c.value(b, i, 4)
		}
		if !ok {
			return i, false
		}
	}
}

// order reads, for a component with child fields below the top level
// (nested), the order of its slots and empty lists in the walk and of its
// references (see nestedOrder); it reports false when they do not match
// the slots read (the component is then compUnread: none is known).
func (c *compScanner) order() bool {
	var r orderReader
	// (Without the catalog's rules too: a catalog list field, even a
	// well-known one such as Column's "children", turns off the rule of
	// the "child" of its objects, see propRefs.)
	r.cat = c.cat
	ok := r.read(c.out, c.slots, c.empty)
	c.walk, c.refOrder = append(c.walk[:0], r.walk...), append(c.refOrder[:0], r.refs...)
	return ok
}

// walkOrder returns fc.more.walk (fc.nested), which a component thawed
// (release_freeze.go) reads again from its bytes.
func (fc *fastComp) walkOrder() []int32 {
	if fc.more == nil || fc.more.walk == nil {
		fc.nestedOrder()
	}
	return fc.more.walk
}

// nestedOrder fills fc.more's walk and reference orders (the latter
// without a catalog's reference fields: see compMore.catRefs).
func (fc *fastComp) nestedOrder() {
	var r orderReader
	r.read(fc.src, fc.slots, fc.empty)
	if fc.more == nil {
		fc.more = &compMore{}
	}
	fc.more.walk, fc.more.refs = ownCopy(r.walk), r.refs
}

// orderReader reads a component's compact bytes (in canonical encoding)
// as the reference's placeholder walk and protocol.ComponentRefs read its decoded form.
type orderReader struct {
	// cat: the catalog whose reference fields of the types are read (nil:
	// the well-known ones only, see compScanner.catalogRead); its list
	// fields do not have the "child" of their objects read (propRefs).
	cat   *protocol.Catalog
	src   []byte
	slots []childSlot
	empty []emptyList
	v08   bool    // a v0.8 component: its data-binding paths count (see walkObject)
	walk  []int32 // slot i as i, empty list j as -1-j
	refs  []int32 // slot indexes
	ok    bool
}

// member is a member of an object in orderReader.src: its key is
// src[ka:kb], its value src[va:vb].
type member struct{ ka, kb, va, vb int }

func (r *orderReader) read(src []byte, slots []childSlot, empty []emptyList) bool {
	*r = orderReader{cat: r.cat, src: src, slots: slots, empty: empty, ok: true}
	top := r.members(0)
	m, found := r.find(top, "component")
	if found && src[m.va] == '{' {
		r.v08 = true
		// v0.8: the definition is walked, each type's properties hold
		// the references. A "path" member is a data-binding path, no
		// type: the processing writes it as a string (see walkObject),
		// and it names no reference.
		r.walkObject(m.va)
		for _, t := range r.members(m.va) {
			if src[t.va] == '{' && t.kb > t.ka && string(src[t.ka:t.kb]) != "path" { // (an empty type has none)
				r.propRefs(t.va, src[t.ka:t.kb])
			}
		}
	} else {
		r.walkObject(0)
		if found && src[m.va] == '"' {
			r.propRefs(0, src[m.va+1:m.vb-1])
		} else {
			r.propRefs(0, nil)
		}
	}
	// (The reference-only slots, entry_refs.go, are in no walk.)
	refOnly := 0
	for _, sl := range slots {
		if sl.field == cfRef {
			refOnly++
		}
	}
	return r.ok && len(r.walk)+refOnly == len(slots)+len(empty)
}

// members lists the members of the object at src[i].
func (r *orderReader) members(i int) []member {
	var ms []member
	for i++; r.src[i] != '}'; {
		ke := jsonwire.StringEnd(r.src, i+1)
		va := ke + 2
		vb := skipCompact(r.src, va)
		ms = append(ms, member{i + 1, ke, va, vb})
		if i = vb; r.src[i] == ',' {
			i++
		}
	}
	return ms
}

func (r *orderReader) find(ms []member, key string) (member, bool) {
	for _, m := range ms {
		if string(r.src[m.ka:m.kb]) == key {
			return m, true
		}
	}
	return member{}, false
}

// elements lists the offsets of the elements of the list at src[i].
func (r *orderReader) elements(i int) []int {
	var at []int
	for i++; r.src[i] != ']'; {
		at = append(at, i)
		if i = skipCompact(r.src, i); r.src[i] == ',' {
			i++
		}
	}
	return at
}

// slotAt is the index of the slot of the string at src[i] (-1: none).
func (r *orderReader) slotAt(i int) int32 {
	k, found := slices.BinarySearchFunc(r.slots, int32(i+1), func(s childSlot, a int32) int { return cmp.Compare(s.a, a) })
	if !found || r.src[i] != '"' {
		r.ok = false
		return -1
	}
	return int32(k)
}

// walkObject is the reference's placeholder walk of the object at src[i]: its child
// fields in childFields' order, then its other objects and lists in key
// order (its bytes').
func (r *orderReader) walkObject(i int) {
	ms := r.members(i)
	// v0.8: an object with a path string starting with '/' and no
	// componentId is cleared, and a path of another kind (not null)
	// becomes a string: neither is walked further.
	skip := -1
	if p, found := r.find(ms, "path"); r.v08 && found {
		if _, keep := r.find(ms, "componentId"); !keep && r.src[p.va] == '"' && r.src[p.va+1] == '/' {
			return
		}
		skip = p.va
	}
	for f, name := range childFields {
		m, found := r.find(ms, name)
		if !found {
			continue
		}
		switch r.src[m.va] {
		case '"':
			r.walk = append(r.walk, r.slotAt(m.va))
		case '[':
			el := r.elements(m.va)
			for _, at := range el {
				if r.src[at] == '"' { // (anything else is no child id)
					r.walk = append(r.walk, r.slotAt(at))
				}
			}
			if len(el) == 0 && (f == cfChildren || f == cfExplicitList) {
				j := slices.IndexFunc(r.empty, func(l emptyList) bool { return int(l.at) == m.va+1 })
				if j < 0 {
					r.ok = false
				}
				r.walk = append(r.walk, int32(-1-j))
			}
		}
	}
	for _, m := range ms {
		if m.va != skip {
			r.walkValue(m.va)
		}
	}
}

// walkValue walks the objects in the value at src[i].
func (r *orderReader) walkValue(i int) {
	switch r.src[i] {
	case '{':
		r.walkObject(i)
	case '[':
		for _, at := range r.elements(i) {
			r.walkValue(at)
		}
	}
}

// propRefs is protocol.ComponentRefs of the properties at src[i] of type
// typ: in key order, a single reference field's string or object's
// componentId, a list field's strings or object's explicitList,
// template's componentId or componentId, and the "child" of the objects
// of a list that is no list field of the catalog's.
func (r *orderReader) propRefs(i int, typ []byte) {
	var single, list []string
	if r.cat != nil {
		single, list = r.cat.RefFields(typeName(typ))
	}
	str := func(m member, found bool) {
		if found && r.src[m.va] == '"' {
			r.refs = append(r.refs, r.slotAt(m.va))
		}
	}
	strs := func(i int) {
		for _, at := range r.elements(i) {
			if r.src[at] == '"' {
				r.refs = append(r.refs, r.slotAt(at))
			}
		}
	}
	for _, m := range r.members(i) {
		v, k := r.src[m.va], r.src[m.ka:m.kb]
		inList := hasName(list, k)
		switch kind := refKind(k); {
		case kind == cfRef || hasName(single, k):
			if v == '{' {
				str(r.find(r.members(m.va), "componentId"))
			} else {
				str(m, true)
			}
		case kind == refList || inList:
			if v == '[' {
				strs(m.va)
				break
			}
			if v != '{' {
				break
			}
			ms := r.members(m.va)
			if el, found := r.find(ms, "explicitList"); found {
				if r.src[el.va] == '[' {
					strs(el.va)
				}
			} else if t, found := r.find(ms, "template"); found {
				if r.src[t.va] == '{' {
					str(r.find(r.members(t.va), "componentId"))
				}
			} else {
				str(r.find(ms, "componentId"))
			}
		}
		if v != '[' || inList {
			continue
		}
		for _, at := range r.elements(m.va) {
			if r.src[at] != '{' {
				continue
			}
			if ch, found := r.find(r.members(at), "child"); found && r.src[ch.va] == '"' && ch.vb-ch.va > 2 {
				r.refs = append(r.refs, r.slotAt(ch.va))
			}
		}
	}
}

// refKind is the kind of reference field protocol.ComponentRefs always
// takes k for: cfRef (one id), refList (a list) or -1 (none).
func refKind(k []byte) int {
	switch string(k) {
	case "child", "contentChild", "entryPointChild", "detail", "summary", "root":
		return cfRef
	case "children", "explicitList", "template":
		return refList
	}
	return -1
}
