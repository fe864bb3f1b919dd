package parser

import (
	"hash/maphash"
	"math/bits"
	"slices"
)

// This file is the incremental processing of a component read at byte
// level, the common case at a chunk's end: since it was last processed,
// the open component took more bytes, its child list may have grown at its
// end (new slots), and some of the children it waited for may have
// arrived. Processing it again from scratch (processFast, registerWaits)
// redoes every slot, O(n) per event and O(n^2) over a list of n children
// arriving one by one. Here only the new slots are looked up, registered
// and appended to the placeholder lists, only the missing slots are looked
// up again when children arrived (their placeholders and waits are removed
// from the lists), and the bytes are rewritten in one pass. The result is
// the one processFast would give: placeholders by child field, then in
// slot order, each once (appended slots must all be of the one field of
// the component's slots, so their placeholders come last).

// processGrown is process for that case; it reports false, changing
// nothing, when the case does not apply.
func (e *progressiveEngine) processGrown(s *surfaceState, ent *compEntry) bool {
	fc := ent.fast
	if !ent.slotsKept || fc == nil || ent.usesBuf || len(fc.empty) > 0 || fc.more != nil ||
		e.cat != nil || len(fc.slots) > 64 || fc.arrivedIn != s {
		return false
	}
	n, from := len(fc.slots), int(fc.procN)
	l := ent.lists
	if from > n || (ent.woken > 0 && l == nil) {
		return false
	}
	if from < n {
		// (Slots only appended: growFast keeps slotsKept only then.)
		f := fc.slots[0].field
		for _, sl := range fc.slots[1:] {
			if sl.field != f {
				return false
			}
		}
	}
	phsChanged := false
	if ent.woken > 0 {
		phsChanged = e.dropArrived(ent, from)
	}
	if from < n {
		if e.appendSlots(s, ent, from) {
			phsChanged = true
		}
		fc.procN = uint8(n)
	}
	if phsChanged {
		s.phsVer++
	}
	if ent.woken > 0 {
		s.wokenN--
		ent.woken = 0
	}
	e.rewriteMissing(s, ent)
	ent.stale, ent.reprocessed = false, true
	e.dropEmptyLists(ent)
	return true
}

// dropArrived updates ent's lists for the children that arrived since it
// was processed (l.arrived, among its first from slots): their slots are no
// longer missing, and their placeholders and waits leave the lists (their
// registrations were consumed by the arrivals). It reports whether the
// placeholders changed.
func (e *progressiveEngine) dropArrived(ent *compEntry, from int) bool {
	fc, l := ent.fast, ent.lists
	var gone uint64 // indexes in l.waits of the children that arrived
	for _, id := range l.arrived {
		j := slices.Index(l.waits, id)
		if j < 0 {
			continue
		}
		gone |= 1 << j
		for m := fc.missing & (1<<from - 1); m != 0; m &= m - 1 {
			if i := bits.TrailingZeros64(m); string(fc.slotID(i)) == id {
				fc.missing &^= 1 << i
				fc.arrived |= 1 << i
			}
		}
	}
	// (Lists of a few elements: cleared in place, not by clear's call.)
	clearFrom(l.arrived, 0)
	l.arrived = l.arrived[:0]
	if gone == 0 {
		return false
	}
	// What of the placeholders stays yielded: all that are left when all
	// were, else those before the first removed (as process counts it).
	oldN := len(ent.phs)
	first := bits.TrailingZeros64(gone)
	k := first // (those before the first removed stay where they are)
	for j := first + 1; j < len(l.waits); j++ {
		if gone&(1<<j) != 0 {
			continue
		}
		ent.phs[k], l.phJS[k], l.waits[k], l.waitN[k] = ent.phs[j], l.phJS[j], l.waits[j], l.waitN[j]
		k++
	}
	clearFrom(ent.phs, k)
	clearFrom(l.phJS, k)
	clearFrom(l.waits, k)
	ent.phs, l.phJS, l.waits, l.waitN = ent.phs[:k], l.phJS[:k], l.waits[:k], l.waitN[:k]
	if int(ent.phsYieldedN) == oldN {
		ent.phsYieldedN = int32(k)
	} else {
		ent.phsYieldedN = int32(min(int(ent.phsYieldedN), k, first))
	}
	return true
}

// clearFrom zeroes list[k:], a few elements, in place (not by clear's
// call).
func clearFrom[T any](list []T, k int) {
	var zero T
	for ; k < len(list); k++ {
		list[k] = zero
	}
}

// appendSlots looks up ent's slots from index from on (appended to its one
// child field since it was processed) and appends the placeholders and
// waits of those that name a missing child, registering the new waits. It
// reports whether placeholders were added.
func (e *progressiveEngine) appendSlots(s *surfaceState, ent *compEntry, from int) bool {
	fc := ent.fast
	n := len(fc.slots)
	if len(fc.pns) < n {
		pns := make([]*phName, n)
		copy(pns, fc.pns)
		fc.pns = pns
	}
	added := false
	for i := from; i < n; i++ {
		if fc.slots[i].field == cfRef {
			continue // (a reference only)
		}
		id := fc.slotID(i)
		if _, ok := s.comps[string(id)]; ok {
			fc.arrived |= 1 << i
			continue
		}
		fc.missing |= 1 << i
		l := ent.lists
		if l == nil {
			l = e.takeLists(ent)
			ent.lists = l
		}
		if j := indexOf(l.waits, id); j >= 0 {
			l.waitN[j]++ // another placement of a missing child
			continue
		}
		pn := fc.pns[i]
		if pn == nil {
			pn = e.names.placeholder(id, e.appendChildPlaceholderJSON)
			fc.pns[i] = pn
		}
		if n := len(ent.phs); n > 0 && n == cap(ent.phs) {
			growRows(ent, l)
		}
		ent.phs = appendOne(ent.phs, pn.ph, l.phsOne[:])
		l.phJS = appendOne(l.phJS, pn.js, l.phJSOne[:])
		l.waits = appendOne(l.waits, pn.id(), l.waitsOne[:])
		l.waitN = appendOne(l.waitN, 1, l.waitNOne[:])
		e.addWaiter(s, pn.id(), waitRef{ent: ent, gen: ent.gen})
		added = true
	}
	return added
}

// procBuf returns an empty buffer of capacity n at least for ent's
// processed form when it is not its bytes and its own array is shared or
// too small: the open buffers' (compSide.openP) when ent's component
// holds them (see holdSrc), so that a form rewritten chunk by chunk does
// not regrow arrays of its own (letGo gives it one when the component
// completes), else a new array.
func (e *progressiveEngine) procBuf(ent *compEntry, n int) []byte {
	if x := e.cs.side; x != nil && x.holderEnt == ent && x.holder == ent.fast {
		x.openP = slices.Grow(x.openP[:0], n)
		return x.openP
	}
	return make([]byte, 0, n)
}

// appendOne appends x to list, starting an empty list without capacity in
// one (the entry's one-element storage, see compLists.phsOne), and moving a
// full one to four elements at least (a list of children grows one by
// one).
func appendOne[T any](list []T, x T, one []T) []T {
	switch {
	case cap(list) == 0:
		list = one[:0]
	case len(list) == cap(list):
		list = append(make([]T, 0, max(4, 2*len(list))), list...)
	}
	return append(list, x)
}

// growRows moves ent's four lists of placeholders and waits (phs, phJS,
// waits, waitN), full and of one length n below 8, to arrays of twice
// that length (four at least, eight at most) allocated at once (see
// listRows); each list's capacity ends at its own array. Lists of other
// lengths, or longer, are left to appendOne.
func growRows(ent *compEntry, l *compLists) {
	n := len(ent.phs)
	if len(l.phJS) != n || len(l.waits) != n || len(l.waitN) != n || cap(l.phJS) != n || cap(l.waits) != n || cap(l.waitN) != n {
		return
	}
	phs, phJS, waits, waitN := listRows(min(max(4, 2*n), max(8, n+1)))
	if phs == nil {
		return
	}
	ent.phs = append(phs, ent.phs...)
	l.phJS, l.waits, l.waitN = append(phJS, l.phJS...), append(waits, l.waits...), append(waitN, l.waitN...)
}

// indexOf is the index of b in list, or -1.
func indexOf(list []string, b []byte) int {
	for j, x := range list {
		if x == string(b) {
			return j
		}
	}
	return -1
}

// rewriteMissing sets ent's processed form to its bytes with the ids of
// its missing slots (fc.missing) turned into placeholder ids.
func (e *progressiveEngine) rewriteMissing(s *surfaceState, ent *compEntry) {
	fc := ent.fast
	miss := fc.missing
	if n := len(fc.slots); n < 64 {
		miss &= 1<<n - 1
	}
	oldLen := len(ent.pjson)
	if miss == 0 {
		ent.pjson, ent.shared = fc.src, true
	} else {
		out := ent.pjson[:0]
		if n := len(fc.src) + bits.OnesCount64(miss)*len("loading_"); ent.shared || cap(out) < n {
			out = e.procBuf(ent, n)
		}
		last := 0
		for m := miss; m != 0; m &= m - 1 {
			sl := fc.slots[bits.TrailingZeros64(m)]
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
}
