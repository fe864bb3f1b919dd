package parser

import (
	"encoding/binary"
	"hash/maphash"
	"strings"
	"unsafe"
)

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

// dataContents is what is known of the data: for an object, its entries
// (the last of each key); for a v0.8 list, its elements.
type dataContents struct {
	id    uint64 // which data (see dataChecked)
	repl  int    // entries replaced by a later one with the same key
	list  bool
	ents  []uint32 // the offset in arena of each entry
	arena entArena
	idx   keyIndex // key -> index in ents
	elems []dataElem
	// For the list: key -> index in elems of its last element with a
	// value (what contentsToDict keeps), and of its last element.
	valIdx, lastIdx keyIndex
}

// entArena holds the entries of a data object, since a large data model
// message has one entry per key (see TestLargeDataBlockHeap): each as
// its key's length (uvarint), its key, its encoding's length and its
// encoding, about the bytes of the entry in the message, instead of two
// strings (and their headers, 32 bytes an entry). It is only appended
// to, never written over (a reset drops it), so that the strings read
// from it (in place, see ent) stay what they are while a caller holds
// them; a record that keeps one past the data (keyRecord's map) copies
// it when the arena is large (see entKept). Offsets fit in 32 bits, as
// the key index's do: the arena is about the size of one message.
type entArena []byte

// add appends the entry key: enc, returning its offset.
func (a *entArena) add(key, enc string) uint32 {
	at := uint32(len(*a))
	b := binary.AppendUvarint(*a, uint64(len(key)))
	b = append(b, key...)
	b = binary.AppendUvarint(b, uint64(len(enc)))
	*a = append(b, enc...)
	return at
}

// at returns the offsets of the key and of the encoding of the entry at
// offset i: arena[ka:kb] and arena[ea:eb].
func (a entArena) at(i uint32) (ka, kb, ea, eb int) {
	n, w := uvarint(a[i:])
	ka = int(i) + w
	kb = ka + n
	m, v := uvarint(a[kb:])
	ea = kb + v
	return ka, kb, ea, ea + m
}

// uvarint reads a length the arena holds, and its width.
func uvarint(b []byte) (n, w int) {
	if b[0] < 0x80 {
		return int(b[0]), 1 // (the usual: below 128)
	}
	u, w := binary.Uvarint(b)
	return int(u), w
}

// view is b as a string, in place: b must not be written while the string
// is used.
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// ent returns entry i (its strings in place, see entArena).
func (c *dataContents) ent(i int) readEntry {
	ka, kb, ea, eb := c.arena.at(c.ents[i])
	return readEntry{view(c.arena[ka:kb]), view(c.arena[ea:eb])}
}

// entKept returns entry i for a record that keeps it past the data: in
// place when the arena is small (the record then keeps the arena, about
// the size of the strings it holds), else copied (one allocation).
func (c *dataContents) entKept(i int) readEntry {
	if cap(c.arena) <= maxSharedArena {
		return c.ent(i)
	}
	ka, kb, ea, eb := c.arena.at(c.ents[i])
	s := string(c.arena[ka:eb])
	return readEntry{s[:kb-ka], s[ea-ka:]}
}

// kept is s for a record that keeps it past the data: copied when it is
// a string of the arena and the arena is large (see entKept).
func (c *dataContents) kept(s string) string {
	if cap(c.arena) <= maxSharedArena || len(s) == 0 {
		return s
	}
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	if a := uintptr(unsafe.Pointer(unsafe.SliceData(c.arena))); p < a || p >= a+uintptr(cap(c.arena)) {
		return s
	}
	return strings.Clone(s)
}

// maxSharedArena is the size up to which an arena is kept by the records
// that keep its strings past the data, rather than copying them.
const maxSharedArena = 4 << 10

// entKey and elemKey are the keys of ents and elems, for their indexes.
func (c *dataContents) entKey(i int) string {
	at := c.ents[i]
	n, w := uvarint(c.arena[at:])
	ka := int(at) + w
	return view(c.arena[ka : ka+n])
}

func (c *dataContents) elemKey(i int) string { return c.elems[i].key }

// valAt returns the index in elems of key's last element with a value.
func (c *dataContents) valAt(key string) (int, bool) { return c.valIdx.get(key, c.elemKey) }

// valIs and lastIs report whether elems[i] is key's last element with a
// value, and key's last element.
func (c *dataContents) valIs(key string, i int) bool {
	j, ok := c.valAt(key)
	return ok && j == i
}

func (c *dataContents) lastIs(key string, i int) bool {
	j, ok := c.lastIdx.get(key, c.elemKey)
	return ok && j == i
}

// dataEntry is an entry of a data object: its key and its value's
// encodings (see data_record.go).
type dataEntry struct {
	key, out, cmp string
}

// readEntry is a complete entry as the reader holds it: its value is
// valid UTF-8 (the scanner checked it), so that its two encodings are the
// same, held once.
type readEntry struct {
	key, enc string
}

// entry is en as a dataEntry.
func (en readEntry) entry() dataEntry { return dataEntry{en.key, en.enc, en.enc} }

// dataElem is an element of a v0.8 contents list, as contentsToDict,
// latestEntries and pruneEntries read it.
type dataElem struct {
	key    string // its string "key" ("" if none)
	hasVal bool   // it has a value for contentsToDict
	cmp    string // the comparison encoding of that value
	pruned string // the element as pruneEntries leaves it, encoded ("" if dropped)
}

func (c *dataContents) reset(list bool, id uint64) {
	c.list, c.id, c.repl = list, id, 0
	c.ents = c.ents[:0]
	c.arena = nil
	c.idx.reset()
	clear(c.elems)
	c.elems = c.elems[:0]
	c.valIdx.reset()
	c.lastIdx.reset()
}

func (c *dataContents) addElem(el dataElem) {
	c.elems = append(c.elems, el)
	if el.key != "" {
		i := len(c.elems) - 1
		c.lastIdx.set(el.key, i, c.elemKey)
		if el.hasVal {
			c.valIdx.set(el.key, i, c.elemKey)
		}
	}
}

// addEntry adds the entry key: enc, replacing the one of key (whose
// value the records linked to c keep, see keyRecord).
func (r *dataReader) addEntry(c *dataContents, key, enc string) {
	if i, ok := c.idx.get(key, c.entKey); ok {
		r.pinEntry(c, i, key, c.ent(i).enc)
		c.ents[i] = c.arena.add(key, enc)
		c.repl++
		return
	}
	c.ents = append(c.ents, c.arena.add(key, enc))
	c.idx.set(key, len(c.ents)-1, c.entKey)
}
