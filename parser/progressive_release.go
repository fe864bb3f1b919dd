package parser

// Releasing what a block held. A stream's parser lives as long as its
// session, mostly idle between blocks; what a block needed only while it
// arrived (the buffered message, scratch buffers and maps, caches of
// encodings, the data model reader's entries, the delta reduction's record
// of the data message) is dropped once the block ended and the call that
// ended it finished (feedEnd), rather than kept at its largest size for the
// next block. What the protocol needs across blocks stays: the surfaces and
// their components, roots, versions, deletions and the records of yielded
// data (these bounded as before, see progressive_limits.go).
//
// Nothing dropped here changes an output: the scanner's message generation
// (msgGen) grows at every block end, so every cache keyed by it (the healer's
// last cut, the component scanner's checkpoint, the data model reader, the
// delta record of the current data message) could not be hit again anyway,
// and the others are caches that start afresh (as past maxNames).

// keepScratch is the capacity up to which a scratch buffer is kept from
// one block to the next: small enough that an idle stream holds little,
// large enough that a block of the usual size allocates no buffer again.
const keepScratch = 512

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
	// message: the next block starts with a new message generation.
	if cap(e.sc.buf) > 4*keepScratch {
		e.sc.buf = nil
	}
	if cap(e.sc.stack) > 64 {
		e.sc.stack = nil
	}
	e.sc.known = nil

	// Byte-level readers' scratch, and their checkpoints (of a message
	// generation that does not come back).
	e.heal.stack, e.heal.pos, e.heal.out = nil, nil, nil
	e.heal.last = lastCut{}
	e.cs.out, e.cs.slots, e.cs.keys = nil, nil, nil
	if e.data != nil {
		e.dataIDs = e.data.ids
		e.data = nil
	}

	// The last data model sniff's input only matters while no data was
	// recorded since (dataLastGen == dataGen).
	if e.dataLastGen != e.dataGen {
		e.dataLast = nil
	}
	e.boundRecords()
	if e.dstate != nil {
		e.dstate.release()
	}

	// Caches of names and encodings: they start afresh, as past maxNames.
	// The placeholders components looked up go with the table: a
	// component's placeholders and a later lookup must be the same
	// objects (processFast counts a child's placements by its
	// placeholder's mark).
	for i, fc := range e.pnsHeld {
		fc.pns = nil
		e.pnsHeld[i] = nil
	}
	e.pnsHeld = nil
	e.names = idNames{}
	e.phJSON, e.phValid, e.phSeen, e.suSeen = nil, nil, nil, nil
	e.closing = closingEnc{}

	// Scratch lists.
	e.refBuf, e.snapPhs, e.phsOld, e.missScratch = nil, nil, nil, nil
	e.deltaEnts, e.deltaPhs, e.deltaPhJS = nil, nil, nil
	e.suSnaps = nil
	e.waitPool = nil
	out.store.release()
}

// reader is the data model reader, made when a block first needs it.
func (e *progressiveEngine) reader() *dataReader {
	if e.data == nil {
		e.data = &dataReader{ids: e.dataIDs}
	}
	return e.data
}
