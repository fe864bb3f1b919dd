package parser

import "bytes"

// The fences framing (FramingFences) follows CommonMark's rules for fenced
// code blocks, restricted to what delimits an A2UI block:
//
//   - an opening fence is a line of at most 3 spaces of indentation, then
//     ```a2ui, then only spaces, tabs or '\r' up to the end of the line;
//   - a closing fence is a line of at most 3 spaces of indentation, then at
//     least three backticks, then only spaces, tabs or '\r' up to the end of
//     the line (or of the stream);
//   - a fence line is markup: it belongs neither to the text nor to the
//     block, its line ending included. The text before an opening fence
//     ends with the previous line's '\n'; the block's content is the lines
//     between the fences; the text resumes after the closing fence's line.
//
// A line longer than maxFenceLine bytes (its '\n' excluded) is never a
// fence, which bounds what is held back. A line start is held back only
// while its bytes can still become a fence; every other byte of text is
// released at once (a split UTF-8 sequence at the end of a chunk excepted).

// fenceOpenMarker is an opening fence line without its indentation and
// line end.
var fenceOpenMarker = []byte("```a2ui")

// maxFenceLine is the longest line, without its '\n', read as a fence.
const maxFenceLine = 64

// lineMatch is how far the bytes at a line start match a fence line.
type lineMatch uint8

const (
	lineNotFence lineMatch = iota // the line is not a fence
	lineMaybe                     // the bytes so far can still become a fence
	lineFence                     // a fence line, its '\n' included
)

// openFenceLine matches an opening fence at the start of b. For lineFence it
// returns the length of the line with its '\n'.
func openFenceLine(b []byte) (int, lineMatch) {
	i := fenceIndent(b)
	for _, m := range fenceOpenMarker {
		if i == len(b) {
			return 0, lineMaybe
		}
		if b[i] != m {
			return 0, lineNotFence
		}
		i++
	}
	return fenceLineEnd(b, i)
}

// closeFenceLine matches a closing fence at the start of b. For lineFence it
// returns the length of the line with its '\n'.
func closeFenceLine(b []byte) (int, lineMatch) {
	i := fenceIndent(b)
	ticks := 0
	for i < len(b) && b[i] == '`' {
		i++
		ticks++
	}
	if i == len(b) {
		if i > maxFenceLine {
			return 0, lineNotFence
		}
		return 0, lineMaybe
	}
	if ticks < 3 {
		return 0, lineNotFence
	}
	return fenceLineEnd(b, i)
}

// fenceIndent returns the length of the indentation a fence may have: at
// most 3 spaces.
func fenceIndent(b []byte) int {
	i := 0
	for i < len(b) && i < 3 && b[i] == ' ' {
		i++
	}
	return i
}

// fenceLineEnd matches the rest of a fence line from b[i]: spaces, tabs or
// '\r', then '\n'.
func fenceLineEnd(b []byte, i int) (int, lineMatch) {
	for ; i < len(b); i++ {
		switch b[i] {
		case ' ', '\t', '\r':
		case '\n':
			if i > maxFenceLine {
				return 0, lineNotFence
			}
			return i + 1, lineFence
		default:
			return 0, lineNotFence
		}
	}
	if i > maxFenceLine {
		return 0, lineNotFence
	}
	return 0, lineMaybe
}

// fenceAtEOF reports whether held, the bytes of a line the stream ends in,
// form a fence line.
func fenceAtEOF(held []byte, match func([]byte) (int, lineMatch)) bool {
	line := append(append(make([]byte, 0, len(held)+1), held...), '\n')
	_, m := match(line)
	return m == lineFence
}

// runFences handles the fences framing. data[0] is at stream offset base;
// p.midLine tells whether it starts a line.
func (p *Parser) runFences(data []byte, base int64) {
	for len(data) > 0 {
		match := openFenceLine
		if p.inBlock {
			match = closeFenceLine
		}
		// Scan line starts until a fence line, a possible fence cut by the
		// end of data, or the end of data.
		i := 0
		held := 0 // bytes at the end of data kept for the next Feed
		fence := -1
		fenceLen := 0
		for {
			if !p.midLine {
				n, m := match(data[i:])
				if m == lineFence {
					fence, fenceLen = i, n
					break
				}
				if m == lineMaybe {
					held = len(data) - i
					break
				}
				p.midLine = true
			}
			j := bytes.IndexByte(data[i:], '\n')
			if j < 0 {
				if !p.inBlock {
					held = partialRuneTail(data)
				}
				break
			}
			i += j + 1
			p.midLine = false
		}
		if fence < 0 {
			body := data[:len(data)-held]
			if p.inBlock {
				p.blockBytes(body, base)
			} else {
				p.text(body)
			}
			p.holdTail(data, held)
			return
		}
		if p.inBlock {
			p.blockBytes(data[:fence], base)
			p.endBlock()
		} else {
			p.text(data[:fence])
			p.startBlock(base + int64(fence+fenceLen))
		}
		adv := fence + fenceLen
		data, base = data[adv:], base+int64(adv)
		p.midLine = false
	}
}

// closeFences ends a stream in the fences framing; rest is the held bytes,
// at stream offset off.
func (p *Parser) closeFences(rest []byte, off int64) {
	if p.inBlock {
		if p.midLine || !fenceAtEOF(rest, closeFenceLine) {
			p.blockBytes(rest, off)
		}
		p.endBlock()
		return
	}
	if !p.midLine && len(rest) > 0 && fenceAtEOF(rest, openFenceLine) {
		p.startBlock(off + int64(len(rest)))
		p.endBlock()
		return
	}
	p.text(rest)
}
