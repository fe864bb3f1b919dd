package processor

import (
	"fmt"
	"slices"
	"testing"
)

func TestCollapsePaths(t *testing.T) {
	cases := []struct {
		name string
		in   []string
		want []string
	}{
		{"empty", nil, nil},
		{"root covers all", []string{"/", "/a", "/b/c"}, []string{"/"}},
		{"child under parent", []string{"/a", "/a/b", "/a/b/c"}, []string{"/a"}},
		{"sibling prefix is not a parent", []string{"/a", "/a-b", "/ab", "/a/b"}, []string{"/a", "/a-b", "/ab"}},
		{"grandchild under dropped child", []string{"/a", "/a-x", "/a/b", "/a/b/c"}, []string{"/a", "/a-x"}},
		{"unrelated", []string{"/x/y", "/z"}, []string{"/x/y", "/z"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := sortedUnique(append([]string(nil), c.in...))
			if got := collapsePaths(in); !slices.Equal(got, c.want) {
				t.Fatalf("collapsePaths(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// TestTrackerManySurfaces exercises the tracker past its linear-search
// size (the index maps), with creations, deletions and re-creations.
func TestTrackerManySurfaces(t *testing.T) {
	var tr tracker
	const n = 3 * smallSet
	for i := range n {
		id := fmt.Sprintf("s%02d", i)
		tr.create(id)
		tr.upserts(id, []string{"root"})
		tr.dataPath(id, "/b")
		tr.dataPath(id, "/a")
		tr.dataPath(id, "/a/x")
	}
	for i := 0; i < n; i += 2 {
		tr.remove(fmt.Sprintf("s%02d", i)) // created in this list: vanishes
	}
	tr.remove("old1") // existed before the list
	tr.remove("old2")
	tr.create("old2") // deleted and created again
	tr.upserts("s01", []string{"a", "root", "b"})
	c := tr.changes()
	if want := []string{"old1", "old2"}; !slices.Equal(c.SurfacesDeleted, want) {
		t.Errorf("SurfacesDeleted = %q, want %q", c.SurfacesDeleted, want)
	}
	var wantCreated []string
	for i := 1; i < n; i += 2 {
		wantCreated = append(wantCreated, fmt.Sprintf("s%02d", i))
	}
	wantCreated = append(wantCreated, "old2")
	slices.Sort(wantCreated)
	if !slices.Equal(c.SurfacesCreated, wantCreated) {
		t.Errorf("SurfacesCreated = %q, want %q", c.SurfacesCreated, wantCreated)
	}
	if len(c.Surfaces) != n/2 {
		t.Fatalf("%d surfaces changed, want %d", len(c.Surfaces), n/2)
	}
	s01 := c.Surfaces["s01"]
	if want := []string{"root", "a", "b"}; !slices.Equal(s01.ComponentsUpserted, want) {
		t.Errorf("s01 upserted = %q, want %q", s01.ComponentsUpserted, want)
	}
	if want := []string{"/a", "/b"}; !slices.Equal(s01.DataPaths, want) {
		t.Errorf("s01 data paths = %q, want %q", s01.DataPaths, want)
	}
	if _, ok := c.Surfaces["s00"]; ok {
		t.Error("a surface created and deleted in the list has changes")
	}
}
