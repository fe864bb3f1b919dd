package parser

import "hash/maphash"

// keyIndex maps the keys of a list's items (a data object's entries, a
// v0.8 contents list's elements) to an item's index: what a
// map[string]int would, in 4 bytes a slot instead of a map's 24 and with
// no copy of the keys, which the list already holds. A large data model
// message has one item per key, so that this index is a part of the
// memory its reading holds (see TestLargeDataBlockHeap).
//
// It is an open-addressed table, probed linearly from the key's hash
// (hashSeed), at most half full; a slot holds an index plus one (0:
// empty). A lookup compares the key itself with the item's at each index
// it probes, so it is exact: a hash collision costs a probe, never a
// wrong index. Indices fit in 32 bits: the list of 2^32 items an overflow
// needs (of at least 24 bytes each) would not fit in memory first.
type keyIndex struct {
	slots []uint32
	n     int // keys held
}

// get returns the index held for key, keyAt giving the key of an index.
func (x *keyIndex) get(key string, keyAt func(int) string) (int, bool) {
	if x.n == 0 {
		return 0, false
	}
	mask := uint64(len(x.slots) - 1)
	for h := maphash.String(hashSeed, key) & mask; ; h = (h + 1) & mask {
		s := x.slots[h]
		if s == 0 {
			return 0, false
		}
		if i := int(s - 1); keyAt(i) == key {
			return i, true
		}
	}
}

// set holds index i for key, replacing the index it held; keyAt gives the
// key of an index held (keyAt(i) is key).
func (x *keyIndex) set(key string, i int, keyAt func(int) string) {
	if 2*(x.n+1) > len(x.slots) {
		x.grow(keyAt)
	}
	mask := uint64(len(x.slots) - 1)
	for h := maphash.String(hashSeed, key) & mask; ; h = (h + 1) & mask {
		s := x.slots[h]
		if s == 0 {
			x.slots[h] = uint32(i + 1)
			x.n++
			return
		}
		if keyAt(int(s-1)) == key {
			x.slots[h] = uint32(i + 1)
			return
		}
	}
}

// grow doubles the table (16 slots at first), placing the held indices
// again.
func (x *keyIndex) grow(keyAt func(int) string) {
	old := x.slots
	x.slots = make([]uint32, max(16, 2*len(old)))
	mask := uint64(len(x.slots) - 1)
	for _, s := range old {
		if s == 0 {
			continue
		}
		h := maphash.String(hashSeed, keyAt(int(s-1))) & mask
		for x.slots[h] != 0 {
			h = (h + 1) & mask
		}
		x.slots[h] = s
	}
}

// len returns the number of keys held.
func (x *keyIndex) len() int { return x.n }

// reset empties the index, keeping its table.
func (x *keyIndex) reset() {
	clear(x.slots)
	x.n = 0
}

// release empties the index and drops its table.
func (x *keyIndex) release() {
	x.slots, x.n = nil, 0
}
