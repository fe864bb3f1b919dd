package deltaengine

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"unsafe"
)

// component takes the open component, healed at end of buf (or complete),
// if it has a usable id and type, into the entry of its id (one map
// lookup). A component of no usable id or type (an empty one, a v0.8 type
// that is no object, ...) is skipped, as the parser skips it.
func (k *Engine) component(end int, str, complete bool) {
	cs, s := k.compStart, k.cur
	k.compDone = k.compDone || complete
	if k.idA < 0 || k.idB > end || k.typeZ < 0 || k.typeZ > end || k.idA == k.idB || k.typeA == k.typeB && !k.v08 || s == nil && !complete {
		return
	}
	inList := end == len(k.buf) && k.listA >= 0 && len(k.stack) == int(k.listD)+1 // (read in the list itself, not in an item)
	odd := k.odd || k.cat != nil && k.typeA >= 0 && k.cat.HasOwnRefFields(string(k.buf[k.typeA:k.typeB]))
	if inList {
		// An open child list: a partial id is dropped (the list ends
		// after its last complete id); with no complete id the list is
		// empty, which makes the component odd.
		str, end = false, k.listA+1
		if n := len(k.slots); n > 0 && cs+int(k.slots[n-1].a) > k.listA {
			end = cs + int(k.slots[n-1].b) + 1 // (the last id: slots are in order)
		}
		switch {
		case k.inScalar && scalarHeals(k.buf[k.strStart:]):
			end = len(k.buf) // (an element that is no id, a number say, as it heals)
		case !k.inStr && !k.inScalar && k.buf[len(k.buf)-1] == '"' && k.strStart >= end:
			end = len(k.buf) // (a string just ended, of a list no slot is read in: nested)
		case k.comma > end && int(k.commaD) == int(k.listD)+1:
			end = k.comma // (after one)
		}
		odd = odd || end == k.listA+1
	}
	if !odd && k.phSlot {
		// A child named as the placeholder of its empty lists, as the
		// parser reads it.
		own := k.ownID()
		for _, x := range k.slots {
			if id := k.buf[cs+int(x.a) : cs+int(x.b)]; len(id) == len("children_")+len(own) && cs+int(x.b) < end && bytes.HasPrefix(id, []byte("children_")) && bytes.Equal(id[len("children_"):], own) {
				odd = true
			}
		}
	}
	var body, tail []byte
	var sl []slot
	if odd {
		k.tail = k.heal(k.tail[:0], cs, end, str, 4)
		if !k.valid(k.tail) {
			return
		}
		body, sl = k.oddForm(k.tail, k.ownID())
	} else {
		body, tail = k.buf[cs:end], k.heal(k.tail[:0], 0, 0, str, 4)
		k.tail = tail
		sl = k.slots
		for len(sl) > 0 && cs+int(sl[len(sl)-1].b) >= end {
			sl = sl[:len(sl)-1] // (the ids the heal leaves out: the last ones)
		}
	}
	if k.lost || k.cat != nil && k.v08 {
		k.scratch = append(append(k.scratch[:0], body...), tail...)
		if !k.valid(k.scratch) || !k.renderable(k.scratch) {
			return
		}
	}
	empty := 0
	switch {
	case odd || k.lost:
		empty, _ = emptyObjects(body) // (a form of its own, or bytes read the lost way)
	case k.compEmpty >= 0 && int(k.compEmpty)+2 <= end:
		empty = 1 // (at least)
	}
	if odd && empty == 0 && k.v08 && k.pathSeen {
		// (In canonical form before its paths are normalised: a path {}
		// is an empty object, see normalizePaths.)
		r := k.rare()
		r.pbuf, _ = k.cw.canonical(r.pbuf[:0], k.tail, 0)
		empty, _ = emptyObjects(r.pbuf)
	}
	if empty > 0 || len(body) > 0 && body[len(body)-1] == '{' && len(tail) > 0 && tail[0] == '}' || s == nil {
		// A form with an empty object is not renderable yet, as in the
		// parser: a complete one is taken when its message ends; so is one
		// read before its message names its surface (then, or at the end:
		// see takeHeld).
		if complete {
			k.hold(s, k.ownID(), body, sl, empty > 0)
		}
		return
	}
	k.take(s, k.ownID(), body, tail, sl, complete)
}

// take sets the form of component id of s to body and tail, its child ids
// at sl (see component).
func (k *Engine) take(s *surface, id, body, tail []byte, sl []slot, complete bool) {
	var ent *entry
	var h uint32 // (the hash of id, when looked up)
	if o := k.arriving; o != nil && o.ent != nil && o.ent.s == s && o.ent.id == string(id) {
		ent = o.ent // (the component arriving, healed again: no lookup)
	} else {
		ent, h = s.comps.find(id)
	}
	if (ent == nil || !ent.arrived) && k.maxComps > 0 && s.arrived >= k.maxComps {
		k.failWith(&Limit{What: "components", Max: k.maxComps, SurfaceID: s.id})
		return
	}
	if ent == nil {
		ent = k.newEntry(s, id, h)
	}
	if !s.loadingIDs && bytes.HasPrefix(id, []byte("loading_")) {
		s.loadingIDs = true // (see shadowed)
	}
	if ent.arrived && len(ent.src) == len(body)+len(tail) &&
		bytes.Equal(ent.src[:len(body)], body) && bytes.Equal(ent.src[len(body):], tail) {
		// Unchanged; complete, it keeps its bytes without spare room.
		if complete && cap(ent.src) != len(ent.src) {
			k.settled(ent)
			ent.src = append(make([]byte, 0, len(ent.src)), ent.src...)
			if sn := ent.snap; sn != nil && !sn.formOwn && sn.form != nil {
				sn.form = ent.src // (it was the same bytes)
			}
		}
		return
	}
	if n := len(body) + len(tail); complete && cap(ent.src) != n {
		// A complete component changes no more (until a later message
		// sends it again): its bytes take no spare room.
		k.settled(ent)
		ent.src = make([]byte, 0, n)
	} else if !complete {
		ent.src = k.openSrc(ent, n)
	}
	src := append(ent.src[:0], body...)
	ent.src = append(src, tail...)
	if !s.filling && k.rx != nil && k.rx.filled {
		for _, x := range sl {
			if bytes.HasPrefix(ent.src[x.a:x.b], []byte("children_")) {
				s.filling = true // (see refill)
			}
		}
	}
	k.update(s, ent, sl)
}

// refill takes again, at the end of each component message of s, the
// forms of s that hold a "children_<id>" placeholder in an empty child
// list, with the reference's check of the list (listOpen) on the message
// as it ends: the reference writes one in an empty list of the message it
// reads as one the stream is still filling, and reads its components
// again at each message (one that ends with another list, or none: the
// placeholder goes).
func (k *Engine) refill(s *surface) {
	s.filling = false
	seen := k.pathSeen
	k.pathSeen = false // (its v0.8 paths are normalised already: once is all)
	defer func() { k.pathSeen = seen }()
	for e := range s.comps.all {
		if !e.arrived || !bytes.Contains(e.src, []byte(`["children_`)) {
			continue
		}
		ph := []byte(`["children_` + e.id + `"]`)
		if bytes.Contains(e.src, ph) {
			form, sl := k.oddForm(bytes.ReplaceAll(e.src, ph, []byte("[]")), []byte(e.id))
			s.filling = s.filling || bytes.Contains(form, ph)
			k.take(s, []byte(e.id), form, nil, sl, true)
		}
	}
}

// nestedComponent takes an object nested in the open component, just
// closed at buf[start:], that has an id and a component (a v0.9 type name,
// a v0.8 definition) as a component of its own, as the reference reads
// every such object of a message: in canonical form, its child ids found
// by the walk (walk.go).
func (k *Engine) nestedComponent(start int) {
	k.nestedForm(k.buf[start:], true)
}

// nestedForm is nestedComponent for the object o (complete: it closed;
// else healed, see nestedOpen).
func (k *Engine) nestedForm(o []byte, complete bool) {
	if !k.valid(o) { // (read the lost way, it may be no JSON)
		return
	}
	id, comp := valueOf(o, 0, "id"), valueOf(o, 0, "component")
	if id < 0 || comp < 0 || o[id] != '"' || valueEnd(o, id) <= id+2 {
		return
	}
	if k.v08 && o[comp] != '{' || !k.v08 && (o[comp] != '"' || valueEnd(o, comp) <= comp+2) {
		return
	}
	nid := bytes.Clone(k.idText(o[id+1 : valueEnd(o, id)-1]))
	form, sl := k.oddForm(o, nid)
	if k.cur == nil {
		if complete {
			k.hold(nil, nid, form, sl, false)
		}
		return
	}
	k.take(k.cur, nid, form, nil, sl, complete)
}

// nestedOpen takes the objects nested in the open component that are still
// open and have an id, healed as the component is (end, str: see
// healEnd), as components of their own, as the parser reads them at each
// heal.
func (k *Engine) nestedOpen(end int, str bool) {
	for j := len(k.stack) - 1; j >= 5; j-- {
		if f := &k.stack[j]; f.open == '{' && f.idKey {
			r := k.rare()
			r.nest = k.heal(r.nest[:0], f.start, end, str, j)
			k.nestedForm(r.nest, false)
		}
	}
}

// heldComp is a complete component taken later (see component): its
// surface (nil: not named yet), id, form and slots.
type heldComp struct {
	s        *surface
	id, form []byte
	slots    []slot
	atEnd    bool // (an empty object in it: taken when its message ends)
}

// hold holds a complete component for later (see component; atEnd: see
// heldComp).
func (k *Engine) hold(s *surface, id, form []byte, sl []slot, atEnd bool) {
	r := k.rare()
	r.held = append(r.held, heldComp{s, bytes.Clone(id), bytes.Clone(form), append([]slot(nil), sl...), atEnd})
}

// takeHeld takes the components held (see component). At the end of
// their message (end), all of them: those of no surface named for s (the
// message's surface, or the last one named; none: they go), the others
// for theirs. Else, at the end of a chunk in which a component of the
// message ended once it names its surface s, those held before it named
// it that have no empty object: the parser yields them then.
func (k *Engine) takeHeld(s *surface, end bool) {
	if k.rx == nil {
		return
	}
	n := 0
	for _, h := range k.rx.held {
		switch {
		case h.s == nil && s != nil && (end || !h.atEnd):
			k.take(s, h.id, h.form, nil, h.slots, true)
		case h.s != nil && end:
			k.take(h.s, h.id, h.form, nil, h.slots, true)
		case !end:
			k.rx.held[n], n = h, n+1
		}
	}
	clear(k.rx.held[n:])
	k.rx.held = k.rx.held[:n]
}

// update brings the references (child ids at sl in its new src) and
// reachability of ent up to date, and queues it and the parents it
// completes.
func (k *Engine) update(s *surface, ent *entry, sl []slot) {
	n := 0 // the references of unchanged leading ids stay
	for ; n < len(ent.refs) && n < len(sl) && ent.refs[n].fl == sl[n].fl && ent.refs[n].kid.id == string(ent.src[sl[n].a:sl[n].b]); n++ {
		ent.refs[n].slot = sl[n]
	}
	var orphans []*entry // (kids that may have no reachable parent left)
	for _, old := range ent.refs[n:] {
		if ent.reach && old.fl&slotRef != 0 {
			if old.kid.parents--; old.kid.parents == 0 {
				orphans = append(orphans, old.kid)
			}
		}
	}
	ent.refs = ent.refs[:n]
	for _, x := range sl[n:] {
		kid, h := s.comps.find(ent.src[x.a:x.b])
		if kid == nil {
			kid = k.newEntry(s, ent.src[x.a:x.b], h)
		}
		ent.refs = append(ent.refs, ref{x, kid})
		switch {
		case kid.arrived:
		case kid.waiter == nil:
			kid.waiter = ent
		default:
			last, more := kid.waiter, s.waiters[kid]
			if len(more) > 0 {
				last = more[len(more)-1]
			}
			if last != ent {
				if s.waiters == nil {
					s.waiters = map[*entry][]*entry{}
				}
				s.waiters[kid] = append(more, ent)
			}
		}
		if x.fl&slotRef != 0 && kid == ent {
			s.selfRef, s.suspect = true, true
		}
		if ent.reach && x.fl&slotRef != 0 {
			suspectRef(s, kid)
			if kid.parents++; !kid.reach {
				k.reachFrom(s, kid)
			}
		}
	}
	if !ent.arrived {
		ent.arrived = true
		ent.arrival = uint16(min(s.arrived, math.MaxUint16))
		s.arrived++
		if w := ent.waiter; w != nil {
			ent.waiter = nil
			k.wake(w)
			if more, ok := s.waiters[ent]; ok {
				delete(s.waiters, ent)
				for _, w := range more {
					k.wake(w)
				}
			}
		}
	}
	if !ent.reach && ent.id == s.root {
		k.reachFrom(s, ent)
	}
	for _, o := range orphans {
		k.unreach(s, o)
	}
	k.enqueue(ent)
}

// unreach makes e, and what it alone made reachable, unreachable when no
// reachable component references it any more: as in the parser, a
// snapshot holds what is reachable from the root then, and delta mode
// yields the changes of what is (a root rewritten without its children
// yet drops them until they come back).
func (k *Engine) unreach(s *surface, e *entry) {
	k.walk = append(k.walk[:0], e)
	for len(k.walk) > 0 {
		x := k.walk[len(k.walk)-1]
		k.walk = k.walk[:len(k.walk)-1]
		if !x.reach || x.parents > 0 || x.id == s.root {
			continue
		}
		x.reach = false
		if x.bad {
			s.bad--
		}
		if i := slices.Index(s.reach, x); i >= 0 {
			k.forgetBody(s)
			s.reach = slices.Delete(s.reach, i, i+1)
			if i < s.sorted {
				s.sorted--
			}
		}
		for _, r := range x.refs {
			if r.fl&slotRef != 0 {
				if r.kid.parents--; r.kid.parents == 0 {
					k.walk = append(k.walk, r.kid)
				}
			}
		}
	}
}

// newEntry adds id, of hash h (see compTable.find), to s: in progressive
// mode, an entry allocated with its snapshot form (progEntry).
func (k *Engine) newEntry(s *surface, id []byte, h uint32) *entry {
	var e *entry
	if k.progressive {
		pe := &progEntry{entry: entry{id: string(id), s: s}}
		pe.entry.snap = &pe.snap
		e = &pe.entry
	} else {
		e = &entry{id: string(id), s: s}
	}
	s.comps.put(e, h)
	return e
}

// wake notes that a child of e arrived: e is yielded again at once, or,
// with more than 16 children missing when it was last yielded, once an
// eighth of them arrived, and at the block's end, as the parser does (so
// that the output stays linear in the input).
func (k *Engine) wake(e *entry) {
	if e.missing <= 16 {
		k.enqueue(e)
		return
	}
	if e.woke++; e.woke*8 >= e.missing {
		k.enqueue(e)
	} else if !e.deferred {
		e.deferred = true
		k.deferred = append(k.deferred, e)
	}
}

// blockEnd yields the components whose yield waits (see wake).
func (k *Engine) blockEnd() {
	k.release()
	k.flush(true)
	if !k.progressive {
		// Delta mode's records of yielded data are of one block's
		// messages, as the parser's.
		k.records, k.dataRec = nil, nil
	}
	for _, r := range k.records {
		if k.maxComps > 0 && r.vals.len() > k.maxComps {
			r.vals = hashVals{} // (past the bound: its next use starts afresh)
		}
	}
}

// release queues the components whose yield waits (see wake).
func (k *Engine) release() {
	// By surface id, as the parser yields the surfaces held back.
	slices.SortStableFunc(k.deferred, func(a, b *entry) int { return strings.Compare(a.s.id, b.s.id) })
	for _, e := range k.deferred {
		if e.deferred {
			e.deferred = false
			k.enqueue(e)
		}
	}
	k.deferred = k.deferred[:0]
}

func (k *Engine) enqueue(e *entry) {
	if !e.queued {
		e.queued = true
		k.queue = append(k.queue, e)
	}
}

// reachFrom makes e and what it reaches reachable (no cycle check: the
// flag stops the walk).
func (k *Engine) reachFrom(s *surface, e *entry) {
	e.reach = true
	k.walk = append(k.walk[:0], e)
	for len(k.walk) > 0 {
		x := k.walk[len(k.walk)-1]
		if x.bad {
			s.bad++
		}
		if k.progressive {
			s.reach = append(s.reach, x)
		}
		if k.walk = k.walk[:len(k.walk)-1]; x.arrived {
			k.enqueue(x)
		}
		for _, r := range x.refs {
			if r.fl&slotRef == 0 {
				continue
			}
			suspectRef(s, r.kid)
			if r.kid.parents++; !r.kid.reach {
				r.kid.reach = true
				k.walk = append(k.walk, r.kid)
			}
		}
	}
}

// openForm is the storage of the form of the component still arriving
// (see openSrc): its entry (nil: none) and the bytes.
type openForm struct {
	ent *entry
	buf []byte
}

// openSrc returns storage of n bytes or more for the form of ent, a
// component still arriving: the engine's, which its form keeps until the
// component completes (take gives it bytes of its own then) or another
// component arrives (detach), so that the forms a component takes as it
// heals cost no allocation.
func (k *Engine) openSrc(ent *entry, n int) []byte {
	if k.arriving == nil {
		k.arriving = &openForm{}
	}
	o := k.arriving
	if o.ent != ent {
		k.detach()
		o.ent = ent
	}
	if cap(o.buf) < n {
		o.buf = make([]byte, 0, max(256, 2*n))
	}
	return o.buf[:0]
}

// settled notes that ent, complete, takes bytes of its own: the engine's
// open storage is no longer its (see openSrc).
func (k *Engine) settled(ent *entry) {
	if o := k.arriving; o != nil && o.ent == ent {
		o.ent = nil
	}
}

// detach gives the entry whose form is in the engine's open storage (see
// openSrc) bytes of its own.
func (k *Engine) detach() {
	o := k.arriving
	if o == nil || o.ent == nil {
		return
	}
	e := o.ent
	o.ent = nil
	if unsafe.SliceData(e.src) == unsafe.SliceData(o.buf) {
		e.src = bytes.Clone(e.src)
		if sn := e.snap; sn != nil && !sn.formOwn && sn.form != nil {
			sn.form = e.src // (it was the same bytes)
		}
	}
}
