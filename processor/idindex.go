package processor

import "hash/maphash"

// idIndex maps component ids to record indexes: an open-addressing hash
// table (linear probing, at most half full) whose entries hold the id's
// hash and the index, and no pointers: the ids themselves stay in the
// records (the caller compares them on a hash match).
type idIndex struct {
	e []uint64 // hash<<32 | index+1; 0 is an empty entry
	n int
}

// idSeed keys the id hashes: random per process, since ids come from the
// network.
var idSeed = maphash.MakeSeed()

// hashID hashes a component id.
func hashID(s string) uint32 {
	h := maphash.String(idSeed, s)
	return uint32(h) ^ uint32(h>>32)
}

// tableSize is the number of entries for n ids.
func tableSize(n int) int {
	size := 8
	for size < 2*n {
		size <<= 1
	}
	return size
}

// reset empties the index, sized for n ids. The entries' storage is
// reused unless it is much larger than needed.
func (x *idIndex) reset(n int) {
	size := tableSize(n)
	if cap(x.e) < size || cap(x.e) > 8*size {
		x.e = make([]uint64, size)
	} else {
		x.e = x.e[:size]
		clear(x.e)
	}
	x.n = 0
}

// insert adds an entry (the caller knows the id is absent).
func (x *idIndex) insert(h uint32, i int32) {
	if 2*(x.n+1) > len(x.e) {
		x.grow()
	}
	mask := uint32(len(x.e) - 1)
	pos := h & mask
	for x.e[pos] != 0 {
		pos = (pos + 1) & mask
	}
	x.e[pos] = uint64(h)<<32 | uint64(uint32(i+1))
	x.n++
}

func (x *idIndex) grow() {
	old := x.e
	x.e = make([]uint64, tableSize(x.n+1)*2)
	mask := uint32(len(x.e) - 1)
	for _, v := range old {
		if v == 0 {
			continue
		}
		pos := uint32(v>>32) & mask
		for x.e[pos] != 0 {
			pos = (pos + 1) & mask
		}
		x.e[pos] = v
	}
}

// find returns the index of the surface's component id (hash h), or -1.
func (s *Surface) find(h uint32, id string) int32 {
	e := s.idx.e
	if len(e) == 0 {
		return -1
	}
	mask := uint32(len(e) - 1)
	for pos := h & mask; ; pos = (pos + 1) & mask {
		v := e[pos]
		if v == 0 {
			return -1
		}
		if uint32(v>>32) == h {
			i := int32(uint32(v)) - 1
			c := &s.comps[i]
			if c.id.in(s.chunks[c.chunk]) == id {
				return i
			}
		}
	}
}

// findUpd returns the index of the update's record with id (hash h, the
// last one for a repeated id once indexUpdate has run), or -1.
func (p *Processor) findUpd(h uint32, id string) int32 {
	pos, ok := p.probeUpd(h, id)
	if !ok {
		return -1
	}
	return int32(uint32(p.uidx.e[pos])) - 1
}

// probeUpd returns the entry of the update index holding id (hash h) and
// true, or the empty entry where it would go and false.
func (p *Processor) probeUpd(h uint32, id string) (uint32, bool) {
	e := p.uidx.e
	mask := uint32(len(e) - 1)
	for pos := h & mask; ; pos = (pos + 1) & mask {
		v := e[pos]
		if v == 0 {
			return pos, false
		}
		if uint32(v>>32) == h {
			c := &p.upd[int32(uint32(v))-1]
			if c.id.in(p.pend[-c.chunk-1]) == id {
				return pos, true
			}
		}
	}
}
