package parser

import (
	"hash/maphash"
	"slices"
)

// hashSeed keys the hashes of encoded components (compared to tell whether
// a component changed since it was last yielded).
var hashSeed = maphash.MakeSeed()

// Fields whose values name child components; a child that has not arrived
// is replaced by a placeholder component.
var childFields = [...]string{"children", "explicitList", "child", "contentChild", "entryPointChild", "componentId"}

// yieldReachable yields a snapshot of the components of the current surface
// reachable from its root, with placeholders for children that have not
// arrived, when something in it is new or changed (in delta mode, only what
// changed). updateDone says a complete update arrived: a large component's
// placeholders and a large snapshot are then redone at once (see below). A
// surface whose root component has not arrived is not an error: the
// protocol lets components come in any order.
func (e *progressiveEngine) yieldReachable(updateDone bool) error {
	if err := e.takeLimitErr(); err != nil {
		return err
	}
	sid := e.surface
	if sid == "" || !e.kindSeen {
		return nil
	}
	g := e.gateOf(sid) // (rootID and yieldedStart, once per surface)
	root, hasRoot := g.root, g.hasRoot
	if !hasRoot {
		root, hasRoot = e.defaultRoot, e.hasDefault
	}
	if !hasRoot || root == "" || !g.started || (len(e.deleted) > 0 && e.deleted[sid] != 0) {
		return nil
	}
	s := e.state(sid)
	// A surface whose root has not arrived has nothing reachable: its
	// components wait in s.comps for the root (the protocol lets them
	// come in any order), and nothing is yielded.
	s.setRoot(root)
	if s.rebuild || s.suspect || s.selfRef > 0 {
		if err := e.analyze(s); err != nil {
			return err
		}
	}
	// (Most calls find both sets empty: ranging over an empty map is not
	// free.)
	if len(s.bufDeps) > 0 {
		for id := range s.bufDeps {
			if ent := s.comps[id]; ent != nil && ent.reach {
				ent.stale = true
				s.markDirty(ent)
			}
		}
	}
	if len(s.woken) > 0 {
		for id := range s.woken {
			if ent := s.comps[id]; ent != nil {
				s.markDirty(ent)
			}
		}
		clear(s.woken)
	}
	should := false
	kept := s.dirtyList[:0]
	for _, ent := range s.dirtyList {
		if !ent.reach {
			ent.isDirty = false
			continue
		}
		kept = append(kept, ent)
		id := ent.id
		if !ent.stale && ent.woken > 0 {
			// Children that arrived turn placeholders into references. A
			// large component is redone only once an eighth of its
			// placeholders resolved (or, in progressive mode, an update
			// completed; in delta mode, the block ended), so that the work
			// and the output stay linear however many children it has.
			if len(ent.phs) <= 16 || int(ent.woken)*8 >= len(ent.phs) || e.redoWoken(updateDone) {
				ent.stale = true
			} else {
				if s.woken == nil {
					s.woken = map[string]struct{}{}
				}
				s.woken[id] = struct{}{}
			}
		}
		if ent.stale {
			e.process(s, id, ent)
		}
		if !ent.yOK || ent.yHash != ent.hash {
			should = true
			s.markUnsent(ent)
		}
		if int(ent.phsYieldedN) < len(ent.phs) {
			for _, ph := range ent.phs[ent.phsYieldedN:] {
				if !s.phWasYielded(ph) {
					should = true
					s.addUnsentPh(ph)
				}
			}
		}
	}
	clear(s.dirtyList[len(kept):])
	s.dirtyList = kept
	if e.delta && len(s.woken) > 0 && !s.deferred {
		// Redone at the block's end at the latest (flushDeferred).
		s.deferred = true
		e.deferredN++
	}
	if !should {
		s.clearDirty()
		return nil
	}
	if !e.delta && !updateDone && !e.forceYield && s.reachBytes > snapFull && e.smallChange(s) {
		// A large snapshot is yielded again only once an eighth of it
		// changed (or its update completed, or the block ended), so that
		// the output stays linear in the input however large a surface
		// grows. The pending changes stay dirty for the next call.
		if !s.deferred {
			s.deferred = true
			e.deferredN++
		}
		return nil
	}
	if s.deferred && (!e.delta || len(s.woken) == 0) {
		s.deferred = false
		e.deferredN--
	}
	valid := e.cat == nil || e.snapshotValid(s, sid)
	if valid {
		if e.delta {
			e.emitDelta(s, sid)
		} else {
			e.emitSnapshot(s, sid)
		}
	}
	for _, ent := range s.dirtyList {
		ent.yHash, ent.yOK, ent.reprocessed = ent.hash, true, false
		if int(ent.phsYieldedN) < len(ent.phs) {
			if s.phYielded == nil {
				s.phYielded = e.takePhMap()
			}
			for _, ph := range ent.phs[ent.phsYieldedN:] {
				s.phYielded[ph] = struct{}{}
			}
			ent.phsYieldedN = int32(len(ent.phs))
		}
	}
	s.clearDirty()
	return nil
}

// redoWoken reports whether a large component whose children arrived is
// redone now whatever their number. Progressive mode redoes it when an
// update completed, as the reference yields a whole snapshot for each
// complete message. Delta mode waits for an eighth of its placeholders to
// resolve until the block ends: a root listing n children that arrive in n
// messages of their own would otherwise be sent again n times (output
// quadratic in the input); meanwhile the children that arrived are yielded,
// and the root still names their placeholders.
func (e *progressiveEngine) redoWoken(updateDone bool) bool {
	if e.delta {
		return e.forceYield
	}
	return updateDone
}

// snapFull is the snapshot size (bytes of reachable components) up to
// which progressive mode yields every change.
const snapFull = 32 << 10

// smallChange reports whether what changed in the surface since its last
// snapshot is less than an eighth of the snapshot.
func (e *progressiveEngine) smallChange(s *surfaceState) bool {
	changed := 0
	for _, ent := range s.dirtyList {
		if !ent.yOK || ent.yHash != ent.hash {
			changed += len(ent.pjson)
		}
		if ent.reprocessed {
			changed += 64 * len(ent.phs)
		}
	}
	return changed*8 < s.reachBytes
}

// flushDeferred yields the snapshots held back by the size rule.
func (e *progressiveEngine) flushDeferred() error {
	if e.deferredN <= 0 {
		return nil
	}
	var err error
	saved := e.surface
	e.forceYield = true
	held := 0
	// In the order of their ids, so that the output does not depend on
	// the map's order.
	sids := make([]string, 0, e.deferredN)
	for sid, s := range e.seen {
		if s.deferred {
			sids = append(sids, sid)
		}
	}
	slices.Sort(sids)
	for _, sid := range sids {
		s := e.seen[sid]
		if sid != "" {
			e.surface = sid
			if ferr := e.yieldReachable(false); ferr != nil && err == nil {
				err = ferr
			}
		}
		if s.deferred {
			held++
		}
	}
	// Recounted: a surface forgotten while held back left the count.
	e.deferredN = held
	e.forceYield = false
	e.surface = saved
	return err
}

// state returns the component state of a surface.
func (e *progressiveEngine) state(sid string) *surfaceState {
	if e.cur != nil && e.curID == sid {
		return e.cur
	}
	s := e.seen[sid]
	if s == nil {
		s = newSurfaceState(sid)
		if !e.admitSurface(sid) {
			return s // refused: a scratch state, not kept
		}
		e.seen[sid] = s
		e.unbound = e.unbound || sid == ""
	}
	e.use(s)
	e.cur, e.curID = s, sid
	return s
}

// process recomputes a component's processed form and its encoding.
func (e *progressiveEngine) process(s *surfaceState, id string, ent *compEntry) {
	if !ent.listed {
		ent.listed = true
		e.processed = append(e.processed, ent)
	}
	if !s.listed {
		s.listed = true
		e.processedIn = append(e.processedIn, s)
	}
	if ver, woken := s.phsVer, ent.woken; e.processGrown(s, ent) {
		if s.phsVer != ver && woken > 0 && ent.lists != nil {
			// Placeholders removed (children arrived), maybe others
			// appended; with none woken, only appended (see cat).
			ent.lists.catN = 0
		}
		return
	}
	l := ent.lists
	if l != nil && len(l.arrived) > 0 {
		clear(l.arrived)
		l.arrived = l.arrived[:0]
	}
	oldWaits := ent.waits()
	e.phsOld = append(e.phsOld[:0], ent.phs...)
	p := placeholderSet{e: e, s: s, noArrival: ent.woken == 0}
	oldLen := len(ent.pjson)
	// Reuse the entry's buffers (nothing outside it keeps them).
	var reuse []byte
	if !ent.shared {
		reuse = ent.pjson[:0]
	}
	if l == nil && len(ent.fast.slots) > 0 {
		// Only a component with children can have placeholders.
		l = e.takeLists(ent)
		ent.lists = l
	}
	if l != nil {
		p.extra, p.extraJS, p.waits, p.waitN = ent.phs[:0], l.phJS[:0], l.waitsSpare[:0], l.waitN[:0]
		l.startLists(&p, oldWaits)
		l.waitsSpare = oldWaits
	}
	ent.pjson, ent.shared = p.processFast(ent.fast, reuse)
	ent.fast.procN = uint8(min(len(ent.fast.slots), 255))
	ent.hash = maphash.Bytes(hashSeed, ent.pjson)
	if ent.reach {
		s.reachBytes += len(ent.pjson) - oldLen
	}
	ent.phs, ent.usesBuf = p.extra, p.usesBuf
	if l == nil && (len(p.extra) > 0 || len(p.waits) > 0) {
		l = e.takeLists(ent)
		ent.lists = l
	}
	if l != nil {
		l.waits, l.waitN = p.waits, p.waitN
	}
	// Placeholders dropped since (children that arrived) leave what was
	// yielded of the others yielded; so does a list that kept the yielded
	// ones in front (a children list growing).
	keptYielded := 0
	if int(ent.phsYieldedN) == len(e.phsOld) && isSubsequence(ent.phs, e.phsOld) {
		keptYielded = len(ent.phs)
	} else {
		for n := min(int(ent.phsYieldedN), len(ent.phs)); keptYielded < n && ent.phs[keptYielded] == e.phsOld[keptYielded]; {
			keptYielded++
		}
	}
	if !slices.Equal(e.phsOld, ent.phs) {
		s.phsVer++
		if l != nil {
			l.catN = 0
		}
	}
	clear(e.phsOld)
	if l != nil {
		l.phJS = p.extraJS
	}
	// Register the waits. When they extend the previous ones, only the new
	// ones; otherwise all of them, in a new generation (the registrations
	// of older generations no longer count), so that each missing child
	// wakes the component exactly once.
	e.registerWaits(s, ent, oldWaits)
	if ent.usesBuf {
		if s.bufDeps == nil {
			s.bufDeps = map[string]struct{}{}
		}
		s.bufDeps[id] = struct{}{}
	} else {
		delete(s.bufDeps, id)
	}
	if ent.woken > 0 {
		s.wokenN--
	}
	ent.stale, ent.woken, ent.phsYieldedN, ent.reprocessed = false, 0, int32(keptYielded), true
	ent.slotsKept = true
	e.dropEmptyLists(ent)
	old := ent.valid
	ent.valid = 0
	if e.cat != nil {
		ent.valid = 1
		if !e.componentValid(s, ent) {
			ent.valid = -1
		}
	}
	if ent.reach {
		if old < 0 {
			s.invalid--
		}
		if ent.valid < 0 {
			s.invalid++
		}
	}
}

// startLists points the empty lists of p at l's one-element storage
// (see compLists.phsOne). The new waits must not share storage with the
// old ones, which registerWaits compares them with.
func (l *compLists) startLists(p *placeholderSet, oldWaits []string) {
	if cap(p.extra) == 0 {
		p.extra = l.phsOne[:0]
	}
	if cap(p.extraJS) == 0 {
		p.extraJS = l.phJSOne[:0]
	}
	if cap(p.waitN) == 0 {
		p.waitN = l.waitNOne[:0]
	}
	if cap(p.waits) == 0 && (cap(oldWaits) == 0 || &oldWaits[:1][0] != &l.waitsOne[0]) {
		p.waits = l.waitsOne[:0]
	}
}

// isSubsequence reports whether every element of sub appears in list, in
// the same order.
func isSubsequence(sub, list []string) bool {
	j := 0
	for _, x := range sub {
		for j < len(list) && list[j] != x {
			j++
		}
		if j == len(list) {
			return false
		}
		j++
	}
	return true
}

// registerWaits registers ent's waits (see process): afterwards each
// child it waits for has exactly one registration of the current
// generation. A registration stays valid while its child is still awaited;
// one whose child arrived was consumed by the arrival. So only the waits
// not in oldWaits are registered, after removing the registrations of the
// waits dropped since oldWaits whose child has not arrived (e.g. a child id
// that was cut and grew). When such a registration is costly to find, all
// the waits are registered again in a new generation instead (the
// registrations of older generations no longer count).
func (e *progressiveEngine) registerWaits(s *surfaceState, ent *compEntry, oldWaits []string) {
	waits := ent.waits()
	k := 0
	for k < len(oldWaits) && k < len(waits) && oldWaits[k] == waits[k] {
		k++
	}
	if k == len(oldWaits) {
		for _, w := range waits[k:] {
			e.addWaiter(s, w, waitRef{ent: ent, gen: ent.gen})
		}
		return
	}
	oldT, newT := oldWaits[k:], waits[k:]
	inNew, inOld := memberOf(newT), memberOf(oldT)
	dropped := 0 // dropped waits whose child has not arrived
	for _, w := range oldT {
		if inNew.has(w) {
			continue
		}
		if _, arrived := s.comps[w]; arrived {
			continue
		}
		if tg := s.findTarget(w); tg != nil && len(tg.waiters) > 4 {
			ent.gen++
			for _, w := range waits {
				e.addWaiter(s, w, waitRef{ent: ent, gen: ent.gen})
			}
			return
		}
		dropped++
	}
	for _, w := range oldT {
		if dropped == 0 {
			break
		}
		if inNew.has(w) {
			continue
		}
		if _, arrived := s.comps[w]; arrived {
			continue
		}
		dropped--
		if tg := s.findTarget(w); tg != nil {
			tg.waiters = slices.DeleteFunc(tg.waiters, func(r waitRef) bool { return r.ent == ent })
			if len(tg.waiters) == 0 {
				tg.waiters = nil
			}
		}
	}
	for _, w := range newT {
		if !inOld.has(w) {
			e.addWaiter(s, w, waitRef{ent: ent, gen: ent.gen})
		}
	}
}
