package parser

import (
	"fmt"
	"testing"
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
			x.release()
			if x.slots != nil {
				t.Error("after release: table kept")
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
