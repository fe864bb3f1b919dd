package parser

import "unsafe"

// The bytes of a component that completes while the block's open buffer
// holds them (see disown) are copied to a chunk of the block, not to an
// array of their own, and stay there until the block's end. Then a frozen
// surface's components point into its arena (freeze copied them there),
// and the others, and those no surface holds (a v0.8 message held until
// beginRendering keeps its components), get arrays of their size
// (settleChunks): the bytes of a component whose surface freezes are
// copied once, not twice. The chunks go to the pool with the reader's
// side state (compSide); nothing points into them after settleChunks.

// carveChunks are the chunks of a block and the components in them.
type carveChunks struct {
	cur    []byte      // the chunk being filled
	full   [][]byte    // chunks filled before cur, this block
	carved []*fastComp // the components carved, in any chunk or not any more
}

// Sizes of the chunks: a component larger than maxCarve gets its own
// array at once.
const (
	carveChunk = 8 << 10
	maxCarve   = carveChunk / 4
)

// carve copies b, bytes of the holder of x's open buffers or of its
// entry, to the block's chunk and returns them (with no spare capacity),
// or nil when they are too large.
func (x *compSide) carve(b []byte) []byte {
	ch, n := &x.chunks, len(b)
	if n > maxCarve {
		return nil
	}
	if cap(ch.cur)-len(ch.cur) < n {
		if ch.cur != nil {
			ch.full = append(ch.full, ch.cur)
		}
		ch.cur = make([]byte, 0, carveChunk)
	}
	at := len(ch.cur)
	ch.cur = append(ch.cur, b...)
	return ch.cur[at:len(ch.cur):len(ch.cur)]
}

// used reports whether the block carved anything.
func (ch *carveChunks) used() bool { return len(ch.cur) > 0 || len(ch.full) > 0 }

// holds reports whether b lies in one of the chunks.
func (ch *carveChunks) holds(b []byte) bool {
	if len(b) == 0 || !ch.used() {
		return false
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	in := func(c []byte) bool {
		a := uintptr(unsafe.Pointer(unsafe.SliceData(c)))
		return p >= a && p < a+uintptr(cap(c))
	}
	if in(ch.cur) {
		return true
	}
	for _, c := range ch.full {
		if in(c) {
			return true
		}
	}
	return false
}

// settleEntry gives ent's component and processed form arrays of their
// own when they lie in the chunks (ent's surface stays in its full form).
func (ch *carveChunks) settleEntry(ent *compEntry) {
	fc := ent.fast
	if fc != nil && ch.holds(fc.src) {
		src := ownCopy(fc.src)
		if p := ent.pjson; ent.shared && len(p) <= len(src) && unsafe.SliceData(p) == unsafe.SliceData(fc.src) {
			ent.pjson = src[:len(p)]
		}
		fc.src = src
	}
	if ch.holds(ent.pjson) { // (a stale form: not its component's bytes)
		ent.pjson = ownCopy(ent.pjson)
	}
}

// settleChunks ends the block's chunks: the components still in them get
// arrays of their own, and the chunk being filled is emptied for the next
// block (the others are dropped).
func (ch *carveChunks) settleChunks() {
	for i, fc := range ch.carved {
		if ch.holds(fc.src) {
			fc.src = ownCopy(fc.src)
		}
		ch.carved[i] = nil
	}
	ch.carved = ch.carved[:0]
	clear(ch.full)
	ch.full = ch.full[:0]
	ch.cur = ch.cur[:0]
}
