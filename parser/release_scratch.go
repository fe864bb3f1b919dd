package parser

import "sync"

// The scratch lists of a block. Emptied at a block's end (releaseIdle),
// they would stay with the idle stream, about 2 KB of it after a turn of
// the usual size: they go to a package pool instead, and the next block of
// any stream takes a set from it (blockStart). Only lists that hold
// nothing between blocks and that nothing else aliases are pooled: the
// lists of components and surfaces processed and used, a component's old
// placeholders, the snapshot's placeholders seen, the component scanner's
// output, slots and keys, the healer's output (every reader copies what it
// keeps of those).

// blockScratch is one set of pooled scratch lists.
type blockScratch struct {
	processed          []*compEntry
	processedIn, inUse []*surfaceState
	phsOld, snapPhs    []string
	csOut, healOut     []byte
	csSlots            []childSlot
	csKeys             []keySpan
}

var scratchPool = sync.Pool{New: func() any { return new(blockScratch) }}

// takeScratch gives the engine a set of scratch lists from the pool, for
// the lists it has none of.
func (e *progressiveEngine) takeScratch() {
	if e.scratch != nil {
		return
	}
	b := scratchPool.Get().(*blockScratch)
	e.scratch = b
	takeList(&e.processed, &b.processed)
	takeList(&e.processedIn, &b.processedIn)
	takeList(&e.inUse, &b.inUse)
	takeList(&e.phsOld, &b.phsOld)
	takeList(&e.snapPhs, &b.snapPhs)
	takeList(&e.cs.out, &b.csOut)
	takeList(&e.heal.out, &b.healOut)
	takeList(&e.cs.slots, &b.csSlots)
	takeList(&e.cs.keys, &b.csKeys)
}

// putScratch returns the engine's scratch lists, emptied (see
// releaseIdle), to the pool.
func (e *progressiveEngine) putScratch() {
	b := e.scratch
	if b == nil {
		b = new(blockScratch)
	}
	e.scratch = nil
	putList(&e.processed, &b.processed)
	putList(&e.processedIn, &b.processedIn)
	putList(&e.inUse, &b.inUse)
	putList(&e.phsOld, &b.phsOld)
	putList(&e.snapPhs, &b.snapPhs)
	putList(&e.cs.out, &b.csOut)
	putList(&e.heal.out, &b.healOut)
	putList(&e.cs.slots, &b.csSlots)
	putList(&e.cs.keys, &b.csKeys)
	scratchPool.Put(b)
}

// takeList moves the pooled list *from into *to when *to has no array.
func takeList[T any](to, from *[]T) {
	if cap(*to) == 0 {
		*to = (*from)[:0]
	}
	*from = nil
}

// putList moves the emptied list *from into the pooled set, keeping the
// larger of the two.
func putList[T any](from, to *[]T) {
	if cap(*from) > cap(*to) {
		*to = (*from)[:0]
	}
	*from = nil
}
