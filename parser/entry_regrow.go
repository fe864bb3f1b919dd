package parser

import (
	"hash/maphash"
	"math/bits"
)

// This file is the processing of a component that only grew since it was
// last processed, the common case at a chunk's end: the open component
// took more bytes, but its child ids are those of the form last processed
// and none of its missing children arrived since. Its placeholders, waits
// and their registrations are then those of the last processing, and only
// its bytes are rewritten, in one pass, with no map lookup.

// processGrown is process for that case; it reports false, changing
// nothing, when the case does not apply.
func (e *progressiveEngine) processGrown(s *surfaceState, ent *compEntry) bool {
	fc := ent.fast
	if !ent.slotsKept || fc == nil || ent.woken > 0 || ent.usesBuf || fc.nEmpty > 0 || fc.more != nil ||
		e.cat != nil || len(fc.slots) > 64 || fc.arrivedIn != s {
		return false
	}
	// The slots that name a component that has not arrived (the arrived
	// ones are known since the last processing: an arrival since would
	// have woken the entry).
	miss := ^fc.arrived
	if n := len(fc.slots); n < 64 {
		miss &= 1<<n - 1
	}
	oldLen := len(ent.pjson)
	if miss == 0 {
		ent.pjson, ent.shared = fc.src, true
	} else {
		var out []byte
		if ent.shared {
			out = make([]byte, 0, len(fc.src)+bits.OnesCount64(miss)*len("loading_"))
		} else {
			out = ent.pjson[:0]
		}
		last := 0
		for i, sl := range fc.slots {
			if miss&(1<<i) == 0 {
				continue
			}
			out = append(out, fc.src[last:sl.a]...)
			out = append(out, "loading_"...)
			last = int(sl.a)
		}
		ent.pjson, ent.shared = append(out, fc.src[last:]...), false
	}
	ent.hash = maphash.Bytes(hashSeed, ent.pjson)
	if ent.reach {
		s.reachBytes += len(ent.pjson) - oldLen
	}
	ent.stale, ent.reprocessed = false, true
	return true
}
