package deltaengine

import (
	"hash/maphash"
	"unsafe"
)

// compTable is a surface's components by id: open addressing with linear
// probing in a power-of-two array, each slot's hash beside its entry, so
// that a probe reads an entry's id only when the hashes match. Nothing is
// removed from it (a surface's components go with the surface).
//
// It replaces a map[string]*entry, which cost more than the work around it
// in delta mode: most lookups are of ids read as bytes, most inserts follow
// a lookup that missed, and each map growth hashed every id again. Here a
// lookup of bytes hashes once and allocates nothing, growth moves the slots
// by their stored hashes, and a slot holds 12 bytes (the map's, about 25).
// The stored hash is the id's 32 low bits, which also place it: ids that
// share a home slot differ in its other bits, as a rule.
type compTable struct {
	hs   []uint32 // hs[i]: the hash of ents[i].id
	ents []*entry // nil: an empty slot
	n    int
}

// idSeed seeds the hashes of every compTable (one seed: a table's hashes
// need only agree among themselves).
var idSeed = maphash.MakeSeed()

// get returns the entry of id, or nil.
func (t *compTable) get(id []byte) *entry {
	e, _ := t.find(id)
	return e
}

// find returns the entry of id, or nil, and the hash of id, for put to
// add an entry of id without hashing it again.
func (t *compTable) find(id []byte) (*entry, uint32) {
	h := uint32(maphash.Bytes(idSeed, id))
	if t.n == 0 {
		return nil, h
	}
	mask := uint32(len(t.ents) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := t.ents[i]
		if e == nil {
			return nil, h
		}
		if t.hs[i] == h && e.id == string(id) {
			return e, h
		}
	}
}

// getString is get for an id held as a string (read as bytes, never
// written).
func (t *compTable) getString(id string) *entry {
	return t.get(unsafe.Slice(unsafe.StringData(id), len(id)))
}

// put adds e, whose id the table does not hold, of hash h (find's). The
// table grows past three quarters full.
func (t *compTable) put(e *entry, h uint32) {
	if (t.n+1)*4 > len(t.ents)*3 {
		t.grow()
	}
	t.place(e, h)
	t.n++
}

// place puts e, of hash h, in the first empty slot of its probe.
func (t *compTable) place(e *entry, h uint32) {
	mask := uint32(len(t.ents) - 1)
	i := h & mask
	for t.ents[i] != nil {
		i = (i + 1) & mask
	}
	t.ents[i], t.hs[i] = e, h
}

// grow doubles the table (8 slots at first), each entry placed by its
// stored hash: no id is hashed again.
func (t *compTable) grow() {
	ents, hs := t.ents, t.hs
	n := max(2*len(ents), 8)
	t.ents, t.hs = make([]*entry, n), make([]uint32, n)
	for i, e := range ents {
		if e != nil {
			t.place(e, hs[i])
		}
	}
}

// all yields every entry of the table, in no particular order.
func (t *compTable) all(yield func(*entry) bool) {
	for _, e := range t.ents {
		if e != nil && !yield(e) {
			return
		}
	}
}
