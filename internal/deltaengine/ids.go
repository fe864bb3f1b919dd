package deltaengine

import (
	"bytes"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// Ids and keys as the parser reads them: an id is compared and written as
// the canonical form writes it (escapes decoded and written again), and
// of a key given twice in an object, the last wins.

// ownID is the open component's id as ids are compared and written: as
// the canonical form writes it (escapes decoded and written again; a
// component with an escaped id is odd, see stringEnd), so that it is the
// id its parents name.
func (k *Engine) ownID() []byte {
	if !k.idEsc {
		return k.buf[k.idA:k.idB] // (the scanner saw no escape in it)
	}
	return k.idText(k.buf[k.idA:k.idB])
}

// idText is id, a JSON string's content, as the canonical form writes it.
func (k *Engine) idText(id []byte) []byte {
	if bytes.IndexByte(id, '\\') < 0 {
		return id
	}
	r := k.rare()
	r.idDec, _, _ = jsonwire.AppendUnescaped(r.idDec[:0], id)
	r.idEnc = jsonwire.AppendQuoted(r.idEnc[:0], string(r.idDec), false)
	return r.idEnc[1 : len(r.idEnc)-1]
}

// escapedID reports whether the string just closed, buf[a:b], has an
// escape the canonical form writes otherwise (as the parser, which then
// decodes the component).
func (k *Engine) escapedID(a, b int) bool {
	return k.strEsc && !bytes.Equal(k.idText(k.buf[a:b]), k.buf[a:b])
}

// keyTwice reports whether the object at buf[start] holds key buf[a:b]
// (read last) before it.
func (k *Engine) keyTwice(start, a, b int) bool {
	c := k.buf
	// (Read the lost way, the object's bytes may follow no grammar: the
	// walk stops at what is not a member.)
	for j := start + 1; j < a-1 && c[j] == '"'; {
		ka := j
		if j = jsonwire.StringEnd(c, j+1) + 1; j >= a || c[j] != ':' {
			return false
		}
		if bytes.Equal(c[ka+1:j-1], c[a:b]) {
			return true
		}
		if j = valueEnd(c, j+1); j < 0 || j >= a {
			return false
		}
		if c[j] == ',' {
			j++
		}
	}
	return false
}
