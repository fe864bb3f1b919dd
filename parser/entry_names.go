package parser

import (
	"unsafe"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// idNames interns component ids and their placeholders, so that the
// byte-level path does not allocate them again for every healed version of
// a component.
type idNames struct {
	ids map[string]string
	phs map[string]*phName // id -> its placeholder
	// The placeholders' records, taken from chunks: a block's are dropped
	// with the caches at its end (releaseNames, compEntry.compact), while
	// their encodings, which component ids and waits keep past the block,
	// are each an allocation of their own.
	slab []phName
}

// phName is the placeholder of a missing child.
type phName struct {
	id, ph string
	js     []byte // encoding of the placeholder component
	mark   uint64 // processing epoch it was last used in (see processFast)
	idx    int    // its index in that processing's waits
}

// maxNames bounds the interned names (the tables start afresh beyond it).
const maxNames = 1 << 16

// id returns id as an interned string.
func (n *idNames) id(b []byte) string {
	if s, ok := n.ids[string(b)]; ok {
		return s
	}
	if n.ids == nil || len(n.ids) >= maxNames {
		n.ids = make(map[string]string, 64)
	}
	s := string(b)
	n.ids[s] = s
	return s
}

// placeholder returns the placeholder of child id b; enc appends the
// encoding of a child's placeholder component (see
// appendChildPlaceholderJSON).
func (n *idNames) placeholder(b []byte, enc func([]byte, string) []byte) *phName {
	if p, ok := n.phs[string(b)]; ok {
		return p
	}
	return n.newPlaceholder(b, "", enc)
}

// placeholderOf is placeholder for a child id held as a string.
func (n *idNames) placeholderOf(id string, enc func([]byte, string) []byte) *phName {
	if p, ok := n.phs[id]; ok {
		return p
	}
	return n.newPlaceholder(nil, id, enc)
}

// newPlaceholder makes the placeholder of child id b (or, b nil, id). Its
// encoding is one allocation, which also holds its name and the id when
// the id needs no escape.
func (n *idNames) newPlaceholder(b []byte, id string, enc func([]byte, string) []byte) *phName {
	if n.phs == nil || len(n.phs) >= maxNames {
		n.phs = make(map[string]*phName, 64)
	}
	if b != nil {
		id = unsafe.String(unsafe.SliceData(b), len(b)) // (a view of b: not kept)
	}
	js := enc(make([]byte, 0, len(id)+len(placeholderV08)+12), id)
	if len(n.slab) == cap(n.slab) {
		n.slab = make([]phName, 0, 16)
	}
	n.slab = append(n.slab, phName{js: js[:len(js):len(js)]})
	p := &n.slab[len(n.slab)-1]
	if at := len(js) - len(`"}`) - len(id); plainString(id) && at >= len("loading_") {
		// js ends with "loading_<id>"} (never written to: in place).
		p.ph = unsafe.String(&js[at-len("loading_")], len("loading_")+len(id))
		p.id = p.ph[len("loading_"):]
	} else {
		if b != nil {
			id = string(b)
		}
		p.id, p.ph = id, "loading_"+id
	}
	n.phs[p.id] = p
	return p
}

// plainString reports whether s is encoded as it is in a JSON string.
func plainString(s string) bool {
	for i := 0; i < len(s); i++ {
		if !jsonwire.IsPlain(s[i]) {
			return false
		}
	}
	return true
}
