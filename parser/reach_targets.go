package parser

// target is what a surface knows of an id that its components reference
// or wait for, whether or not a component of that id arrived: one lookup
// serves the reachability counts, the depth and the waiters.
type target struct {
	inbound int32     // edges from reachable components
	depth   int32     // least depth of a reachable parent + 1 (0: none known)
	waiters []waitRef // components whose processed form waits for it (nil: none)
}

// target returns the target of id, adding it when new. The pointer is
// valid until the next target added.
func (s *surfaceState) target(id string) *target {
	if i, ok := s.tidx[id]; ok {
		return &s.tgts[i]
	}
	if len(s.tgts) >= max(s.tgtsCompactAt, minTargetsCompact) {
		s.compactTargets()
	}
	if s.tidx == nil {
		s.tidx = map[string]int32{} // (see presize)
	}
	s.tidx[id] = int32(len(s.tgts))
	s.tgts = append(s.tgts, target{})
	return &s.tgts[len(s.tgts)-1]
}

// minTargetsCompact is the least number of targets worth compacting.
const minTargetsCompact = 64

// compactTargets drops the targets that record nothing (no reachable
// component references the id, no component waits for it), which a
// surface whose components keep changing their children would otherwise
// gather without bound. It runs when tgts doubled since the last time, so
// its cost is spread over the targets added.
func (s *surfaceState) compactTargets() {
	kept := make([]target, 0, len(s.tgts)/2)
	for id, i := range s.tidx {
		t := s.tgts[i]
		if t.inbound == 0 && t.waiters == nil {
			delete(s.tidx, id)
			continue
		}
		s.tidx[id] = int32(len(kept))
		kept = append(kept, t)
	}
	s.tgts = kept
	s.tgtsCompactAt = 2 * len(kept)
}

// findTarget returns the target of id, or nil when there is none.
func (s *surfaceState) findTarget(id string) *target {
	if i, ok := s.tidx[id]; ok {
		return &s.tgts[i]
	}
	return nil
}

// addWaiter registers r as waiting for the missing child w of surface s.
// A child's first registration takes a slot of a chunk shared by all
// surfaces (most children have one parent), capped so that a second one
// moves the list out of it.
func (e *progressiveEngine) addWaiter(s *surfaceState, w string, r waitRef) {
	t := s.target(w)
	if t.waiters != nil {
		t.waiters = append(t.waiters, r)
		return
	}
	if len(e.waitPool) == cap(e.waitPool) {
		e.waitPool = make([]waitRef, 0, waitChunk)
	}
	n := len(e.waitPool)
	e.waitPool = append(e.waitPool, r)
	t.waiters = e.waitPool[n : n+1 : n+1]
}

// waitChunk is the number of first registrations allocated at once.
const waitChunk = 32
