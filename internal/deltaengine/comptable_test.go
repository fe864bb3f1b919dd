package deltaengine

import (
	"fmt"
	"testing"
)

// TestCompTable puts ids into a table and finds each by bytes and by
// string, across its growths; ids it does not hold (prefixes, extensions,
// the empty id) are not found, and all yields each entry once.
func TestCompTable(t *testing.T) {
	for _, n := range []int{0, 1, 6, 7, 100, 5000} {
		t.Run(fmt.Sprintf("%d ids", n), func(t *testing.T) {
			var tab compTable
			ents := make([]*entry, n)
			for i := range ents {
				ents[i] = &entry{id: fmt.Sprintf("c-%d", i)}
				got, h := tab.find([]byte(ents[i].id))
				if got != nil {
					t.Fatalf("%q found before it was put", ents[i].id)
				}
				tab.put(ents[i], h)
			}
			if tab.n != n || n > 0 && tab.n*4 > len(tab.ents)*3 {
				t.Fatalf("%d entries in %d slots, want %d entries at most three quarters full", tab.n, len(tab.ents), n)
			}
			for _, e := range ents {
				if got := tab.get([]byte(e.id)); got != e {
					t.Errorf("get(%q) = %v, want its entry", e.id, got)
				}
				if got := tab.getString(e.id); got != e {
					t.Errorf("getString(%q) = %v, want its entry", e.id, got)
				}
				for _, other := range []string{e.id[:len(e.id)-1], e.id + "0", e.id + " "} {
					if got, want := tab.get([]byte(other)), byID(ents, other); got != want {
						t.Errorf("get(%q) = %v, want %v", other, got, want)
					}
				}
			}
			if tab.get(nil) != nil || tab.getString("") != nil {
				t.Error("the empty id was found")
			}
			seen := map[*entry]int{}
			for e := range tab.all {
				seen[e]++
			}
			for _, e := range ents {
				if seen[e] != 1 {
					t.Errorf("all yielded %q %d times, want once", e.id, seen[e])
				}
			}
			if len(seen) != n {
				t.Errorf("all yielded %d entries, want %d", len(seen), n)
			}
		})
	}
}

// byID returns the entry of ents with id, or nil.
func byID(ents []*entry, id string) *entry {
	for _, e := range ents {
		if e.id == id {
			return e
		}
	}
	return nil
}
