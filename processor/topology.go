package processor

import (
	"fmt"
	"math"
	"sort"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// The topology checks apply the rules of protocol.CheckIntegrity and
// protocol.AnalyzeTopology to a surface's component graph as it would be
// after an update, with the protocol's sentinels and texts:
//
//   - duplicate ids within an update (protocol.ErrDuplicateID, checked by
//     checkComponents);
//   - self-references (protocol.ErrSelfReference);
//   - cycles anywhere in the graph (protocol.ErrCycle);
//   - no component more than protocol.MaxComponentDepth levels above its
//     deepest descendant (protocol.ErrRecursionLimit): the protocol's
//     depth limit below the root, applied to every subtree, whatever the
//     order of the components in the update (protocol.AnalyzeTopology,
//     walking a graph without a root from its ids in sorted order, can
//     accept a longer chain it enters in the middle; the processor does
//     not);
//   - with WithStrictTopology: the root present (ErrMissingRoot), every
//     reference resolved (ErrDanglingRef), every component reachable from
//     the root (ErrOrphan).
//
// Each component keeps its height (the length of the longest reference
// path below it), and each surface, once needed, an index from component
// ids to the components that reference them. A small update is then
// checked incrementally: only its new references can close a cycle, and
// only its components and their ancestors can change height. So a stream
// of small updates (progressive rendering) costs, per update, its
// components and their ancestors, not the whole surface (the reference
// index is rebuilt once after each whole-graph check). An update as large
// as a quarter of the surface, or any update in strict mode, is checked by
// walking the whole graph. TestTopologyMatchesProtocol holds the decisions
// to protocol.CheckIntegrity and protocol.AnalyzeTopology,
// TestIncrementalTopologyMatchesOracle and TestFullTopologyDepthIgnoresOrder
// the depth limit to the longest reference path.

// graph is a surface's component graph as it would be after an update:
// the update's records (Processor.upd) over the surface's. Its nodes are
// numbered: the surface's records by index (0 to nS-1), then the update's
// (nS + index in Processor.upd). The checks' scratch for node n is
// Processor.marks[n].
type graph struct {
	p      *Processor
	s      *Surface
	nS     int32  // the surface's records
	hasUpd bool   // Processor.upd holds the update (else there is none)
	repl   uint32 // nodes with marks[n].repl == repl are replaced by the update
}

// nodeMark is the topology checks' scratch for one node, stamped with an
// epoch (see reserveEpochs). mark == epoch means, in the check using it:
// on the full walk's stack (heights), visited (reaches), in the affected
// set (checkIncremental); no two of these run on one epoch. tentEpoch ==
// epoch means tent is the tentative height.
type nodeMark struct {
	tent                  int32
	mark, tentEpoch, repl uint32
}

// rec returns node n's record.
func (g *graph) rec(n int32) *comp {
	if n < g.nS {
		return &g.s.comps[n]
	}
	return &g.p.upd[n-g.nS]
}

// chunk returns the text node n's spans point into.
func (g *graph) chunk(n int32) string {
	if n < g.nS {
		return g.s.chunks[g.s.comps[n].chunk]
	}
	return g.p.pend[-g.p.upd[n-g.nS].chunk-1]
}

// id returns node n's id.
func (g *graph) id(n int32) string { return g.rec(n).id.in(g.chunk(n)) }

// refs returns the ids node n references (spans of its chunk).
func (g *graph) refs(n int32) []span {
	if n < g.nS {
		c := &g.s.comps[n]
		return g.s.refs[c.refs : c.refs+c.nrefs]
	}
	c := &g.p.upd[n-g.nS]
	return g.p.urefs[c.refs : c.refs+c.nrefs]
}

// field renders where node n's k-th reference sits.
func (g *graph) field(n, k int32) string {
	if n < g.nS {
		c := &g.s.comps[n]
		return refField(c.json.in(g.s.chunks[c.chunk]), g.s.family == protocol.FamilyV08, g.p.refFields(g.s.family, g.s.catalogID), k)
	}
	c := &g.p.upd[n-g.nS]
	return refField(c.json.in(g.chunk(n)), g.p.updV08, g.p.updRefFields, k)
}

// lookup returns the node with an id, or -1.
func (g *graph) lookup(id string) int32 {
	h := hashID(id)
	if g.hasUpd {
		if i := g.p.findUpd(h, id); i >= 0 {
			return g.nS + i
		}
	}
	return g.s.find(h, id)
}

// hasRef reports whether node n references id.
func (g *graph) hasRef(n int32, id string) bool {
	chunk := g.chunk(n)
	for _, r := range g.refs(n) {
		if r.in(chunk) == id {
			return true
		}
	}
	return false
}

// inUpdate reports whether node n is the update's component for its id.
func (g *graph) inUpdate(n int32) bool { return n >= g.nS && g.latest(n) }

// latest reports whether node n, one of the update's records, is the last
// one with its id: always when the ids are unique, which the topology
// checks ensure.
func (g *graph) latest(n int32) bool { return !g.p.uinfo[n-g.nS].superseded }

// each calls fn for every component of the graph, in a fixed order (the
// surface's arrival order, then the update's), so that error messages are
// deterministic.
func (g *graph) each(fn func(n int32) *MessageError) *MessageError {
	for n := int32(0); n < g.nS; n++ {
		if g.p.marks[n].repl == g.repl {
			continue // replaced by the update
		}
		if merr := fn(n); merr != nil {
			return merr
		}
	}
	if !g.hasUpd {
		return nil
	}
	for n := g.nS; n < g.nS+int32(len(g.p.upd)); n++ {
		if g.latest(n) {
			if merr := fn(n); merr != nil {
				return merr
			}
		}
	}
	return nil
}

// topoPlan is a checked update's topology, for commitTopology.
type topoPlan struct {
	full  bool
	epoch uint32 // tentative heights: nodes with tentEpoch == epoch
}

// prepareMarks readies the checks' scratch for a surface of nS records
// and an update of nU, with room for n more epochs: when they would not
// fit before the counter wraps, every mark is cleared and the count
// restarts.
func (p *Processor) prepareMarks(nS, nU, n int) {
	if len(p.marks) < nS+nU {
		p.marks = make([]nodeMark, max(nS+nU, 2*len(p.marks)))
	}
	if uint64(p.epoch)+uint64(n)+8 >= math.MaxUint32 {
		clear(p.marks)
		p.epoch = 0
	}
}

// checkTopology checks the update held in p.upd (when hasUpd; the caller
// has rejected repeated ids, prepared the marks and stamped the surface
// records the update replaces with repl) against the surface. It changes
// no state: its results are tentative marks, which commitTopology applies
// when the update is stored.
func (p *Processor) checkTopology(s *Surface, hasUpd bool, repl uint32, rootID string) (topoPlan, *MessageError) {
	g := graph{p: p, s: s, nS: int32(len(s.comps)), hasUpd: hasUpd, repl: repl}
	nUpd := 0
	if hasUpd {
		nUpd = len(p.upd)
	}
	strict := p.opts.strictTopology && rootID != ""
	// A self-reference is reported before any other topology failure. It
	// is also a cycle, which the walks below cannot miss, so the update is
	// searched for one only when a walk fails (in strict mode, whose other
	// failures come first, up front).
	if strict {
		if merr := p.selfReference(&g); merr != nil {
			return topoPlan{}, merr
		}
	}
	p.epoch++
	plan := topoPlan{epoch: p.epoch}
	var merr *MessageError
	if strict || !hasUpd || len(s.comps) == 0 || 4*nUpd >= len(s.comps) {
		plan.full = true
		merr = p.checkFull(&g, rootID, strict, plan.epoch)
	} else {
		merr = p.checkIncremental(&g, plan.epoch)
	}
	if merr != nil && !strict {
		if self := p.selfReference(&g); self != nil {
			merr = self
		}
	}
	return plan, merr
}

// selfReference reports the update's first component that references
// itself, if any.
func (p *Processor) selfReference(g *graph) *MessageError {
	if !g.hasUpd {
		return nil
	}
	for i := range p.upd {
		c := &p.upd[i]
		chunk := p.pend[-c.chunk-1]
		id := c.id.in(chunk)
		for k := c.refs; k < c.refs+c.nrefs; k++ {
			if p.urefs[k].in(chunk) == id {
				return topoFailure(protocol.ErrSelfReference, "Self-reference detected: Component '%s' references itself in field '%s'", id, g.field(g.nS+int32(i), k-c.refs))
			}
		}
	}
	return nil
}

// checkFull walks the whole graph: from the root first, then from every
// component not reached yet, computing every height.
func (p *Processor) checkFull(g *graph, rootID string, strict bool, epoch uint32) *MessageError {
	if strict {
		if g.lookup(rootID) < 0 {
			return topoFailure(protocol.ErrMissingRoot, "Missing root component: No component has id='%s'", rootID)
		}
		if merr := g.each(func(n int32) *MessageError {
			chunk := g.chunk(n)
			for k, r := range g.refs(n) {
				if g.lookup(r.in(chunk)) < 0 {
					return topoFailure(protocol.ErrDanglingRef, "Component '%s' references non-existent component '%s' in field '%s'", g.id(n), r.in(chunk), g.field(n, int32(k)))
				}
			}
			return nil
		}); merr != nil {
			return merr
		}
	}
	if root := g.lookup(rootID); root >= 0 && rootID != "" {
		if merr := p.heights(g, root, epoch); merr != nil {
			return merr
		}
		if strict {
			var orphans []string
			g.each(func(n int32) *MessageError {
				if p.marks[n].tentEpoch != epoch {
					orphans = append(orphans, g.id(n))
				}
				return nil
			})
			if len(orphans) > 0 {
				sort.Strings(orphans)
				return topoFailure(protocol.ErrOrphan, "Component '%s' is not reachable from '%s'", orphans[0], rootID)
			}
		}
	}
	return g.each(func(n int32) *MessageError {
		if p.marks[n].tentEpoch != epoch {
			return p.heights(g, n, epoch)
		}
		return nil
	})
}

// heights is an iterative post-order walk from start over the nodes whose
// height is not computed yet in this epoch: it sets their tentative
// heights, failing on a cycle or a height beyond the limit. References to
// missing components are skipped.
func (p *Processor) heights(g *graph, start int32, epoch uint32) *MessageError {
	stack := p.stack[:0]
	defer func() { p.stack = stack[:0] }()
	marks := p.marks
	marks[start].mark = epoch
	stack = append(stack, g.frame(start))
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next >= top.end {
			m := &marks[top.n]
			h := top.h
			m.tent, m.tentEpoch, m.mark = h, epoch, 0
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				parent := &stack[len(stack)-1]
				parent.h = max(parent.h, h+1)
				if parent.h > protocol.MaxComponentDepth {
					// The limit holds for every node, whatever order the
					// walk met them in.
					return depthFailure()
				}
			}
			continue
		}
		var r span
		if top.n < g.nS {
			r = g.s.refs[top.next]
		} else {
			r = p.urefs[top.next]
		}
		top.next++
		n := g.lookup(r.in(g.chunk(top.n)))
		if n >= 0 {
			switch m := &marks[n]; {
			case m.mark == epoch:
				return topoFailure(protocol.ErrCycle, "Circular reference detected involving component '%s'", g.id(n))
			case m.tentEpoch == epoch:
				top.h = max(top.h, m.tent+1)
			default:
				if len(stack) > protocol.MaxComponentDepth {
					return depthFailure()
				}
				m.mark = epoch
				stack = append(stack, g.frame(n))
				continue
			}
		}
		if top.h > protocol.MaxComponentDepth {
			return depthFailure()
		}
	}
	return nil
}

// frame is the walk's frame for node n, before its first reference.
func (g *graph) frame(n int32) walkFrame {
	c := g.rec(n)
	return walkFrame{n: n, next: c.refs, end: c.refs + c.nrefs}
}

// checkIncremental checks a small update against a surface whose
// committed graph is valid: a cycle must use one of the update's new
// references, and heights change only for the update's components and
// their ancestors.
func (p *Processor) checkIncremental(g *graph, epoch uint32) *MessageError {
	s := g.s
	s.buildParents()
	nEnd := g.nS + int32(len(p.upd))
	// Cycles: for each new reference u -> v, v must not reach u.
	for n := g.nS; n < nEnd; n++ {
		if !g.latest(n) {
			continue
		}
		old := p.uinfo[n-g.nS].slot
		var oldRefs map[string]bool
		if old >= 0 && s.comps[old].nrefs > 16 {
			oldRefs = make(map[string]bool, s.comps[old].nrefs)
			chunk := g.chunk(old)
			for _, r := range g.refs(old) {
				oldRefs[r.in(chunk)] = true
			}
		}
		chunk := g.chunk(n)
		for _, r := range g.refs(n) {
			rid := r.in(chunk)
			if old >= 0 && (oldRefs[rid] || (oldRefs == nil && g.hasRef(old, rid))) {
				continue
			}
			v := g.lookup(rid)
			if v < 0 {
				continue
			}
			p.epoch++
			if p.reaches(g, v, n, p.epoch) {
				return topoFailure(protocol.ErrCycle, "Circular reference detected involving component '%s'", g.id(n))
			}
		}
	}
	// Heights change only for the update's components and their ancestors
	// (the affected set). Collect it upwards through the reverse index,
	// then compute its heights exactly, children first.
	var uParents map[string][]int32 // the update's components by referenced id
	for n := g.nS; n < nEnd; n++ {
		if !g.latest(n) {
			continue
		}
		chunk := g.chunk(n)
		for _, r := range g.refs(n) {
			if uParents == nil {
				uParents = make(map[string][]int32)
			}
			rid := r.in(chunk)
			uParents[rid] = append(uParents[rid], n)
		}
	}
	p.changed = p.changed[:0]
	achild := make(map[int32][]int32) // affected node -> its affected children
	mark := func(n int32) {
		if m := &p.marks[n]; m.mark != epoch {
			m.mark = epoch
			p.changed = append(p.changed, n)
		}
	}
	for n := g.nS; n < nEnd; n++ {
		if g.latest(n) {
			mark(n)
		}
	}
	for k := 0; k < len(p.changed); k++ {
		x := p.changed[k]
		xid := g.id(x)
		for _, pn := range s.parents[xid] {
			if p.marks[pn].repl == g.repl {
				continue // the update's parents come from uParents
			}
			achild[pn] = append(achild[pn], x)
			mark(pn)
		}
		for _, pn := range uParents[xid] {
			achild[pn] = append(achild[pn], x)
			mark(pn)
		}
	}
	for _, n := range p.changed {
		if _, merr := p.affectedHeight(g, n, achild, epoch, 0); merr != nil {
			return merr
		}
	}
	return nil
}

// affectedHeight computes the height of a node of the affected set
// (marked with mark == epoch), from its children's: affected ones
// recursively, the others' committed heights (their subtrees are
// unchanged). A component outside the update whose affected children all
// kept or grew their height keeps the larger of its height and theirs plus
// one, without reading its other children: so a leaf added under a parent
// of many children costs O(1).
func (p *Processor) affectedHeight(g *graph, n int32, achild map[int32][]int32, epoch uint32, depth int) (int32, *MessageError) {
	if m := &p.marks[n]; m.tentEpoch == epoch {
		return m.tent, nil
	}
	if depth > protocol.MaxComponentDepth {
		return 0, depthFailure()
	}
	height := func(c int32) (int32, *MessageError) {
		if p.marks[c].mark == epoch {
			return p.affectedHeight(g, c, achild, epoch, depth+1)
		}
		return g.rec(c).height, nil
	}
	var h int32
	scanAll := g.inUpdate(n)
	if !scanAll {
		h = g.rec(n).height
		for _, c := range achild[n] {
			ch, merr := height(c)
			if merr != nil {
				return 0, merr
			}
			if old := g.committedHeight(c); ch < old {
				scanAll = true // a child shrank: it may have been the tallest
				break
			}
			h = max(h, ch+1)
		}
	}
	if scanAll {
		h = 0
		chunk := g.chunk(n)
		for _, r := range g.refs(n) {
			c := g.lookup(r.in(chunk))
			if c < 0 {
				continue
			}
			ch, merr := height(c)
			if merr != nil {
				return 0, merr
			}
			h = max(h, ch+1)
		}
	}
	if h > protocol.MaxComponentDepth {
		return 0, depthFailure()
	}
	m := &p.marks[n]
	m.tent, m.tentEpoch = h, epoch
	return h, nil
}

// committedHeight is the height node n had in the committed graph (-1 for
// a component the update adds).
func (g *graph) committedHeight(n int32) int32 {
	if !g.inUpdate(n) {
		return g.rec(n).height
	}
	if slot := g.p.uinfo[n-g.nS].slot; slot >= 0 {
		return g.s.comps[slot].height
	}
	return -1
}

// reaches reports whether target is reachable from start (a depth-first
// search marking nodes with epoch).
func (p *Processor) reaches(g *graph, start, target int32, epoch uint32) bool {
	work := p.reach[:0]
	defer func() { p.reach = work[:0] }()
	p.marks[start].mark = epoch
	work = append(work, start)
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		if n == target {
			return true
		}
		chunk := g.chunk(n)
		for _, r := range g.refs(n) {
			if c := g.lookup(r.in(chunk)); c >= 0 && p.marks[c].mark != epoch {
				p.marks[c].mark = epoch
				work = append(work, c)
			}
		}
	}
	return false
}

// commitTopology makes a checked update's heights and references the
// surface's. It runs once storeComponents has given every record its
// slot, before the records replace the old ones.
func (p *Processor) commitTopology(s *Surface, plan topoPlan) {
	nS := int32(len(s.comps))
	for i := range p.upd {
		if m := &p.marks[nS+int32(i)]; !p.uinfo[i].superseded && m.tentEpoch == plan.epoch {
			p.upd[i].height = m.tent
		}
	}
	if plan.full {
		for i := range s.comps {
			if m := &p.marks[i]; m.tentEpoch == plan.epoch {
				s.comps[i].height = m.tent
			}
		}
		s.parents = nil // rebuilt when next needed
		return
	}
	for _, n := range p.changed {
		if n < nS {
			s.comps[n].height = p.marks[n].tent
		}
	}
	for i := range p.upd {
		u := &p.uinfo[i]
		if u.superseded {
			continue
		}
		if u.slot < nS {
			old := &s.comps[u.slot]
			chunk := s.chunks[old.chunk]
			for _, r := range s.refs[old.refs : old.refs+old.nrefs] {
				s.removeParent(r.in(chunk), u.slot)
			}
		}
		c := &p.upd[i]
		chunk := p.pend[-c.chunk-1]
		for _, r := range p.urefs[c.refs : c.refs+c.nrefs] {
			id := r.in(chunk)
			s.parents[id] = append(s.parents[id], u.slot)
		}
	}
}

func topoFailure(kind error, format string, args ...any) *MessageError {
	return &MessageError{Path: "/components", Err: &protocol.ValidationError{
		MessageIndex: -1,
		Path:         "/components",
		Message:      fmt.Sprintf(format, args...),
		Kind:         kind,
	}}
}

func depthFailure() *MessageError {
	return topoFailure(protocol.ErrRecursionLimit, "Global recursion limit exceeded: logical depth > %d", protocol.MaxComponentDepth)
}

// walkFrame is a node on the heights walk's stack: its height so far and
// the references still to follow (next to end in its slab: Surface.refs
// for a surface's record, Processor.urefs for the update's). It holds no
// pointers, so pushing frames costs no write barrier.
type walkFrame struct {
	n, h      int32
	next, end int32
}
