package deltaengine

import "encoding/json"

// A block whose first fault is a lost count of brackets is read to its end
// as the reference reads it, as the parser's progressive modes do (the
// streaming conformance suite's own inputs have such faults, and expect
// that reading; see the parser's lostCount): the scanner then follows only
// strings and brackets. A '}' closes the open container, whatever it is
// (but not the block's list: the messages after it are read as the list's),
// a ']' closes an open list and is dropped anywhere else, and the grammar
// checks nothing else. What the block yields from then on is checked
// whole (valid), as the bytes no longer follow the grammar.

// loseCount starts the lost reading of the block at c, a bracket the
// grammar rejects: an object where a key or a ',' was due, a closer of the
// wrong kind after a value, or an extra '}' after the list.
func (k *Engine) loseCount(c byte) {
	if k.msgKind == kDataModel || k.msgKind == kData {
		// The data read up to here is yielded, as the parser reads it
		// before the count is lost.
		k.healOpen()
	}
	if !k.lost {
		k.lostBlocks++
	}
	k.lost = true
	k.loose(c)
}

// loose reads byte c, outside a string, of a block read the lost way.
func (k *Engine) loose(c byte) {
	if k.inScalar && !scalarByte(c) {
		k.inScalar = false
	}
	if c == '{' {
		k.bareFrame() // (a message after the list)
	}
	if len(k.stack) == 0 {
		return
	}
	top := &k.stack[len(k.stack)-1]
	switch c {
	case ' ', '\t', '\n', '\r':
		k.spaces++
	case '"':
		k.isKey, k.inStr, k.strStart, k.strEsc = top.wantKey, true, len(k.buf), false
		k.buf = append(k.buf, c)
		if !k.isKey {
			k.pending = 0
		}
	case ':':
		k.buf = append(k.buf, c)
		top.wantKey, k.pending = false, 2
	case ',':
		k.cutAt, k.comma, k.commaD = len(k.buf), len(k.buf), int32(len(k.stack))
		k.buf = append(k.buf, c)
		top.wantKey, k.pending = top.open == '{', 0
	case '{', '[':
		if c == '{' && top.open == '{' && top.wantKey {
			k.restart()
		}
		k.open(c)
	case '}', ']':
		if c == ']' && top.open != '[' || len(k.stack) == 1 && top.open == '[' && c == '}' {
			k.spaces++
			return // dropped
		}
		k.buf = append(k.buf, top.open+2) // (the closer of what it closes)
		k.close()
	default:
		if !k.inScalar {
			k.inScalar, k.strStart = true, len(k.buf)
		}
		k.buf = append(k.buf, c)
		k.pending = 0
	}
}

// restart reads an object where a key is due as the start of a message:
// the open message is dropped, as far as it was read (what it yielded
// stands), and the object opens in the list.
func (k *Engine) restart() {
	k.healOpen() // (as the parser heals it at the chunk's end)
	if len(k.stack) > 1 {
		k.stack = k.stack[:1]
	}
	k.compStart, k.listA, k.valueA, k.msgKind, k.cur, k.inScalar = -1, -1, -1, 0, nil, false
}

// valid reports whether b, bytes the block yields from, is one JSON value:
// always, unless the block is read the lost way.
func (k *Engine) valid(b []byte) bool {
	return !k.lost || json.Valid(b)
}
