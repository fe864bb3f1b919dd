package parser

// The topology checks of a surface's components (depth, cycles, the root)
// and the reachability marks they rely on.

import (
	"slices"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// memberSet is a membership test for a list of ids (a set once it is
// long; a short one is searched without allocating).
type memberSet struct {
	list []string
	set  map[string]struct{}
}

func memberOf(list []string) memberSet {
	m := memberSet{list: list}
	if len(list) >= 16 {
		m.set = make(map[string]struct{}, len(list))
		for _, x := range list {
			m.set[x] = struct{}{}
		}
	}
	return m
}

func (m memberSet) has(x string) bool {
	if m.set != nil {
		_, ok := m.set[x]
		return ok
	}
	return slices.Contains(m.list, x)
}

// makeReachable marks id and what it reaches as reachable.
func (s *surfaceState) makeReachable(id string, depth int) {
	type item struct {
		id    string
		depth int
	}
	stack := []item{{id, depth}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ent := s.comps[it.id]
		if ent == nil || ent.reach {
			continue
		}
		ent.reach, ent.depth = true, int32(it.depth)
		s.reachBytes += len(ent.pjson)
		if it.depth > protocol.MaxComponentDepth {
			s.suspect = true
		}
		if ent.valid < 0 {
			s.invalid++
		}
		if cap(s.sorted) == 0 { // (at most every component: as many as order holds room for)
			s.sorted = make([]*compEntry, 0, max(4, cap(s.order)))
		}
		s.sorted = append(s.sorted, ent)
		s.sortedStale = true
		s.phsVer++
		s.markDirty(ent)
		for _, r := range ent.refs {
			tg := s.target(r)
			tg.inbound++
			tg.noteDepth(it.depth + 1)
			if t := s.comps[r]; t != nil {
				if t.reach {
					s.suspect = true
				} else {
					stack = append(stack, item{r, it.depth + 1})
				}
			}
		}
	}
}

// noteDepth records that the target is referenced at depth d (at least 1:
// a parent's depth + 1) below the root.
func (t *target) noteDepth(d int) {
	if t.depth == 0 || int32(d) < t.depth {
		t.depth = int32(d)
	}
}

// analyze runs the full topology analysis (exact reference semantics and
// errors) and rebuilds the incremental reachability from its result.
func (e *progressiveEngine) analyze(s *surfaceState) error {
	list := make([]map[string]any, 0, len(s.order))
	for _, id := range s.order {
		m, _ := decodeObject(s.comps[id].fast.src) // (rare: see yieldReachable)
		list = append(list, m)
	}
	reach, err := protocol.AnalyzeTopology(s.root, list, e.refs, protocol.TopologyOptions{})
	if err != nil {
		return err
	}
	for i := range s.tgts {
		s.tgts[i].inbound, s.tgts[i].depth = 0, 0
	}
	s.sorted, s.sortedN = s.sorted[:0], 0
	s.phsVer++
	s.invalid, s.reachBytes = 0, 0
	for _, ent := range s.comps {
		ent.reach = false
	}
	for id := range reach {
		ent := s.comps[id]
		if ent == nil {
			continue
		}
		ent.reach = true
		s.reachBytes += len(ent.pjson)
		s.sorted = append(s.sorted, ent)
		if ent.valid < 0 {
			s.invalid++
		}
		s.markDirty(ent)
		for _, r := range ent.refs {
			s.target(r).inbound++
		}
	}
	s.sortedStale = true
	// Depths, breadth first from the root.
	if ent := s.comps[s.root]; ent != nil {
		ent.depth = 0
		queue := []string{s.root}
		seen := map[string]bool{s.root: true}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			for _, r := range s.comps[x].refs {
				s.target(r).noteDepth(int(s.comps[x].depth) + 1)
				if t := s.comps[r]; t != nil && !seen[r] {
					seen[r] = true
					t.depth = s.comps[x].depth + 1
					queue = append(queue, r)
				}
			}
		}
	}
	s.rebuild, s.suspect = false, false
	return nil
}

// setRoot points the surface at its root component id.
func (s *surfaceState) setRoot(root string) {
	if s.rootSet && s.root == root {
		return
	}
	s.root, s.rootSet, s.rebuild = root, true, true
}
