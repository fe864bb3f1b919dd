package parser

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unsafe"
)

// TestKeyIndex checks keyIndex against a map[string]int: keys added one
// by one (some again, replacing their index), looked up after each step,
// through the table's growths.
func TestKeyIndex(t *testing.T) {
	for _, tc := range []struct {
		name string
		keys []string
	}{
		{"empty", nil},
		{"one", []string{"a"}},
		{"empty key", []string{"", "a", ""}},
		{"repeated", []string{"a", "b", "a", "c", "b", "a"}},
		{"many", indexKeys(5000, 3)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var items []string
			var x keyIndex
			keyAt := func(i int) string { return items[i] }
			want := map[string]int{}
			for _, k := range tc.keys {
				items = append(items, k)
				x.set(k, len(items)-1, keyAt)
				want[k] = len(items) - 1
				if x.len() != len(want) {
					t.Fatalf("len %d after %q, want %d", x.len(), k, len(want))
				}
			}
			for k, w := range want {
				if i, ok := x.get(k, keyAt); !ok || i != w {
					t.Errorf("get(%q) = %d, %v; want %d, true", k, i, ok, w)
				}
			}
			for _, k := range []string{"absent", "a0", "k"} {
				if _, in := want[k]; in {
					continue
				}
				if i, ok := x.get(k, keyAt); ok {
					t.Errorf("get(%q) = %d, true; want absent", k, i)
				}
			}
			x.reset()
			if _, ok := x.get("a", keyAt); ok || x.len() != 0 {
				t.Errorf("after reset: get(a) found, len %d", x.len())
			}
		})
	}
}

// indexKeys returns n distinct keys, each every-th one repeated once more.
func indexKeys(n, every int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf("k%d", i))
		if i%every == 0 {
			out = append(out, fmt.Sprintf("k%d", i/2))
		}
	}
	return out
}

// TestEntArena checks the reader's entries held in an arena: what each
// entry reads back (lengths on one byte and on more, an empty key or
// value), the strings read early unchanged as the arena grows and is
// dropped, and what a record keeping them past the data gets: the
// arena's own strings (small arena) or copies (large arena), and a
// string not of the arena as it is.
func TestEntArena(t *testing.T) {
	long := func(c byte, n int) string { return string(bytes.Repeat([]byte{c}, n)) }
	for _, tc := range []struct {
		name   string
		ents   [][2]string
		copied bool // entKept and kept copy the arena's strings
	}{
		{"short", [][2]string{{"a", "1"}, {"", "null"}, {"b", ""}}, false},
		{"lengths around 128", [][2]string{{long('k', 127), long('v', 128)}, {long('x', 128), "2"}, {"y", long('w', 300)}}, false},
		{"large arena", [][2]string{{"a", long('v', 5000)}, {long('k', 20000), "3"}, {"c", "4"}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c dataContents
			var got []readEntry
			for _, e := range tc.ents {
				c.ents = append(c.ents, c.arena.add(e[0], e[1]))
				got = append(got, c.ent(len(c.ents)-1))
			}
			for i, e := range tc.ents {
				want := readEntry{e[0], e[1]}
				if en := c.ent(i); en != want || got[i] != want || c.entKey(i) != e[0] {
					t.Errorf("entry %d: ent, entry read early or entKey differ", i)
				}
				// (Strings read from the arena as it is now: those read
				// before it grew are of its earlier copy.)
				in := c.ent(i).enc
				kept := c.entKept(i)
				if kept != want {
					t.Errorf("entry %d: entKept differs", i)
				}
				if e[1] != "" && (unsafe.StringData(kept.enc) != unsafe.StringData(in)) != tc.copied {
					t.Errorf("entry %d: entKept copied %v, want %v", i, !tc.copied, tc.copied)
				}
				if k := c.kept(in); k != e[1] || e[1] != "" && (unsafe.StringData(k) != unsafe.StringData(in)) != tc.copied {
					t.Errorf("entry %d: kept %d bytes (copied: want %v)", i, len(k), tc.copied)
				}
			}
			if s := long('z', 10); unsafe.StringData(c.kept(s)) != unsafe.StringData(s) {
				t.Errorf("kept copied a string not of the arena")
			}
			c.reset(false, 1)
			c.ents = append(c.ents, c.arena.add("other", long('o', 6000)))
			for i, e := range tc.ents {
				if want := (readEntry{e[0], e[1]}); got[i] != want {
					t.Errorf("entry %d read before the reset changed", i)
				}
			}
		})
	}
}

// TestElemSlab checks that a list's elements read back as they were
// added (encoded in the slab's chunks, their strings in place or apart
// from the pruned form), that an element added later (a new chunk, or
// the same one) writes over none of them, and that clone copies.
func TestElemSlab(t *testing.T) {
	pruned := `{"key":"k","valueString":"v"}`
	big := strings.Repeat("x", 3*maxSlabChunk/2)
	cases := []struct {
		name string
		el   dataElem
	}{
		{"flat_key_and_value_in_pruned", dataElem{key: pruned[8:9], hasVal: true, cmp: pruned[25:28], pruned: pruned}},
		{"key_and_value_apart", dataElem{key: "kk", hasVal: true, cmp: `{"a":1}`, pruned: `{"key":"kk","valueMap":[{"key":"a","valueNumber":1}]}`}},
		{"no_pruned_form", dataElem{key: "k2", hasVal: true, cmp: "2"}},
		{"no_key", dataElem{hasVal: true, cmp: `"x"`}},
		{"no_value", dataElem{key: "k3"}},
		{"empty", dataElem{}},
		{"larger_than_a_chunk", dataElem{key: "big", hasVal: true, cmp: `"` + big + `"`}},
	}
	var c dataContents
	c.reset(true, 1)
	for range 200 {
		for _, tc := range cases {
			// The element's strings in the caller's scratch, written
			// over once added (as the reader's are).
			buf := []byte(tc.el.pruned + tc.el.key + tc.el.cmp)
			sc := dataElem{hasVal: tc.el.hasVal, pruned: view(buf[:len(tc.el.pruned)])}
			sc.key, sc.cmp = sc.pruned, sc.pruned
			if a, in := within(tc.el.key, tc.el.pruned); in {
				sc.key = sc.key[a : a+len(tc.el.key)]
			} else {
				sc.key = view(buf[len(tc.el.pruned) : len(tc.el.pruned)+len(tc.el.key)])
			}
			if a, in := within(tc.el.cmp, tc.el.pruned); in {
				sc.cmp = sc.cmp[a : a+len(tc.el.cmp)]
			} else {
				sc.cmp = view(buf[len(tc.el.pruned)+len(tc.el.key):])
			}
			c.addElem(sc)
			clear(buf)
		}
	}
	for i := range c.elems {
		tc := cases[i%len(cases)]
		if got := c.elem(i); got != tc.el {
			t.Fatalf("element %d (%s) reads %+v after later ones were added", i, tc.name, got)
		}
		if got := c.elemKey(i); got != tc.el.key {
			t.Fatalf("element %d (%s): key %q", i, tc.name, got)
		}
	}
	el := dataElem{key: pruned[8:9], hasVal: true, cmp: pruned[25:28], pruned: pruned}
	cl := el.clone()
	if cl != el {
		t.Errorf("clone reads %+v", cl)
	}
	if _, in := within(cl.pruned, pruned); in {
		t.Errorf("clone shares the element's bytes")
	}
}
