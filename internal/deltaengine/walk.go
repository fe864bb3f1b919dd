package deltaengine

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// A component of a shape other than the common ones (odd: see the
// scanner's commonKey, oddValue and definitionKey) is written in canonical form, as the
// parser writes it, and its child ids are found in those bytes: the ones
// the reference's placeholder walk rewrites (walkObject) and the ones
// protocol.ComponentRefs reads as references (refs). The common shapes
// (a string "child", "contentChild" or "entryPointChild", a non-empty list
// of ids in "children", v0.8's {"explicitList": [...]}, at the top level of
// a v0.9 component or of a v0.8 definition's properties) keep their bytes
// as they came, their ids recorded by the scanner as it reads them.

// Slot flags.
const (
	slotRewrite uint8 = 1 << iota // the walk rewrites it: a placeholder while missing
	slotRef                       // a reference: what it names is reachable
)

// emptyList is the ']' of an empty child list in a canonical form, and
// whether its field is "explicitList" (else "children").
type emptyList struct {
	at       int
	explicit bool
}

// oddForm returns the form of the open component (own: its id) from its
// healed text b (compact): its canonical form, with "children_<id>" in
// each empty child list the message is still filling (the parser's, the
// reference's check; see listOpen), and its slots. It returns the form
// and the slots (in k.canon and k.hslots).
func (k *Engine) oddForm(b, own []byte) ([]byte, []slot) {
	c, _ := k.cw.canonical(k.canon[:0], b, 0)
	r := k.rare()
	sl, em := k.hslots[:0], r.empties[:0]
	root := 0
	if k.v08 {
		// v0.8: the walk and the references are the definition's; a child
		// field outside it is neither; its paths are normalised.
		if root = valueOf(c, 0, "component"); root < 0 || c[root] != '{' {
			root = -1
		} else if k.pathSeen {
			r.pbuf = append(r.pbuf[:0], c[:root]...)
			var e int
			r.pbuf, e = normalizePaths(r.pbuf, c, root)
			r.pbuf = append(r.pbuf, c[e:]...)
			c = append(c[:0], r.pbuf...) // (pbuf's array is its own)
		}
	}
	if root >= 0 {
		sl, em, _ = walkObject(c, root, sl, em)
		sl = refs(c, root, k.v08, k.cat, sl)
	}
	slices.SortStableFunc(sl, func(x, y slot) int { return int(x.a - y.a) })
	n := 0 // one slot per id: a reference the walk also rewrites is both
	for _, x := range sl {
		if n > 0 && sl[n-1].a == x.a {
			sl[n-1].fl |= x.fl
			continue
		}
		sl[n], n = x, n+1
	}
	sl = sl[:n]
	r.empties = em
	for j := len(em) - 1; j >= 0; j-- { // (from the end: earlier offsets stay)
		if !k.listOpen(em[j].explicit) {
			continue
		}
		r.filled = true // (see take)
		at, id := em[j].at, own
		ins := len(`"children_`) + len(id) + 1
		c = slices.Grow(c, ins)[:len(c)+ins]
		copy(c[at+ins:], c[at:len(c)-ins])
		copy(c[at:], `"children_`)
		copy(c[at+len(`"children_`):], id)
		c[at+ins-1] = '"'
		for i := range sl {
			if int(sl[i].a) > at {
				sl[i].a, sl[i].b = sl[i].a+int32(ins), sl[i].b+int32(ins)
			}
		}
		i := slices.IndexFunc(sl, func(x slot) bool { return int(x.a) > at })
		if i < 0 {
			i = len(sl)
		}
		sl = slices.Insert(sl, i, slot{int32(at + 1), int32(at + ins - 1), slotRewrite, 0})
	}
	if root >= 0 && k.progressive && !oneList(c, sl) {
		var n uint16
		walkRanks(c, root, sl, &n) // (delta mode lists placeholders by id)
	}
	k.canon, k.hslots = c, sl
	return c, sl
}

// oneList reports whether the slots of sl that the walk rewrites are the
// elements of one list, one after the other (or there is at most one):
// their order in the walk is their order in c.
func oneList(c []byte, sl []slot) bool {
	prev := int32(-1)
	for _, x := range sl {
		if x.fl&slotRewrite == 0 {
			continue
		}
		if prev >= 0 && (x.a-prev != 3 || c[prev+1] != ',') {
			return false
		}
		prev = x.b
	}
	return true
}

// walkFields are the child fields in the order the reference's placeholder
// walk meets them in an object.
var walkFields = [...]string{"children", "explicitList", "child", "contentChild", "entryPointChild", "componentId"}

// walkRanks sets the rank of the slots of sl (sorted by offset) in the
// reference's placeholder walk of the object at c[i] (canonical), counting
// from *n: in each object its child fields in walkFields' order (a string,
// a list's strings), then the objects in its values in key order. The
// placeholders of a snapshot follow it (see form).
func walkRanks(c []byte, i int, sl []slot, n *uint16) {
	rank := func(at int) {
		if k, ok := slices.BinarySearchFunc(sl, int32(at+1), func(x slot, a int32) int { return int(x.a - a) }); ok {
			sl[k].ord, *n = *n, *n+1
		}
	}
	// The object's child fields, found in one pass (canonical: each key
	// once), then ranked in walkFields' order.
	var at [len(walkFields)]int
	each(c, i, func(key []byte, v int) {
		for f, name := range walkFields {
			if string(key) == name {
				at[f] = v + 1 // (+1: 0 is none)
			}
		}
	})
	for _, v := range at {
		switch {
		case v == 0:
		case c[v-1] == '"':
			rank(v - 1)
		case c[v-1] == '[':
			elements(c, v-1, func(x int) {
				if c[x] == '"' {
					rank(x)
				}
			})
		}
	}
	each(c, i, func(_ []byte, v int) { walkRanksIn(c, v, sl, n) })
}

// walkRanksIn is walkRanks for the objects in the value at c[i].
func walkRanksIn(c []byte, i int, sl []slot, n *uint16) {
	switch c[i] {
	case '{':
		walkRanks(c, i, sl, n)
	case '[':
		elements(c, i, func(x int) { walkRanksIn(c, x, sl, n) })
	}
}

// listOpen is the reference's check that an empty child list is one the
// stream is still filling: in the message read so far, the last
// "children" (explicit: "explicitList") is followed by a '[' with no ']'
// before it. The open component, which holds the list, is searched first:
// the message before it only when its key is written otherwise there (an
// escape), so that a message of many such components is not read again
// for each.
func (k *Engine) listOpen(explicit bool) bool {
	key := []byte(`"children"`)
	if explicit {
		key = []byte(`"explicitList"`)
	}
	msg := k.buf[max(k.compStart, k.msgStart):] // (no component open: see refill)
	i := bytes.LastIndex(msg, key)
	if i < 0 && k.compStart >= 0 {
		msg = k.buf[k.msgStart:]
		i = bytes.LastIndex(msg, key)
	}
	if i < 0 {
		return false
	}
	rest := msg[i+len(key):]
	o := bytes.IndexByte(rest, '[')
	return o >= 0 && bytes.IndexByte(rest[:o], ']') < 0
}

// walkObject appends the slots the reference's placeholder walk rewrites
// in the object at c[i] (compact), and its empty child lists, and returns
// the end of the object.
func walkObject(c []byte, i int, sl []slot, em []emptyList) ([]slot, []emptyList, int) {
	j := i + 1
	for c[j] != '}' {
		ka := j
		j = jsonwire.StringEnd(c, j+1) + 1
		sl, em, j = walkValue(c, j+1, c[ka+1:j-1], sl, em)
		if c[j] == ',' {
			j++
		}
	}
	return sl, em, j + 1
}

// walkValue is walkObject for the value at c[i] of the member named key
// (nil: a list's element): a child field's string is rewritten, as are
// the strings of its list; an empty list of "children" or "explicitList"
// is noted; objects are walked at any depth.
func walkValue(c []byte, i int, key []byte, sl []slot, em []emptyList) ([]slot, []emptyList, int) {
	child := key != nil && childField(classify(key))
	switch c[i] {
	case '"':
		e := jsonwire.StringEnd(c, i+1)
		if child {
			sl = append(sl, slot{int32(i + 1), int32(e), slotRewrite, 0})
		}
		return sl, em, e + 1
	case '{':
		return walkObject(c, i, sl, em)
	case '[':
		j := i + 1
		if explicit := string(key) == "explicitList"; c[j] == ']' && (explicit || string(key) == "children") {
			em = append(em, emptyList{j, explicit})
		}
		for c[j] != ']' {
			if c[j] == '"' {
				e := jsonwire.StringEnd(c, j+1)
				if child {
					sl = append(sl, slot{int32(j + 1), int32(e), slotRewrite, 0})
				}
				j = e + 1
			} else {
				sl, em, j = walkValue(c, j, nil, sl, em)
			}
			if c[j] == ',' {
				j++
			}
		}
		return sl, em, j + 1
	}
	return sl, em, valueEnd(c, i)
}

// refs appends the references protocol.ComponentRefs reads, with cat's
// reference fields (cat may be nil), in the canonical form c: from the
// component object at c[root] (v0.9), or from each type's properties of
// the definition at c[root] (v0.8).
func refs(c []byte, root int, v08 bool, cat *protocol.Catalog, sl []slot) []slot {
	if !v08 {
		var single, list []string
		t := valueOf(c, root, "component")
		if t >= 0 && c[t] == '"' && c[t+1] == '"' {
			return sl // (the empty type: none)
		}
		if t >= 0 && c[t] == '"' && cat != nil {
			single, list = cat.RefFields(string(c[t+1 : jsonwire.StringEnd(c, t+1)]))
		}
		return propRefs(c, root, single, list, sl)
	}
	each(c, root, func(typ []byte, v int) {
		if c[v] == '{' && len(typ) > 0 { // (the empty type has none)
			single, list := cat.RefFields(string(typ))
			sl = propRefs(c, v, single, list, sl)
		}
	})
	return sl
}

// propRefs appends the references of the properties object at c[i], as
// protocol.ComponentRefs reads them: those of its type's reference fields
// single and list (a catalog's) and of the well-known ones.
func propRefs(c []byte, i int, single, list []string, sl []slot) []slot {
	ref := func(v int) {
		if v >= 0 && c[v] == '"' {
			sl = append(sl, slot{int32(v + 1), int32(jsonwire.StringEnd(c, v+1)), slotRef, 0})
		}
	}
	each(c, i, func(key []byte, v int) {
		k := string(key)
		inList := slices.Contains(list, k)
		switch {
		case slices.Contains(single, k) || k == "child" || k == "contentChild" || k == "entryPointChild" || k == "detail" || k == "summary" || k == "root":
			if c[v] == '{' {
				ref(valueOf(c, v, "componentId"))
			} else {
				ref(v)
			}
		case inList || k == "children" || k == "explicitList" || k == "template":
			listRefs(c, v, ref)
		}
		if c[v] == '[' && !inList {
			// A list of objects with a "child" (Tabs' tabs).
			elements(c, v, func(e int) {
				if c[e] == '{' {
					if ch := valueOf(c, e, "child"); ch >= 0 && c[ch] == '"' && c[ch+1] != '"' {
						ref(ch)
					}
				}
			})
		}
	})
	return sl
}

// listRefs calls ref with the ids of a list field's value at c[v]: a list's
// strings, an {"explicitList": [...]}'s, a {"template": {"componentId"}}'s
// or a {"componentId"}'s.
func listRefs(c []byte, v int, ref func(int)) {
	switch c[v] {
	case '[':
		elements(c, v, ref)
	case '{':
		if l := valueOf(c, v, "explicitList"); l >= 0 {
			if c[l] == '[' {
				elements(c, l, ref)
			}
		} else if t := valueOf(c, v, "template"); t >= 0 {
			if c[t] == '{' {
				ref(valueOf(c, t, "componentId"))
			}
		} else {
			ref(valueOf(c, v, "componentId"))
		}
	}
}

// each calls f with the key (unquoted) and the value's offset of each
// member of the object at c[i].
func each(c []byte, i int, f func(key []byte, v int)) {
	for j := i + 1; c[j] != '}'; {
		ka := j
		j = jsonwire.StringEnd(c, j+1) + 1
		f(c[ka+1:j-1], j+1)
		if j = valueEnd(c, j+1); c[j] == ',' {
			j++
		}
	}
}

// elements calls f with the offset of each element of the list at c[i].
func elements(c []byte, i int, f func(v int)) {
	elementsFrom(c, i+1, func(v, _ int) { f(v) })
}

// elementsFrom calls f with the offset and the end of each element of a
// list, from the one at c[j] on.
func elementsFrom(c []byte, j int, f func(v, end int)) {
	for c[j] != ']' {
		end := valueEnd(c, j)
		f(j, end)
		if j = end; c[j] == ',' {
			j++
		}
	}
}

// valueOf returns the offset of the value of the first member named name
// of the object at c[i], or -1.
func valueOf(c []byte, i int, name string) int {
	for j := i + 1; c[j] != '}'; {
		ka := j
		j = jsonwire.StringEnd(c, j+1) + 1
		if string(c[ka+1:j-1]) == name {
			return j + 1
		}
		if j = valueEnd(c, j+1); c[j] == ',' {
			j++
		}
	}
	return -1
}

// normalizePaths appends to dst the value at c[i] (compact, canonical) with
// its v0.8 data-binding paths as the reference's placeholder walk writes
// them in a definition: in each object, a "path" that is a string starting
// with '/' becomes "/" and the path without its leading slashes, and the
// object's other members go (unless it has a "componentId": then they
// stay); another string gets a leading '/'; a number, true or false becomes
// the string "/" and its text as Python writes it, an object or a list the
// string "/" and its JSON (Python's text of it, close enough, as the parser
// writes it; what it holds is no child). It returns dst and the end of the
// value.
func normalizePaths(dst, c []byte, i int) ([]byte, int) {
	switch c[i] {
	case '{':
		p := valueOf(c, i, "path")
		if p >= 0 && c[p] == '"' && c[p+1] == '/' && valueOf(c, i, "componentId") < 0 {
			x := p + 1
			for c[x] == '/' {
				x++
			}
			e := jsonwire.StringEnd(c, p+1)
			dst = append(dst, `{"path":"/`...)
			dst = append(dst, c[x:e]...)
			return append(dst, `"}`...), valueEnd(c, i)
		}
		dst = append(dst, '{')
		j := i + 1
		for c[j] != '}' {
			ka := j
			j = jsonwire.StringEnd(c, j+1) + 1
			dst = append(dst, c[ka:j+1]...)
			if string(c[ka:j]) == `"path"` {
				dst, j = pathValue(dst, c, j+1)
			} else {
				dst, j = normalizePaths(dst, c, j+1)
			}
			if c[j] == ',' {
				dst = append(dst, ',')
				j++
			}
		}
		return append(dst, '}'), j + 1
	case '[':
		dst = append(dst, '[')
		j := i + 1
		for c[j] != ']' {
			dst, j = normalizePaths(dst, c, j)
			if c[j] == ',' {
				dst = append(dst, ',')
				j++
			}
		}
		return append(dst, ']'), j + 1
	}
	e := valueEnd(c, i)
	return append(dst, c[i:e]...), e
}

// pathValue appends the "path" value at c[v] as normalizePaths writes it in
// an object that keeps its other members, and returns its end.
func pathValue(dst, c []byte, v int) ([]byte, int) {
	e := valueEnd(c, v)
	switch c[v] {
	case '"':
		x := v + 1
		for c[x] == '/' {
			x++
		}
		dst = append(dst, `"/`...)
		return append(dst, c[x:e]...), e
	case 't':
		return append(dst, `"/True"`...), e
	case 'f':
		return append(dst, `"/False"`...), e
	case 'n':
		return append(dst, c[v:e]...), e
	case '{', '[':
		// (encoding/json: sorted keys, <, > and & escaped, numbers as
		// they are; a rare path.)
		var x any
		d := json.NewDecoder(bytes.NewReader(c[v:e]))
		d.UseNumber()
		if d.Decode(&x) != nil {
			return append(dst, c[v:e]...), e
		}
		b, _ := json.Marshal(x)
		return jsonwire.AppendQuoted(dst, "/"+string(b), false), e
	}
	dst = append(dst, `"/`...)
	dst = append(dst, c[v:e]...)
	return append(dst, '"'), e
}
