package parser

import (
	"strings"
	"sync"
)

// Releasing what a block held. A stream's parser lives as long as its
// session, mostly idle between blocks. What a block needed only while it
// arrived (the buffered message, scratch lists and maps, the data model
// reader's entries, the delta reduction's record of the data message, the
// borrowed output block) is dropped, or emptied when small, once the block
// ended and the call that ended it finished (feedEnd), rather than kept at
// its largest size for the next block. So are the caches of names and
// placeholders (mostly placeholders of children that arrived since), and
// what the components processed in the block kept only while they, or
// their children, arrived (compEntry.compact, surfaceState.compact). What
// the protocol needs across blocks stays: the surfaces and their
// components, roots, versions, deletions and the records of yielded data
// (bounded as before, see limits.go).
//
// Nothing dropped here changes an output: the scanner's message generation
// (msgGen) grows at every block end, so every cache keyed by it (the
// healer's last cut, the component scanner's checkpoint, the data model
// reader, the delta record of the current data message) could not be hit
// again anyway; the other caches fill again with the same values, and
// what the components drop is rebuilt from what they keep when they are
// processed again (TestReleaseKeepsOutput compares with a parser that
// releases nothing).

// keepScratch is the capacity (in elements) up to which a scratch list is
// kept from one block to the next: small enough that an idle stream holds
// little, large enough that a block of the usual size does not grow its
// lists again.
const keepScratch = 512

// shrink empties a scratch list, or drops it when it is larger than max
// elements.
func shrink[T any](s []T, max int) []T {
	if cap(s) > max {
		return nil
	}
	clear(s[:cap(s)])
	return s[:0]
}

// dropLarge empties a scratch list, or drops it when it is larger than max
// elements: a list a large message grew, not kept from one sniff to the
// next (see TestLargeDataBlockHeap).
func dropLarge[T any](s []T, max int) []T {
	if cap(s) > max {
		return nil
	}
	return s[:0]
}

// blockDone notes that a block ended (or failed): its state is released at
// the end of the call, unless another block is open by then.
func (e *progressiveEngine) blockDone() {
	e.inBlock = false
	e.release = true
}

// releaseIdle releases the state of the blocks ended in this call when no
// block is open. It runs at the end of the call (feedEnd), after the
// call's parts were finished.
func (e *progressiveEngine) releaseIdle(out *emitter) {
	if !e.release || e.inBlock || e.keepIdle {
		return
	}
	e.release = false

	// The scanner's buffer and stack, and the decoded objects of the
	// message (the next block starts with a new message generation).
	e.sc.releaseBuf()
	e.sc.stack, e.sc.compLow = shrink(e.sc.stack, 64), 0
	e.sc.releaseKnown()
	// The grammar's copy of a message that spanned segments.
	e.val.buf = shrink(e.val.buf, 4*keepScratch)

	// Byte-level readers' scratch, and their checkpoints (of a message
	// generation that does not come back).
	e.heal.stack = shrink(e.heal.stack, keepScratch)
	e.heal.pos = shrink(e.heal.pos, keepScratch)
	e.heal.out = shrink(e.heal.out, 4*keepScratch)
	e.heal.last = lastCut{out: shrink(e.heal.last.out, 4*keepScratch)}
	e.cs.out = shrink(e.cs.out, 4*keepScratch)
	e.cs.slots = shrink(e.cs.slots, keepScratch)
	e.cs.keys = shrink(e.cs.keys, keepScratch)
	e.releaseReader()

	if e.dstate != nil {
		e.dstate.release()
	}

	// The caches of names and placeholder encodings, and what the
	// components processed in the block keep only while they arrive.
	e.releaseNames()
	// The surfaces used, in their compact form.
	e.freezeUsed()

	// Scratch maps and lists.
	e.phSeen, e.suSeen, e.famWaiting = nil, nil, nil
	e.closing = closingEnc{epoch: e.closing.epoch} // (the wrappers' numbering goes on)
	e.releaseCatScratch()
	e.phsOld = shrink(e.phsOld, keepScratch)
	e.missScratch = shrink(e.missScratch, keepScratch)
	e.deltaEnts = shrink(e.deltaEnts, keepScratch)
	e.deltaPhs = shrink(e.deltaPhs, keepScratch)
	e.deltaPhJS = shrink(e.deltaPhJS, keepScratch)
	e.suSnaps = shrink(e.suSnaps, keepScratch)
	// The chunk of first registrations of missing children: the
	// registrations still in it keep it, the next block takes a new one.
	e.waitPool = nil
	out.store.release()
	// The emptied scratch lists, to the pool.
	e.putScratch()
}

// use notes that a block uses s, which is thawed first if frozen.
func (e *progressiveEngine) use(s *surfaceState) {
	if s.frozen != nil {
		e.frozenWork += len(s.frozen.comps)
		s.thaw()
		e.thaws++
	}
	if !s.inUse {
		s.inUse = true
		e.inUse = append(e.inUse, s)
	}
}

// freezeUsed freezes the surfaces used since the last release, those at
// rest (see freeze).
func (e *progressiveEngine) freezeUsed() {
	var ch *carveChunks // (see carve)
	if x := e.cs.side; x != nil && x.chunks.used() {
		ch = &x.chunks
	}
	for i, s := range e.inUse {
		s.inUse = false
		if t := tablesOf(s); s.freeze(&e.freezeSc) {
			e.spareTables(t)
			e.spareEntries(s)
			e.freezes++
			e.frozenWork += len(s.frozen.comps)
		} else {
			s.order, s.tgts = clip(s.order), clip(s.tgts) // (a frozen surface drops them)
			s.fitTables()
			e.letGoEntries(s)
			if ch != nil {
				for _, ent := range s.comps {
					ch.settleEntry(ent)
				}
			}
		}
		e.inUse[i] = nil
	}
	if ch != nil {
		ch.settleChunks()
	}
	e.inUse = shrink(e.inUse, keepScratch)
	e.cur, e.curID = nil, ""
}

// releaseNames drops the caches of interned ids, placeholders and their
// encodings (names): most of what they hold is the
// placeholders of children that arrived since, which no component uses
// any more. The placeholders the components still use stay (they hold
// their encodings), and the caches fill again as the next block needs
// them, with the same values. The components' lookups of placeholders
// (fastComp.pns) are dropped with them: the placeholders of one
// component's slots must come from one cache (processFast tells repeated
// children apart by their placeholder's identity), and the next block
// reuses the records (see nameChunks). Every such lookup was made while
// processing its entry, so since the last release: the entry is in
// e.processed; an earlier form of it that a held v0.8 message keeps
// shares its lookups, dropped too (dropPendingLookups).
func (e *progressiveEngine) releaseNames() {
	for i, ent := range e.processed {
		ent.compact()
		e.processed[i] = nil
	}
	e.processed = shrink(e.processed, keepScratch)
	e.dropPendingLookups()
	// (No component holds a placeholder's record now: the next block
	// reuses them, see nameChunks.)
	e.names.release()
	for i, s := range e.processedIn {
		if e.scratch != nil && len(s.comps) > 0 {
			e.scratch.comps = len(s.comps)
		}
		e.sparePhMap(s.compact())
		e.processedIn[i] = nil
	}
	e.processedIn = shrink(e.processedIn, keepScratch)
}

// dropPendingLookups drops the lookups of placeholders (fastComp.pns) of
// the byte-level components of the v0.8 messages held until their
// surface's beginRendering: an earlier form of a component, replaced in
// its entry, may be held there and put back later (see putFastEnt), and
// must look its placeholders up again then (the records are reused).
func (e *progressiveEngine) dropPendingLookups() {
	for _, list := range e.pending {
		for _, m := range list {
			su, _ := m[kSurfaceUpdate].(map[string]any)
			comps, _ := su["components"].([]any)
			for _, c := range comps {
				if fc, ok := c.(*fastComp); ok {
					fc.pns = nil
				}
			}
		}
	}
}

// compact drops what a surface keeps only while its components arrive:
// its scratch lists (empty between yields), the spare capacity of its
// lists (arrival order, targets: freezeUsed's, for a surface in use) and
// the placeholders yielded of children that arrived since. A component
// never leaves its surface's table, so once every component that used
// such a placeholder was processed again (none that names it is woken),
// no component uses it, nor can again:
// whether it was yielded is never asked again (phWasYielded). The one
// exception is a placeholder that also reads as another:
// "loading_children_<id>", which is also component <id>'s placeholder for
// an empty list still open, and is always kept (<id> may arrive in any
// later block). It returns the record of yielded placeholders it replaced.
func (s *surfaceState) compact() map[string]struct{} {
	s.listed = false
	if len(s.dirtyList) == 0 {
		s.dirtyList = nil
	}
	if len(s.unsentList) == 0 {
		s.unsentList = nil
	}
	// The snapshot's placeholders, built again when needed.
	s.phPart, s.phBuf, s.phPartV = nil, nil, 0
	if !s.inUse { // (else freezeUsed clips them if it does not freeze s)
		s.order, s.tgts = clip(s.order), clip(s.tgts)
	}
	// A woken component (one whose children arrived since it was
	// processed: a large one waiting for more, or one no longer reachable)
	// may still name the placeholders of arrived children: those stay.
	var wokenPhs map[string]struct{}
	if s.wokenN > 0 {
		wokenPhs = make(map[string]struct{})
		for _, ent := range s.comps {
			if ent.woken > 0 {
				for _, ph := range ent.phs {
					wokenPhs[ph] = struct{}{}
				}
			}
		}
	}
	// (A map does not shrink: the placeholders kept move to a new one.)
	var kept map[string]struct{}
	for ph := range s.phYielded {
		if _, named := wokenPhs[ph]; !named && !s.phUsable(ph) {
			continue
		}
		if kept == nil {
			kept = make(map[string]struct{})
		}
		kept[strings.Clone(ph)] = struct{}{} // (not the placeholder's encoding it may be part of)
	}
	old := s.phYielded
	s.phYielded = kept
	return old
}

// phUsable reports whether a component of s may still use placeholder ph.
func (s *surfaceState) phUsable(ph string) bool {
	id, ok := strings.CutPrefix(ph, "loading_")
	if !ok {
		return true
	}
	if _, arrived := s.comps[id]; !arrived {
		return true
	}
	// loading_children_<of> is also the placeholder of component <of>'s
	// empty list while it is open, and <of> may come in any later block.
	return strings.HasPrefix(id, "children_")
}

// ownCopy returns a copy of s in an array of exactly its length: what
// the engine keeps holds no spare capacity (bytes.Clone and slices.Clone
// may round it up).
func ownCopy[T any](s []T) []T {
	return append(make([]T, 0, len(s)), s...)
}

// clip returns s, copied to a smaller array when it wastes more than a
// quarter of its capacity.
func clip[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	if cap(s)-len(s) <= cap(s)/4 {
		return s
	}
	return ownCopy(s)
}

// compact drops what a component keeps only while it, or its children,
// arrive: its lists of placeholders and waits when empty (kept at their
// largest capacity for the next processing, see process), the spare
// buffer of its waits and its lookups of placeholders.
func (ent *compEntry) compact() {
	ent.listed = false
	if fc := ent.fast; fc != nil {
		fc.pns = nil
		// The bytes of a component that grew as it arrived (growFast)
		// have the spare capacity of their last growth.
		if n := len(fc.src); cap(fc.src)-n > n/8+16 {
			src := ownCopy(fc.src)
			if ent.shared {
				ent.pjson = src
			}
			fc.src = src
		}
	}
	l := ent.lists
	if l == nil {
		return
	}
	if len(ent.phs) == 0 && len(l.waits) == 0 {
		ent.phs, ent.lists = nil, nil
		return
	}
	l.waitsSpare = nil
	if len(l.arrived) == 0 {
		l.arrived = nil
	}
	if len(l.waits) == 0 {
		l.waits, l.waitN = nil, nil
	}
}

// releaseReader drops the data model reader: it is made again when a
// block needs it, with the data ids it gave (a reader kept between blocks,
// emptied, held its lists and about 1 KB per idle stream).
func (e *progressiveEngine) releaseReader() {
	for _, r := range e.nested {
		r.unlinkAll(0, true)
	}
	e.nested = nil
	if r := e.data; r != nil {
		r.unlinkAll(0, true)
		e.dataIDs = r.ids
		e.data = nil
		*r = dataReader{} // (nothing links to it any more: to the pool)
		readerPool.Put(r)
	}
}

// readerPool holds emptied data model readers (a reader is large: one
// allocated per block was 2% of a corpus parse's bytes).
var readerPool = sync.Pool{New: func() any { return new(dataReader) }}

// reader is the data model reader, taken from readerPool when a block
// first needs it.
func (e *progressiveEngine) reader() *dataReader {
	if e.data == nil {
		e.data = readerPool.Get().(*dataReader)
		e.data.ids = e.dataIDs
	}
	return e.data
}
