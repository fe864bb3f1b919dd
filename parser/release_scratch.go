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
// of those), and what freeze collects.

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
	if take {
		if e.cs.side == nil && b.csSide != nil {
			e.cs.side = b.csSide
			e.cs.side.reset()
		}
		b.csSide = nil
	} else {
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
