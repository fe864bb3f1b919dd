package parser

import "slices"

// Memory bounds of the progressive modes
//
// The progressive modes remember every surface of a stream until its
// deleteSurface: its components, root, version and the data entries
// yielded for it. held is the set of surfaces they keep state for; only a
// held surface (or the unnamed one, "") gets entries in the engine's maps,
// and a message for one more surface than maxSurfaces is refused before it
// writes any. A surface holds at most maxComps components, and at most
// maxComps v0.8 messages waiting for its beginRendering.
//
// A refusal records a *LimitError that the next check returns (the message
// handlers, the end of a chunk, the start of a yield), which fails the
// block: what it yielded before stands, the rest is dropped, and the
// surfaces already held go on as before.

// The surface ids a message without one falls back to: a component or
// other message (orUnknown), a data model message (surfaceOr).
const (
	unknownSurface = "unknown"
	defaultSurface = "default"
)

// holds reports whether the engine keeps state for surface s. The ids a
// message without a surface falls back to (see orUnknown, surfaceOr) are
// always held, uncounted: they are a fixed few. So are deleted v0.8
// surfaces, whose late messages are ignored (their ids are themselves
// bounded, see rememberDeleted): a slot is taken again when one begins
// anew.
func (e *progressiveEngine) holds(s string) bool {
	if s == "" || s == e.lastHeld || s == unknownSurface || s == defaultSurface || e.deleted[s] != 0 {
		return true
	}
	if _, ok := e.held[s]; ok {
		e.lastHeld = s // the scanner asks again for every delimiter
		return true
	}
	return false
}

// admitSurface reports whether the engine may keep state for surface s,
// adding it to the held set while there is room.
func (e *progressiveEngine) admitSurface(s string) bool {
	if e.holds(s) {
		return true
	}
	if len(e.held) >= e.maxSurfaces {
		e.refuse("surfaces", e.maxSurfaces, s)
		return false
	}
	e.held[s] = struct{}{}
	e.lastHeld = s
	return true
}

// admitComponent reports whether surface s may hold one more component.
func (e *progressiveEngine) admitComponent(s *surfaceState) bool {
	if len(s.comps) < e.maxComps {
		return true
	}
	e.refuse("components", e.maxComps, s.id)
	return false
}

// admitPending reports whether one more v0.8 message may wait for the
// beginRendering of surface sid.
func (e *progressiveEngine) admitPending(sid string) bool {
	if len(e.pending[sid]) < e.maxComps {
		return true
	}
	e.refuse("components", e.maxComps, sid)
	return false
}

// refuse records a limit error, unless one is already waiting.
func (e *progressiveEngine) refuse(what string, max int, sid string) {
	if e.limitErr == nil {
		e.limitErr = &LimitError{What: what, Max: max, SurfaceID: sid}
	}
}

// takeLimitErr returns the limit error recorded since the last call, or
// nil.
func (e *progressiveEngine) takeLimitErr() error {
	if e.limitErr == nil {
		return nil
	}
	err := e.limitErr
	e.limitErr = nil
	return err
}

// The records of the data yielded (dataYielded: per surface and path, the
// last value yielded under each key) spare the progressive modes yielding
// an entry twice. They are bounded too: a surface keeps records for at most
// maxComps paths, and a path for at most maxComps keys plus those of one
// message. Past either bound the records start afresh: an entry may then be
// yielded again, and nothing is lost.

// boundDataSlots makes room for one more data path record of surface sid,
// forgetting all of its records when it has maxComps of them.
func (e *progressiveEngine) boundDataSlots(sid string) {
	if len(e.dataYielded[sid]) >= e.maxComps {
		e.forgetData(sid)
	}
}

// boundRecords drops, at a block end, the records that their next use
// would start afresh: in delta mode every record (a record is of one
// message, and a later block's messages are new), in progressive mode the
// records past the bound (dataState clears them at their next use, and
// counts the change then). Their storage is released at once instead of
// being kept while the stream idles.
// Only the records used since the last block end (recUsed) are looked
// at, so that the work stays proportional to the block's.
func (e *progressiveEngine) boundRecords() {
	for i, r := range e.recUsed {
		r.used = false
		e.recUsed[i] = nil
		switch {
		case e.dstate != nil && (r.keys.len() > 0 || r.keys.dropped):
			r.keys.unlink()
			r.keys = newKeyRecord(e.maxComps)
		case e.dstate == nil && r.keys.len() > e.maxComps:
			r.keys.unlink()
			r.keys = newKeyRecord(e.maxComps)
			r.keys.dropped = true
		}
	}
	e.recUsed = e.recUsed[:0]
	if cap(e.recUsed) > keepScratch {
		e.recUsed = nil
	}
}

// forgetData drops the data records of surface sid.
func (e *progressiveEngine) forgetData(sid string) {
	if len(e.dataYielded[sid]) == 0 {
		return
	}
	delete(e.dataYielded, sid)
	e.dataGen++
}

// deletion is a deleted v0.8 surface and the number of its deletion: an
// entry of deletedOrder is current while e.deleted holds that number for
// the id (a surface begun and deleted again has a newer one).
type deletion struct {
	id  string
	seq uint64
}

// rememberDeleted records a deleted v0.8 surface, whose later messages are
// ignored until a new beginRendering. At most maxSurfaces are remembered:
// beyond that the oldest deletion still current is forgotten (its
// stragglers are then handled as for a surface never seen). deletedOrder
// lists the deletions in order, current or not; the ones no longer
// current are dropped when it grows to twice the limit.
func (e *progressiveEngine) rememberDeleted(sid string) {
	for len(e.deleted) >= e.maxSurfaces && len(e.deletedOrder) > 0 {
		old := e.deletedOrder[0]
		e.deletedOrder = e.deletedOrder[1:]
		if e.deleted[old.id] == old.seq {
			delete(e.deleted, old.id)
		}
	}
	if len(e.deletedOrder) >= 2*e.maxSurfaces {
		e.deletedOrder = slices.DeleteFunc(e.deletedOrder, func(d deletion) bool { return e.deleted[d.id] != d.seq })
	}
	e.deletions++
	e.deleted[sid] = e.deletions
	e.deletedOrder = append(e.deletedOrder, deletion{sid, e.deletions})
}
