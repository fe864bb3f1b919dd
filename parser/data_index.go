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

// set holds index i for key, replacing the index it held, which it
// returns (-1 if none); keyAt gives the key of an index held (keyAt(i) is
// key).
func (x *keyIndex) set(key string, i int, keyAt func(int) string) int {
	if 2*(x.n+1) > len(x.slots) {
		x.grow(keyAt)
	}
	mask := uint64(len(x.slots) - 1)
	for h := maphash.String(hashSeed, key) & mask; ; h = (h + 1) & mask {
		s := x.slots[h]
		if s == 0 {
			x.slots[h] = uint32(i + 1)
			x.n++
			return -1
		}
		if keyAt(int(s-1)) == key {
			x.slots[h] = uint32(i + 1)
			return int(s - 1)
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

// dataContents is what is known of the data: for an object, its entries
// (the last of each key); for a v0.8 list, its elements.
type dataContents struct {
	id    uint64 // which data (see dataChecked)
	repl  int    // entries replaced by a later one with the same key
	list  bool
	ents  []uint32 // the offset in arena of each entry
	arena entArena
	idx   keyIndex // key -> index in ents
	elems []string // each element of the list, encoded in slab (see encode)
	slab  []byte   // the chunk the elements are written to
	// For the list: key -> index in elems of its last element with a
	// value (what contentsToDict keeps), and of its last element.
	valIdx, lastIdx keyIndex
	// For the list: the elements that were their key's last, in the
	// order later ones of their key came; dataReader.latest sorts those it
	// has not taken yet when it takes them.
	superseded []int32
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

func (c *dataContents) elemKey(i int) string { return c.elem(i).key }

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

// A list's elements are held encoded, one string each, in chunks of bytes
// (slab) that are only appended to, never written over nor moved (a full
// chunk is left to the strings that view it; a reset drops the chunk), so
// that a string read from an element stays what it is while a record
// keeps it: a large data model message has one element per key (see
// TestLargeDataBlockHeap), and an element as a dataElem took 56 bytes,
// plus its pruned encoding allocated apart. An element's encoding is a
// flag byte (hasVal), the uvarints of its pruned form's length, of its
// key's offset and length and of its comparison encoding's offset and
// length (offsets into its data), then its data: the pruned form, then
// the key and the comparison encoding when they are not in it (a flat
// element's are: flatElement).
const (
	minSlabChunk = 256
	maxSlabChunk = 64 << 10
)

// encode appends el encoded to dst.
func (el dataElem) encode(dst []byte) []byte {
	data := len(el.pruned)
	ka, inK := within(el.key, el.pruned)
	if !inK {
		ka, data = data, data+len(el.key)
	}
	ca, inC := within(el.cmp, el.pruned)
	if !inC {
		ca = data
	}
	var flag byte
	if el.hasVal {
		flag = 1
	}
	dst = append(dst, flag)
	for _, n := range [...]int{len(el.pruned), ka, len(el.key), ca, len(el.cmp)} {
		dst = binary.AppendUvarint(dst, uint64(n))
	}
	dst = append(dst, el.pruned...)
	if !inK {
		dst = append(dst, el.key...)
	}
	if !inC {
		dst = append(dst, el.cmp...)
	}
	return dst
}

// within returns the offset of s in t when s is a part of t's bytes.
func within(s, t string) (int, bool) {
	if len(s) == 0 || len(t) == 0 {
		return 0, len(s) == 0
	}
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	a := uintptr(unsafe.Pointer(unsafe.StringData(t)))
	if p < a || p+uintptr(len(s)) > a+uintptr(len(t)) {
		return 0, false
	}
	return int(p - a), true
}

// decodeElem returns the element encoded in s (its strings parts of s).
func decodeElem(s string) dataElem {
	pl, j := strUvarint(s, 1)
	ka, j := strUvarint(s, j)
	kl, j := strUvarint(s, j)
	ca, j := strUvarint(s, j)
	cl, j := strUvarint(s, j)
	d := s[j:]
	return dataElem{key: d[ka : ka+kl], hasVal: s[0] == 1, cmp: d[ca : ca+cl], pruned: d[:pl]}
}

// strUvarint reads the uvarint at s[j], returning it and the index past
// it.
func strUvarint(s string, j int) (int, int) {
	if s[j] < 0x80 {
		return int(s[j]), j + 1 // (the usual: below 128)
	}
	u, w := binary.Uvarint(unsafe.Slice(unsafe.StringData(s[j:]), min(len(s)-j, binary.MaxVarintLen64)))
	return int(u), j + w
}

// elem returns element i (its strings in place, see slab).
func (c *dataContents) elem(i int) dataElem { return decodeElem(c.elems[i]) }

// holdsValue reports whether el, element i, is the last element of its
// key with a value (the one contentsToDict keeps).
func (c *dataContents) holdsValue(el dataElem, i int) bool {
	return el.key != "" && el.hasVal && c.valIs(el.key, i)
}

// clone returns el with strings of its own (one allocation: the encoding
// is written on the stack when it fits), for a caller that keeps it past
// the reader's scratch.
func (el dataElem) clone() dataElem {
	var buf [256]byte
	return decodeElem(string(el.encode(buf[:0])))
}

func (c *dataContents) reset(list bool, id uint64) {
	c.list, c.id, c.repl = list, id, 0
	c.ents = c.ents[:0]
	c.arena = nil
	c.idx.reset()
	clear(c.elems)
	c.elems = c.elems[:0]
	c.slab = nil
	c.valIdx.reset()
	c.lastIdx.reset()
	c.superseded = dropLarge(c.superseded, keepScratch)
}

// addElem adds el (its strings are copied, see slab).
func (c *dataContents) addElem(el dataElem) {
	// At most its data and a flag byte and five uvarints of 64 bits.
	if most := 1 + 5*binary.MaxVarintLen64 + len(el.pruned) + len(el.key) + len(el.cmp); cap(c.slab)-len(c.slab) < most {
		c.slab = make([]byte, 0, max(most, min(2*cap(c.slab), maxSlabChunk), minSlabChunk))
	}
	n := len(c.slab)
	c.slab = el.encode(c.slab) // (in place: it fits)
	c.elems = append(c.elems, view(c.slab[n:]))
	if el.key != "" {
		i := len(c.elems) - 1
		if p := c.lastIdx.set(el.key, i, c.elemKey); p >= 0 {
			c.superseded = append(c.superseded, int32(p))
		}
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
