package parser

import (
	"slices"
	"strings"
)

// compEntry is one component seen for a surface, with what the snapshot
// needs of it cached: its references (topology), its processed form
// (placeholders, paths) encoded as JSON, and whether it validates. What
// only a component with placeholders or missing children needs is in
// lists, nil otherwise (so a surface whose children all arrived holds
// small entries).
type compEntry struct {
	fast  *fastComp  // its bytes, as read
	refs  []string   // ids it references (topology), de-duplicated
	pjson []byte     // processed form, encoded
	phs   []string   // placeholder ids the processed form uses, in order
	lists *compLists // their encodings and the waits (nil: none)
	id    string
	hash  uint64 // hash of pjson
	yHash uint64 // hash of the form last yielded
	depth int32  // depth below the root when it became reachable
	// judged: the wrapper (closingEnc.epoch) in which the catalog's fast
	// verdict found pjson, as a message of one component, valid and
	// decided when it was last processed (0: none; see listVerdict).
	judged uint32

	woken int32 // missing children that arrived since it was processed
	// phsYieldedN: the placeholders phs[:phsYieldedN] have been yielded
	// (or offered): they are in the surface's phYielded.
	phsYieldedN int32
	gen         uint32 // generation of its waits registrations (see waitRef)
	valid       int8   // 0 unknown, 1 valid, -1 invalid (for pjson)

	shared  bool // pjson is fast.src (never written to)
	selfRef bool
	reach   bool // reachable from the surface's root
	stale   bool // processed form must be recomputed (the component changed)
	usesBuf bool // processed form depends on the buffered text
	// reprocessed: processed since its last yield (its placeholders count
	// as changed for the snapshot size rule, see smallChange).
	reprocessed bool
	yOK         bool // a form was yielded
	isDirty     bool // in surfaceState.dirtyList
	isUnsent    bool // in surfaceState.unsentList
	// listed: in progressiveEngine.processed (what it keeps only while it
	// arrives is dropped when the block's state is released, see compact).
	listed bool
	// slotsKept: the form last processed was a byte-level one, and fast
	// has its child ids in its first fast.procN slots, maybe followed by
	// more (see processGrown).
	slotsKept bool
}

// compLists is what a component with placeholders or missing children
// keeps besides its entry.
type compLists struct {
	phJS       [][]byte // encodings of compEntry.phs
	waits      []string // ids of missing children the processed form depends on
	waitsSpare []string // buffer for the next waits
	waitN      []int    // how many placeholder references each of them has
	// arrived: the waits that arrived since the last processing (as many
	// as compEntry.woken; see dropArrived).
	arrived []string
	// phCat: the encodings of the first catN placeholders, each after a
	// comma, each once (the component's part of its snapshot's, see cat);
	// catSig: their idSignatures.
	phCat  []byte
	catSig uint64
	catN   int32

	// Storage for the lists above when they hold one element (a
	// component with one child that has not arrived, the common case):
	// processing starts them here instead of allocating.
	phsOne   [1]string
	phJSOne  [1][]byte
	waitsOne [1]string
	waitNOne [1]int
}

// waits returns the ids of the missing children ent's processed form
// depends on.
func (ent *compEntry) waits() []string {
	if ent.lists == nil {
		return nil
	}
	return ent.lists.waits
}

// waitRef records that a component's processed form (of generation gen)
// holds a placeholder for a missing child.
type waitRef struct {
	ent *compEntry
	gen uint32
}

// surfaceState holds the components seen for one surface and keeps, as
// they arrive, the set reachable from the root; snapshots are assembled
// from cached encodings, so the work per yield beyond the output itself
// is proportional to what changed.
type surfaceState struct {
	id    string
	comps map[string]*compEntry
	order []string // arrival order

	sorted []*compEntry // reachable components (by id unless sortedStale)
	// What is known of each id that components reference or wait for
	// (see target): tidx maps the id to its slot in tgts.
	tidx map[string]int32
	tgts []target
	// tgtsCompactAt is the size at which tgts is next compacted (see
	// compactTargets).
	tgtsCompactAt int
	root          string
	rootSet       bool
	rebuild       bool // reachability must be recomputed from scratch
	suspect       bool // a cycle, a shared child or a deep tree may have appeared
	selfRef       int  // components that reference themselves
	invalid       int  // reachable components whose processed form does not validate
	// reachBytes is the size of the encoded reachable components.
	reachBytes int
	deferred   bool // a snapshot was held back (see snapFull)

	dirtyList []*compEntry        // reachable components changed since the last check
	woken     map[string]struct{} // large components whose reprocessing waits (nil: none yet)
	bufDeps   map[string]struct{} // components whose processed form reads the buffer (nil: none yet)
	phYielded map[string]struct{} // placeholders yielded (nil: none)

	// Components and placeholders whose current form has not been sent.
	unsentList []*compEntry
	phUnsent   []string // (an id may appear twice: see unsentPlaceholders)

	// phsVer counts the changes to the placeholders of the snapshot: to a
	// reachable component's placeholders, or to the reachable set. It
	// starts at 1, so that phPartV (0) says phPart was never built.
	phsVer  uint64
	phPart  []byte // the snapshot's placeholders, each after a comma
	phBuf   []byte // phPart when it is no component's part (see snapshotPlaceholders)
	phPartV uint64 // phsVer when phPart was built

	sortedStale bool // sorted needs sorting
	sortedN     int  // length of its sorted prefix

	// wokenN counts the components with children that arrived since they
	// were processed (woken > 0): their placeholders may name components
	// that arrived.
	wokenN int
	// listed: in progressiveEngine.processedIn (see compact).
	listed bool
	// inUse: in progressiveEngine.inUse (frozen when the block's state is
	// released, see freeze).
	inUse bool
	// spared: its tables are a frozen surface's (see presize, fitTables).
	spared bool
	// frozen: the compact form of the components, comps, order, sorted,
	// tidx and tgts (nil: they are in their full form, see thaw).
	frozen *frozenSurface
	// ents: the chunks its new entries are taken from (see newEntry;
	// nil when frozen).
	ents *entChunks
}

// markDirty records that a component changed since the last check.
func (s *surfaceState) markDirty(ent *compEntry) {
	if !ent.isDirty {
		ent.isDirty = true
		s.dirtyList = append(s.dirtyList, ent)
	}
}

func (s *surfaceState) clearDirty() {
	for i, ent := range s.dirtyList {
		ent.isDirty = false
		s.dirtyList[i] = nil
	}
	s.dirtyList = s.dirtyList[:0]
}

// markUnsent records that a component's current form was not sent.
func (s *surfaceState) markUnsent(ent *compEntry) {
	if !ent.isUnsent {
		ent.isUnsent = true
		s.unsentList = append(s.unsentList, ent)
	}
}

func (s *surfaceState) clearUnsent() {
	for i, ent := range s.unsentList {
		ent.isUnsent = false
		s.unsentList[i] = nil
	}
	s.unsentList = s.unsentList[:0]
	clear(s.phUnsent)
	s.phUnsent = s.phUnsent[:0]
}

// addUnsentPh records that placeholder ph was not sent. The list is
// de-duplicated where it is read, and whenever its length reaches a power
// of two, so that calls that keep finding the same ones unsent (a snapshot
// held back) do not grow it.
func (s *surfaceState) addUnsentPh(ph string) {
	s.phUnsent = append(s.phUnsent, ph)
	if n := len(s.phUnsent); n >= 64 && n&(n-1) == 0 {
		slices.Sort(s.phUnsent)
		s.phUnsent = slices.Compact(s.phUnsent)
	}
}

// phWasYielded reports whether a placeholder id was yielded (or a
// component of that id).
func (s *surfaceState) phWasYielded(ph string) bool {
	if _, ok := s.phYielded[ph]; ok {
		return true
	}
	ent := s.comps[ph]
	return ent != nil && ent.yOK
}

// sortedEnts returns the reachable components in id order.
func (s *surfaceState) sortedEnts() []*compEntry {
	if !s.sortedStale {
		return s.sorted
	}
	s.sortedStale = false
	if k := s.sortedN; k <= len(s.sorted) && len(s.sorted)-k <= 8 {
		// A few were appended to the sorted prefix: insert them (a
		// binary search with the string comparison inline).
		for _, ent := range s.sorted[k:] {
			i, hi := 0, k
			for i < hi {
				if m := int(uint(i+hi) >> 1); s.sorted[m].id < ent.id {
					i = m + 1
				} else {
					hi = m
				}
			}
			copy(s.sorted[i+1:k+1], s.sorted[i:k])
			s.sorted[i] = ent
			k++
		}
	} else {
		slices.SortFunc(s.sorted, func(a, b *compEntry) int { return strings.Compare(a.id, b.id) })
	}
	s.sortedN = len(s.sorted)
	return s.sorted
}

func newSurfaceState(id string) *surfaceState {
	return &surfaceState{
		id:     id,
		phsVer: 1,
	}
}

// presize makes the tables and lists of a new surface for as many
// components as the last surface processed had (the scratch set b
// remembers it, see releaseNames; nil: none known), up to maxPresize.
func (s *surfaceState) presize(b *blockScratch) {
	n := 0
	if b != nil {
		n = min(b.comps, maxPresize)
		if k := len(b.tables); k > 0 && b.tables[k-1].nComps <= n {
			// A frozen surface's, emptied (see spareTables), no larger
			// than what would be made.
			t := b.tables[k-1]
			b.tables[k-1] = surfaceTables{}
			b.tables = b.tables[:k-1]
			s.comps, s.order, s.sorted, s.spared = t.comps, t.order, t.sorted, true
			if s.tidx == nil && t.tidx != nil && t.nTgts <= n {
				s.tidx, s.tgts = t.tidx, t.tgts
			}
		}
	}
	if s.comps == nil {
		s.comps = make(map[string]*compEntry, n)
		s.order = make([]string, 0, n)
	}
	if s.tidx == nil {
		s.tidx = make(map[string]int32, n)
		s.tgts = make([]target, 0, n)
	}
}

// maxPresize bounds the components a new surface's tables are made for
// (a hint may come from another stream's surface, see presize).
const maxPresize = 128

// putDecoded records a component that reached the engine decoded (see
// fastDecoded), complete or healed; one the reader skips is not recorded.
func (e *progressiveEngine) putDecoded(s *surfaceState, comp map[string]any) {
	if fc := e.fastDecoded(comp); fc != nil {
		e.putFast(s, fc)
	}
}

// putFast records a component read at byte level, and reports whether it
// is new or changed.
func (e *progressiveEngine) putFast(s *surfaceState, fc *fastComp) (changed bool) {
	return e.putFastEnt(s, fc, s.comps[fc.id])
}

// putFastEnt is putFast for fc's entry ent in s (nil: none).
func (e *progressiveEngine) putFastEnt(s *surfaceState, fc *fastComp, ent *compEntry) (changed bool) {
	if ent == nil && !e.admitComponent(s) {
		return false
	}
	var refs []string
	var self, haveRefs bool
	byValue := ent != nil && (ent.fast.rewrote || fc.rewrote)
	switch {
	case byValue:
		// One of the two is rewritten in its canonical encoding (the
		// other maybe not): fc equals it only if it has the same
		// references (compare those first) and the same value.
		refs, self = fc.refs(&e.names)
		haveRefs = true
		if slices.Equal(refs, ent.refs) && self == ent.selfRef && e.sameValue(ent.fast.src, fc.src) {
			return false
		}
	case ent != nil && (ent.fast == fc || string(ent.fast.src) == string(fc.src)):
		return false
	}
	if ent != nil && !byValue && sameSlots(ent.fast, fc) {
		// The common case of a component still arriving: it grew, and its
		// references did not change. The placeholders looked up for its
		// slots stay the same.
		if fc.pns == nil {
			fc.pns = ent.fast.pns
		}
		// The entry's last processing is ent.fast's: fc, if it was
		// processed before (an earlier form put back, as the replay of
		// v0.8 messages held until beginRendering does), has older bits,
		// and a child it found missing may have arrived since, waking no
		// one (processFast and processGrown trust these bits).
		fc.arrivedIn, fc.arrived, fc.missing, fc.procN = ent.fast.arrivedIn, ent.fast.arrived, ent.fast.missing, ent.fast.procN
		kept := ent.slotsKept
		ent = e.record(s, fc.id, ent, ent.refs, ent.selfRef)
		ent.fast, ent.slotsKept = fc, kept
		return true
	}
	if !haveRefs {
		refs, self = fc.refs(&e.names)
	}
	ent = e.record(s, fc.id, ent, refs, self)
	ent.fast = fc
	// An earlier form put back keeps what it knew of arrived children (a
	// component never leaves its surface), not which were missing: they
	// may have arrived while it was not the entry's form.
	fc.missing = 0
	return true
}

// sameSlots reports whether two byte-level components have the same child
// ids in the same fields and order (so the same references), all at the
// top level.
func sameSlots(a, b *fastComp) bool {
	if len(a.slots) != len(b.slots) || a.nested || b.nested {
		// (Below the top level, where a slot is decides whether it is a
		// reference.)
		return false
	}
	for i, sa := range a.slots {
		if sa.field != b.slots[i].field || string(a.slotID(i)) != string(b.slotID(i)) {
			return false
		}
	}
	return true
}

// record updates the surface for a new or changed component.
func (e *progressiveEngine) record(s *surfaceState, id string, ent *compEntry, refs []string, self bool) *compEntry {
	isNew := ent == nil
	if isNew {
		if s.comps == nil {
			s.presize(e.scratch)
		}
		ent = e.newEntry(s, id)
		s.comps[id] = ent
		s.order = append(s.order, id)
	}
	if ent.selfRef {
		s.selfRef--
	}
	if self {
		s.selfRef++
	}
	old := ent.refs
	ent.refs, ent.selfRef = refs, self
	ent.stale, ent.slotsKept = true, false
	if !isNew && len(old) == len(refs) && (len(refs) == 0 || &old[0] == &refs[0]) {
		// The same references (a component that grew in place).
		if ent.reach {
			s.markDirty(ent)
		}
		return ent
	}
	if ent.reach {
		// Only the references after the common prefix can differ (each
		// list holds distinct ids).
		k := 0
		for k < len(old) && k < len(refs) && old[k] == refs[k] {
			k++
		}
		oldT, newT := old[k:], refs[k:]
		inNew, inOld := memberOf(newT), memberOf(oldT)
		for _, r := range oldT {
			if inNew.has(r) {
				continue
			}
			tg := s.target(r)
			tg.inbound--
			if t := s.comps[r]; t != nil && t.reach && tg.inbound <= 0 && r != s.root {
				s.rebuild = true
			}
		}
		for _, r := range newT {
			if inOld.has(r) {
				continue
			}
			tg := s.target(r)
			tg.inbound++
			tg.noteDepth(int(ent.depth) + 1)
			if t := s.comps[r]; t != nil {
				if t.reach {
					s.suspect = true
				} else {
					s.makeReachable(r, int(ent.depth)+1)
				}
			}
		}
		s.markDirty(ent)
	}
	if isNew {
		inbound, depth := int32(0), 0
		if tg := s.findTarget(id); tg != nil {
			for _, w := range tg.waiters {
				if pe := s.comps[w.ent.id]; pe != nil && pe == w.ent && pe.gen == w.gen {
					if pe.woken == 0 {
						s.wokenN++
					}
					pe.woken++
					if l := pe.lists; l != nil {
						l.arrived = append(l.arrived, id)
					}
					if pe.reach {
						s.markDirty(pe)
					}
				}
			}
			clear(tg.waiters) // a slot of a shared chunk must not keep its entry alive
			tg.waiters = nil
			inbound = tg.inbound
			depth = int(tg.depth)
		}
		if s.rootSet && (id == s.root || inbound > 0) {
			if id == s.root {
				depth = 0
			}
			s.makeReachable(id, depth)
		}
	}
	return ent
}

// sameValue reports whether the compact JSON values a and b are equal
// (numbers by their text: 1 and 1.0 differ): whether their canonical
// encodings are. They are written to the component reader's scratch
// buffers, free between reads (a read's result is copied, see result).
func (e *progressiveEngine) sameValue(a, b []byte) bool {
	x := e.cs.x()
	var okA, okB bool
	x.canon, okA = x.cw.canonical(x.canon[:0], a)
	x.decoded, okB = x.cw.canonical(x.decoded[:0], b)
	return okA && okB && string(x.canon) == string(x.decoded)
}
