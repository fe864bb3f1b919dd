package deltaengine

import (
	"bytes"
	"unicode/utf8"
)

// healEnd returns where the healed form of the open objects ends in buf,
// whether an open string is closed there, and whether it cut back: at the
// end of the buffer (trailing space in a cut string and a trailing comma
// dropped, as the parser's healer does), unless that is inside a key, an
// uncuttable string or an unfinished literal, or after a key with no
// value; then at the end of the last complete member (cut).
func (k *Engine) healEnd() (end int, str, cut bool) {
	n := len(k.buf)
	switch top := &k.stack[len(k.stack)-1]; {
	case k.inStr:
		if top.open == '{' && top.keyA == top.keyB && !k.isKey && !k.esc && k.hexLeft == 0 {
			return k.emptyKeyValue(), true, false
		}
		if (k.esc || k.hexLeft > 0) && top.open == '[' && k.compStart >= 0 && k.listA == top.start {
			return n, true, false // (an id of the open child list, which component leaves out, in an escape)
		}
		if k.isKey || k.esc || k.hexLeft > 0 || top.open == '{' && (!CuttableKey(k.buf[top.keyA:top.keyB]) || k.urlValue(top)) {
			break
		}
		n = k.strStart + 1 + len(RStripSpace(k.buf[k.strStart+1:n]))
		return n, true, false
	case k.pending != 0:
	case k.inScalar:
		if scalarHeals(k.buf[k.strStart:]) {
			return n, false, false
		}
	case k.buf[n-1] == ',':
		return n - 1, false, false
	default:
		return n, false, false
	}
	return k.cutAt, false, true
}

// emptyKeyValue is where the healed form of the open string, the value
// of the empty key, ends: the parser heals it as it was at its first heal
// (what arrived then) until it ends.
func (k *Engine) emptyKeyValue() int {
	if k.ekStart != k.strStart {
		k.ekStart, k.ekEnd = k.strStart, len(k.buf)
	}
	return k.ekEnd
}

// heal appends to b the open objects from stack[from], cut at end of buf.
func (k *Engine) heal(b []byte, start, end int, str bool, from int) []byte {
	if b = append(b, k.buf[start:end]...); str {
		b = append(b, '"')
	}
	for j := len(k.stack) - 1; j >= from; j-- {
		b = append(b, k.stack[j].open+2) // '[' + 2 is ']', '{' + 2 is '}'
	}
	return b
}

// grown reports whether the open object at buf[start] is to be healed at
// this chunk's end: always while it holds at most 1 KB, then once it grew
// by an eighth since it was last (so that healing a large object stays
// linear in its size), as the parser decides; sniffed is its size then.
func (k *Engine) grown(sniffed *int, start, spaces int) bool {
	size := len(k.buf) - start + k.spaces - spaces // as read, spaces included
	if size > 1024 && size-*sniffed < size/8 {
		return false
	}
	*sniffed = size
	return true
}

// endOfChunk heals the open component or data model message, when the
// block grew since the last heal, and yields what changed (flush).
func (k *Engine) endOfChunk() {
	if k.inScalar && !k.failed && !k.lost && !scalarPrefix(k.buf[k.strStart:]) {
		// The grammar checks a scalar when it ends; one that cannot be the
		// start of a number or literal fails now, as the parser's
		// byte-by-byte grammar does, before a heal could yield it.
		k.failJSON(nil)
	}
	if k.compDone && k.msgKind == kUpdate && k.cur != nil {
		k.takeHeld(k.cur, false)
	}
	k.compDone = false
	k.healOpen()
	k.flush(false)
}

// healOpen heals the open component or data model message, when the block
// grew since the last heal, and queues or yields what changed.
func (k *Engine) healOpen() {
	if k.inBlock && len(k.stack) >= 2 && len(k.buf) != k.healLen {
		k.healLen = len(k.buf)
		// A string (a key or a value) the chunk cut inside a character:
		// the parser reads nothing arriving so, it waits for the
		// character (healEnd is never asked then).
		runeCut := k.runeCut()
		switch {
		case k.compStart >= 0:
			if k.grown(&k.compSniffed, k.compStart, k.compSpaces) && !runeCut {
				// Cut inside the component, the parser leaves it as it was.
				if end, str, cut := k.healEnd(); !cut {
					k.component(end, str, false)
					k.nestedOpen(end, str)
				}
			}
		case k.msgKind == kData:
			if k.grown(&k.msgSniffed, k.msgStart, k.msgSpaces) && !runeCut {
				k.dataEntries(false)
			}
		case k.msgKind == kDataModel:
			if k.grown(&k.msgSniffed, k.msgStart, k.msgSpaces) && !runeCut {
				k.data08(false)
			}
		}
	}
}

// URLText reports whether val, the start of a data entry's valueString,
// looks like a URL (or a path, or a data URL): such a string is not cut,
// since a partial one breaks an image or a link. The parser's progressive
// engine reads the same rule.
func URLText(val []byte) bool {
	for _, p := range [...]string{"http://", "https://", "data:", "/"} {
		if bytes.HasPrefix(val, []byte(p)) {
			return true
		}
	}
	return false
}

// URLKey reports whether a data entry's key says its valueString is a URL
// (a link, a source, an image), whatever its case (see URLText).
func URLKey(key []byte) bool {
	for _, h := range [...]string{"url", "link", "src", "href", "image"} {
		if len(key) >= len(h) && bytes.Contains(bytes.ToLower(key), []byte(h)) {
			return true
		}
	}
	return false
}

// urlValue reports whether the open string, a value of the object top, is
// a "valueString" that looks like a URL or belongs to an entry whose key
// says it is one (the last "key" in the 200 characters before it): such a
// string is not cut, as in the parser (a cut URL is no URL).
func (k *Engine) urlValue(top *frame) bool {
	if string(k.buf[top.keyA:top.keyB]) != "valueString" {
		return false
	}
	if URLText(k.buf[k.strStart+1:]) {
		return true
	}
	before := k.buf[max(0, k.strStart-200):k.strStart]
	i := bytes.LastIndex(before, []byte(`"key":"`))
	if i < 0 {
		return false
	}
	key := before[i+len(`"key":"`):]
	e := bytes.IndexByte(key, '"')
	return e > 0 && URLKey(key[:e])
}

// IsStripSpace reports whether r is whitespace as Python's str.strip and the
// regular expression class \s understand it: the reference's healing strips
// it from the end of a cut string.
func IsStripSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x1f, 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// RStripSpace drops trailing whitespace as IsStripSpace understands it
// (Python's str.rstrip): wider than JSON's four whitespace bytes
// (jsonwire.TrimSpace), as the reference's healing strips.
func RStripSpace(b []byte) []byte {
	for len(b) > 0 {
		c := b[len(b)-1]
		if c < utf8.RuneSelf {
			if !IsStripSpace(rune(c)) {
				return b
			}
			b = b[:len(b)-1]
			continue
		}
		r, n := utf8.DecodeLastRune(b)
		if !IsStripSpace(r) {
			return b
		}
		b = b[:len(b)-n]
	}
	return b
}
