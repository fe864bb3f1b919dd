package parser

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestSnapshotPlaceholdersEachOnce checks that a snapshot names each
// placeholder once, in order of first use by its components (in id order),
// when two components wait for the same children (the list is then built
// placeholder by placeholder): few placeholders, more than 32 in the first
// component, and more than 32 reached at the second one. Fed whole and one
// byte at a time; every snapshot is checked.
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
				var last []string
				progressiveMessages(t, stream, chunk, func(m []byte) {
					got := snapshotIDs(t, m)
					for k, id := range got {
						if slices.Contains(got[:k], id) {
							t.Fatalf("chunk %d: %s twice in snapshot %s", chunk, id, m)
						}
					}
					last = got
				})
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

// progressiveMessages feeds stream to a progressive parser in chunks of
// chunk bytes and calls visit with each message it yields.
func progressiveMessages(t *testing.T, stream string, chunk int, visit func(m []byte)) {
	t.Helper()
	p, err := New(WithMode(ModeProgressive))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(stream); i += chunk {
		parts, err := p.Feed([]byte(stream[i:min(i+chunk, len(stream))]))
		if err != nil {
			t.Fatal(err)
		}
		for _, pt := range parts {
			for _, m := range pt.Messages {
				visit(m)
			}
		}
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

// TestSnapshotPlaceholdersFollowChanges checks every snapshot's
// placeholders against its components: each placeholder a component names
// (in its children, or as its child), once, in order of first use over
// the components in id order. The components' placeholders change in
// every way a snapshot's list of them must follow: children lists growing
// (placeholders appended), children arriving in the middle of a list
// (removed), a component rewritten, two and three components waiting for
// the same children or for others whose ids have the same length and last
// byte. Fed whole, at 3 and 7 bytes, and one byte at a time.
func TestSnapshotPlaceholdersFollowChanges(t *testing.T) {
	comp := func(id string, children ...string) string {
		b, _ := json.Marshal(children)
		return `{"id":"` + id + `","component":"Column","children":` + string(b) + `}`
	}
	text := func(id string) string { return `{"id":"` + id + `","component":"Text","text":"t"}` }
	update := func(comps ...string) string {
		return `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` + strings.Join(comps, ",") + `]}}`
	}
	const begin = `{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}}`
	cases := []struct {
		name string
		msgs []string
	}{
		{
			name: "children_arrive_in_the_middle",
			msgs: []string{begin,
				update(comp("root", "a1", "b1", "c1", "d1", "e1")),
				update(text("c1")), update(text("a1")), update(text("e1"), text("b1")), update(text("d1"))},
		},
		{
			name: "children_arrive_in_the_same_list",
			msgs: []string{begin,
				update(comp("root", "m", "a1", "b1", "c1", "d1"), comp("m", "e1", "b1", "f1"),
					text("c1"), text("e1"), text("a1"), text("d1"), text("b1"), text("f1"))},
		},
		{
			name: "two_waiting_then_arrivals",
			msgs: []string{begin,
				update(comp("root", "m", "a1", "b1", "c1"), comp("m", "b1", "x1", "c1", "y1")),
				update(text("b1")), update(text("x1")), update(text("c1"), text("a1")), update(text("y1"))},
		},
		{
			name: "same_signature_not_same_id",
			msgs: []string{begin,
				update(comp("root", "m", "n", "a1", "b2"), comp("m", "c1", "d2", "a1"), comp("n", "e1", "d2", "f3")),
				update(text("a1")), update(text("d2")), update(text("e1")), update(text("c1"), text("b2"), text("f3"))},
		},
		{
			name: "rewritten",
			msgs: []string{begin,
				update(comp("root", "m", "a1", "b1"), comp("m", "c1")),
				update(comp("m", "b1", "d1", "c1")), update(comp("root", "m", "d1", "e1")),
				update(text("d1")), update(comp("m", "a1")), update(text("e1"), text("a1"))},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stream := "<a2ui-json>[" + strings.Join(c.msgs, ",") + "]</a2ui-json>"
			for _, chunk := range []int{len(stream), 7, 3, 1} {
				snaps := 0
				progressiveMessages(t, stream, chunk, func(m []byte) {
					if bytes.Contains(m, []byte(`"updateComponents"`)) {
						checkSnapshotPlaceholders(t, m)
						snaps++
					}
				})
				if snaps == 0 {
					t.Fatalf("chunk %d: %d snapshots", chunk, snaps)
				}
			}
		})
	}
}

// checkSnapshotPlaceholders checks that snapshot m's placeholder
// components (after the others) are those its other components name, each
// once, in order of first use.
func checkSnapshotPlaceholders(t *testing.T, m []byte) {
	t.Helper()
	var msg struct {
		UpdateComponents struct {
			Components []struct {
				ID       string `json:"id"`
				Child    string `json:"child"`
				Children any    `json:"children"`
			} `json:"components"`
		} `json:"updateComponents"`
	}
	if err := json.Unmarshal(m, &msg); err != nil {
		t.Fatalf("%v: %s", err, m)
	}
	var want, got []string
	use := func(id string) {
		if strings.HasPrefix(id, "loading_") && !slices.Contains(want, id) {
			want = append(want, id)
		}
	}
	for _, c := range msg.UpdateComponents.Components {
		if strings.HasPrefix(c.ID, "loading_") {
			got = append(got, c.ID)
			continue
		}
		if len(got) > 0 {
			t.Fatalf("component %s after a placeholder: %s", c.ID, m)
		}
		use(c.Child)
		if l, ok := c.Children.([]any); ok {
			for _, x := range l {
				if id, ok := x.(string); ok {
					use(id)
				}
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("placeholders\n got %v\nwant %v\nin %s", got, want, m)
	}
}
