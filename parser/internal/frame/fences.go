package frame

import "bytes"

// The fences framing follows CommonMark's rules for fenced code blocks,
// restricted to what delimits an A2UI block:
//
//   - an opening fence is a line of at most 3 spaces of indentation, then
//     FenceOpen, then only spaces, tabs or '\r' up to the end of the line;
//   - a closing fence is a line of at most 3 spaces of indentation, then at
//     least three backticks, then only spaces, tabs or '\r' up to the end of
//     the line (or of the stream);
//   - a fence line is markup: it belongs neither to the text nor to the
//     block, its line ending included. The text before an opening fence
//     ends with the previous line's '\n'; the block's content is the lines
//     between the fences; the text resumes after the closing fence's line.
//
// A line longer than MaxFenceLine bytes (its '\n' excluded) is never a
// fence, which bounds what is held back. A line start is held back only
// while its bytes can still become a fence; every other byte of text is
// released at once (a split UTF-8 sequence at the end of data excepted).
// A block with no closing fence ends with the stream.

// FenceOpen is an opening fence line without its indentation and line end.
const FenceOpen = "```a2ui"

// MaxFenceLine is the longest line, without its '\n', read as a fence.
const MaxFenceLine = 64

// Fences splits the fences framing. The zero value is ready to use, outside
// a block, at a line start.
type Fences struct {
	inBlock bool
	midLine bool // the next byte does not start a line
	// seen is the number of bytes at the start of data that the previous
	// call examined and held back: a line start that can still become a
	// fence (line holds its match state), or, mid-line, an incomplete
	// UTF-8 sequence.
	seen int
	line fenceLine
	// fence is the length of a fence line at data[0] found by the
	// previous call after the bytes it returned, or 0.
	fence int
	work  int64 // bytes examined, for the linearity test
}

// Split is the SplitFunc of the fences framing.
func (s *Fences) Split(data []byte, atEOF bool) (int, Token) {
	if n := s.fence; n > 0 {
		s.fence = 0
		if n <= len(data) {
			return s.fenceToken(n)
		}
	}
	if len(data) == 0 {
		if atEOF && s.inBlock {
			s.inBlock, s.midLine, s.line = false, false, fenceLine{}
			return 0, Token{Kind: End}
		}
		return 0, Token{}
	}
	i := s.seen
	s.seen = 0
	if i > len(data) {
		i, s.line = 0, fenceLine{} // not the bufio contract: examine anew
	}
	lineStart, held := 0, 0
	for {
		if !s.midLine {
			used, m := s.line.step(data[i:], !s.inBlock)
			s.work += int64(used)
			if m == lineFence {
				s.line = fenceLine{}
				end := i + used
				if lineStart == 0 {
					return s.fenceToken(end)
				}
				s.fence = end - lineStart
				return lineStart, body(s.inBlock, data[:lineStart])
			}
			if m == lineMaybe {
				held = len(data) - lineStart
				break
			}
			s.line = fenceLine{}
			s.midLine = true
			i += used // at the byte that ruled the fence out
		}
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			s.work += int64(len(data) - i)
			if !s.inBlock && !atEOF {
				held = partialRuneTail(data)
			}
			break
		}
		s.work += int64(j + 1)
		i += j + 1
		lineStart = i
		s.midLine = false
	}
	if atEOF {
		if held > 0 {
			// The stream ends in a line that may be a fence: it is one if
			// its line end would make it one.
			_, m := s.line.step([]byte{'\n'}, !s.inBlock)
			s.line = fenceLine{}
			if m == lineFence {
				if lineStart == 0 {
					return s.fenceToken(len(data))
				}
				s.fence = held
				return lineStart, body(s.inBlock, data[:lineStart])
			}
			s.midLine = true
		}
		return len(data), body(s.inBlock, data)
	}
	s.seen = held
	if held == len(data) {
		return 0, Token{}
	}
	return len(data) - held, body(s.inBlock, data[:len(data)-held])
}

// fenceToken returns the token of a fence line of n bytes at data[0].
func (s *Fences) fenceToken(n int) (int, Token) {
	s.midLine = false
	s.inBlock = !s.inBlock
	if s.inBlock {
		return n, Token{Kind: Start}
	}
	return n, Token{Kind: End}
}

// lineMatch is how far the bytes at a line start match a fence line.
type lineMatch uint8

const (
	lineNotFence lineMatch = iota // the line is not a fence
	lineMaybe                     // the bytes so far can still become a fence
	lineFence                     // a fence line, its '\n' included
)

// Phases of a fence line.
const (
	phIndent uint8 = iota // up to 3 spaces
	phMarker              // FenceOpen, or the backticks of a closing fence
	phTrail               // spaces, tabs or '\r', then '\n'
)

// fenceLine is the match state of a line start against a fence line,
// resumable at any byte.
type fenceLine struct {
	n     int // bytes of the line matched so far
	k     int // spaces of indentation, bytes of FenceOpen or backticks matched
	phase uint8
}

// step goes on matching the line with b, against an opening fence if open,
// else a closing fence. It returns the bytes of b it consumed: for
// lineFence, up to the '\n' included; for lineNotFence, up to the byte that
// rules the fence out, excluded (it may be the line's '\n'); for lineMaybe,
// all of b.
func (l *fenceLine) step(b []byte, open bool) (int, lineMatch) {
	for i := 0; i < len(b); i++ {
		c := b[i]
		if l.phase == phIndent {
			if c == ' ' && l.k < 3 {
				l.k++
				l.n++
				continue
			}
			l.phase, l.k = phMarker, 0
		}
		if l.phase == phMarker {
			if open {
				if c != FenceOpen[l.k] {
					return i, lineNotFence
				}
				l.k++
				l.n++
				if l.k == len(FenceOpen) {
					l.phase = phTrail
				}
				continue
			}
			if c == '`' {
				l.k++
				l.n++
				continue
			}
			if l.k < 3 {
				return i, lineNotFence
			}
			l.phase = phTrail
		}
		switch c {
		case ' ', '\t', '\r':
			l.n++
		case '\n':
			if l.n > MaxFenceLine {
				return i, lineNotFence
			}
			return i + 1, lineFence
		default:
			return i, lineNotFence
		}
	}
	if l.n > MaxFenceLine {
		return len(b), lineNotFence
	}
	return len(b), lineMaybe
}
