package parser

// The entries of a surface's components are taken from chunks of entries
// that only that surface's new components take (newEntry), not allocated
// one by one. A surface holds its entries until it drops all of them at
// once: when it is frozen (freeze builds its compact form and drops its
// table) or deleted. So a chunk never keeps another surface's dropped
// entries alive, and the chunks of a surface just frozen hold nothing
// anyone reads: they are emptied and kept with the block's scratch lists
// for the next surfaces' new entries (spareEntries), within the block and
// beyond (the scratch goes to the pool at the block's end, see
// putScratch). A surface that stays in its full form at a block's end
// lets go of the holder of its chunks (letGoEntries): an idle stream
// keeps its entries, not the list of their chunks, which are then not
// reused. The entries thaw builds are in an array of their own, dropped
// when the surface is frozen again.

// entChunks are the chunks of entries of a surface in its full form.
type entChunks struct {
	cur  []compEntry   // the unused rest of the chunk being taken from
	all  [][]compEntry // the chunks, whole (cur's included)
	made int           // the entries taken
}

// maxSpareEnts bounds the entries of the emptied chunks a block keeps.
const maxSpareEnts = 64

// entChunkSize is the size of the next chunk of entries newEntry makes
// for a surface that took made entries: about a quarter of that, up to
// 5, among sizes whose arrays fill their allocation size class as an
// entry alone does (1, 2, 3: up to 512 bytes; 5: 768 bytes with the
// runtime's 8-byte header), so that a chunk costs no more than its
// entries allocated one by one, and a surface that stays in its full
// form at a block's end holds at most 4 unused entries.
func entChunkSize(made int) int {
	for _, n := range [...]int{5, 3, 2} {
		if made/4 >= n {
			return n
		}
	}
	return 1
}

// newEntry returns a new entry for component id of s, from s's chunks:
// from the chunk being taken from, else from an emptied chunk the block
// keeps (spareEntries), else from a new one.
func (e *progressiveEngine) newEntry(s *surfaceState, id string) *compEntry {
	b := e.scratch
	ch := s.ents
	if ch == nil {
		if b != nil && b.entHolder != nil {
			ch, b.entHolder = b.entHolder, nil
		} else {
			ch = new(entChunks)
		}
		s.ents = ch
	}
	if len(ch.cur) == 0 {
		if b != nil && len(b.entSpare) > 0 {
			k := len(b.entSpare) - 1
			ch.cur = b.entSpare[k]
			b.entSpareN -= len(ch.cur)
			b.entSpare[k] = nil
			b.entSpare = b.entSpare[:k]
		} else {
			ch.cur = make([]compEntry, entChunkSize(ch.made))
		}
		ch.all = append(ch.all, ch.cur)
	}
	ent := &ch.cur[0]
	ch.cur = ch.cur[1:]
	ch.made++
	// (An entry of a chunk kept for reuse may have been written to after
	// its surface froze: the holder of an open component lets go of it at
	// the block's end, see letGo.)
	*ent = compEntry{id: id}
	return ent
}

// letGoEntries ends the block for s, which stays in its full form: its
// entries stay in their chunks, which it no longer tracks (not to be
// reused: the entries are live), and the holder of chunks goes to the
// block's scratch; an idle stream does not keep it nor its list of chunks.
// Its next new entries start a chunk of their own.
func (e *progressiveEngine) letGoEntries(s *surfaceState) {
	ch := s.ents
	s.ents = nil
	if ch == nil {
		return
	}
	clear(ch.all)
	if b := e.scratch; b != nil && b.entHolder == nil {
		*ch = entChunks{all: ch.all[:0]}
		b.entHolder = ch
	}
}

// spareEntries takes the chunks of entries of s, which was just frozen
// (nothing refers to its entries any more), and keeps them, emptied, for
// the next new entries of any surface, up to maxSpareEnts entries; the
// others are dropped.
func (e *progressiveEngine) spareEntries(s *surfaceState) {
	ch := s.ents
	s.ents = nil
	if ch == nil {
		return
	}
	b := e.scratch
	for i, c := range ch.all {
		ch.all[i] = nil
		if b == nil || b.entSpareN+len(c) > maxSpareEnts {
			continue
		}
		clear(c)
		b.entSpare = append(b.entSpare, c)
		b.entSpareN += len(c)
	}
	if b != nil && b.entHolder == nil {
		*ch = entChunks{all: ch.all[:0]}
		b.entHolder = ch
	}
}
