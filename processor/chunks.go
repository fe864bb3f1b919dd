package processor

// The chunks of text a surface's records point into (see comp): the
// copies of the lists (or, for a large message, of the message) that
// carried its components, and the own chunks of components with escaped
// strings. Chunks and references no record uses any more are dropped by
// compact, in time linear in the surface and amortised over the updates
// that left them behind.

// storeChunks adds the update's pending chunks to the surface (the
// message's own only once per list) and returns, for each pending chunk,
// its index in s.chunks.
func (p *Processor) storeChunks(s *Surface) []int32 {
	p.chunkMap = append(p.chunkMap[:0], p.addCurChunk(s))
	for _, c := range p.pend[1:] {
		s.chunks = append(s.chunks, c)
		p.chunkMap = append(p.chunkMap, int32(len(s.chunks)-1))
	}
	return p.chunkMap
}

// addCurChunk returns the index of the current message's chunk in
// s.chunks, adding it unless the surface's last chunk is already it.
func (p *Processor) addCurChunk(s *Surface) int32 {
	if len(s.chunks) == 0 || s.lastChunk != p.curID {
		if s.chunks == nil {
			s.chunks = s.chunk0[:0:1] // no allocation for a surface's first chunk
		}
		s.chunks = append(s.chunks, p.cur)
		s.lastChunk, s.lastChunkAt = p.curID, int32(len(s.chunks)-1)
	}
	return s.lastChunkAt
}

// minChunks is the number of chunks a surface holds before compact looks
// at them.
const minChunks = 16

// compact drops the chunks no record points into once there are about as
// many as the surface has components, and the references of replaced
// records once they outnumber the rest.
func (s *Surface) compact() {
	if len(s.chunks) > minChunks && len(s.chunks) > s.chunkLimit {
		at := make([]int32, len(s.chunks))
		for i := range at {
			at[i] = -1
		}
		var kept []string
		for i := range s.comps {
			c := &s.comps[i]
			if at[c.chunk] < 0 {
				at[c.chunk] = int32(len(kept))
				kept = append(kept, s.chunks[c.chunk])
			}
			c.chunk = at[c.chunk]
		}
		s.chunks = kept
		s.lastChunk, s.lastChunkAt = 0, 0
		s.chunkLimit = len(kept) + max(minChunks, len(s.comps))
	}
	if s.deadRefs > 64 && 2*s.deadRefs > len(s.refs)+len(s.comps) {
		refs := make([]span, 0, len(s.refs)-s.deadRefs)
		for i := range s.comps {
			c := &s.comps[i]
			at := int32(len(refs))
			refs = append(refs, s.refs[c.refs:c.refs+c.nrefs]...)
			c.refs = at
		}
		s.refs, s.deadRefs = refs, 0
	}
}
