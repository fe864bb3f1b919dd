package parser

// Releasing what a block held. A stream's parser lives as long as its
// session, mostly idle between blocks. What a block needed only while it
// arrived (the buffered message, scratch lists and maps, the data model
// reader's entries, the delta reduction's record of the data message, the
// borrowed output block) is dropped, or emptied when small, once the block
// ended and the call that ended it finished (feedEnd), rather than kept at
// its largest size for the next block. What the protocol needs across
// blocks stays: the surfaces and their components, roots, versions,
// deletions and the records of yielded data (bounded as before, see
// progressive_limits.go), and the caches of names and placeholder
// encodings (bounded by maxNames; ids recur from block to block).
//
// Nothing dropped here changes an output: the scanner's message generation
// (msgGen) grows at every block end, so every cache keyed by it (the
// healer's last cut, the component scanner's checkpoint, the data model
// reader, the delta record of the current data message) could not be hit
// again anyway.

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
	if !e.release || e.inBlock {
		return
	}
	e.release = false

	// The scanner's buffer and stack, and the decoded objects of the
	// message (the next block starts with a new message generation).
	e.sc.releaseBuf()
	e.sc.stack = shrink(e.sc.stack, 64)
	e.sc.releaseKnown()
	// The grammar's copy of a message that spanned segments.
	e.val.buf = shrink(e.val.buf, 4*keepScratch)

	// Byte-level readers' scratch, and their checkpoints (of a message
	// generation that does not come back).
	e.heal.stack = shrink(e.heal.stack, keepScratch)
	e.heal.pos = shrink(e.heal.pos, keepScratch)
	e.heal.out = shrink(e.heal.out, 4*keepScratch)
	e.heal.last = lastCut{}
	e.cs.out = shrink(e.cs.out, 4*keepScratch)
	e.cs.slots = shrink(e.cs.slots, keepScratch)
	e.cs.keys = shrink(e.cs.keys, keepScratch)
	e.releaseReader()

	// The last data model sniff's input only matters while no data was
	// recorded since (dataLastGen == dataGen).
	if e.dataLastGen != e.dataGen {
		e.dataLast = shrink(e.dataLast, 4*keepScratch)
	}
	if e.dstate != nil {
		e.dstate.release()
	}

	// Scratch maps and lists. The caches of names and placeholder
	// encodings (names, phJSON, phValid) are kept: they are bounded
	// (maxNames), and ids recur from one block to the next.
	e.phSeen, e.suSeen = nil, nil
	e.closing = closingEnc{}
	e.refBuf = shrink(e.refBuf, keepScratch)
	e.snapPhs = shrink(e.snapPhs, keepScratch)
	e.phsOld = shrink(e.phsOld, keepScratch)
	e.missScratch = shrink(e.missScratch, keepScratch)
	e.deltaEnts = shrink(e.deltaEnts, keepScratch)
	e.deltaPhs = shrink(e.deltaPhs, keepScratch)
	e.deltaPhJS = shrink(e.deltaPhJS, keepScratch)
	e.suSnaps = shrink(e.suSnaps, keepScratch)
	out.store.release()
}

// releaseReader drops the data model reader, or only empties it when it
// is small (the next data model message reuses it).
func (e *progressiveEngine) releaseReader() {
	r := e.data
	if r == nil {
		return
	}
	if !r.small() {
		e.dataIDs = r.ids
		e.data = nil
		return
	}
	r.start(0, 0, false)
	r.active = false
	for _, c := range []*dataContents{&r.cont, &r.body.cont, &r.cbody.cont} {
		c.ents, c.elems = shrink(c.ents, keepScratch), shrink(c.elems, keepScratch)
		c.idx, c.valIdx, c.lastIdx = nil, nil, nil
	}
	r.stack = shrink(r.stack, 64)
	r.enc, r.hb, r.src = shrink(r.enc, 4*keepScratch), shrink(r.hb, 4*keepScratch), shrink(r.src, 4*keepScratch)
	r.changed, r.kept, r.acc = shrink(r.changed, keepScratch), shrink(r.kept, keepScratch), shrink(r.acc, keepScratch)
	r.list, r.check, r.flat = shrink(r.list, keepScratch), shrink(r.check, keepScratch), shrink(r.flat, keepScratch)
	r.encs, r.latestIdx = shrink(r.encs, keepScratch), shrink(r.latestIdx, keepScratch)
}

// small reports whether the reader's lists are small enough to be kept.
func (r *dataReader) small() bool {
	n := 0
	for _, c := range []*dataContents{&r.cont, &r.body.cont, &r.cbody.cont} {
		n += cap(c.ents) + cap(c.elems)
	}
	return n <= keepScratch && cap(r.enc)+cap(r.src)+cap(r.hb) <= 12*keepScratch
}

// reader is the data model reader, made when a block first needs it.
func (e *progressiveEngine) reader() *dataReader {
	if e.data == nil {
		e.data = &dataReader{ids: e.dataIDs}
	}
	return e.data
}
