package parser

import (
	"sync"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// The integrity checks of a complete message (validate, catalog.go) on
// what the engine knows of its components instead of on the message
// decoded again: a component read at byte level (a *fastComp) gives its
// id and its references' slots, a decoded one its "id" and
// protocol.ComponentRefs. A message that declares no root for its
// components (the payload is the message alone, with no WithRootID) is an
// incremental update to protocol.ValidateIntegrity, strict or not:
// duplicate ids, self-references, cycles and the depth of its walk are
// checked. integrityOK says only "certainly passes"; whatever fails (or a
// root declared beside the components) goes to ValidateIntegrity on the
// decoded message, which gives the verdict and its error. CheckLimits is
// in the fast verdict the caller took first.

// integrityScratch is integrityOK's scratch, from integrityPool.
type integrityScratch struct {
	index map[string]int32 // component id -> index
	start []int32          // the references of component i: ref[start[i]:start[i+1]]
	ref   []int32          // a component's index, or -1: an id no component has
	mark  []int32          // 0 unseen, -1 on the walk's path, else 1 + its height
	path  []walkFrame
	crefs []protocol.ComponentRef
}

// walkFrame is a component on the walk's path and its next reference.
type walkFrame struct{ c, next int32 }

var integrityPool = sync.Pool{New: func() any { return &integrityScratch{index: map[string]int32{}} }}

// integrityOK reports whether protocol.ValidateIntegrity of msg decoded
// again in full (withoutStubs) certainly passes, strict or not, but for
// CheckLimits.
func (e *progressiveEngine) integrityOK(msg map[string]any) bool {
	var body map[string]any // (the body protocol.MessageComponents reads)
	if b, has := msg[kSurfaceUpdate]; has {
		body, _ = b.(map[string]any)
	} else if b, has := msg[kUpdateComponents]; has {
		body, _ = b.(map[string]any)
	}
	list, _ := body["components"].([]any)
	_, br := msg[kBeginRendering]
	_, cs := msg[kCreateSurface]
	if len(list) == 0 || br || cs {
		return len(list) == 0 // (a root declared: the strict checks)
	}
	sc := integrityPool.Get().(*integrityScratch)
	ok := sc.check(list, e.cat.RefFields)
	if len(sc.index) <= 4*keepScratch && cap(sc.ref) <= 4*keepScratch {
		clear(sc.index)
		sc.start, sc.ref, sc.mark, sc.path = sc.start[:0], sc.ref[:0], sc.mark[:0], sc.path[:0]
		sc.crefs = shrink(sc.crefs, keepScratch)
		integrityPool.Put(sc)
	}
	return ok
}

// check is integrityOK on the list of components.
func (sc *integrityScratch) check(list []any, refs protocol.RefFieldsFunc) bool {
	for _, item := range list { // (no string id: no component, as in protocol)
		var id string
		switch c := item.(type) {
		case *fastComp:
			id = c.id
		case map[string]any:
			s, ok := c["id"].(string)
			if !ok {
				continue
			}
			id = s
		default:
			continue
		}
		if _, dup := sc.index[id]; dup {
			return false
		}
		sc.index[id] = int32(len(sc.index))
	}
	// The references of each (a self-reference is a cycle).
	for _, item := range list {
		switch c := item.(type) {
		case *fastComp:
			sc.start = append(sc.start, int32(len(sc.ref)))
			c.eachRef(func(id []byte) {
				to, found := sc.index[string(id)]
				sc.add(to, found)
			})
		case map[string]any:
			if _, ok := c["id"].(string); ok {
				sc.start = append(sc.start, int32(len(sc.ref)))
				sc.crefs = protocol.ComponentRefs(sc.crefs[:0], c, refs)
				for _, r := range sc.crefs {
					to, found := sc.index[r.ID]
					sc.add(to, found)
				}
			}
		}
	}
	sc.start = append(sc.start, int32(len(sc.ref)))
	return sc.acyclicShallow()
}

// add records a reference to the component of index to (found false: an
// id no component has).
func (sc *integrityScratch) add(to int32, found bool) {
	if !found {
		to = -1
	}
	sc.ref = append(sc.ref, to)
}

// acyclicShallow reports whether the references have no cycle and no
// path of more than protocol.MaxComponentDepth references: then
// protocol's walk (from any component, in any order) meets no component
// on its path and goes no deeper than its limit.
func (sc *integrityScratch) acyclicShallow() bool {
	sc.mark = append(sc.mark[:0], make([]int32, len(sc.start)-1)...)
	for v := range int32(len(sc.mark)) {
		if sc.mark[v] != 0 {
			continue
		}
		sc.mark[v] = -1
		sc.path = append(sc.path[:0], walkFrame{v, sc.start[v]})
		for len(sc.path) > 0 {
			f := &sc.path[len(sc.path)-1]
			if f.next < sc.start[f.c+1] {
				t := sc.ref[f.next]
				f.next++
				switch {
				case t >= 0 && sc.mark[t] == -1:
					return false // a cycle
				case t >= 0 && sc.mark[t] == 0:
					sc.mark[t] = -1
					sc.path = append(sc.path, walkFrame{t, sc.start[t]})
				}
				continue
			}
			h := int32(0) // the longest path from f.c
			for _, t := range sc.ref[sc.start[f.c]:sc.start[f.c+1]] {
				if t < 0 {
					h = max(h, 1)
				} else {
					h = max(h, sc.mark[t]) // (1 + t's height)
				}
			}
			if h > protocol.MaxComponentDepth {
				return false
			}
			sc.mark[f.c] = 1 + h
			sc.path = sc.path[:len(sc.path)-1]
		}
	}
	return true
}
