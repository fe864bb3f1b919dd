package processor

import (
	"fmt"
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
//     depth limit below the root, applied to every subtree;
//   - with WithStrictTopology: the root present (ErrMissingRoot), every
//     reference resolved (ErrDanglingRef), every component reachable from
//     the root (ErrOrphan).
//
// Each component keeps its height (the length of the longest reference
// path below it), and each surface, once needed, an index from component
// ids to the components that reference them. A small update is then
// checked incrementally: only its new references can close a cycle, and
// only its components and their ancestors can change height. So a stream
// of small updates (progressive rendering) costs O(1) per update in the
// size of the surface, not O(surface). An update as large as a quarter of
// the surface, or any update in strict mode, is checked by walking the
// whole graph. TestTopologyMatchesProtocol holds the decisions to
// protocol.CheckIntegrity and protocol.AnalyzeTopology.

// graph is a surface's component graph as it would be after an update:
// the update's components over the surface's.
type graph struct {
	s     *Surface
	comps []*Component
	upd   map[string]*Component // comps by id (the last one of a repeated id)
}

func (g *graph) lookup(id string) (*Component, bool) {
	if c, ok := g.upd[id]; ok || len(g.s.components) == 0 {
		return c, ok
	}
	c, ok := g.s.components[id]
	return c, ok
}

// inUpdate reports whether c is the update's component for its id.
func (g *graph) inUpdate(c *Component) bool { return g.upd[c.ID] == c }

// latest is inUpdate for one of the update's own components, without a
// lookup when the update's ids are unique.
func (g *graph) latest(c *Component) bool { return latest(g.upd, g.comps, c) }

// latest reports whether c, one of an update's components (indexed by
// upd), is the last one with its id: always when the ids are unique (upd
// then has an entry per component), which the topology checks ensure.
func latest(upd map[string]*Component, comps []*Component, c *Component) bool {
	return len(upd) == len(comps) || upd[c.ID] == c
}

// each calls fn for every component of the graph, in a fixed order (the
// surface's arrival order, then the update's), so that error messages are
// deterministic.
func (g *graph) each(fn func(*Component) *MessageError) *MessageError {
	for _, id := range g.s.order {
		if _, replaced := g.upd[id]; replaced {
			continue
		}
		if merr := fn(g.s.components[id]); merr != nil {
			return merr
		}
	}
	for _, c := range g.comps {
		if g.latest(c) {
			if merr := fn(c); merr != nil {
				return merr
			}
		}
	}
	return nil
}

// topoPlan is a checked update's topology, for commitTopology.
type topoPlan struct {
	full  bool
	epoch uint64 // tentative heights: components with tentEpoch == epoch
}

// checkTopology checks an update (comps, indexed by upd; the caller has
// rejected repeated ids) against the surface. It changes no state: its
// results are tentative marks on the components, which commitTopology
// applies when the update is stored.
func (p *Processor) checkTopology(s *Surface, comps []*Component, upd map[string]*Component, rootID string) (topoPlan, *MessageError) {
	g := graph{s: s, comps: comps, upd: upd}
	for _, c := range comps {
		for _, r := range c.refs {
			if r.id == c.ID {
				return topoPlan{}, topoFailure(protocol.ErrSelfReference, "Self-reference detected: Component '%s' references itself in field '%s'", c.ID, r.field())
			}
		}
	}
	p.epoch++
	plan := topoPlan{epoch: p.epoch}
	strict := p.opts.strictTopology && rootID != ""
	if strict || len(s.components) == 0 || 4*len(upd) >= len(s.components) {
		plan.full = true
		return plan, p.checkFull(&g, rootID, strict, plan.epoch)
	}
	return plan, p.checkIncremental(&g, plan.epoch)
}

// checkFull walks the whole graph: from the root first, then from every
// component not reached yet, computing every height.
func (p *Processor) checkFull(g *graph, rootID string, strict bool, epoch uint64) *MessageError {
	if strict {
		if _, ok := g.lookup(rootID); !ok {
			return topoFailure(protocol.ErrMissingRoot, "Missing root component: No component has id='%s'", rootID)
		}
		if merr := g.each(func(c *Component) *MessageError {
			for _, r := range c.refs {
				if _, ok := g.lookup(r.id); !ok {
					return topoFailure(protocol.ErrDanglingRef, "Component '%s' references non-existent component '%s' in field '%s'", c.ID, r.id, r.field())
				}
			}
			return nil
		}); merr != nil {
			return merr
		}
	}
	if root, ok := g.lookup(rootID); ok && rootID != "" {
		if merr := p.heights(g, root, epoch); merr != nil {
			return merr
		}
		if strict {
			var orphans []string
			g.each(func(c *Component) *MessageError {
				if c.tentEpoch != epoch {
					orphans = append(orphans, c.ID)
				}
				return nil
			})
			if len(orphans) > 0 {
				sort.Strings(orphans)
				return topoFailure(protocol.ErrOrphan, "Component '%s' is not reachable from '%s'", orphans[0], rootID)
			}
		}
	}
	return g.each(func(c *Component) *MessageError {
		if c.tentEpoch != epoch {
			return p.heights(g, c, epoch)
		}
		return nil
	})
}

// heights is an iterative post-order walk from start over the components
// whose height is not computed yet in this epoch: it sets their tentative
// heights, failing on a cycle or a height beyond the limit. References to
// missing components are skipped.
func (p *Processor) heights(g *graph, start *Component, epoch uint64) *MessageError {
	stack := p.stack[:0]
	defer func() { p.stack = stack[:0] }()
	start.mark = epoch
	stack = append(stack, walkFrame{c: start})
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next >= len(top.c.refs) {
			c, h := top.c, top.h
			c.tent, c.tentEpoch, c.mark = h, epoch, 0
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				parent := &stack[len(stack)-1]
				parent.h = max(parent.h, h+1)
			}
			continue
		}
		r := top.c.refs[top.next]
		top.next++
		n, ok := g.lookup(r.id)
		switch {
		case !ok:
		case n.mark == epoch:
			return topoFailure(protocol.ErrCycle, "Circular reference detected involving component '%s'", n.ID)
		case n.tentEpoch == epoch:
			top.h = max(top.h, n.tent+1)
		default:
			if len(stack) > protocol.MaxComponentDepth {
				return depthFailure()
			}
			n.mark = epoch
			stack = append(stack, walkFrame{c: n})
		}
		if top.h > protocol.MaxComponentDepth {
			return depthFailure()
		}
	}
	return nil
}

// checkIncremental checks a small update against a surface whose
// committed graph is valid: a cycle must use one of the update's new
// references, and heights change only for the update's components and
// their ancestors.
func (p *Processor) checkIncremental(g *graph, epoch uint64) *MessageError {
	s := g.s
	s.buildParents()
	// Cycles: for each new reference u -> v, v must not reach u.
	for _, c := range g.comps {
		if !g.latest(c) {
			continue
		}
		old := s.components[c.ID]
		var oldRefs map[string]bool
		if old != nil && len(old.refs) > 16 {
			oldRefs = make(map[string]bool, len(old.refs))
			for _, r := range old.refs {
				oldRefs[r.id] = true
			}
		}
		for _, r := range c.refs {
			if old != nil && (oldRefs[r.id] || (oldRefs == nil && old.hasRef(r.id))) {
				continue
			}
			v, ok := g.lookup(r.id)
			if !ok {
				continue
			}
			p.epoch++
			if p.reaches(g, v, c, p.epoch) {
				return topoFailure(protocol.ErrCycle, "Circular reference detected involving component '%s'", c.ID)
			}
		}
	}
	// Heights change only for the update's components and their ancestors
	// (the affected set). Collect it upwards through the reverse index,
	// then compute its heights exactly, children first.
	var uParents map[string][]*Component // the update's components by referenced id
	for _, c := range g.comps {
		if !g.latest(c) {
			continue
		}
		for _, r := range c.refs {
			if uParents == nil {
				uParents = make(map[string][]*Component)
			}
			uParents[r.id] = append(uParents[r.id], c)
		}
	}
	p.changed = p.changed[:0]
	achild := make(map[*Component][]*Component) // affected component -> its affected children
	mark := func(c *Component) {
		if c.mark != epoch {
			c.mark = epoch
			p.changed = append(p.changed, c)
		}
	}
	for _, c := range g.comps {
		if g.latest(c) {
			mark(c)
		}
	}
	for k := 0; k < len(p.changed); k++ {
		x := p.changed[k]
		for _, pid := range s.parents[x.ID] {
			pc, ok := g.lookup(pid)
			if !ok || g.inUpdate(pc) {
				continue // the update's parents come from uParents
			}
			achild[pc] = append(achild[pc], x)
			mark(pc)
		}
		for _, pc := range uParents[x.ID] {
			achild[pc] = append(achild[pc], x)
			mark(pc)
		}
	}
	for _, c := range p.changed {
		if _, merr := p.affectedHeight(g, c, achild, epoch, 0); merr != nil {
			return merr
		}
	}
	return nil
}

// affectedHeight computes the height of a component of the affected set
// (marked with mark == epoch), from its children's: affected ones
// recursively, the others' committed heights (their subtrees are
// unchanged). A component outside the update whose affected children all
// kept or grew their height keeps the larger of its height and theirs plus
// one, without reading its other children: so a leaf added under a parent
// of many children costs O(1).
func (p *Processor) affectedHeight(g *graph, c *Component, achild map[*Component][]*Component, epoch uint64, depth int) (int32, *MessageError) {
	if c.tentEpoch == epoch {
		return c.tent, nil
	}
	if depth > protocol.MaxComponentDepth {
		return 0, depthFailure()
	}
	height := func(n *Component) (int32, *MessageError) {
		if n.mark == epoch {
			return p.affectedHeight(g, n, achild, epoch, depth+1)
		}
		return n.height, nil
	}
	var h int32
	scanAll := g.inUpdate(c)
	if !scanAll {
		h = c.height
		for _, n := range achild[c] {
			nh, merr := height(n)
			if merr != nil {
				return 0, merr
			}
			if old := g.committedHeight(n); nh < old {
				scanAll = true // a child shrank: it may have been the tallest
				break
			}
			h = max(h, nh+1)
		}
	}
	if scanAll {
		h = 0
		for _, r := range c.refs {
			n, ok := g.lookup(r.id)
			if !ok {
				continue
			}
			nh, merr := height(n)
			if merr != nil {
				return 0, merr
			}
			h = max(h, nh+1)
		}
	}
	if h > protocol.MaxComponentDepth {
		return 0, depthFailure()
	}
	c.tent, c.tentEpoch = h, epoch
	return h, nil
}

// committedHeight is the height a component had in the committed graph
// (-1 for one the update adds).
func (g *graph) committedHeight(c *Component) int32 {
	if !g.inUpdate(c) {
		return c.height
	}
	if o, ok := g.s.components[c.ID]; ok {
		return o.height
	}
	return -1
}

// reaches reports whether target is reachable from start (a depth-first
// search marking components with epoch).
func (p *Processor) reaches(g *graph, start, target *Component, epoch uint64) bool {
	work := p.reach[:0]
	defer func() { p.reach = work[:0] }()
	start.mark = epoch
	work = append(work, start)
	for len(work) > 0 {
		c := work[len(work)-1]
		work = work[:len(work)-1]
		if c == target {
			return true
		}
		for _, r := range c.refs {
			if n, ok := g.lookup(r.id); ok && n.mark != epoch {
				n.mark = epoch
				work = append(work, n)
			}
		}
	}
	return false
}

// commitTopology makes a checked update's heights and references the
// surface's. It runs before the update's components replace the old ones.
func (p *Processor) commitTopology(s *Surface, comps []*Component, upd map[string]*Component, plan topoPlan) {
	for _, c := range comps {
		if latest(upd, comps, c) && c.tentEpoch == plan.epoch {
			c.height = c.tent
		}
	}
	if plan.full {
		for _, c := range s.components {
			if c.tentEpoch == plan.epoch {
				c.height = c.tent
			}
		}
		s.parents = nil // rebuilt when next needed
		return
	}
	for _, c := range p.changed {
		c.height = c.tent
	}
	for _, c := range comps {
		if !latest(upd, comps, c) {
			continue
		}
		if old := s.components[c.ID]; old != nil {
			for _, r := range old.refs {
				s.removeParent(r.id, c.ID)
			}
		}
		for _, r := range c.refs {
			s.parents[r.id] = append(s.parents[r.id], c.ID)
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

type walkFrame struct {
	c    *Component
	next int
	h    int32
}
