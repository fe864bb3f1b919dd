package parser

import "sync"

// The scratch lists of a block. Emptied at a block's end (releaseIdle),
// they would stay with the idle stream, about 2 KB of it after a turn of
// the usual size: they go to a package pool instead, and the next block of
// any stream takes a set from it (blockStart). Only lists that hold
// nothing between blocks and that nothing else aliases are pooled: the
// lists of components and surfaces processed and used, a component's old
// placeholders, the component scanner's output, slots, keys, value frames
// (its own and its checkpoint's) and side state (compSide), the healer's
// output and its copy of the last cut (every reader copies what it keeps
// of those), and what freeze collects; and the maps and holder of chunks
// of the caches of names (idNames), emptied. Two kinds of garbage go the
// same way for reuse: the lists of a component whose children all arrived
// (dropEmptyLists), within a block and beyond, and a surface's record of
// yielded placeholders that its compaction at a block's end replaced
// (sparePhMap).

// blockScratch is one set of pooled scratch lists.
type blockScratch struct {
	processed          []*compEntry
	processedIn, inUse []*surfaceState
	phsOld             []string
	csOut, healOut     []byte
	healLast           []byte
	csSlots            []childSlot
	csKeys             []keySpan
	csVs, csMarkVs     []vframe
	freezeEnts         []*compEntry
	freezeTgts         []tgtRef
	csSide             *compSide
	names              idNames
	// comps: the components of the last surface processed, the size of
	// the tables of the next new one (see presize).
	comps  int
	lists  []spareLists          // emptied lists of components (see dropEmptyLists)
	phMaps []map[string]struct{} // emptied records of yielded placeholders (see takePhMap)
	tables []surfaceTables       // emptied tables of frozen surfaces (see spareTables)
	// entSpare: emptied chunks of entries of frozen surfaces, entSpareN
	// entries in all, and entHolder an emptied holder of chunks (see
	// spareEntries).
	entSpare  [][]compEntry
	entSpareN int
	entHolder *entChunks
}

var scratchPool = sync.Pool{New: func() any { return new(blockScratch) }}

// takeScratch gives the engine a set of scratch lists from the pool, for
// the lists it has none of.
func (e *progressiveEngine) takeScratch() {
	if e.scratch != nil {
		return
	}
	e.scratch = scratchPool.Get().(*blockScratch)
	e.moveScratch(e.scratch, true)
}

// putScratch returns the engine's scratch lists, emptied (see
// releaseIdle), to the pool.
func (e *progressiveEngine) putScratch() {
	b := e.scratch
	if b == nil {
		b = new(blockScratch)
	}
	e.scratch = nil
	e.moveScratch(b, false)
	scratchPool.Put(b)
}

// moveScratch moves each scratch list between the engine and the pooled
// set b: to the engine (take) when it has no array, else to b, keeping
// the larger of the two. The lists are named once, here.
func (e *progressiveEngine) moveScratch(b *blockScratch, take bool) {
	moveList(&e.processed, &b.processed, take)
	moveList(&e.processedIn, &b.processedIn, take)
	moveList(&e.inUse, &b.inUse, take)
	moveList(&e.phsOld, &b.phsOld, take)
	moveList(&e.cs.out, &b.csOut, take)
	moveList(&e.heal.out, &b.healOut, take)
	moveList(&e.heal.last.out, &b.healLast, take)
	moveList(&e.cs.slots, &b.csSlots, take)
	moveList(&e.cs.keys, &b.csKeys, take)
	moveList(&e.cs.vs, &b.csVs, take)
	moveList(&e.cs.mk.vs, &b.csMarkVs, take) // (the checkpoint's generation does not come back)
	moveList(&e.freezeSc.ents, &b.freezeEnts, take)
	moveList(&e.freezeSc.tgts, &b.freezeTgts, take)
	// The caches of names, emptied (see idNames.release): the engine's
	// own, if it made some outside a block, are kept. And the reader's
	// side state, its open buffers let go first.
	if take {
		if e.names.ids == nil && e.names.phs == nil && e.names.ch == nil {
			e.names = b.names
		}
		b.names = idNames{}
		if e.cs.side == nil && b.csSide != nil {
			e.cs.side = b.csSide
			e.cs.side.reset()
		}
		b.csSide = nil
	} else {
		b.names, e.names = e.names, idNames{}
		if e.cs.side != nil {
			e.cs.side.letGo() // (before the buffer goes to the pool)
		}
		if b.csSide == nil {
			b.csSide = e.cs.side
		}
		e.cs.side = nil
	}
}

// moveList moves one scratch list: the pooled *pooled into *own when take
// and *own has no array, the emptied *own into *pooled when not take and
// it is the larger; the side it leaves is set to nil.
func moveList[T any](own, pooled *[]T, take bool) {
	if take {
		if cap(*own) == 0 {
			*own = (*pooled)[:0]
		}
		*pooled = nil
		return
	}
	if cap(*own) > cap(*pooled) {
		*pooled = (*own)[:0]
	}
	*own = nil
}

// spareLists are a component's lists and placeholders, emptied, kept for
// reuse with their arrays (see dropEmptyLists).
type spareLists struct {
	l   *compLists
	phs []string
}

// maxSpareLists bounds the emptied lists a block keeps for reuse, and
// maxSpareCap the capacity of each list kept with them (elements; bytes
// for the placeholders' part), so that a component that takes them and
// still waits at the block's end holds little more than one that grew
// its own.
const (
	maxSpareLists = 8
	maxSpareCap   = 32
)

// takeLists returns empty lists for ent: emptied ones the block keeps
// (see dropEmptyLists), else new ones. ent has no lists; a placeholder
// list without an array takes the spare one.
func (e *progressiveEngine) takeLists(ent *compEntry) *compLists {
	if b := e.scratch; b != nil && len(b.lists) > 0 {
		sp := b.lists[len(b.lists)-1]
		b.lists[len(b.lists)-1] = spareLists{}
		b.lists = b.lists[:len(b.lists)-1]
		if cap(ent.phs) == 0 {
			ent.phs = sp.phs
		}
		return sp.l
	}
	return &compLists{}
}

// dropEmptyLists drops ent's lists once they hold nothing (no
// placeholder, wait or arrival: every child arrived), as compact would at
// the block's end, and keeps them, emptied, for the block's next
// component that needs some. Nothing but ent refers to its lists'
// arrays: the snapshot's placeholders, made of the part (phCat), were
// copied into the output, and the surface's placeholder version moved
// when ent's placeholders left (so its cached part is rebuilt). A parser
// that keeps its blocks' state (keepIdle, the tests' reference) keeps
// them on ent, as compact would.
func (e *progressiveEngine) dropEmptyLists(ent *compEntry) {
	l := ent.lists
	if l == nil || len(ent.phs) > 0 || len(l.waits) > 0 || len(l.arrived) > 0 || ent.woken > 0 || e.keepIdle {
		return
	}
	phs := ent.phs
	ent.phs, ent.lists = nil, nil
	b := e.scratch
	if b == nil || len(b.lists) >= maxSpareLists {
		return
	}
	*l = compLists{
		phJS: spare(l.phJS, maxSpareCap), waits: spare(l.waits, maxSpareCap), waitsSpare: spare(l.waitsSpare, maxSpareCap),
		waitN: spare(l.waitN, maxSpareCap), arrived: spare(l.arrived, maxSpareCap), phCat: spare(l.phCat, maxSpareCap*64),
	}
	b.lists = append(b.lists, spareLists{l: l, phs: spare(phs, maxSpareCap)})
}

// spare returns list emptied, its array cleared, or nil when its capacity
// is above max.
func spare[T any](list []T, max int) []T {
	if cap(list) > max {
		return nil
	}
	list = list[:cap(list)]
	clear(list)
	return list[:0]
}

// maxSpareMaps bounds the emptied records of yielded placeholders a block
// keeps, and maxSpareMapLen the size of each (a map keeps the capacity of
// its largest size).
const (
	maxSpareMaps   = 4
	maxSpareMapLen = 128
)

// takePhMap returns an empty record of yielded placeholders for a
// surface: one a block's end emptied (sparePhMap), else a new one. (Sized
// for a few dozen: growing it from empty cost more than the inserts;
// surfaceState.compact moves what stays to a map of its size at the
// block's end.)
func (e *progressiveEngine) takePhMap() map[string]struct{} {
	if b := e.scratch; b != nil && len(b.phMaps) > 0 {
		m := b.phMaps[len(b.phMaps)-1]
		b.phMaps[len(b.phMaps)-1] = nil
		b.phMaps = b.phMaps[:len(b.phMaps)-1]
		return m
	}
	return make(map[string]struct{}, 32)
}

// sparePhMap keeps m, a surface's record of yielded placeholders that
// surfaceState.compact replaced (nothing else refers to it), emptied, for
// the next block's takePhMap.
func (e *progressiveEngine) sparePhMap(m map[string]struct{}) {
	b := e.scratch
	if m == nil || b == nil || len(b.phMaps) >= maxSpareMaps || len(m) > maxSpareMapLen {
		return
	}
	clear(m)
	b.phMaps = append(b.phMaps, m)
}

// surfaceTables are the tables and lists of a surface's full form that
// its freezing drops (see presize).
type surfaceTables struct {
	comps  map[string]*compEntry
	tidx   map[string]int32
	order  []string
	tgts   []target
	sorted []*compEntry
	// comps and targets held before they were emptied
	nComps, nTgts int
}

// tablesOf returns s's tables.
func tablesOf(s *surfaceState) surfaceTables {
	return surfaceTables{comps: s.comps, tidx: s.tidx, order: s.order, tgts: s.tgts, sorted: s.sorted}
}

// maxSpareTables bounds the emptied tables a block keeps for the next
// new surfaces (a new surface a turn is the usual case).
const maxSpareTables = 2

// spareTables keeps t, the tables of a surface that was just frozen
// (nothing refers to them any more: freeze recorded what it needs in the
// compact form), emptied, for the next new surface's presize. Tables of
// more than maxPresize components are not kept.
func (e *progressiveEngine) spareTables(t surfaceTables) {
	b := e.scratch
	if b == nil || len(b.tables) >= maxSpareTables || len(t.comps) > maxPresize || cap(t.order) > 2*maxPresize {
		return
	}
	t.nComps, t.nTgts = len(t.comps), len(t.tidx)
	clear(t.comps)
	clear(t.tidx)
	t.order, t.tgts, t.sorted = spare(t.order, 2*maxPresize), spare(t.tgts, 2*maxPresize), spare(t.sorted, 2*maxPresize)
	b.tables = append(b.tables, t)
}

// fitTables moves the maps of s, which stays in its full form at a
// block's end, to maps of their size if they were a frozen surface's (a
// map keeps the room of its largest size): s holds what it would have
// made for itself.
func (s *surfaceState) fitTables() {
	if !s.spared {
		return
	}
	s.spared = false
	s.comps, s.tidx = fitMap(s.comps), fitMap(s.tidx)
	s.sorted = clip(s.sorted)
}

// fitMap returns a copy of m made for its size.
func fitMap[V any](m map[string]V) map[string]V {
	if m == nil {
		return nil
	}
	fit := make(map[string]V, len(m))
	for k, v := range m {
		fit[k] = v
	}
	return fit
}
