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
	ch  *nameChunks        // what placeholders are made from (nil: none yet)
}

// nameChunks holds the chunks the placeholders of a block are made from:
// their records, dropped with the caches at the block's end (releaseNames,
// compEntry.compact), and their encodings, which component ids and waits
// keep past the block (a chunk stays while one of them does). Emptied at
// the block's end, it goes to the pool with the block's scratch. No
// component holds a record past its block (its lookups, fastComp.pns, are
// dropped at the block's end, see releaseNames): the block's slabs of
// records are emptied then and kept, up to maxSpareSlabs, for the next
// block's placeholders. The chunks of encodings and of interned ids
// (carveID) are dropped, never reused.
type nameChunks struct {
	slab  []phName   // the slab of records being filled
	slabs [][]phName // the slabs filled before it, this block
	spare [][]phName // emptied slabs of earlier blocks, for the next ones
	enc   []byte
	ids   []byte // the interned ids of the block (see carveID)
}

// phSlab is the number of records of a slab, and maxSpareSlabs bounds the
// emptied slabs kept for the next block.
const (
	phSlab        = 16
	maxSpareSlabs = 4
)

// encChunk is the size of a chunk of placeholder encodings.
const encChunk = 512

// phName is the placeholder of a missing child: "loading_" and its id.
type phName struct {
	ph   string
	js   []byte // encoding of the placeholder component
	mark uint64 // processing epoch it was last used in (see processFast)
	idx  int32  // its index in that processing's waits
}

// id is the child's id.
func (p *phName) id() string { return p.ph[len("loading_"):] }

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
	s := n.carveID(b)
	n.ids[s] = s
	return s
}

// carveID returns a copy of b, in the block's chunk of ids unless it is
// long. The chunk is only appended to, never written over nor reused
// (the ids stay with the components past the block: a chunk stays while
// one of them does); the block's end drops it (see releaseSlabs).
func (n *idNames) carveID(b []byte) string {
	if len(b) == 0 || len(b) > maxCarveID {
		return string(b)
	}
	ch := n.ch
	if ch == nil {
		ch = new(nameChunks)
		n.ch = ch
	}
	if cap(ch.ids)-len(ch.ids) < len(b) {
		// (From minIDChunk, twice the last up to idChunk: a block's
		// few ids do not hold a large chunk.)
		ch.ids = make([]byte, 0, min(max(2*cap(ch.ids), minIDChunk), idChunk))
	}
	at := len(ch.ids)
	ch.ids = append(ch.ids, b...)
	return unsafe.String(&ch.ids[at], len(b))
}

// minIDChunk and idChunk are the sizes of a block's first and largest
// chunks of ids, and maxCarveID the longest id copied to one.
const (
	minIDChunk = 64
	idChunk    = 256
	maxCarveID = minIDChunk / 2
)

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
// encoding, in a chunk of encodings, also holds its name and the id when
// the id needs no escape.
func (n *idNames) newPlaceholder(b []byte, id string, enc func([]byte, string) []byte) *phName {
	if n.phs == nil || len(n.phs) >= maxNames {
		n.phs = make(map[string]*phName, 64)
	}
	if b != nil {
		id = unsafe.String(unsafe.SliceData(b), len(b)) // (a view of b: not kept)
	}
	ch := n.ch
	if ch == nil {
		ch = new(nameChunks)
		n.ch = ch
	}
	if need := len(id) + len(placeholderV08) + 12; cap(ch.enc)-len(ch.enc) < need {
		ch.enc = make([]byte, 0, max(need, encChunk))
	}
	start := len(ch.enc)
	ch.enc = enc(ch.enc, id)
	js := ch.enc[start:len(ch.enc):len(ch.enc)]
	if len(ch.slab) == cap(ch.slab) {
		ch.nextSlab()
	}
	ch.slab = append(ch.slab, phName{js: js})
	p := &ch.slab[len(ch.slab)-1]
	if at := len(js) - len(`"}`) - len(id); plainString(id) && at >= len("loading_") {
		// js ends with "loading_<id>"} (never written to: in place).
		p.ph = unsafe.String(&js[at-len("loading_")], len("loading_")+len(id))
	} else {
		p.ph = "loading_" + id
	}
	n.phs[p.id()] = p
	return p
}

// nextSlab moves the full slab of records to the block's, and starts an
// emptied one of an earlier block, else a new one.
func (ch *nameChunks) nextSlab() {
	if ch.slab != nil {
		ch.slabs = append(ch.slabs, ch.slab)
	}
	if k := len(ch.spare); k > 0 {
		ch.slab = ch.spare[k-1]
		ch.spare[k-1] = nil
		ch.spare = ch.spare[:k-1]
		return
	}
	ch.slab = make([]phName, 0, phSlab)
}

// releaseSlabs empties the block's slabs of records (nothing holds their
// records any more, see nameChunks) and keeps up to maxSpareSlabs of
// them for the next block; it drops the chunks of encodings and ids.
func (ch *nameChunks) releaseSlabs() {
	if ch.slab != nil {
		ch.slabs = append(ch.slabs, ch.slab)
	}
	for i, sl := range ch.slabs {
		ch.slabs[i] = nil
		if len(ch.spare) < maxSpareSlabs && cap(sl) == phSlab {
			clear(sl)
			ch.spare = append(ch.spare, sl[:0])
		}
	}
	*ch = nameChunks{slabs: ch.slabs[:0], spare: ch.spare}
}

// keepNames bounds the names a cache's map may hold to be kept, emptied,
// for the next block (see moveScratch); a larger one is dropped.
const keepNames = 256

// release empties the caches, keeping their maps when small and the
// holder of chunks (they go to the pool with the block's scratch, see
// releaseIdle): the names, placeholders and chunk of encodings are
// dropped, the slabs of records emptied and kept (see releaseSlabs).
func (n *idNames) release() {
	ids, phs := n.ids, n.phs
	if len(ids) > keepNames {
		ids = nil
	}
	if len(phs) > keepNames {
		phs = nil
	}
	clear(ids)
	clear(phs)
	if n.ch != nil {
		n.ch.releaseSlabs()
	}
	n.ids, n.phs = ids, phs
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
