package deltaengine

import (
	"hash/maphash"
	"maps"
	"slices"
	"strings"
)

// flush yields the queued reachable components whose form changed, then
// the placeholders they first need, each list sorted by id as the parser
// sorts them, as one updateComponents message.
func (k *Engine) flush(final bool) {
	for len(k.queue) > 0 {
		// The entries of one surface at a time (almost always all of
		// them); the others wait in rest.
		s, n := k.queue[0].s, 0
		for _, e := range k.queue {
			if e.s != s {
				k.rest = append(k.rest, e)
			} else {
				k.queue[n], n = e, n+1
			}
		}
		clear(k.queue[n:])
		k.queue = k.queue[:n]
		if !s.begun {
			// It yields nothing before it begins (begin queues its
			// components then).
			for _, e := range k.queue {
				e.queued = false
			}
			k.queue, k.rest = append(k.queue[:0], k.rest...), k.rest[:0]
			continue
		}
		if s.suspect {
			if err := k.topology(s); err != nil {
				k.failWith(err)
				k.dropQueue()
				return
			}
		}
		if k.progressive {
			k.snapshot(s, final)
		} else {
			k.changes(s)
		}
		k.queue, k.rest = append(k.queue[:0], k.rest...), k.rest[:0]
	}
	if final && k.rx != nil && k.rx.deferred > 0 {
		// The snapshots held back, in the order of their surfaces' ids.
		for _, id := range slices.Sorted(maps.Keys(k.surfaces)) {
			if s := k.surfaces[id]; s.deferred && s.begun {
				k.snapshot(s, true)
			}
		}
	}
}

// dropQueue empties the queue of a failed block. (The forms its entries
// kept are stale: a snapshot makes them anew.)
func (k *Engine) dropQueue() {
	for _, e := range k.queue {
		e.queued = false
		e.dropForm()
	}
	for _, e := range k.rest {
		e.queued = false
		e.dropForm()
	}
	if k.body != nil {
		k.body.s = nil // (it holds forms dropped)
	}
	k.queue, k.rest = k.queue[:0], k.rest[:0]
}

// dropForm drops the form progressive mode keeps of e: the next snapshot
// makes it anew.
func (e *entry) dropForm() {
	if e.snap != nil {
		*e.snap = snapForm{}
	}
}

// changes yields the queued components of surface s whose form changed,
// then the placeholders they first need (see flush). With a catalog, a
// change held back (see catalog.go) is yielded with the next that passes:
// its components and placeholders wait in s.unsent, as in the parser.
func (k *Engine) changes(s *surface) {
	// Locals, stored back once: a store to the engine's fields is a
	// pointer write, which costs a write barrier while the GC marks.
	ents, phs, out := k.ents[:0], k.phs[:0], k.out
	for _, e := range k.queue {
		if e.reach && e.arrived {
			ents = append(ents, e) // (still queued: marked as in ents)
		} else {
			e.queued = false
		}
	}
	k.queue = k.queue[:0]
	u := s.unsent
	if u != nil {
		for _, e := range u.ents {
			if e.reach && e.arrived && !e.queued {
				e.queued, ents = true, append(ents, e)
			}
		}
	}
	for _, e := range ents {
		e.queued = false
	}
	k.snapGen++ // (marks the round's placeholders: see below)

	if len(ents) > 1 { // (almost always one, the component arriving: no sort)
		slices.SortFunc(ents, func(a, b *entry) int { return strings.Compare(a.id, b.id) })
	}
	start := len(out)
	out = k.openMessage(out)
	first := len(out)
	kids, held := k.kids, false
	for _, e := range ents {
		at := len(out)
		if at > first {
			out = append(out, ',')
		}
		from := len(out)
		out, kids = k.form(out, e, kids[:0])
		n := len(phs)
		for _, kid := range kids {
			if !kid.phYielded {
				kid.phYielded, kid.snapGen, phs = true, k.snapGen, append(phs, kid)
			}
		}
		if k.cat != nil {
			k.judge(s, e, out[from:])
			held = held || !k.placeholdersPass(s, phs[n:])
		}
		if h := maphash.Bytes(k.seed, out[from:]); h != e.hash || e.unsent {
			e.hash = h
		} else {
			out = out[:at] // as last yielded
		}
	}
	if u != nil {
		for _, p := range u.phs {
			if !p.arrived && p.snapGen != k.snapGen {
				p.snapGen, phs = k.snapGen, append(phs, p)
				held = held || k.cat != nil && !k.placeholderPasses(s, p) // (held back before: judged again)
			}
		}
	}
	if len(phs) > 1 {
		slices.SortFunc(phs, func(a, b *entry) int { return strings.Compare(a.id, b.id) })
	}
	for _, p := range phs {
		if k.shadowed(s, p) {
			continue
		}
		if len(out) > first {
			out = append(out, ',')
		}
		out = k.placeholder(out, p)
	}
	switch {
	case held || s.bad > 0:
		// Held back by the catalog: what changed counts as yielded, and
		// waits for the next change that passes.
		out = out[:start]
		if u == nil {
			u = &unsent{}
			s.unsent = u
		}
		u.hold(ents, phs)
	case len(out) == first:
		out = out[:start]
	default:
		out = k.closeMessage(out, s)
		k.offs = append(k.offs, start, len(out))
		if u != nil {
			u.release()
			s.unsent = nil
		}
	}
	clear(kids)
	k.ents, k.phs, k.kids, k.out = ents[:0], phs[:0], kids[:0], out
}

// unsent is what a surface's changes held back by the catalog would have
// yielded (see changes).
type unsent struct{ ents, phs []*entry }

// hold adds ents and phs to u, each once (entry.unsent, unsentPh).
func (u *unsent) hold(ents, phs []*entry) {
	for _, e := range ents {
		if !e.unsent {
			e.unsent, u.ents = true, append(u.ents, e)
		}
	}
	for _, p := range phs {
		if !p.unsentPh {
			p.unsentPh, u.phs = true, append(u.phs, p)
		}
	}
}

// release clears the marks of what u held, yielded now.
func (u *unsent) release() {
	for _, e := range u.ents {
		e.unsent = false
	}
	for _, p := range u.phs {
		p.unsentPh = false
	}
}

// form appends to dst e's form as the parser writes it: its bytes, each
// child that has not arrived named by its placeholder (loading_<id>). It
// appends those children to kids, and notes their number (e.missing) for
// wake.
func (k *Engine) form(dst []byte, e *entry, kids []*entry) ([]byte, []*entry) {
	prev, n, ord, walked := int32(0), len(kids), uint16(0), true
	e.missing, e.woke, e.deferred = 0, 0, false
	for _, r := range e.refs {
		if kid := r.kid; !kid.arrived && r.fl&slotRewrite != 0 {
			dst = append(dst, e.src[prev:r.a]...)
			dst = append(dst, "loading_"...)
			prev, e.missing, kids = r.a, e.missing+1, append(kids, kid)
			walked, ord = walked && r.ord >= ord, r.ord
		}
	}
	if !walked && k.progressive {
		k.walkOrder(e, kids[n:]) // (delta mode lists placeholders by id)
	}
	return append(dst, e.src[prev:]...), kids
}

// walkOrder sorts the placeholders kids of e (in the order of its bytes)
// in the order the reference's walk meets them (see walkRanks), as the
// parser's snapshots list them.
func (k *Engine) walkOrder(e *entry, kids []*entry) {
	ord := func(kid *entry) uint16 {
		for _, r := range e.refs {
			if r.kid == kid && r.fl&slotRewrite != 0 {
				return r.ord
			}
		}
		return 0
	}
	slices.SortStableFunc(kids, func(x, y *entry) int { return int(ord(x)) - int(ord(y)) })
}

// snapshot is flush in progressive mode: when a reachable component's form
// changed or it needs a placeholder not yielded yet, it yields the
// surface's snapshot: every reachable component that arrived, sorted by
// id, then their placeholders, each once, in order of first use.
func (k *Engine) snapshot(s *surface, final bool) {
	changed, ents, phsMoved := s.deferred, k.ents[:0], false
	for _, e := range k.queue {
		if e.queued = false; !e.reach || !e.arrived {
			continue
		}
		was := 0 // (its size counted in s.changed)
		if e.counted {
			was = len(e.snap.form)
		}
		c, phs := k.snapOf(s, e)
		if c {
			changed, e.counted, ents = true, true, append(ents, e)
			s.changed += len(e.snap.form) - was
		}
		if phs {
			phsMoved = true
			if !c {
				k.staleBody(s) // (its placeholders, not its form: rare)
			}
		}
	}
	k.queue, k.ents = k.queue[:0], ents[:0]
	if !changed {
		return
	}
	if s.bad > 0 {
		k.staleBody(s) // (the changes are not written in it)
		return
	}
	if !final {
		// A snapshot larger than snapFull is yielded again only once an
		// eighth of it changed since (or when a component message or the
		// block ends: final), so that the output stays linear in the
		// input however large a surface grows, as the parser's previous
		// engine held it back.
		if s.snapSize > snapFull && s.changed*8 < s.snapSize {
			k.staleBody(s)
			if !s.deferred {
				s.deferred = true
				k.rare().deferred++
			}
			return
		}
	}
	if s.deferred {
		s.deferred = false
		if k.rx != nil && k.rx.deferred > 0 {
			k.rx.deferred--
		}
	}
	s.changed = 0
	ents = k.sortReach(s, ents)
	k.snapGen++
	out := k.out
	start := len(out)
	out = k.openMessage(out)
	out, phs := k.writeBody(out, s, ents, phsMoved)
	k.ents = ents[:0]
	for _, p := range phs { // (with a catalog)
		out = k.placeholder(append(out, ','), p)
		if !k.placeholderPasses(s, p) {
			k.out = out[:start] // held back by the catalog
			return
		}
	}
	out = k.closeMessage(out, s)
	s.snapSize = len(out) - start
	if k.v08 && k.msgKind == kUpdate {
		k.dropLastSnapshot(s, out, start)
	}
	k.offs = append(k.offs, start, len(out))
	k.out = out
}

// snapFull is the snapshot size (bytes of its message) up to which
// progressive mode yields every change (see snapshot).
const snapFull = 32 << 10

// dropLastSnapshot drops the last message of the chunk's output, just
// before the snapshot at out[start:], when it is a snapshot of the v0.8
// surface s: the parser yields one snapshot of a surface for the
// surfaceUpdates that end one after the other in a chunk (a yield between
// them, a data model message's, keeps both; so does a snapshot another
// message makes, a beginRendering's; a block failing at the second keeps
// the first).
func (k *Engine) dropLastSnapshot(s *surface, out []byte, start int) {
	n := len(k.offs)
	if n < 2 || k.offs[n-1] != start {
		return
	}
	const head, mid, tail = `{"surfaceUpdate":{"components":[`, `],"surfaceId":"`, `"}}`
	m := out[k.offs[n-2]:start]
	e := len(m) - len(tail) - len(s.id) // (where its surface's id starts, if it is one)
	if e-len(mid) >= len(head) && string(m[:len(head)]) == head && string(m[e-len(mid):e]) == mid &&
		string(m[e:e+len(s.id)]) == s.id && string(m[len(m)-len(tail):]) == tail {
		k.offs = k.offs[:n-2] // (its bytes stay, unlisted)
	}
}

// snapOf sets the form of e, reachable and arrived, that progressive mode
// keeps (its snapForm), and reports whether it changed or needs a
// placeholder not yielded yet, and whether the placeholders it names
// changed (see snapBody).
func (k *Engine) snapOf(s *surface, e *entry) (changed, phsChanged bool) {
	sn := e.snap // (progressive entries have one: see newEntry)
	f, kids := k.form(k.scratch[:0], e, k.kids[:0])
	if phsChanged = !slices.Equal(kids, sn.phs); phsChanged {
		if cap(sn.phs) == 0 {
			sn.phs = sn.one[:0]
		}
		sn.phs = append(sn.phs[:0], kids...)
	}
	k.kids = kids[:0]
	if k.cat != nil {
		k.judge(s, e, f)
	}
	for _, kid := range sn.phs {
		if !kid.phYielded {
			kid.phYielded, changed = true, true
		}
	}
	h := maphash.Bytes(k.seed, f)
	same := h == e.hash && sn.form != nil
	if !same {
		e.hash, changed = h, true
	}
	switch {
	case len(sn.phs) == 0:
		// Its form is its bytes: shared, not copied (a change to them
		// queues the entry, which sets its form again before a snapshot
		// writes it), and in its own storage now, not the engine's for a
		// component arriving (see openSrc), which the next one to arrive
		// writes over.
		sn.form, sn.formOwn, sn.phs = e.src, false, nil
	case !sn.formOwn:
		// (Its bytes, shared until now, may have changed to the same
		// form: a child named by its placeholder's id, then missing.)
		sn.form, sn.formOwn = append([]byte(nil), f...), true
	case !same:
		sn.form = append(sn.form[:0], f...)
	}
	k.scratch = f
	return changed, phsChanged
}

// openMessage appends the start of a component message, up to its first
// component.
func (k *Engine) openMessage(out []byte) []byte {
	if k.v08 {
		return append(out, `{"surfaceUpdate":{"components":[`...)
	}
	return append(out, `{"updateComponents":{"components":[`...)
}

// closeMessage appends the end of a component message for surface s.
func (k *Engine) closeMessage(out []byte, s *surface) []byte {
	out = append(out, `],"surfaceId":"`...)
	out = append(out, s.id...)
	if k.v08 {
		return append(out, `"}}`...)
	}
	out = append(out, `"},"version":"`...)
	if k.verA >= 0 {
		out = append(out, k.buf[k.verA:k.verB]...)
	} else {
		out = k.versionOf(out, s)
	}
	return append(out, `"}`...)
}

// shadowed reports whether p's placeholder would take the id of a
// component of s that arrived ("loading_x" named like its parent): delta
// mode does not write it over the component, as the parser's (its
// progressive snapshots do).
func (k *Engine) shadowed(s *surface, p *entry) bool {
	if !s.loadingIDs {
		return false
	}
	k.scratch = append(append(k.scratch[:0], "loading_"...), p.id...)
	c := s.comps.get(k.scratch)
	return c != nil && c.arrived
}

// placeholder appends the placeholder of the missing component p.
func (k *Engine) placeholder(out []byte, p *entry) []byte {
	if k.v08 {
		out = append(out, `{"component":{"Row":{"children":{"explicitList":[]}}},"id":"loading_`...)
	} else {
		out = append(out, `{"children":[],"component":"Row","id":"loading_`...)
	}
	out = append(out, p.id...)
	return append(out, `"}`...)
}

// sortReach sorts the reachable entries of s by id: the entries that
// became reachable since the last call are inserted into the sorted rest.
// It keeps the body of s, if k holds one, in step (see snapBody.lens),
// adding to ents those inserted that arrived, which it holds no form of.
func (k *Engine) sortReach(s *surface, ents []*entry) []*entry {
	b := k.body
	keep := b != nil && b.s == s
	if keep && (len(b.lens) != s.sorted || len(s.reach)-s.sorted > maxRewrites) {
		b.stale = true // (out of step, or many to insert: see maxRewrites)
	}
	keep = keep && !b.stale
	for i := s.sorted; i < len(s.reach); i++ {
		e := s.reach[i]
		at, _ := slices.BinarySearchFunc(s.reach[:i], e.id, func(x *entry, id string) int { return strings.Compare(x.id, id) })
		copy(s.reach[at+1:i+1], s.reach[at:i])
		s.reach[at] = e
		if keep {
			b.lens = slices.Insert(b.lens, at, 0)
			if b.last != nil && at <= b.lastI {
				b.lastI++ // (its offset stays: what is inserted has no form in b)
			}
			if e.arrived {
				ents = append(ents, e)
			}
		}
	}
	s.sorted = len(s.reach)
	return ents
}
