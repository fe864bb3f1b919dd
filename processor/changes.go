package processor

import (
	"slices"
	"sort"
)

// tracker accumulates the net changes of one list. It is built for the
// common list that touches a few surfaces: small slices searched linearly,
// with an index map only once they grow, and its slices handed over to
// the Batch (a tracker lives for one list).
type tracker struct {
	created idSet
	deleted idSet
	surf    []surfaceDelta // one entry per surface ever touched in the list
	index   map[string]int // surf by surface id, once surf is large
}

// smallSet is the size up to which the tracker searches linearly.
const smallSet = 8

type surfaceDelta struct {
	id        string
	live      bool                // something recorded since the last reset
	upserted  []string            // unique, in order of first arrival
	seen      map[string]struct{} // upserted as a set, once needed
	recreated []string
	paths     []string // may repeat; sorted and deduplicated by changes
	root      string
	styles    bool
}

// idSet is a set of ids in insertion order.
type idSet struct {
	list  []string
	index map[string]struct{} // once list is large
}

func (s *idSet) has(id string) bool {
	if s.index != nil {
		_, ok := s.index[id]
		return ok
	}
	return slices.Contains(s.list, id)
}

func (s *idSet) add(id string) {
	if s.has(id) {
		return
	}
	s.list = append(s.list, id)
	if s.index != nil {
		s.index[id] = struct{}{}
	} else if len(s.list) > smallSet {
		s.index = make(map[string]struct{}, 2*len(s.list))
		for _, x := range s.list {
			s.index[x] = struct{}{}
		}
	}
}

func (s *idSet) remove(id string) {
	if i := slices.Index(s.list, id); i >= 0 {
		s.list = slices.Delete(s.list, i, i+1)
		delete(s.index, id)
	}
}

// sorted hands the set's ids over, sorted (nil when empty).
func (s *idSet) sorted() []string {
	if len(s.list) == 0 {
		return nil
	}
	sort.Strings(s.list)
	return s.list
}

// find returns the entry of a surface, or nil.
func (t *tracker) find(id string) *surfaceDelta {
	if t.index != nil {
		if i, ok := t.index[id]; ok {
			return &t.surf[i]
		}
		return nil
	}
	for i := range t.surf {
		if t.surf[i].id == id {
			return &t.surf[i]
		}
	}
	return nil
}

// delta returns the entry of a surface, creating it. The pointer is valid
// until the next call.
func (t *tracker) delta(id string) *surfaceDelta {
	d := t.find(id)
	if d == nil {
		t.surf = append(t.surf, surfaceDelta{id: id})
		if t.index != nil {
			t.index[id] = len(t.surf) - 1
		} else if len(t.surf) > smallSet {
			t.index = make(map[string]int, 2*len(t.surf))
			for i := range t.surf {
				t.index[t.surf[i].id] = i
			}
		}
		d = &t.surf[len(t.surf)-1]
	}
	d.live = true
	return d
}

// drop forgets what was recorded for a surface.
func (t *tracker) drop(id string) {
	if d := t.find(id); d != nil {
		*d = surfaceDelta{id: id}
	}
}

func (t *tracker) create(id string) {
	t.created.add(id)
	t.drop(id)
}

func (t *tracker) remove(id string) {
	if t.created.has(id) {
		t.created.remove(id)
	} else {
		t.deleted.add(id)
	}
	t.drop(id)
}

// upserts records component ids upserted by one message (unique within
// the call; the tracker may keep the slice).
func (t *tracker) upserts(surface string, ids []string) {
	d := t.delta(surface)
	if len(d.upserted) == 0 {
		d.upserted = ids
		return
	}
	if d.seen == nil {
		d.seen = make(map[string]struct{}, len(d.upserted)+len(ids))
		for _, id := range d.upserted {
			d.seen[id] = struct{}{}
		}
	}
	for _, id := range ids {
		if _, ok := d.seen[id]; !ok {
			d.seen[id] = struct{}{}
			d.upserted = append(d.upserted, id)
		}
	}
}

func (t *tracker) recreate(surface, id string) {
	d := t.delta(surface)
	d.recreated = append(d.recreated, id)
}

func (t *tracker) dataPath(surface, path string) {
	d := t.delta(surface)
	d.paths = append(d.paths, path)
}

func (t *tracker) setRoot(surface, root string) { t.delta(surface).root = root }

func (t *tracker) setStyles(surface string) { t.delta(surface).styles = true }

func (t *tracker) changes() Changes {
	var c Changes
	c.SurfacesCreated = t.created.sorted()
	c.SurfacesDeleted = t.deleted.sorted()
	live := 0
	for i := range t.surf {
		if t.surf[i].live {
			live++
		}
	}
	if live == 0 {
		return c
	}
	c.Surfaces = make(map[string]*SurfaceChanges, live)
	all := make([]SurfaceChanges, 0, live) // one allocation for the list
	for i := range t.surf {
		d := &t.surf[i]
		if !d.live {
			continue
		}
		all = append(all, SurfaceChanges{
			ComponentsUpserted:  d.upserted,
			ComponentsRecreated: sortedUnique(d.recreated),
			DataPaths:           collapsePaths(sortedUnique(d.paths)),
			Root:                d.root,
			StylesChanged:       d.styles,
		})
		c.Surfaces[d.id] = &all[len(all)-1]
	}
	return c
}

func sortedUnique(ids []string) []string {
	if len(ids) == 0 {
		return nil
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// collapsePaths drops, from sorted unique pointers, those below another
// one ("/a/b" goes when "/a" is present; everything goes when "/" is). It
// filters in place.
func collapsePaths(sorted []string) []string {
	if len(sorted) == 0 {
		return nil
	}
	if sorted[0] == "/" {
		return sorted[:1] // "/" sorts before every other pointer
	}
	if slices.Contains(sorted, "/") {
		return []string{"/"}
	}
	// A path's shortest listed ancestor is never dropped, so checking
	// against the paths kept so far (sorted, and all before the path)
	// finds every covered path.
	out := sorted[:0]
	for _, p := range sorted {
		covered := false
		for i := len(p) - 1; i > 0 && !covered; i-- {
			if p[i] == '/' {
				_, covered = slices.BinarySearch(out, p[:i])
			}
		}
		if !covered {
			out = append(out, p)
		}
	}
	return out
}
