package parser

import (
	"bytes"
	"unicode/utf8"

	"github.com/a2ui-stream/a2ui-stream/internal/deltaengine"
)

// skipRegexpSpace returns the index of the first byte at or after i that
// is not whitespace as deltaengine.IsStripSpace understands it (the regular expression
// class \s), which is wider than JSON's four whitespace bytes
// (jsonwire.SkipSpace).
func skipRegexpSpace(b []byte, i int) int {
	for i < len(b) {
		c := b[i]
		if c < utf8.RuneSelf {
			if !deltaengine.IsStripSpace(rune(c)) {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if !deltaengine.IsStripSpace(r) {
			return i
		}
		i += n
	}
	return i
}

// healer closes a partial JSON fragment: it closes an open string when the
// string is the value of a cuttable key (or a key or array element), drops a
// trailing comma and closes the open objects and arrays. It keeps its
// scratch buffers between calls; results are valid until the next call.
type healer struct {
	stack []byte
	pos   []int // offsets in the fragment of the open containers
	out   []byte
	cut   bool // the last heal left a cut child id out
	// real: out[:real] of the last healOpenAt are the scanner's bytes (the
	// rest is what healing appended).
	real int

	// The last heal that left a cut child id out (see sameCut).
	last lastCut
}

// lastCut is a component healed by leaving a cut child id out: the buffer
// generation, the object's offset, the surface and the healed bytes.
type lastCut struct {
	ok      bool
	gen     uint64
	start   int
	surface string
	out     []byte
}

// sameCut reports whether the last heal left a cut child id out and gave
// the same bytes as the previous such heal of the same object (buffer
// generation gen, offset start) for the same surface: only the cut id grew
// since, so reading the component again would change nothing. While a
// child id arrives (most often the first of a list, which heals as an
// empty list read the slow way) this spares reading it again at every
// chunk. It records such a heal; any other forgets the last one.
func (h *healer) sameCut(gen uint64, start int, surface string, out []byte) bool {
	l := &h.last
	if !h.cut {
		l.ok = false
		return false
	}
	if l.ok && l.gen == gen && l.start == start && l.surface == surface && bytes.Equal(l.out, out) {
		return true
	}
	l.ok, l.gen, l.start, l.surface = true, gen, start, surface
	l.out = append(l.out[:0], out...)
	return false
}

// afterColon reports whether prefix ends with ':' and whitespace: a string
// that follows is a value.
func afterColon(prefix []byte) bool {
	p := deltaengine.RStripSpace(prefix)
	return len(p) > 0 && p[len(p)-1] == ':'
}

// cutChildID reports whether a string cut by the stream inside the list
// that follows before (the bytes up to the list's '[') is a child id: the
// list is the value of a "children" or "explicitList" key, the child
// fields whose list elements name components. Such a string is left out
// of a healed component: closed, it would name a component that does not
// exist (and get a placeholder of its own), once per prefix the stream
// cuts. The list then heals as one still arriving.
func cutChildID(before []byte) bool {
	if !afterColon(before) {
		return false
	}
	key, ok := keyBeforeColon(deltaengine.RStripSpace(before))
	if !ok {
		return false
	}
	switch string(key) {
	case "children", "explicitList":
		return true
	}
	return false
}

// mayCutString decides whether the string opened at f[quote] and cut at
// the end of f may be closed: always for keys and array elements; for
// values only under a cuttable key, and never for a valueString that looks
// like (or is keyed like) a URL.
func mayCutString(f []byte, quote int) bool {
	prefix := deltaengine.RStripSpace(f[:quote])
	if len(prefix) == 0 || prefix[len(prefix)-1] != ':' {
		return true
	}
	key, ok := keyBeforeColon(prefix)
	if !ok {
		return true
	}
	if !deltaengine.CuttableKey(key) {
		return false
	}
	if string(key) != "valueString" {
		return true
	}
	if deltaengine.URLText(f[quote+1:]) {
		return false // (a URL is never cut: see deltaengine.URLText)
	}
	dk, ok := lastDataKey(lastRunes(prefix, 200))
	return !ok || !deltaengine.URLKey(dk)
}

// keyBeforeColon extracts the key of `"key" :` at the end of prefix (which
// ends with ':'), as the pattern "([^"]+)"\s*:\s*$ does.
func keyBeforeColon(prefix []byte) ([]byte, bool) {
	p := deltaengine.RStripSpace(prefix[:len(prefix)-1])
	if len(p) == 0 || p[len(p)-1] != '"' {
		return nil, false
	}
	p = p[:len(p)-1]
	i := bytes.LastIndexByte(p, '"')
	if i < 0 || i == len(p)-1 {
		return nil, false
	}
	return p[i+1:], true
}

// lastRunes returns the last n characters of b.
func lastRunes(b []byte, n int) []byte {
	i := len(b)
	for k := 0; k < n && i > 0; k++ {
		if b[i-1] < utf8.RuneSelf {
			i-- // (what DecodeLastRune gives an ASCII byte, without the call)
			continue
		}
		_, size := utf8.DecodeLastRune(b[:i])
		i -= size
	}
	return b[i:]
}

// lastDataKey finds the last `"key" : "value"` in w and returns value, as
// the pattern "key"\s*:\s*"([^"]+)" does with findall.
func lastDataKey(w []byte) ([]byte, bool) {
	var found []byte
	ok := false
	pat := []byte(`"key"`)
	for i := 0; i < len(w); {
		j := bytes.Index(w[i:], pat)
		if j < 0 {
			break
		}
		pos := i + j + len(pat)
		k := skipRegexpSpace(w, pos)
		if k < len(w) && w[k] == ':' {
			k = skipRegexpSpace(w, k+1)
			if k < len(w) && w[k] == '"' {
				end := bytes.IndexByte(w[k+1:], '"')
				if end > 0 {
					found, ok = w[k+1:k+1+end], true
					i = k + 1 + end + 1
					continue
				}
			}
		}
		i = i + j + 1
	}
	return found, ok
}
