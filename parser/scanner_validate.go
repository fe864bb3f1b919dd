package parser

import (
	"encoding/binary"
	"math/bits"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// Grammar states of the inline JSON check (scanner.vs). The check accepts
// exactly RFC 8259 JSON in valid UTF-8, as utf8.Valid followed by
// gjson.ValidBytes or encoding/json.Valid do, one byte at a time so that it
// resumes at any segment boundary.
const (
	vsValue      uint8 = iota // a value: after ':' or after ',' in an array
	vsValueOrEnd              // a value or ']': after '['
	vsKeyOrEnd                // a key or '}': after '{'
	vsKey                     // a key: after ',' in an object
	vsColon                   // ':' after a key
	vsAfter                   // ',' or the container's close after a value
	vsStr                     // inside a string
	vsEsc                     // after a backslash in a string
	vsHex                     // in the hex digits of \uXXXX (aux left)
	vsUTF8                    // in a multi-byte UTF-8 sequence (aux left, next in lo..hi)
	vsNumber                  // in a number (its state in scanner.num)
	vsLit                     // in true, false or null (literals[aux] expected)
)

// literals holds the bytes after the first of true, false and null; a
// literal's state is a position in it and the position of its end.
const literals = "ruealseull"

// scanValid scans a message from seg[i], checking its grammar. It returns
// the index after the message's closing brace with end set, or len(seg) when
// seg ended first. At the first byte the grammar rejects it marks the message
// loose and goes on with scanLoose from that byte.
//
// Each grammar state is a label and transitions are jumps, so that the state
// is only stored when seg ends: the grammar costs a few predictable branches
// per byte.
func (s *scanner) scanValid(seg []byte, i int, off int64) (int, bool, error) {
	n := len(seg)
	stack := s.stack
	vs, strEnd := s.vs, s.strEnd
	var aux, auxEnd, lo, hi uint8 // kept in s only by the states using them
	var ns jsonwire.NumState      // likewise
	var c byte
	switch vs {
	case vsValue:
		goto value
	case vsValueOrEnd:
		goto valueOrEnd
	case vsKeyOrEnd:
		goto keyOrEnd
	case vsKey:
		goto key
	case vsColon:
		goto colon
	case vsAfter:
		goto after
	case vsStr:
		goto str
	case vsEsc:
		goto esc
	case vsHex:
		aux = s.aux
		goto hex
	case vsUTF8:
		aux, auxEnd, lo, hi = s.aux, s.auxEnd, s.lo, s.hi
		goto utf8Cont
	case vsNumber:
		ns = s.num
		goto number
	default:
		aux, auxEnd = s.aux, s.auxEnd
		goto lit
	}

value:
	if i == n {
		vs = vsValue
		goto out
	}
	c = seg[i]
	i++
	switch c {
	case '"':
		strEnd = vsAfter
		goto str
	case '{', '[':
		if len(stack) >= s.maxDepth {
			s.stack = s.stack[:len(stack)]
			return i - 1, false, s.tooDeep(off + int64(i-1))
		}
		stack = append(stack, c)
		if cap(stack) != cap(s.stack) {
			s.stack = stack // grown: a new array
		}
		if c == '{' {
			goto keyOrEnd
		}
		goto valueOrEnd
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		i--
		ns = jsonwire.NumStart
		goto number
	case 't':
		aux, auxEnd = 0, 3
		goto lit
	case 'f':
		aux, auxEnd = 3, 7
		goto lit
	case 'n':
		aux, auxEnd = 7, 10
		goto lit
	case ' ', '\t', '\n', '\r':
		goto value
	}
	i--
	vs = vsValue
	goto failOut

valueOrEnd:
	if i == n {
		vs = vsValueOrEnd
		goto out
	}
	switch seg[i] {
	case ']':
		i++
		stack = stack[:len(stack)-1] // an array never closes the message
		goto after
	case ' ', '\t', '\n', '\r':
		i++
		goto valueOrEnd
	}
	goto value

keyOrEnd:
	if i == n {
		vs = vsKeyOrEnd
		goto out
	}
	switch seg[i] {
	case '"':
		i++
		strEnd = vsColon
		goto str
	case '}':
		i++
		stack = stack[:len(stack)-1]
		if len(stack) == s.base() {
			s.stack = s.stack[:len(stack)]
			return i, true, nil
		}
		goto after
	case ' ', '\t', '\n', '\r':
		i++
		goto keyOrEnd
	}
	vs = vsKeyOrEnd
	goto failOut

key:
	if i == n {
		vs = vsKey
		goto out
	}
	switch seg[i] {
	case '"':
		i++
		strEnd = vsColon
		goto str
	case ' ', '\t', '\n', '\r':
		i++
		goto key
	}
	vs = vsKey
	goto failOut

colon:
	if i == n {
		vs = vsColon
		goto out
	}
	switch seg[i] {
	case ':':
		i++
		goto value
	case ' ', '\t', '\n', '\r':
		i++
		goto colon
	}
	vs = vsColon
	goto failOut

after:
	if i == n {
		vs = vsAfter
		goto out
	}
	switch c = seg[i]; c {
	case ',':
		i++
		if stack[len(stack)-1] == '{' {
			goto key
		}
		goto value
	case '}', ']':
		if (c == '}') != (stack[len(stack)-1] == '{') {
			vs = vsAfter
			goto failOut
		}
		i++
		stack = stack[:len(stack)-1]
		if len(stack) == s.base() {
			s.stack = s.stack[:len(stack)]
			return i, true, nil
		}
		goto after
	case ' ', '\t', '\n', '\r':
		i++
		goto after
	}
	vs = vsAfter
	goto failOut

str:
	// Eight bytes at a time to the first stop byte. The last word of seg is
	// read whole and shifted, so that the bytes past seg's end read as
	// zero: stop bytes, which end the string's bytes in seg.
	for i+8 <= n {
		if m := jsonwire.StopBytes(binary.LittleEndian.Uint64(seg[i:])); m != 0 {
			i += bits.TrailingZeros64(m) >> 3
			goto strStop
		}
		i += 8
	}
	if i < n {
		if n >= 8 {
			x := binary.LittleEndian.Uint64(seg[n-8:]) >> (8 * uint(i-(n-8)))
			i = min(i+bits.TrailingZeros64(jsonwire.StopBytes(x))>>3, n)
		} else {
			for i < n && jsonwire.IsPlain(seg[i]) {
				i++
			}
		}
	}
	if i == n {
		vs = vsStr
		goto out
	}
strStop:
	c = seg[i]
	switch {
	case c == '"':
		i++
		if strEnd == vsColon {
			goto colon
		}
		goto after
	case c == '\\':
		i++
		goto esc
	case c < 0x20:
		vs = vsStr
		goto failIn
	}
	{
		size, l, h := jsonwire.UTF8Lead(c)
		if size == 0 {
			vs = vsStr
			goto failIn
		}
		// auxEnd: the continuation bytes of the character, for the
		// offset of its lead if one of them is rejected (looseLead).
		aux, auxEnd, lo, hi = uint8(size-1), uint8(size-1), l, h
	}
	i++
	goto utf8Cont

esc:
	if i == n {
		vs = vsEsc
		goto out
	}
	switch c = seg[i]; {
	case c == 'u':
		i++
		aux = 4
		goto hex
	case jsonwire.IsEscape(c):
		i++
		goto str
	}
	goto failEsc

hex:
	if i == n {
		vs = vsHex
		goto outAux
	}
	if !jsonwire.IsHex(seg[i]) {
		vs, s.aux = vsHex, aux
		goto failIn
	}
	i++
	if aux--; aux == 0 {
		goto str
	}
	goto hex

utf8Cont:
	if i == n {
		vs = vsUTF8
		goto outAux
	}
	if c = seg[i]; c < lo || c > hi {
		vs, s.aux, s.auxEnd = vsUTF8, aux, auxEnd
		goto failIn
	}
	i++
	lo, hi = 0x80, 0xBF
	if aux--; aux == 0 {
		goto str
	}
	goto utf8Cont

lit:
	if i == n {
		vs = vsLit
		goto outAux
	}
	if seg[i] != literals[aux] {
		vs, s.aux, s.auxEnd = vsLit, aux, auxEnd
		goto failOut
	}
	i++
	if aux++; aux == auxEnd {
		goto after
	}
	goto lit

number:
	// The number grammar stops at the first byte that does not continue
	// the number: the byte after a whole number, or the one it rejects.
	i, ns = jsonwire.ScanNumber(seg, i, ns)
	if i == n {
		s.num = ns
		vs = vsNumber
		goto out
	}
	if !ns.Complete() {
		vs, s.num = vsNumber, ns
		goto failOut
	}
	goto after // the byte after the number (a digit after a leading '0' fails there)

outAux:
	s.aux, s.auxEnd, s.lo, s.hi = aux, auxEnd, lo, hi
out:
	s.vs, s.strEnd = vs, strEnd
	s.stack = s.stack[:len(stack)] // same array: no pointer store
	return n, false, nil

	// Hand the message to scanLoose at seg[i], in the string state the
	// structure scan is in there. The state that rejected the byte is kept
	// for tail mode's report (looseVs, with aux, auxEnd and num: see
	// tailError): vsStr, vsEsc, vsHex or vsUTF8 in a string.
failIn:
	s.inString, s.escape = true, false
	goto fail
failEsc:
	s.inString, s.escape = true, true
	vs = vsEsc
	goto fail
failOut:
	s.inString, s.escape = false, false
fail:
	// (aux, auxEnd and num are saved where they are the state that
	// rejected the byte, so that they are not kept live to here.)
	s.stack = s.stack[:len(stack)]
	s.looseTop = stack[len(stack)-1]
	s.loose, s.looseAt, s.looseVs = true, off+int64(i), vs
	return s.scanLoose(seg, i, off)
}
