package parser

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestSnapshotPlaceholdersEachOnce checks that a snapshot names each
// placeholder once, in order of first use by its components (in id order),
// when two components wait for the same children: few placeholders (the
// list of those seen), more than 32 in the first component (the map), and
// more than 32 reached at the second one (the list, then the map from the
// start). Fed whole and one byte at a time; every snapshot is checked.
func TestSnapshotPlaceholdersEachOnce(t *testing.T) {
	ids := func(prefix string, n int) []string {
		var l []string
		for i := range n {
			l = append(l, fmt.Sprintf("%s%d", prefix, i))
		}
		return l
	}
	cases := []struct {
		name      string
		root, x   []string // children of root (after "x") and of x
		wantOrder []string // missing children, in the final snapshot's order
	}{
		{
			name: "few",
			root: []string{"a", "b"}, x: []string{"b", "c"},
			wantOrder: []string{"a", "b", "c"},
		},
		{
			name: "many_in_first",
			root: append(ids("a", 20), ids("s", 20)...), x: append(ids("s", 20), ids("b", 5)...),
			wantOrder: append(append(ids("a", 20), ids("s", 20)...), ids("b", 5)...),
		},
		{
			name: "many_at_second",
			root: append(ids("a", 10), ids("s", 10)...), x: append(ids("s", 10), ids("b", 15)...),
			wantOrder: append(append(ids("a", 10), ids("s", 10)...), ids("b", 15)...),
		},
	}
	quote := func(l []string) string {
		b, _ := json.Marshal(l)
		return string(b)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stream := `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},` +
				`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` +
				`{"id":"root","component":"Column","children":` + quote(append([]string{"x"}, c.root...)) + `},` +
				`{"id":"x","component":"Column","children":` + quote(c.x) + `}]}}]</a2ui-json>`
			var want []string
			for _, id := range c.wantOrder {
				want = append(want, "loading_"+id)
			}
			for _, chunk := range []int{len(stream), 1} {
				p, err := New(WithMode(ModeProgressive))
				if err != nil {
					t.Fatal(err)
				}
				var last []string
				for i := 0; i < len(stream); i += chunk {
					parts, err := p.Feed([]byte(stream[i:min(i+chunk, len(stream))]))
					if err != nil {
						t.Fatal(err)
					}
					for _, pt := range parts {
						for _, m := range pt.Messages {
							got := snapshotIDs(t, m)
							for k, id := range got {
								if slices.Contains(got[:k], id) {
									t.Fatalf("chunk %d: %s twice in snapshot %s", chunk, id, m)
								}
							}
							last = got
						}
					}
				}
				var phs []string
				for _, id := range last {
					if strings.HasPrefix(id, "loading_") {
						phs = append(phs, id)
					}
				}
				if !slices.Equal(phs, want) {
					t.Fatalf("chunk %d: last snapshot's placeholders\n got %v\nwant %v", chunk, phs, want)
				}
			}
		})
	}
}

// snapshotIDs returns the ids of the components of an updateComponents
// message, in order.
func snapshotIDs(t *testing.T, m []byte) []string {
	t.Helper()
	var msg struct {
		UpdateComponents struct {
			Components []struct {
				ID string `json:"id"`
			} `json:"components"`
		} `json:"updateComponents"`
	}
	if err := json.Unmarshal(m, &msg); err != nil {
		t.Fatalf("%v: %s", err, m)
	}
	var ids []string
	for _, c := range msg.UpdateComponents.Components {
		ids = append(ids, c.ID)
	}
	return ids
}
