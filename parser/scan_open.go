package parser

import (
	"bytes"
	"github.com/a2ui-stream/a2ui-stream/internal/deltaengine"
	"unsafe"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// endOfChunk runs after each segment: it heals and reads the open objects
// that can yield something (a component, a data model update) when a byte
// that can change them arrived, then yields a snapshot if components
// changed. While the buffer ends inside a multi-byte character (in a
// string: elsewhere it is a syntax error), the open objects are read only
// once the character is whole, in a later segment: a healed string never
// ends with part of a character.
func (e *progressiveEngine) endOfChunk() error {
	if err := e.takeLimitErr(); err != nil {
		return err
	}
	s := &e.sc
	if len(s.stack) > 0 && len(s.buf) > 0 && s.sig && s.utf8need == 0 {
		s.sig = false
		if s.compTok {
			e.sniffComponents()
			if err := e.takeLimitErr(); err != nil {
				return err
			}
		}
		switch e.fam {
		case protocol.FamilyV08:
			if s.dataTokV08 {
				e.sniffData(flagDataV08)
			}
		case protocol.FamilyV09:
			if s.dataTokV09 {
				e.sniffData(flagDataV09)
			}
		}
	}
	if e.dirty {
		e.dirty = false
		return e.yieldReachable(false)
	}
	return nil
}

// sniffFull is the size up to which an open object is healed whenever it
// changed; a larger one is healed again only once it grew by an eighth, so
// that the work (and, in delta mode, the output) stays linear in the input
// however large one object gets.
const sniffFull = 1024

// shouldSniff applies the growth rule to frame f and records the sniff.
func (s *progScan) shouldSniff(f *pframe) bool {
	size := len(s.buf) - f.start
	if size > sniffFull && size-f.sniffed < size/8 {
		return false
	}
	f.sniffed = size
	return true
}

// sniffComponents heals the open objects that have "id" and "component"
// keys, innermost first, and caches those that are components.
func (e *progressiveEngine) sniffComponents() {
	if e.fam == protocol.FamilyUnknown {
		return // (none is registered yet: see handlePartialComponent)
	}
	s := &e.sc
	// Every healed object ends the same way: after a dangling key none of
	// them is valid JSON.
	dangling := s.danglingKey()
	for i := len(s.stack) - 1; i >= s.compLow; i-- {
		f := &s.stack[i]
		if f.open != '{' || f.flags&(flagID|flagComponent) != flagID|flagComponent || !s.shouldSniff(f) || dangling {
			continue
		}
		healed, ok := e.healOpenComponent(i)
		if !ok || e.heal.sameCut(s.msgGen, f.start, e.surface, healed) {
			continue
		}
		// The scanner reads on from the last member boundary its previous
		// read of this object passed (entry_resume.go).
		if e.cs.scanOpen(healed, e.heal.real, e.fam == protocol.FamilyV08, s.msgGen, f.start) != compFast || e.cs.emptyObj || !e.renderable() {
			continue
		}
		sc := e.state(e.surface)
		ent := e.csEntry(sc)
		if e.growFast(sc, ent) == nil {
			e.openResult(sc, ent)
		}
		e.dirty = true
	}
}

// csEntry returns the entry of sc for the id of the component e.cs just
// read (nil: none).
func (e *progressiveEngine) csEntry(sc *surfaceState) *compEntry {
	c := &e.cs
	return sc.comps[string(c.ownID())]
}

// growFast handles the common case of a component still arriving (or
// just completed): the component e.cs just read has a partial entry ent in sc,
// held by that entry alone. Its bytes are updated in place, without
// allocating, and when its child ids did not change (so neither did its
// references) the topology is left untouched. It returns the entry's
// component, or nil, changing nothing, when the case does not apply.
func (e *progressiveEngine) growFast(sc *surfaceState, ent *compEntry) *fastComp {
	c := &e.cs
	if ent == nil || ent.fast == nil || !ent.fast.owned || ent.fast.rewrote || c.rewrote || ent.fast.more != nil || len(c.edits) > 0 || c.nested {
		return nil // (rewritten ones compare by value, see putFast; edits and nested orders are copied by result)
	}
	fc := ent.fast
	if string(fc.src) == string(c.out) {
		return fc
	}
	oldN := len(fc.slots)
	// Slots [0, k) keep their child ids.
	k := 0
	for k < len(c.slots) && k < len(fc.slots) {
		sl := c.slots[k]
		if sl.field != fc.slots[k].field || string(c.out[sl.a:sl.b]) != string(fc.slotID(k)) {
			break
		}
		k++
	}
	same := k == len(c.slots) && k == len(fc.slots)
	if !same && k < 64 {
		fc.arrived &= 1<<k - 1 // slots from k on name other ids
		fc.missing &= 1<<k - 1
	}
	if n := len(c.slots); !same && fc.pns != nil {
		// The cache keeps the placeholders of the unchanged slots: in
		// place when its array is fc's alone, else in a fresh one (the old
		// one may be shared, see putFastEnt), with room for a list that
		// grows.
		if fc.pnsOwn && n <= cap(fc.pns) {
			fc.pns = fc.pns[:n]
			clear(fc.pns[k:])
		} else {
			pns := make([]*phName, n, max(n, 2*len(fc.pns), minPns))
			copy(pns, fc.pns[:k])
			fc.pns, fc.pnsOwn = pns, true
		}
	}
	// The entry's processed form may share the old bytes: it is stale
	// (record) and recomputed before it is read again.
	e.holdSrc(fc, ent)
	fc.empty = append(fc.empty[:0], c.empty...)
	refs, self := ent.refs, ent.selfRef
	if !same {
		var ok bool
		if refs, self, ok = e.appendedRefs(ent, fc, oldN, k); !ok {
			refs, self = fc.refs(&e.names)
		}
	}
	kept := ent.slotsKept
	e.record(sc, fc.id, ent, refs, self)
	// (Slots appended to a list: processGrown looks up the new ones.)
	ent.slotsKept = kept && k == oldN
	return fc
}

// openResult is fastResult for a component still arriving, which its
// entry (ent, or a new one) then holds alone (owned) if it changed: a new
// one's bytes are in the open buffer if no other component holds it (see
// holdSrc).
func (e *progressiveEngine) openResult(sc *surfaceState, ent *compEntry) {
	c, x := &e.cs, e.cs.x()
	if ent != nil && ent.fast != nil && string(ent.fast.src) == string(c.out) {
		return
	}
	x.letGoOrphan()
	var fc *fastComp
	if x.holder == nil {
		x.open = append(x.open[:0], c.out...)
		fc = c.resultIn(&e.names, x.open)
	} else {
		fc = c.result(&e.names)
	}
	if !e.putFastEnt(sc, fc, ent) {
		return // (fc is dropped)
	}
	fc.owned = true
	if x.holder == nil {
		x.holder, x.holderEnt = fc, sc.comps[fc.id]
	}
}

// holdSrc sets fc.src and fc.slots, for fc the owned component of entry
// ent (see growFast), to the bytes and slots just read (e.cs): in the
// open buffers (compSide.open, openSlots) unless another component holds
// them (rare: a component inside a component), so that a component
// growing chunk by chunk does not regrow arrays of its own. disown gives
// it arrays of their size when it completes, and so does the end of the
// block (putScratch), when the buffers go to the pool.
func (e *progressiveEngine) holdSrc(fc *fastComp, ent *compEntry) {
	x := e.cs.x()
	x.letGoOrphan()
	c := &e.cs
	if x.holder != fc {
		if x.holder != nil {
			fc.src = append(fc.src[:0], c.out...)
			fc.slots = append(fc.slots[:0], c.slots...)
			return
		}
		x.holder, x.holderEnt = fc, ent
	}
	x.open = append(x.open[:0], c.out...)
	fc.src = x.open
	if n := len(c.slots); n <= len(fc.inline) {
		fc.slots = fc.inline[:n:n]
		copy(fc.slots, c.slots)
	} else {
		x.openSlots = append(x.openSlots[:0], c.slots...)
		fc.slots = x.openSlots
	}
}

// disown notes that fc, the component e.cs just read, completed: from now
// on it is shared with its message (see objectClosed), so it gets bytes
// of its own.
func (e *progressiveEngine) disown(fc *fastComp) {
	fc.owned = false
	if x := e.cs.side; x != nil && x.holder == fc {
		x.letGoTo(!e.keepIdle)
	}
}

// letGoOrphan lets the open buffers go when the component holding them
// is no longer its entry's (the entry took another: it is no one's).
func (x *compSide) letGoOrphan() {
	if x.holder != nil && x.holderEnt.fast != x.holder {
		x.letGo()
	}
}

// letGo copies the bytes and slots of the component holding the open
// buffers, if one does, to arrays of their size (and its entry's
// processed form when that shares them), and frees the buffers.
func (x *compSide) letGo() { x.letGoTo(false) }

// letGoTo is letGo, the bytes copied to the block's chunks (see carve)
// when toChunk.
func (x *compSide) letGoTo(toChunk bool) {
	fc, ent := x.holder, x.holderEnt
	if fc == nil {
		return
	}
	x.holder, x.holderEnt = nil, nil
	if len(fc.src) > 0 && unsafe.SliceData(fc.src) == unsafe.SliceData(x.open) {
		src := x.keep(fc.src, toChunk)
		if toChunk && len(src) <= maxCarve { // (in the chunk: see carve)
			x.chunks.carved = append(x.chunks.carved, fc)
		}
		if p := ent.pjson; ent.shared && len(p) > 0 && len(p) <= len(src) && unsafe.SliceData(p) == unsafe.SliceData(x.open) {
			// (A stale form keeps its length until it is processed again.)
			ent.pjson = src[:len(p)]
		}
		fc.src = src
	}
	if p := ent.pjson; !ent.shared && len(p) > 0 && unsafe.SliceData(p) == unsafe.SliceData(x.openP) {
		ent.pjson = x.keep(p, toChunk)
	}
	if len(fc.slots) > 0 && unsafe.SliceData(fc.slots) == unsafe.SliceData(x.openSlots) {
		fc.slots = ownCopy(fc.slots)
	}
}

// keep returns a copy of b: in the block's chunk when toChunk and it
// fits, else an array of its size.
func (x *compSide) keep(b []byte, toChunk bool) []byte {
	if toChunk {
		if c := x.carve(b); c != nil {
			return c
		}
	}
	return ownCopy(b)
}

// appendedRefs is fc.refs for a component whose child ids only grew at
// the end of one field (a list of children arriving): the entry's
// references followed by the new ids it does not hold yet. oldN is the
// number of slots the entry's references were read from, k how many of
// them fc still has. It reports false when the case does not apply.
func (e *progressiveEngine) appendedRefs(ent *compEntry, fc *fastComp, oldN, k int) ([]string, bool, bool) {
	if k != oldN || k == 0 || len(fc.slots) <= k || len(ent.refs) > 64 {
		return nil, false, false
	}
	f := fc.slots[0].field
	if f == cfComponentID {
		return nil, false, false // (not a reference)
	}
	for _, sl := range fc.slots[1:] {
		if sl.field != f {
			return nil, false, false
		}
	}
	// (Appended in place when there is room: record compares the old
	// references, which are a prefix of these, by their length.)
	refs, self := ent.refs, ent.selfRef
	for i := k; i < len(fc.slots); i++ {
		id := fc.slotID(i)
		if string(id) == fc.id {
			self = true
		}
		if !containsBytes(refs, id) {
			refs = append(refs, e.names.id(id))
		}
	}
	return refs, self, true
}

// healOpenComponent is healOpenAt for a component: healer.healComponent
// for the open object at stack index i (a child id cut by the stream is
// left out).
func (e *progressiveEngine) healOpenComponent(i int) ([]byte, bool) {
	return e.healOpenAt(i, true)
}

// healOpenAt is healer.heal for the open object at stack index i (with
// comp, healer.healComponent), using what the scanner knows (the open
// containers, the open string) instead of scanning the object's bytes
// again: the result is the same.
func (e *progressiveEngine) healOpenAt(i int, comp bool) ([]byte, bool) {
	s := &e.sc
	start := s.stack[i].start
	f := deltaengine.RStripSpace(s.buf[start:])
	if len(f) == 0 {
		return nil, false
	}
	out := append(e.heal.out[:0], f...)
	e.heal.cut = false
	real := len(out)
	if s.inStr {
		top := s.stack[len(s.stack)-1]
		switch {
		case comp && !s.strIsVal && top.open == '[' && top.start >= start && cutChildID(s.buf[start:top.start]):
			// (Bytes only strip and cut: the checkpoint rule of
			// entry_resume.go holds.)
			out = deltaengine.RStripSpace(out[:s.strStart-start])
			e.heal.cut, real = true, len(out)
		case !e.mayCutOpen(f, start):
			return nil, false
		default:
			out = append(out, '"')
		}
	}
	if n := len(out); n > 0 && out[n-1] == ',' {
		out = deltaengine.RStripSpace(out[:n-1])
		real = len(out)
	}
	for j := len(s.stack) - 1; j >= i; j-- {
		if s.stack[j].open == '{' {
			out = append(out, '}')
		} else {
			out = append(out, ']')
		}
	}
	e.heal.out, e.heal.real = out, real
	return out, true
}

// mayCutOpen is mayCutString for the open string of the scanner's buffer,
// f being its bytes from offset start, stripped, without reading the bytes
// before the string again where the grammar checked them: the scanner
// knows whether the string is a value (strIsVal: after a ':'), and its key
// (the last string closed, see keyFound), which keyBeforeColon finds too
// unless it is empty or holds a quote byte.
func (e *progressiveEngine) mayCutOpen(f []byte, start int) bool {
	s := &e.sc
	if !e.countLost {
		if !s.strIsVal {
			return true // (a key or an array element)
		}
		key := s.buf[s.lastStrA:s.lastStrB]
		if len(key) > 0 && bytes.IndexByte(key, '"') < 0 && string(key) != "valueString" {
			return s.valKeyCut // (deltaengine.CuttableKey(key))
		}
	}
	return mayCutString(f, s.strStart-start)
}

// danglingKey reports whether the buffered text ends with an object key
// (whole or cut) or a key and its colon, with no value yet: healed, it is
// not valid JSON.
func (s *progScan) danglingKey() bool {
	if len(s.stack) == 0 || s.stack[len(s.stack)-1].open != '{' {
		return false
	}
	if s.inStr {
		return !s.strIsVal
	}
	return s.prevColon || (s.afterStr && !s.strIsVal)
}

// minPns is the least capacity growFast gives a component's lookups of
// placeholders when it moves them to an array of their own (they are
// dropped at the block's end, see compEntry.compact).
const minPns = 4
