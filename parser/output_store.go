package parser

import (
	"sync"
	"weak"
)

// outputStore provides the storage of the message bytes a call yields. By
// default each message gets an allocation of its own, which the caller
// owns. With WithBorrowedOutput, messages are carved out of a block reused
// from one call to the next, so a stream's yields allocate only when a call
// yields more than the block holds.
type outputStore struct {
	borrow bool
	buf    []byte // the current block; buf[:len(buf)] is handed out in this call
	// lent is the block a progressive parser released at the end of the
	// previous call (release), held weakly: the caller may read it until
	// this call starts, and the parser keeps nothing alive while it idles.
	lent weak.Pointer[[minBorrowBlock]byte]
}

// blocks holds released output blocks of minBorrowBlock bytes for any
// parser to reuse: a block goes there when the call after the one that
// lent it starts (reset), so that streams that release their block at
// every block end (incremental.feedEnd) do not allocate a new one for
// the next block, and an idle stream holds none.
var blocks sync.Pool // of *[minBorrowBlock]byte

// Sizes of the blocks of borrowed output. A block is never smaller than
// minBorrowBlock; one larger than maxBorrowBlock (a call that yielded that
// much, or one message that large) is not kept for the next call, so the
// parser keeps at most maxBorrowBlock of output between calls.
const (
	minBorrowBlock = 16 << 10
	maxBorrowBlock = 1 << 20
)

// reset starts a call: the bytes handed out by the previous call may be
// overwritten from now on.
func (s *outputStore) reset() {
	if b := s.lent.Value(); b != nil {
		// The caller's loan of the released block ended with this call.
		blocks.Put(b)
	}
	s.lent = weak.Pointer[[minBorrowBlock]byte]{}
	if cap(s.buf) > maxBorrowBlock {
		s.buf = nil
		return
	}
	s.buf = s.buf[:0]
}

// release drops the block at the end of a call after which the stream
// idles between blocks: the parts handed out keep it alive only as long as
// the caller holds them. A block of minBorrowBlock bytes still alive when
// the next call starts goes to the pool of blocks then (reset).
func (s *outputStore) release() {
	if s.borrow && cap(s.buf) == minBorrowBlock {
		s.lent = weak.Make((*[minBorrowBlock]byte)(s.buf[:minBorrowBlock]))
	}
	s.buf = nil
}

// alloc returns an empty slice with room for n bytes. Append to it at most
// n bytes (more reallocates), then hand the result to keep.
func (s *outputStore) alloc(n int) []byte {
	if !s.borrow {
		return make([]byte, 0, n)
	}
	if cap(s.buf)-len(s.buf) < n {
		if cap(s.buf) == 0 && n <= minBorrowBlock {
			if b, _ := blocks.Get().(*[minBorrowBlock]byte); b != nil {
				s.buf = b[:0]
				return s.buf
			}
		}
		size := min(max(2*cap(s.buf), minBorrowBlock), maxBorrowBlock)
		s.buf = make([]byte, 0, max(size, n))
	}
	return s.buf[len(s.buf):len(s.buf):cap(s.buf)]
}

// keep marks b, built by appending to a slice from alloc, as handed out,
// and returns it with its capacity ending at its length: a caller that
// appends to one message never writes into another. If appending outgrew
// the block (b was reallocated), b's array becomes the current block only
// if it has more room left than the block.
func (s *outputStore) keep(b []byte) []byte {
	if !s.borrow || len(b) == 0 {
		return b
	}
	free := s.buf[len(s.buf):cap(s.buf)]
	switch {
	case len(free) > 0 && &free[0] == &b[0]:
		s.buf = s.buf[:len(s.buf)+len(b)]
	default:
		if cap(b)-len(b) > len(free) {
			s.buf = b
		}
	}
	return b[:len(b):len(b)]
}

// lend returns the block for an engine to append this call's next
// messages to, after those handed out (see deltaengine.Engine.UseOutput):
// a fresh one when less than minLendRoom is left, so that the engine
// seldom outgrows it (which copies the block's bytes).
func (s *outputStore) lend() []byte {
	if cap(s.buf)-len(s.buf) < minLendRoom {
		s.alloc(minLendRoom)
	}
	return s.buf
}

// took takes back the block lend gave, grown by the messages the engine
// wrote to it (all of them handed out), or an array the engine moved it
// to.
func (s *outputStore) took(b []byte) { s.buf = b }

// minLendRoom is the room lend leaves an engine at least.
const minLendRoom = 4 << 10
