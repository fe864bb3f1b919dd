package parser

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"slices"
	"sort"
	"strings"

	"github.com/a2ui-stream/a2ui-stream/protocol"
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
	root, hasRoot := e.rootID()
	if !hasRoot || root == "" || !e.kindSeen {
		return nil
	}
	sid := e.surface
	if sid == "" || !e.yieldedStart[sid] || e.deleted[sid] != 0 {
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
		if !ent.stale && ent.woken > 0 && e.cat == nil && ent.fast == nil && e.patchArrived(s, ent) {
			ent.woken = 0
		}
		if !ent.stale && ent.woken > 0 {
			// Children that arrived turn placeholders into references. A
			// large component is redone only once an eighth of its
			// placeholders resolved (or its update completed), so that
			// the work stays linear however many children it has.
			if len(ent.phs) <= 16 || updateDone || ent.woken*8 >= len(ent.phs) {
				ent.stale = true
			} else {
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
		if ent.phsYieldedN < len(ent.phs) {
			for _, ph := range ent.phs[ent.phsYieldedN:] {
				if !s.phWasYielded(ph) {
					should = true
					s.phUnsent[ph] = struct{}{}
				}
			}
		}
	}
	clear(s.dirtyList[len(kept):])
	s.dirtyList = kept
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
	if s.deferred {
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
		if ent.phsYieldedN < len(ent.phs) {
			for _, ph := range ent.phs[ent.phsYieldedN:] {
				s.phYielded[ph] = struct{}{}
			}
			ent.phsYieldedN = len(ent.phs)
		}
	}
	s.clearDirty()
	return nil
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
	for sid, s := range e.seen {
		if !s.deferred {
			continue
		}
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
	}
	e.cur, e.curID = s, sid
	return s
}

// process recomputes a component's processed form and its encoding.
func (e *progressiveEngine) process(s *surfaceState, id string, ent *compEntry) {
	oldWaits := ent.waits
	e.phsOld = append(e.phsOld[:0], ent.phs...)
	p := placeholderSet{e: e, s: s}
	var pval map[string]any
	oldLen := len(ent.pjson)
	if ent.fast != nil {
		// Reuse the entry's buffers (nothing outside it keeps them).
		var reuse []byte
		if !ent.shared {
			reuse = ent.pjson[:0]
		}
		p.extra, p.extraJS, p.waits, p.waitN = ent.phs[:0], ent.phJS[:0], ent.waitsSpare[:0], ent.waitN[:0]
		ent.startLists(&p, oldWaits)
		ent.waitsSpare = oldWaits
		ent.pjson, ent.shared = p.processFast(ent.fast, reuse)
	} else {
		pval = p.process(ent.raw)
		if ent.shared {
			ent.pjson, ent.shared = nil, false
		}
		ent.pjson = appendJSON(ent.pjson[:0], pval)
	}
	ent.hash = maphash.Bytes(hashSeed, ent.pjson)
	if ent.reach {
		s.reachBytes += len(ent.pjson) - oldLen
	}
	ent.phs, ent.waits, ent.waitN, ent.usesBuf = p.extra, p.waits, p.waitN, p.usesBuf
	// Placeholders dropped since (children that arrived) leave what was
	// yielded of the others yielded; so does a list that kept the yielded
	// ones in front (a children list growing).
	keptYielded := 0
	if ent.phsYieldedN == len(e.phsOld) && isSubsequence(ent.phs, e.phsOld) {
		keptYielded = len(ent.phs)
	} else {
		for n := min(ent.phsYieldedN, len(ent.phs)); keptYielded < n && ent.phs[keptYielded] == e.phsOld[keptYielded]; {
			keptYielded++
		}
	}
	if !slices.Equal(e.phsOld, ent.phs) {
		s.phsVer++
	}
	clear(e.phsOld)
	if ent.fast != nil {
		ent.phJS = p.extraJS
	} else {
		ent.phJS = nil
		for _, ph := range ent.phs {
			ent.phJS = append(ent.phJS, e.placeholderJSON(ph))
		}
	}
	// Register the waits. When they extend the previous ones, only the new
	// ones; otherwise all of them, in a new generation (the registrations
	// of older generations no longer count), so that each missing child
	// wakes the component exactly once.
	e.registerWaits(s, id, ent, oldWaits)
	if ent.usesBuf {
		s.bufDeps[id] = struct{}{}
	} else {
		delete(s.bufDeps, id)
	}
	ent.stale, ent.woken, ent.phsYieldedN, ent.reprocessed = false, 0, keptYielded, true
	old := ent.valid
	ent.valid = 0
	if e.cat != nil {
		if pval == nil {
			pval, _ = decodeObject(ent.pjson)
		}
		ent.valid = 1
		msg := e.componentMessage(s.id, []any{pval})
		if e.cat.Validate([]any{msg}, protocol.WithStrictIntegrity(false)) != nil {
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

// startLists points the empty lists of p at ent's one-element storage
// (see compEntry.phsOne). The new waits must not share storage with the
// old ones, which registerWaits compares them with.
func (ent *compEntry) startLists(p *placeholderSet, oldWaits []string) {
	if cap(p.extra) == 0 {
		p.extra = ent.phsOne[:0]
	}
	if cap(p.extraJS) == 0 {
		p.extraJS = ent.phJSOne[:0]
	}
	if cap(p.waitN) == 0 {
		p.waitN = ent.waitNOne[:0]
	}
	if cap(p.waits) == 0 && (cap(oldWaits) == 0 || &oldWaits[:1][0] != &ent.waitsOne[0]) {
		p.waits = ent.waitsOne[:0]
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
func (e *progressiveEngine) registerWaits(s *surfaceState, id string, ent *compEntry, oldWaits []string) {
	waits := ent.waits
	k := 0
	for k < len(oldWaits) && k < len(waits) && oldWaits[k] == waits[k] {
		k++
	}
	if k == len(oldWaits) {
		for _, w := range waits[k:] {
			e.addWaiter(s, w, waitRef{id: id, ent: ent, gen: ent.gen})
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
				e.addWaiter(s, w, waitRef{id: id, ent: ent, gen: ent.gen})
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
			e.addWaiter(s, w, waitRef{id: id, ent: ent, gen: ent.gen})
		}
	}
}

// patchArrived updates the encoded processed form of ent for children that
// arrived since it was processed, by turning their placeholder references
// back into the children's ids in place, which is what processing again
// would do. It reports false (and changes nothing) when the encoding does
// not hold exactly the expected placeholder references.
func (e *progressiveEngine) patchArrived(s *surfaceState, ent *compEntry) bool {
	if len(ent.waits) > 16 {
		return false // the large-component rule applies instead
	}
	var arrived []int
	for i, w := range ent.waits {
		if _, ok := s.comps[w]; ok {
			arrived = append(arrived, i)
		}
	}
	if len(arrived) == 0 || len(arrived) > 8 {
		return false
	}
	oldLen := len(ent.pjson)
	var pat [64]byte
	for _, i := range arrived {
		w := ent.waits[i]
		p := appendJSONString(append(pat[:0], `"loading_`...), w)
		p = append(p[:9], p[10:]...) // drop the quote appendJSONString opened
		if bytes.Count(ent.pjson, p) != ent.waitN[i] {
			return false
		}
	}
	for _, i := range arrived {
		w := ent.waits[i]
		p := appendJSONString(append(pat[:0], `"loading_`...), w)
		p = append(p[:9], p[10:]...)
		ent.pjson = bytes.ReplaceAll(ent.pjson, p, append([]byte{'"'}, p[9:]...))
		if j := slices.Index(ent.phs, "loading_"+w); j >= 0 {
			ent.phs = slices.Delete(slices.Clone(ent.phs), j, j+1)
			if j < ent.phsYieldedN {
				ent.phsYieldedN--
			}
			ent.phJS = slices.Delete(ent.phJS, j, j+1)
			s.phsVer++
		}
	}
	for k := len(arrived) - 1; k >= 0; k-- {
		i := arrived[k]
		ent.waits = slices.Delete(slices.Clone(ent.waits), i, i+1)
		ent.waitN = slices.Delete(slices.Clone(ent.waitN), i, i+1)
	}
	ent.hash = maphash.Bytes(hashSeed, ent.pjson)
	s.reachBytes += len(ent.pjson) - oldLen
	return true
}

// snapshotValid reports whether the snapshot passes the catalog: every
// component and placeholder in it does (components of an update are
// validated independently of each other).
func (e *progressiveEngine) snapshotValid(s *surfaceState, sid string) bool {
	if s.invalid > 0 {
		return false
	}
	if e.phValid == nil || len(e.phValid) >= maxNames {
		e.phValid = map[string]bool{} // a cache: bounded, as idNames
	}
	for _, ent := range s.dirtyList {
		for _, ph := range ent.phs {
			ok, known := e.phValid[ph]
			if !known {
				msg := e.componentMessage(sid, []any{e.placeholder(ph)})
				ok = e.cat.Validate([]any{msg}, protocol.WithStrictIntegrity(false)) == nil
				e.phValid[ph] = ok
			}
			if !ok {
				return false
			}
		}
	}
	return true
}

// placeholderJSON is the encoding of a placeholder component.
func (e *progressiveEngine) placeholderJSON(id string) []byte {
	if b, ok := e.phJSON[id]; ok {
		return b
	}
	if e.phJSON == nil || len(e.phJSON) >= maxNames {
		e.phJSON = map[string][]byte{} // a cache: bounded, as idNames
	}
	b := e.appendPlaceholderJSON(make([]byte, 0, len(id)+64), id)
	e.phJSON[id] = b
	return b
}

// emitSnapshot emits the full snapshot of the surface.
func (e *progressiveEngine) emitSnapshot(s *surfaceState, sid string) {
	ents := s.sortedEnts()
	phs := e.snapshotPlaceholders(s, ents)
	closing := e.closeComponentMessage(sid)
	open := e.openComponentMessage(nil)
	n := len(open) + len(phs) + len(closing)
	for _, ent := range ents {
		n += len(ent.pjson) + 1
	}
	b := append(e.out.store.alloc(n), open...)
	for i, ent := range ents {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, ent.pjson...)
	}
	b = append(b, phs...)
	b = append(b, closing...)
	e.emitRaw(b, e.fam == protocol.FamilyV08, sid)
	s.clearUnsent()
}

// snapshotPlaceholders returns the placeholders of the snapshot of ents
// (the surface's reachable components, in id order): each distinct one in
// order of first use, encoded after a comma. It is built again only when
// the surface's phsVer moved (a reachable component's placeholders, or the
// reachable set, changed).
func (e *progressiveEngine) snapshotPlaceholders(s *surfaceState, ents []*compEntry) []byte {
	if s.phPartV == s.phsVer {
		return s.phPart
	}
	s.phPartV = s.phsVer
	out := s.phPart[:0]
	nph := 0
	for _, ent := range ents {
		nph += len(ent.phs)
	}
	useMap := nph > 32
	if useMap {
		if e.phSeen == nil {
			e.phSeen = map[string]struct{}{}
		}
		clear(e.phSeen)
	}
	seen := e.snapPhs[:0]
	var sig uint64 // one bit per placeholder seen, by idSignature
	for _, ent := range ents {
		for k, ph := range ent.phs {
			if useMap {
				if _, dup := e.phSeen[ph]; dup {
					continue
				}
				e.phSeen[ph] = struct{}{}
			} else {
				bit := idSignature(ph)
				if sig&bit != 0 && slices.Contains(seen, ph) {
					continue
				}
				sig |= bit
				seen = append(seen, ph)
			}
			out = append(out, ',')
			out = append(out, ent.phJS[k]...)
		}
	}
	clear(seen)
	e.snapPhs = seen[:0]
	s.phPart = out
	return out
}

// emitDelta emits only the components and placeholders of the snapshot not
// yet sent in their current form.
func (e *progressiveEngine) emitDelta(s *surfaceState, sid string) {
	phs := e.deltaPhs[:0]
	ents := e.deltaEnts[:0]
	for _, ent := range s.unsentList {
		if ent.reach {
			ents = append(ents, ent)
		}
	}
	inUseBuilt := false
	for id := range s.phUnsent {
		if ent := s.comps[id]; ent != nil {
			if ent.reach && !ent.isUnsent {
				ents = append(ents, ent)
			}
			continue
		}
		if e.cat == nil {
			// Every snapshot is yielded, so what is unsent is what the
			// components changed in this one use.
			phs = append(phs, id)
			continue
		}
		if !inUseBuilt {
			e.placeholdersInUse(s)
			inUseBuilt = true
		}
		if _, ok := e.phSeen[id]; ok {
			phs = append(phs, id)
		}
	}
	s.clearUnsent()
	e.deltaPhs, e.deltaEnts = phs, ents[:0]
	if len(ents)+len(phs) == 0 {
		return
	}
	if len(ents) > 1 {
		slices.SortFunc(ents, func(a, b *compEntry) int { return strings.Compare(a.id, b.id) })
	}
	if len(phs) > 1 {
		slices.Sort(phs)
	}
	closing := e.closeComponentMessage(sid)
	open := e.openComponentMessage(nil)
	n := len(open) + len(closing)
	for _, ent := range ents {
		n += len(ent.pjson) + 1
	}
	phJS := e.deltaPhJS[:0]
	for _, ph := range phs {
		js := e.placeholderJSON(ph)
		phJS = append(phJS, js)
		n += len(js) + 1
	}
	b := append(e.out.store.alloc(n), open...)
	for i, ent := range ents {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, ent.pjson...)
	}
	for i, js := range phJS {
		if i > 0 || len(ents) > 0 {
			b = append(b, ',')
		}
		b = append(b, js...)
	}
	b = append(b, closing...)
	clear(phJS)
	e.deltaPhJS = phJS[:0]
	e.emitRaw(b, false, sid)
}

// placeholdersInUse collects in e.phSeen the placeholders of the current
// snapshot: those of the changed components, or, when an earlier snapshot
// was held back (it did not validate), of every reachable component.
func (e *progressiveEngine) placeholdersInUse(s *surfaceState) {
	if e.phSeen == nil {
		e.phSeen = map[string]struct{}{}
	}
	use := e.phSeen
	clear(use)
	for _, ent := range s.dirtyList {
		for _, ph := range ent.phs {
			use[ph] = struct{}{}
		}
	}
	for id := range s.phUnsent {
		if _, ok := s.comps[id]; ok {
			continue
		}
		if _, ok := use[id]; !ok {
			for _, ent := range s.comps {
				if ent.reach {
					for _, ph := range ent.phs {
						use[ph] = struct{}{}
					}
				}
			}
			return
		}
	}
}

// openComponentMessage starts the encoding of a component message (keys in
// sorted order, as every message is encoded).
func (e *progressiveEngine) openComponentMessage(b []byte) []byte {
	if b == nil {
		if e.fam == protocol.FamilyV09 {
			return openUpdateComponents
		}
		return openSurfaceUpdate
	}
	if e.fam == protocol.FamilyV09 {
		return append(b, openUpdateComponents...)
	}
	return append(b, openSurfaceUpdate...)
}

var (
	openUpdateComponents = []byte(`{"updateComponents":{"components":[`)
	openSurfaceUpdate    = []byte(`{"surfaceUpdate":{"components":[`)
)

// closeComponentMessage returns the end of the encoding of a component
// message about surface sid (its surface id and, in the v0.9 family, its
// version), valid until the next call. The last one is kept, and reused
// while surface, family and version stay the same.
func (e *progressiveEngine) closeComponentMessage(sid string) []byte {
	ver := ""
	if e.fam == protocol.FamilyV09 {
		ver = e.versionFor(sid)
	}
	c := &e.closing
	if c.ok && c.sid == sid && c.ver == ver && c.fam == e.fam {
		return c.enc
	}
	b := append(c.enc[:0], `],"surfaceId":`...)
	b = appendJSONString(b, sid)
	if e.fam == protocol.FamilyV09 {
		b = append(b, `},"version":`...)
		b = appendJSONString(b, ver)
		b = append(b, '}')
	} else {
		b = append(b, "}}"...)
	}
	*c = closingEnc{ok: true, sid: sid, ver: ver, fam: e.fam, enc: b}
	return b
}

// closingEnc is the last end of a component message encoded.
type closingEnc struct {
	ok       bool
	sid, ver string
	fam      protocol.Family
	enc      []byte
}

// componentMessage wraps components in the family's component message.
func (e *progressiveEngine) componentMessage(sid string, list []any) map[string]any {
	if e.fam == protocol.FamilyV09 {
		return map[string]any{
			"version":         e.versionFor(sid),
			kUpdateComponents: map[string]any{"surfaceId": sid, "components": list},
		}
	}
	return map[string]any{kSurfaceUpdate: map[string]any{"surfaceId": sid, "components": list}}
}

// appendPlaceholderJSON appends the encoding of placeholder id (the
// encoding of e.placeholder(id), keys sorted) without building the map.
func (e *progressiveEngine) appendPlaceholderJSON(b []byte, id string) []byte {
	if e.fam == protocol.FamilyV09 {
		b = append(b, `{"children":[],"component":"Row","id":`...)
	} else {
		b = append(b, `{"component":{"Row":{"children":{"explicitList":[]}}},"id":`...)
	}
	b = appendJSONString(b, id)
	return append(b, '}')
}

// placeholder returns the family's loading placeholder component.
func (e *progressiveEngine) placeholder(id string) map[string]any {
	if e.fam == protocol.FamilyV09 {
		return map[string]any{"id": id, "component": "Row", "children": []any{}}
	}
	return map[string]any{"id": id, "component": map[string]any{"Row": map[string]any{"children": map[string]any{"explicitList": []any{}}}}}
}

// placeholderSet builds processed copies of components for one snapshot,
// collecting the placeholders they need (each once, in first-use order).
type placeholderSet struct {
	e       *progressiveEngine
	s       *surfaceState
	extra   []string // placeholder ids, each once, in first-use order
	waits   []string // missing child ids
	waitN   []int    // placements of each missing child's placeholder
	usesBuf bool
	extraJS [][]byte            // encodings of extra (byte-level path only)
	haveP   map[string]struct{} // extra as a set, once it grows
	haveW   map[string]int      // index in waits, once it grows
}

// setFrom is the list size from which membership uses a map.
const setFrom = 12

// add records placeholder id for missing child (none when ""), and
// reports whether id is new.
func (p *placeholderSet) add(id, missing string) (isNew bool) {
	switch {
	case p.haveP != nil:
		if _, ok := p.haveP[id]; !ok {
			p.haveP[id] = struct{}{}
			p.extra = append(p.extra, id)
			isNew = true
		}
	case !slices.Contains(p.extra, id):
		p.extra = append(p.extra, id)
		isNew = true
		if len(p.extra) >= setFrom {
			p.haveP = make(map[string]struct{}, 2*len(p.extra))
			for _, x := range p.extra {
				p.haveP[x] = struct{}{}
			}
		}
	}
	if missing == "" {
		return isNew
	}
	i := -1
	if p.haveW != nil {
		if j, ok := p.haveW[missing]; ok {
			i = j
		}
	} else {
		i = slices.Index(p.waits, missing)
	}
	if i >= 0 {
		// Count the placements of an already-missing child.
		p.waitN[i]++
		return isNew
	}
	p.waits = append(p.waits, missing)
	p.waitN = append(p.waitN, 1)
	if p.haveW != nil {
		p.haveW[missing] = len(p.waits) - 1
	} else if len(p.waits) >= setFrom {
		p.haveW = make(map[string]int, 2*len(p.waits))
		for j, x := range p.waits {
			p.haveW[x] = j
		}
	}
	return isNew
}

// process returns a copy of comp with missing children replaced by
// placeholders and (v0.8) data binding paths normalised.
func (p *placeholderSet) process(comp map[string]any) map[string]any {
	if !p.needsWalk(comp, 0) {
		return comp
	}
	compID := fmt.Sprint(comp["id"])
	if def, ok := comp["component"].(map[string]any); ok {
		out := make(map[string]any, len(comp))
		for k, v := range comp {
			out[k] = v
		}
		out["component"] = p.walk(def, compID)
		return out
	}
	return p.walk(comp, compID).(map[string]any)
}

// processFast is process for a component read at byte level: its bytes,
// with the ids of children that have not arrived turned into placeholder
// ids. shared reports that the result is fc.src itself.
func (p *placeholderSet) processFast(fc *fastComp, out []byte) ([]byte, bool) {
	miss := p.e.missScratch[:0]
	missing := 0
	var fields uint8 // child fields of the missing slots, as bits
	var known uint64
	if fc.arrivedIn == p.s {
		known = fc.arrived
	}
	for i := range fc.slots {
		ok := i < 64 && known&(1<<i) != 0
		if !ok {
			_, ok = p.s.comps[string(fc.slotID(i))]
			if ok && i < 64 {
				known |= 1 << i
			}
		}
		miss = append(miss, !ok)
		if !ok {
			missing++
			fields |= 1 << fc.slots[i].field
		}
	}
	p.e.missScratch = miss
	fc.arrivedIn, fc.arrived = p.s, known
	if missing == 0 {
		return fc.src, true
	}
	// Placeholders in the order the generic walk meets them: by child
	// field, then in list order; each once (a placeholder and its missing
	// child go together), counting the placements of each child.
	if fc.pns == nil {
		fc.pns = make([]*phName, len(fc.slots))
	}
	p.e.epoch++
	epoch := p.e.epoch
	// At most one placeholder per missing slot: grow the lists once.
	p.extra, p.extraJS = slices.Grow(p.extra, missing), slices.Grow(p.extraJS, missing)
	p.waits, p.waitN = slices.Grow(p.waits, missing), slices.Grow(p.waitN, missing)
	for f := range uint8(cfNestedList + 1) {
		if fields&(1<<f) == 0 {
			continue
		}
		for i, sl := range fc.slots {
			if sl.field != f || !miss[i] {
				continue
			}
			pn := fc.pns[i]
			if pn == nil {
				pn = p.e.names.placeholder(fc.slotID(i), p.e.placeholderJSON)
				fc.pns[i] = pn
			}
			if pn.mark == epoch {
				p.waitN[pn.idx]++
				continue
			}
			pn.mark, pn.idx = epoch, len(p.waits)
			p.extra = append(p.extra, pn.ph)
			p.extraJS = append(p.extraJS, pn.js)
			p.waits = append(p.waits, pn.id)
			p.waitN = append(p.waitN, 1)
		}
	}
	if out == nil {
		out = make([]byte, 0, len(fc.src)+missing*len("loading_"))
	}
	last := 0
	for i, sl := range fc.slots {
		if !miss[i] {
			continue
		}
		out = append(out, fc.src[last:sl.a]...)
		out = append(out, "loading_"...)
		last = int(sl.a)
	}
	return append(out, fc.src[last:]...), false
}

// needsWalk reports whether v holds anything the processing rewrites: a
// child field (or, in v0.8, a data binding path) in some object.
func (p *placeholderSet) needsWalk(v any, depth int) bool {
	switch x := v.(type) {
	case map[string]any:
		if depth > 0 || p.e.fam == protocol.FamilyV08 {
			if _, ok := x["path"]; ok && p.e.fam == protocol.FamilyV08 {
				return true
			}
		}
		for k, val := range x {
			switch k {
			case "children", "explicitList", "child", "contentChild", "entryPointChild", "componentId":
				return true
			}
			switch val.(type) {
			case map[string]any, []any:
				if p.needsWalk(val, depth+1) {
					return true
				}
			}
		}
	case []any:
		for _, item := range x {
			if p.needsWalk(item, depth+1) {
				return true
			}
		}
	}
	return false
}

func childKey(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// walk copies v, applying the placeholder and path rules to every object.
func (p *placeholderSet) walk(v any, compID string) any {
	switch x := v.(type) {
	case map[string]any:
		obj := make(map[string]any, len(x))
		for k, val := range x {
			obj[k] = val
		}
		if p.e.fam == protocol.FamilyV08 {
			if path, ok := obj["path"].(string); ok && strings.HasPrefix(path, "/") {
				if _, keep := obj["componentId"]; !keep {
					clear(obj)
				}
				obj["path"] = "/" + strings.TrimLeft(path, "/")
			} else if cur, ok := obj["path"]; ok && cur != nil {
				obj["path"] = "/" + pyStr(cur)
			}
		}
		for _, field := range childFields {
			val, ok := obj[field]
			if !ok {
				continue
			}
			switch cv := val.(type) {
			case []any:
				kids := make([]any, 0, len(cv))
				for _, child := range cv {
					ck := childKey(child)
					if _, seen := p.s.comps[ck]; seen {
						kids = append(kids, child)
						continue
					}
					pid := "loading_" + ck
					kids = append(kids, pid)
					p.add(pid, ck)
				}
				if len(kids) == 0 && (field == "children" || field == "explicitList") {
					p.usesBuf = true
					if p.e.listStillOpen(field) {
						pid := "loading_children_" + compID
						kids = append(kids, pid)
						p.add(pid, "")
					}
				}
				obj[field] = kids
			case string:
				if _, seen := p.s.comps[cv]; !seen {
					pid := "loading_" + cv
					obj[field] = pid
					p.add(pid, cv)
				}
			}
		}
		var nested []string
		for k, val := range obj {
			switch val.(type) {
			case map[string]any, []any:
				nested = append(nested, k)
			}
		}
		sort.Strings(nested)
		for _, k := range nested {
			obj[k] = p.walk(obj[k], compID)
		}
		return obj
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = p.walk(item, compID)
		}
		return out
	}
	return v
}

// listStillOpen is the reference's check that an empty child list is a
// list still arriving: the last `"field"` in the buffered message is
// followed by a '[' with no ']' before it.
func (e *progressiveEngine) listStillOpen(field string) bool {
	buf := e.sc.buf
	term := []byte(`"` + field + `"`)
	i := bytes.LastIndex(buf, term)
	if i < 0 {
		return false
	}
	after := buf[i+len(term):]
	j := bytes.IndexByte(after, '[')
	if j < 0 {
		return false
	}
	return bytes.IndexByte(after[:j], ']') < 0
}

// pyStr renders a non-string path value as Python's str() would, close
// enough for the JSON values a path can hold.
func pyStr(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		if x {
			return "True"
		}
		return "False"
	case json.Number:
		return x.String()
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// idSignature is one bit of 64 chosen by an id's length and last byte: ids
// with distinct signatures are distinct, which spares most comparisons
// when looking for repeats among a few ids.
func idSignature(id string) uint64 {
	h := uint(len(id))
	if len(id) > 0 {
		h += uint(id[len(id)-1]) * 7
	}
	return 1 << (h & 63)
}
