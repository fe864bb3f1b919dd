package deltaengine

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// What the JSON grammar takes next, in engine.expect.
const (
	eListOpen     uint8 = iota // in a block, before its list's '['
	eKeyOrClose                // after '{'
	eValueOrClose              // after '['
	eKey                       // after ',' in an object
	eValue                     // after ':', or ',' in an array
	eColon                     // after a key
	eCommaOrClose              // after a value
	eBlockDone                 // after the list's ']'
)

// escape checks the byte after a backslash in a string, which has an
// escape then (strEsc).
func (k *Engine) escape(c byte) {
	k.strEsc = true
	switch c {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
	case 'u':
		k.hexLeft = 4
	default:
		k.failJSON(nil) // (the escape is in buf)
	}
}

// scalarEnd checks the number or literal that ends at the end of buf, c
// the byte after it.
func (k *Engine) scalarEnd(c byte) {
	if scalarHeals(k.buf[k.strStart:]) {
		k.inScalar = false
		return
	}
	k.fail(k.jsonFault([]byte{c})) // (in the scalar: its caller reads c again, see fail)
	k.inScalar = false
}

// failJSON fails the block for the bytes of its open message, buf[msgStart:]
// followed by next (not in buf), which the JSON grammar rejects; outside a
// message, for byte next[0]. What the block yielded stands, the rest of it
// is skipped. Inside a message, as in the parser (complete mode's
// verdict), the failure counts when the message ends, or the block does:
// until then the block's brackets are only counted (broken).
func (k *Engine) failJSON(next []byte) {
	if len(k.stack) < 2 {
		c := byte(0)
		switch {
		case len(next) > 0:
			c = next[0]
		case len(k.buf) > 0:
			c = k.buf[len(k.buf)-1] // (a string outside a message, read the lost way)
		}
		k.failByte(c)
		return
	}
	if k.fail(k.jsonFault(next)); k.broken {
		k.skipBroken(next) // (as the bytes after them)
	}
}

// failByte fails the block for byte c, no message's.
func (k *Engine) failByte(c byte) {
	k.fail(&Fault{At: k.raw(len(k.buf)), Kind: FaultByte, Byte: c, InList: len(k.stack) == 1 && !k.bare})
}

// fail fails the block for f (see failJSON).
func (k *Engine) fail(f *Fault) {
	if !k.failed && len(k.stack) >= 2 {
		if (k.msgKind == kDataModel || k.msgKind == kData) && f.Kind == FaultJSON && !k.inStr {
			// The data read up to the break is yielded, as the parser
			// heals it at the chunk's end (a scalar the break is in
			// left out).
			if k.inScalar {
				// As before the scalar began: in an object, a colon
				// awaits its value.
				k.buf, k.inScalar = k.buf[:k.strStart], false
				if k.stack[len(k.stack)-1].open == '{' {
					k.pending = 2
				}
			}
			// (What it heals is checked whole, as a lost block's: the
			// bytes before the break may follow no grammar either.)
			lost := k.lost
			k.lost = true
			k.healOpen()
			k.lost = lost
		}
		k.failed, k.broken, k.err = true, true, f
		k.bDepth, k.bStr, k.bEsc = int32(len(k.stack)), k.inStr, false
		r := k.rare()
		r.bOpen, r.bAt, r.bFirm = r.bOpen[:0], k.raw(len(k.buf)), strings.HasPrefix(f.Msg, "mismatched")
		r.bRune, r.bBad = r.bRune[:0], -1
		if i := cutRune(k.buf); i >= 0 {
			// A character the break cuts goes on in the bytes after it
			// (one a scalar began with, say): its UTF-8 is checked
			// whole, as complete mode reads the message.
			r.bRune, r.bRuneAt = append(r.bRune, k.buf[i:]...), k.raw(i)
		}
		for _, fr := range k.stack {
			r.bOpen = append(r.bOpen, fr.open)
		}
		k.failWith(f) // (failed already: counts nothing)
		return
	}
	k.failWith(f)
}

// skipBroken reads b, bytes of a message after the byte that broke it
// (fail), counting its brackets outside strings: the failure counts when
// the message ends. As in complete mode, a closing bracket of the wrong
// kind fails the message there, with its own error, unless the break was
// one already.
func (k *Engine) skipBroken(b []byte) {
	r := k.rx
	for i := 0; i < len(b) && k.broken; i++ {
		c, at := b[i], r.bAt
		r.bAt++
		if (c >= utf8.RuneSelf || len(r.bRune) > 0) && !r.bFirm && r.bBad < 0 {
			k.brokenRune(c, at)
		}
		switch {
		case k.bEsc:
			k.bEsc = false
		case k.bStr:
			k.bStr, k.bEsc = c != '"', c == '\\'
		case c == '"':
			k.bStr = true
		case c == '{' || c == '[':
			k.bDepth++
			r.bOpen = append(r.bOpen, c)
		case c == '}' || c == ']':
			if n := len(r.bOpen); n > 0 {
				if top := r.bOpen[n-1]; top+2 != c && !r.bFirm {
					k.err = &Fault{At: at, Kind: FaultJSON, Msg: fmt.Sprintf("mismatched %q closes %q", c, top)}
					k.broken = false
					k.errs++
					return
				}
				r.bOpen = r.bOpen[:n-1]
			}
			if k.bDepth--; k.bDepth <= 1 {
				k.broken = false
				k.errs++
				// Complete mode checks the message's UTF-8 first, when
				// it ends.
				if f, _ := k.err.(*Fault); r.bBad >= 0 && f != nil && f.Kind != FaultUTF8 {
					k.err = &Fault{At: r.bBad, Kind: FaultUTF8}
				}
			}
		}
	}
}

// brokenRune reads byte c, at offset at, of a character of a broken
// message (skipBroken): the first that is invalid UTF-8 sets bBad.
func (k *Engine) brokenRune(c byte, at int) {
	r := k.rx
	if len(r.bRune) == 0 {
		r.bRuneAt = at
	}
	if r.bRune = append(r.bRune, c); utf8.FullRune(r.bRune) {
		if d, n := utf8.DecodeRune(r.bRune); d == utf8.RuneError && n == 1 {
			r.bBad = r.bRuneAt
		}
		r.bRune = r.bRune[:0]
	}
}

// countBroken counts bracket c, which broke the open message (fail), as
// the bytes after it are (skipBroken): it may end it.
func (k *Engine) countBroken(c byte) {
	if k.broken {
		k.skipBroken([]byte{c})
	}
}

// failWith fails the block for err, which Err returns: at once, whatever
// the block is reading.
func (k *Engine) failWith(err error) {
	if !k.failed {
		k.failed, k.broken, k.err = true, false, err
		k.errs++
	}
	k.stack, k.inStr, k.inScalar, k.esc, k.hexLeft = k.stack[:0], false, false, false, 0
	k.compStart, k.listA, k.valueA, k.msgKind, k.cur = -1, -1, -1, 0, nil
	k.expect = eBlockDone
}

// wholeNumber reports whether t, a scalar the chunk cut, is a whole
// number so far (one that may go on).
func wholeNumber(t []byte) bool {
	n, st := jsonwire.ScanNumber(t, 0, jsonwire.NumStart)
	return n == len(t) && st.Complete()
}

// scalarHeals reports whether t is a whole number or a whole literal: a
// scalar that ends so is valid, and one the chunk cut so heals as it is.
func scalarHeals(t []byte) bool {
	return wholeNumber(t) || len(t) > 0 && jsonwire.LiteralLen(t, 0) == len(t)
}

// scalarPrefix reports whether t can begin a number or a literal.
func scalarPrefix(t []byte) bool {
	if n, _ := jsonwire.ScanNumber(t, 0, jsonwire.NumStart); n == len(t) {
		return true
	}
	lit := jsonwire.Literal(t[0])
	return len(t) <= len(lit) && lit[:len(t)] == string(t)
}

// scalarByte reports whether c may go on a number or a literal (an end
// of one is any other byte).
func scalarByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+' || c == 'E'
}
