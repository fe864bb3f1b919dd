package parser

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// childrenOneByOne is a block of a createSurface, an updateComponents with
// a root listing n children, then updateComponents of one child each for
// the first arrive of them: every child's arrival changes the root's
// processed form (one placeholder fewer).
func childrenOneByOne(n, arrive int) []byte {
	var b bytes.Buffer
	b.WriteString(`<a2ui-json>[{"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}}, {"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [{"id": "root", "component": "Column", "children": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `"m%d"`, i)
	}
	b.WriteString(`]}]}}`)
	for i := range arrive {
		fmt.Fprintf(&b, `, {"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [{"id": "m%d", "component": "Text", "text": "item %d"}]}}`, i, i)
	}
	b.WriteString(`]</a2ui-json>`)
	return b.Bytes()
}

// TestDeltaOutputLinearWhenChildrenArriveOneByOne: delta mode sends a
// large component again only once an eighth of its placeholders resolved
// (or at the block's end), also across messages, so its output stays
// within a small multiple of the input where it used to grow with the
// square of the children (n = 400: 34x the input; 164x at 2000).
// The yields applied in order still end with the complete messages'
// components, and with progressive mode's where children are missing
// (placeholders only for those: the held-back root is sent at the block's
// end).
func TestDeltaOutputLinearWhenChildrenArriveOneByOne(t *testing.T) {
	t.Parallel() // long: runs beside the other long tests, after the sequential ones (the heap measurements among them)
	for _, tc := range []struct {
		name   string
		n      int
		arrive int // children that arrive
		chunk  int
		cut    string // cut from the end of the block (the stream then ends)
	}{
		{"400 children, 16-byte chunks", 400, 400, 16, ""},
		{"400 children, one chunk", 400, 400, 1 << 20, ""},
		{"20 children (small: sent at once), 7-byte chunks", 20, 20, 7, ""},
		{"400 children, the stream ends inside the block", 400, 400, 16, "]</a2ui-json>"},
		{"400 children, 300 arrive", 400, 300, 16, ""},
		{"400 children, 300 arrive, the stream ends inside the block", 400, 300, 16, "]</a2ui-json>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			whole := childrenOneByOne(tc.n, tc.arrive)
			in := whole[:len(whole)-len(tc.cut)]
			c, p, d, _, delta := runThreeModes(t, whole, chunked(in, tc.chunk))
			if err := diffStates("progressive vs delta components", p.comps, d.comps); err != nil {
				t.Fatal(err)
			}
			if tc.arrive == tc.n {
				if err := checkFullComponents(c, d, true); err != nil {
					t.Fatal(err)
				}
				if err := diffStates("reachable components (complete vs delta)", c.reachable(), d.reachable()); err != nil {
					t.Fatal(err)
				}
			}
			out := 0
			for _, m := range delta {
				out += len(m)
			}
			t.Logf("delta output %d bytes, %.1fx the input", out, float64(out)/float64(len(in)))
			if out > 12*len(in) {
				t.Errorf("delta output %d bytes, %.1fx the input (%d bytes); want at most 12x", out, float64(out)/float64(len(in)), len(in))
			}
		})
	}
}

// TestHeldBackYieldsInSurfaceOrder: components held back on two surfaces
// come out at the block's end in the order of the surfaces' ids, the same
// in every run (they came in the map's order).
func TestHeldBackYieldsInSurfaceOrder(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`<a2ui-json>[`)
	for _, sid := range []string{"b", "a"} {
		fmt.Fprintf(&b, `{"version": "v0.9", "createSurface": {"surfaceId": %q, "catalogId": "c"}}, {"version": "v0.9", "updateComponents": {"surfaceId": %q, "components": [{"id": "root", "component": "Column", "children": [`, sid, sid)
		for i := range 100 {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, `"m%d"`, i)
		}
		b.WriteString(`]}]}}, `)
	}
	for i := range 20 {
		for _, sid := range []string{"b", "a"} {
			fmt.Fprintf(&b, `{"version": "v0.9", "updateComponents": {"surfaceId": %q, "components": [{"id": "m%d", "component": "Text", "text": "x"}]}}, `, sid, i)
		}
	}
	in := bytes.TrimSuffix(b.Bytes(), []byte(", "))
	in = append(in, "]</a2ui-json>"...)
	var first []byte
	for run := range 20 {
		msgs, errs := runMode(t, ModeDelta, nil, chunked(in, 64))
		if errs != 0 {
			t.Fatalf("%d errors", errs)
		}
		var out []byte
		for _, m := range msgs {
			out = append(append(out, m...), '\n')
		}
		if run == 0 {
			first = out
			last := msgs[len(msgs)-1]
			if !bytes.Contains(last, []byte(`"surfaceId":"b"`)) || !bytes.Contains(msgs[len(msgs)-2], []byte(`"surfaceId":"a"`)) {
				t.Fatalf("the held-back roots should come last, surface a then b:\n%s\n%s", msgs[len(msgs)-2], last)
			}
			continue
		}
		if !bytes.Equal(out, first) {
			t.Fatalf("run %d yielded other bytes than run 0", run)
		}
	}
}

// TestHeldComponentsFlushedWhenBlockFails: a large component delta mode
// holds back (children arrived, fewer than an eighth of its placeholders)
// is sent when its block fails, whatever fails it: the grammar, invalid
// UTF-8, a state limit of the engine's, or the parser's block size limit
// (only the first two flushed; a later block's end sent it from the
// dropped block's state, or, without one, nothing did). Applied, delta
// mode's yields then name no placeholder of a child they hold, and hold
// every component progressive mode's do.
func TestHeldComponentsFlushedWhenBlockFails(t *testing.T) {
	whole := childrenOneByOne(400, 60)
	open := bytes.TrimSuffix(whole, []byte("]</a2ui-json>"))
	join := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	next := []byte(`<a2ui-json>[{"version": "v0.9", "createSurface": {"surfaceId": "z", "catalogId": "c"}}]</a2ui-json>`)
	type failing struct {
		name string
		in   []byte
		opts []Option
	}
	cases := []failing{
		{"grammar", join(open, []byte(`, x]</a2ui-json>`)), nil},
		{"invalid UTF-8", join(open, []byte(`, {"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [{"id": "zz", "component": "Text", "text": "`+"\xff"+`"}]}}]</a2ui-json>`)), nil},
		{"max components", whole, []Option{WithMaxComponents(50)}},
		{"block too large", whole, []Option{WithMaxBlockSize(len(whole) - len("<a2ui-json></a2ui-json>") - 3)}},
	}
	for _, c := range cases[2:] {
		cases = append(cases, failing{c.name + ", then a block", join(c.in, next), c.opts})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			chunks := chunked(tc.in, 16)
			prog, perr := runMode(t, ModeProgressive, nil, chunks, tc.opts...)
			delta, derr := runMode(t, ModeDelta, nil, chunks, tc.opts...)
			if perr == 0 || perr != derr {
				t.Fatalf("errors: progressive %d, delta %d; want the same, at least one", perr, derr)
			}
			p, d := applyAll(t, prog), applyAll(t, delta)
			for sid, comps := range d.comps {
				for id, enc := range comps {
					c, _ := decodeObject([]byte(enc))
					for _, r := range protocol.ComponentRefs(nil, c, nil) {
						if kid, ok := strings.CutPrefix(r.ID, "loading_"); ok && comps[kid] != "" {
							t.Fatalf("surface %s: %s names %s, but %s arrived", sid, id, r.ID, kid)
						}
					}
				}
			}
			for sid, comps := range p.comps {
				for id := range comps {
					if _, ok := d.comps[sid][id]; !ok {
						t.Fatalf("surface %s: delta mode never yielded %s", sid, id)
					}
				}
			}
		})
	}
}
