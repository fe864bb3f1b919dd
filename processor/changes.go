package processor

import (
	"slices"
	"sort"
)

// tracker accumulates the net changes of one list.
type tracker struct {
	created map[string]bool
	deleted map[string]bool
	surf    map[string]*surfaceDelta
}

type surfaceDelta struct {
	upserted  []string            // unique, in order of first arrival
	seen      map[string]struct{} // upserted as a set, once needed
	recreated []string
	paths     map[string]struct{}
	root      string
	styles    bool
}

func (t *tracker) delta(id string) *surfaceDelta {
	if t.surf == nil {
		t.surf = make(map[string]*surfaceDelta)
	}
	d := t.surf[id]
	if d == nil {
		d = &surfaceDelta{}
		t.surf[id] = d
	}
	return d
}

func (t *tracker) create(id string) {
	if t.created == nil {
		t.created = make(map[string]bool)
	}
	t.created[id] = true
	delete(t.surf, id)
}

func (t *tracker) remove(id string) {
	if t.created[id] {
		delete(t.created, id)
	} else {
		if t.deleted == nil {
			t.deleted = make(map[string]bool)
		}
		t.deleted[id] = true
	}
	delete(t.surf, id)
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
	if d.paths == nil {
		d.paths = make(map[string]struct{})
	}
	d.paths[path] = struct{}{}
}

func (t *tracker) setRoot(surface, root string) { t.delta(surface).root = root }

func (t *tracker) setStyles(surface string) { t.delta(surface).styles = true }

func (t *tracker) changes() Changes {
	var c Changes
	c.SurfacesCreated = sortedSet(t.created)
	c.SurfacesDeleted = sortedSet(t.deleted)
	for id, d := range t.surf {
		sc := SurfaceChanges{
			ComponentsUpserted:  d.upserted,
			ComponentsRecreated: sortedUnique(d.recreated),
			DataPaths:           collapsePaths(sortedPaths(d.paths)),
			Root:                d.root,
			StylesChanged:       d.styles,
		}
		if c.Surfaces == nil {
			c.Surfaces = make(map[string]SurfaceChanges, len(t.surf))
		}
		c.Surfaces[id] = sc
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

func sortedSet(m map[string]bool) []string {
	if len(m) == 0 {
		return nil
	}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// collapsePaths drops, from sorted pointers, those below another one
// ("/a/b" goes when "/a" is present; everything goes when "/" is).
func collapsePaths(sorted []string) []string {
	if len(sorted) == 0 {
		return nil
	}
	set := make(map[string]struct{}, len(sorted))
	for _, p := range sorted {
		if p == "/" {
			return []string{"/"}
		}
		set[p] = struct{}{}
	}
	out := make([]string, 0, len(sorted))
	for _, p := range sorted {
		covered := false
		for i := len(p) - 1; i > 0 && !covered; i-- {
			if p[i] == '/' {
				_, covered = set[p[:i]]
			}
		}
		if !covered {
			out = append(out, p)
		}
	}
	return out
}

func sortedPaths(m map[string]struct{}) []string {
	if len(m) == 0 {
		return nil
	}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
