package parser

import "sync"

// The scanner's buffer and table of decoded objects across blocks. A
// stream's parser drops a buffer larger than it keeps idle (4*keepScratch),
// and its table, at the end of a block (release.go); they go
// to pools that any parser's next block starts with, rather than each
// block growing them from small again. Nothing the parser or its caller holds refers to the buffer once
// the block ended: parts are copied out (outputStore), the caches that
// read it are keyed by the message generation, which changed, and the
// decoded objects (known) are dropped with it.

// scanBufs holds released scanner buffers of at most maxPooledScan bytes.
var scanBufs sync.Pool // of *[]byte

// maxPooledScan bounds the buffers the pool keeps: a buffer grown by a
// larger message (up to the message limit) is not handed to another
// stream's block.
const maxPooledScan = 256 << 10

// releaseBuf empties the scanner's buffer, or gives it to the pool when it
// is larger than a stream keeps idle.
func (s *progScan) releaseBuf() {
	if cap(s.buf) <= 4*keepScratch {
		s.buf = s.buf[:0]
		return
	}
	if cap(s.buf) <= maxPooledScan {
		b := s.buf[:0]
		scanBufs.Put(&b)
	}
	s.buf = nil
}

// startBuf returns the scanner's buffer emptied, from the pool when the
// scanner has none (a new parser, or one that released a large buffer).
func (s *progScan) startBuf() []byte {
	if cap(s.buf) == 0 {
		if b, _ := scanBufs.Get().(*[]byte); b != nil {
			return *b
		}
		return make([]byte, 0, 1024)
	}
	return s.buf[:0]
}

// knownMaps holds released tables of decoded objects, emptied, of blocks
// whose messages had at most maxPooledKnown of them.
var knownMaps sync.Pool // of map[int]knownObject

const maxPooledKnown = 1024

// remember records v, the decoding of the object at start of buf that
// ends at the end of buf, for the enclosing message to reuse.
func (s *progScan) remember(start int, v any) {
	if s.known == nil {
		s.known, _ = knownMaps.Get().(map[int]knownObject)
		if s.known == nil {
			s.known = map[int]knownObject{}
		}
	}
	s.known[start] = knownObject{end: len(s.buf), v: v}
	s.knownMax = max(s.knownMax, len(s.known))
}

// releaseKnown drops the table of decoded objects, to the pool when it
// stayed small.
func (s *progScan) releaseKnown() {
	if s.known != nil && s.knownMax <= maxPooledKnown {
		clear(s.known)
		knownMaps.Put(s.known)
	}
	s.known, s.knownMax = nil, 0
}
