package parser

import (
	"hash/maphash"
	"strings"
	"unsafe"
)

// The compact form of a surface between blocks. Once a block ended, a
// surface the block used (see state) is frozen when it is at rest (see
// freeze): its components, arrival order, reachable list and targets
// are moved into one byte arena (each component's bytes, its processed
// form when that differs, the ids of targets no component has) and small
// fixed-size records holding offsets into it, and the entries, byte-level
// components, maps and lists are dropped. A later block that touches the
// surface (state, the one way to a surface's components) thaws it first:
// the full form is built again from the records, with the same values (ids
// and bytes are read in place from the arena, which is never written once
// built), so nothing output depends on whether a surface was frozen
// (TestReleaseKeepsOutput and its random and fuzz variants compare with a
// parser that releases nothing). What a frozen surface holds is its bytes
// and about 100 bytes per component, instead of about 500.

// frozenSurface is the compact form of a surface's components.
type frozenSurface struct {
	arena []byte       // the components' bytes, then other ids
	comps []frozenComp // in arrival order (surfaceState.order)
	// The components' child slots, references, empty lists and processed
	// forms (those not shared with their bytes, see fzPjson), in the
	// order of comps, each taking as many as its record says.
	slots   []childSlot
	refs    []span
	empties []emptyList
	pjsons  []span
	tgts    []frozenTarget
	sorted  []int32 // surfaceState.sorted, as indexes into comps
}

// span is a range of the arena.
type span struct{ a, b uint32 }

// frozenComp is a component of a frozen surface: its entry's fields and
// its byte-level component's, with ranges of the arena and counts of the
// surface's lists.
type frozenComp struct {
	src, id       span
	yHash         uint64 // (its hash, of its processed form, is computed again)
	slotsN, refsN uint32
	depth         int32
	gen           uint32
	phsYieldedN   int32
	valid         int8
	nEmpty        uint8
	flags         uint16
}

// frozenTarget is a target of a frozen surface (with no waiters).
type frozenTarget struct {
	id             span
	inbound, depth int32
}

// Flags of frozenComp.
const (
	fzShared = 1 << iota
	fzPjson  // a processed form in pjsons (neither shared nor nil)
	fzSelfRef
	fzReach
	fzStale
	fzUsesBuf
	fzReprocessed
	fzYOK
	fzEmptyObj
	fzRewrote
	fzNested
	fzRefsSlots // its references are its slots' ids, in order (none in refs)
)

// maxFrozenComps bounds the components of a surface that is frozen: a
// block that touches a frozen surface pays for thawing it and freezing it
// again at its end, whatever it changed, so a larger surface stays in its
// full form (its bookkeeping is then small beside its bytes anyway).
const maxFrozenComps = 256

// freezeScratch is what freeze collects before it builds the compact form,
// kept by the engine from one freeze to the next.
type freezeScratch struct {
	ents []*compEntry // the components, in arrival order
	tgts []tgtRef     // the targets, by index
}

// tgtRef is a target's id and its component, if it arrived.
type tgtRef struct {
	id  string
	ent *compEntry
}

// atRest reports whether s may be frozen as far as its own fields tell:
// nothing pending for the next yield, no component waiting (no woken
// ones, no waits on the buffer) and no more than maxFrozenComps
// components. freeze checks the components and targets (restComp).
func (s *surfaceState) atRest() bool {
	return s.id != "" && len(s.comps) <= maxFrozenComps && !s.deferred && len(s.dirtyList) == 0 &&
		len(s.unsentList) == 0 && s.wokenN == 0 && len(s.woken) == 0 && len(s.bufDeps) == 0 &&
		len(s.phUnsent) == 0 && len(s.order) == len(s.comps) && len(s.comps) > 0 && len(s.tidx) == len(s.tgts)
}

// restComp reports whether a component is at rest: read at byte level,
// with no placeholders, waits or pending change, and no v0.8 paths to
// normalise (the compact form does not keep the edits).
func restComp(ent *compEntry) bool {
	fc := ent.fast
	return fc != nil && ent.phs == nil && ent.lists == nil && ent.woken == 0 &&
		!ent.isDirty && !ent.isUnsent && !ent.listed && fc.pns == nil &&
		len(ent.refs) <= len(fc.slots) && len(fc.src) <= 1<<30 && len(fc.empty) <= 255 && (fc.more == nil || (fc.more.edits == nil && !fc.more.catRefs))
}

// freeze moves s's components into their compact form when s is at rest
// (atRest, every component restComp, no target with waiters); it reports
// whether it did. sc is scratch space, emptied before it returns.
func (s *surfaceState) freeze(sc *freezeScratch) bool {
	if s.frozen != nil || !s.atRest() {
		return false
	}
	defer func() {
		clear(sc.ents)
		clear(sc.tgts)
		sc.ents, sc.tgts = sc.ents[:0], sc.tgts[:0]
	}()
	n, size, nSlots, nRefs := len(s.order), 0, 0, 0
	var slotRefs [maxFrozenComps / 64]uint64 // the components whose references are their slots' ids
	ents := sc.ents[:0]
	for i, id := range s.order {
		ent := s.comps[id]
		if ent == nil || !restComp(ent) {
			sc.ents = ents
			return false
		}
		ents = append(ents, ent)
		size += len(ent.fast.src)
		if !ent.shared {
			size += len(ent.pjson)
		}
		nSlots += len(ent.fast.slots)
		if refsAreSlots(ent.refs, ent.fast) {
			slotRefs[i/64] |= 1 << (i % 64)
		} else {
			nRefs += len(ent.refs)
		}
	}
	sc.ents = ents
	for i := range s.tgts {
		if s.tgts[i].waiters != nil {
			return false
		}
	}
	tgts := append(sc.tgts[:0], make([]tgtRef, len(s.tgts))...)
	sc.tgts = tgts
	// The targets that are components, by the components' ids; the others
	// (rare at rest) by a walk of the targets.
	found := 0
	for _, ent := range ents {
		if i, ok := s.tidx[ent.id]; ok {
			tgts[i] = tgtRef{id: ent.id, ent: ent}
			found++
		}
	}
	if found < len(tgts) {
		for id, i := range s.tidx {
			if tgts[i].ent == nil {
				tgts[i].id = id
				size += len(id)
			}
		}
	}
	if int64(size) > 1<<31 {
		return false
	}
	f := &frozenSurface{
		arena: make([]byte, 0, size),
		comps: make([]frozenComp, n),
		slots: make([]childSlot, 0, nSlots),
		refs:  make([]span, 0, nRefs),
	}
	for i, ent := range ents {
		fc := ent.fast
		c := &f.comps[i]
		at := uint32(len(f.arena))
		f.arena = append(f.arena, fc.src...)
		c.src = span{at, uint32(len(f.arena))}
		c.id = c.src
		if k := strings.Index(unsafe.String(unsafe.SliceData(fc.src), len(fc.src)), ent.id); k >= 0 {
			c.id = span{at + uint32(k), at + uint32(k+len(ent.id))}
		} else {
			c.id = span{uint32(len(f.arena)), 0}
			f.arena = append(f.arena, ent.id...)
			c.id.b = uint32(len(f.arena))
		}
		switch {
		case ent.shared:
			c.flags |= fzShared
		case ent.pjson != nil:
			c.flags |= fzPjson
			pj := span{a: uint32(len(f.arena))}
			f.arena = append(f.arena, ent.pjson...)
			pj.b = uint32(len(f.arena))
			f.pjsons = append(f.pjsons, pj)
		}
		c.slotsN = uint32(len(fc.slots))
		f.slots = append(f.slots, fc.slots...)
		c.refsN = uint32(len(ent.refs))
		if slotRefs[i/64]&(1<<(i%64)) != 0 {
			c.flags |= fzRefsSlots
		} else {
			k := 0 // the slot after the last found: references follow the slots' order
			for _, r := range ent.refs {
				var sp span
				sp, k = f.find(c, fc, r, k)
				f.refs = append(f.refs, sp)
			}
		}
		c.yHash = ent.yHash
		c.depth, c.gen, c.phsYieldedN = ent.depth, ent.gen, ent.phsYieldedN
		c.nEmpty, c.valid = uint8(len(fc.empty)), ent.valid
		f.empties = append(f.empties, fc.empty...)
		for _, b := range [...]struct {
			on   bool
			flag uint16
		}{
			{ent.selfRef, fzSelfRef}, {ent.reach, fzReach}, {ent.stale, fzStale},
			{ent.usesBuf, fzUsesBuf}, {ent.reprocessed, fzReprocessed}, {ent.yOK, fzYOK},
			{fc.emptyObj, fzEmptyObj}, {fc.rewrote, fzRewrote}, {fc.nested, fzNested},
		} {
			if b.on {
				c.flags |= b.flag
			}
		}
		// The entry is dropped with the surface's table: its woken count
		// (0, see restComp) holds its index while sorted is recorded.
		ent.woken = int32(i)
	}
	if len(s.sorted) > 0 {
		f.sorted = make([]int32, len(s.sorted))
		for i, ent := range s.sorted {
			f.sorted[i] = ent.woken
		}
	}
	f.tgts = make([]frozenTarget, len(s.tgts))
	for i, r := range tgts {
		t := &f.tgts[i]
		t.inbound, t.depth = s.tgts[i].inbound, s.tgts[i].depth
		if r.ent != nil {
			t.id = f.comps[r.ent.woken].id
		} else {
			t.id.a = uint32(len(f.arena))
			f.arena = append(f.arena, r.id...)
			t.id.b = uint32(len(f.arena))
		}
	}
	// A component held elsewhere too (a v0.8 message held until
	// beginRendering) reads its bytes in the arena from now on.
	for i, ent := range ents {
		ent.fast.src = f.bytes(f.comps[i].src)
	}
	s.frozen = f
	s.comps, s.order, s.sorted, s.tidx, s.tgts = nil, nil, nil, nil, nil
	s.woken, s.bufDeps, s.phUnsent = nil, nil, nil
	s.dirtyList, s.unsentList = nil, nil
	return true
}

// refsAreSlots reports whether refs are the ids of fc's slots, in order
// (none with escapes): the common case, kept as a flag (fzRefsSlots).
func refsAreSlots(refs []string, fc *fastComp) bool {
	if len(refs) != len(fc.slots) {
		return false
	}
	for i, r := range refs {
		if sl := fc.slots[i]; sl.esc || string(fc.src[sl.a:sl.b]) != r {
			return false
		}
	}
	return true
}

// find returns the range of the arena that holds reference r of the
// component c (one of its child ids, or its own id), looking at the slots
// from k on, then before k, and the slot after the one found (k when none
// is). The references of a component follow the order of its slots, so
// that the lookups of all of them are linear in its slots.
func (f *frozenSurface) find(c *frozenComp, fc *fastComp, r string, k int) (span, int) {
	n := len(fc.slots)
	for j := range n {
		i := (k + j) % n
		if sl := fc.slots[i]; !sl.esc && string(fc.slotID(i)) == r {
			return span{c.src.a + uint32(sl.a), c.src.a + uint32(sl.b)}, i + 1
		}
	}
	at := uint32(len(f.arena))
	f.arena = append(f.arena, r...)
	return span{at, uint32(len(f.arena))}, k
}

// str returns the arena's range sp as a string, in place.
func (f *frozenSurface) str(sp span) string {
	if sp.b <= sp.a {
		return ""
	}
	return unsafe.String(&f.arena[sp.a], int(sp.b-sp.a))
}

// bytes returns the arena's range sp, in place, with no spare capacity.
func (f *frozenSurface) bytes(sp span) []byte {
	return f.arena[sp.a:sp.b:sp.b]
}

// thaw builds s's full form again from its compact form.
func (s *surfaceState) thaw() {
	f := s.frozen
	if f == nil {
		return
	}
	s.frozen = nil
	n := len(f.comps)
	ents := make([]compEntry, n)
	fcs := make([]fastComp, n)
	nRefs := 0
	for i := range f.comps {
		nRefs += int(f.comps[i].refsN)
	}
	refs := make([]string, 0, nRefs)
	fRefs := f.refs
	s.comps = make(map[string]*compEntry, n)
	s.order = make([]string, n)
	slots, empties, pjsons := f.slots, f.empties, f.pjsons
	for i := range f.comps {
		c := &f.comps[i]
		ent, fc := &ents[i], &fcs[i]
		id := f.str(c.id)
		fc.id, fc.src = id, f.bytes(c.src)
		if c.slotsN > 0 {
			fc.slots, slots = slots[:c.slotsN:c.slotsN], slots[c.slotsN:]
		}
		if c.nEmpty > 0 {
			fc.empty, empties = append([]emptyList(nil), empties[:c.nEmpty]...), empties[c.nEmpty:]
		}
		fc.emptyObj, fc.rewrote = c.flags&fzEmptyObj != 0, c.flags&fzRewrote != 0
		fc.nested = c.flags&fzNested != 0 // (its orders are read again when needed, see walkOrder)
		fc.decodeIDs()
		ent.id, ent.fast = id, fc
		if c.refsN > 0 {
			at := len(refs)
			if c.flags&fzRefsSlots != 0 {
				for _, sl := range fc.slots {
					refs = append(refs, f.str(span{c.src.a + uint32(sl.a), c.src.a + uint32(sl.b)}))
				}
			} else {
				for _, r := range fRefs[:c.refsN] {
					refs = append(refs, f.str(r))
				}
				fRefs = fRefs[c.refsN:]
			}
			ent.refs = refs[at:len(refs):len(refs)]
		}
		switch {
		case c.flags&fzShared != 0:
			ent.pjson, ent.shared = fc.src, true
		case c.flags&fzPjson != 0:
			ent.pjson, pjsons = f.bytes(pjsons[0]), pjsons[1:]
		}
		ent.hash, ent.yHash = maphash.Bytes(hashSeed, ent.pjson), c.yHash
		ent.depth, ent.gen, ent.phsYieldedN, ent.valid = c.depth, c.gen, c.phsYieldedN, c.valid
		ent.selfRef = c.flags&fzSelfRef != 0
		ent.reach = c.flags&fzReach != 0
		ent.stale = c.flags&fzStale != 0
		ent.usesBuf = c.flags&fzUsesBuf != 0
		ent.reprocessed = c.flags&fzReprocessed != 0
		ent.yOK = c.flags&fzYOK != 0
		s.comps[id] = ent
		s.order[i] = id
	}
	s.sorted = make([]*compEntry, len(f.sorted))
	for i, k := range f.sorted {
		s.sorted[i] = &ents[k]
	}
	s.tidx = make(map[string]int32, len(f.tgts))
	s.tgts = make([]target, len(f.tgts))
	for i, t := range f.tgts {
		s.tgts[i] = target{inbound: t.inbound, depth: t.depth}
		s.tidx[f.str(t.id)] = int32(i)
	}
	// (woken and bufDeps are made when first written to.)
}
