package parser

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// limitRun is what a stream fed in chunks gave: every message (as text)
// and every limit error, in order.
type limitRun struct {
	msgs   []string
	limits []string // "what:surface" of each *LimitError
	other  []error
}

// feedLimited feeds in in chunks of size n (0: whole) to p and collects
// what it gave.
func feedLimited(t *testing.T, p *Parser, in string, n int) limitRun {
	t.Helper()
	var r limitRun
	collect := func(parts []Part, err error) {
		for _, pt := range parts {
			for _, m := range pt.Messages {
				r.msgs = append(r.msgs, string(m))
			}
		}
		if err == nil {
			return
		}
		var errs []error
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			errs = j.Unwrap()
		} else {
			errs = []error{err}
		}
		for _, e := range errs {
			var le *LimitError
			if errors.As(e, &le) && errors.Is(e, ErrLimit) {
				var be *BlockError
				if !errors.As(e, &be) {
					t.Fatalf("a limit error outside a *BlockError: %v", e)
				}
				if !strings.HasPrefix(e.Error(), "parser: ") {
					t.Fatalf("error text without the package prefix: %q", e.Error())
				}
				r.limits = append(r.limits, le.What+":"+le.SurfaceID)
				continue
			}
			r.other = append(r.other, e)
		}
	}
	if n <= 0 {
		n = len(in)
	}
	for i := 0; i < len(in); i += n {
		collect(p.Feed([]byte(in[i:min(i+n, len(in))])))
	}
	collect(p.Close())
	return r
}

func v09Surface(sid string, ncomps int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `Text for %s. <a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":%q,"catalogId":"c"}},`, sid, sid)
	fmt.Fprintf(&b, `{"version":"v0.9","updateComponents":{"surfaceId":%q,"components":[{"id":"root","component":"Column","children":[`, sid)
	for i := 1; i < ncomps; i++ {
		if i > 1 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"c%d"`, i)
	}
	b.WriteString(`]}`)
	for i := 1; i < ncomps; i++ {
		fmt.Fprintf(&b, `,{"id":"c%d","component":"Text","text":"item %d"}`, i, i)
	}
	fmt.Fprintf(&b, `]}},{"version":"v0.9","updateDataModel":{"surfaceId":%q,"path":"/k","value":"v"}}]</a2ui-json>`+"\n", sid)
	return b.String()
}

func v09Update(sid, id, text string) string {
	return fmt.Sprintf(`<a2ui-json>[{"version":"v0.9","updateComponents":{"surfaceId":%q,"components":[{"id":%q,"component":"Text","text":%q}]}}]</a2ui-json>`+"\n", sid, id, text)
}

func TestProgressiveLimits(t *testing.T) {
	cases := []struct {
		name   string
		opts   []Option
		in     string
		limits []string // the limit errors, in order
		// want is a message that must be yielded after the refusals (the
		// surfaces already held go on).
		want string
	}{
		{
			name:   "one surface too many",
			opts:   []Option{WithMaxSurfaces(2)},
			in:     v09Surface("s1", 3) + v09Surface("s2", 3) + v09Surface("s3", 3) + v09Update("s1", "c1", "changed"),
			limits: []string{"surfaces:s3"},
			want:   `"text":"changed"`,
		},
		{
			name:   "a surface freed by deleteSurface makes room",
			opts:   []Option{WithMaxSurfaces(1)},
			in:     v09Surface("s1", 2) + `<a2ui-json>[{"version":"v0.9","deleteSurface":{"surfaceId":"s1"}}]</a2ui-json>` + v09Surface("s2", 2) + v09Surface("s3", 2) + v09Update("s2", "c1", "still here"),
			limits: []string{"surfaces:s3"},
			want:   `"text":"still here"`,
		},
		{
			name:   "one component too many",
			opts:   []Option{WithMaxComponents(4)},
			in:     v09Surface("small", 4) + v09Surface("big", 6) + v09Update("small", "c1", "small goes on"),
			limits: []string{"components:big"},
			want:   `"text":"small goes on"`,
		},
		{
			name: "v0.8 messages waiting for beginRendering",
			opts: []Option{WithMaxComponents(2)},
			in: `<a2ui-json>[{"surfaceUpdate":{"surfaceId":"w","components":[{"id":"root","component":{"Text":{"text":{"literalString":"one"}}}}]}}]</a2ui-json>` +
				`<a2ui-json>[{"surfaceUpdate":{"surfaceId":"w","components":[{"id":"a","component":{"Text":{"text":{"literalString":"two"}}}}]}}]</a2ui-json>` +
				`<a2ui-json>[{"surfaceUpdate":{"surfaceId":"w","components":[{"id":"b","component":{"Text":{"text":{"literalString":"three"}}}}]}}]</a2ui-json>` +
				`<a2ui-json>[{"beginRendering":{"surfaceId":"w","root":"root"}}]</a2ui-json>`,
			limits: []string{"components:w"},
			want:   `"literalString":"one"`,
		},
		{
			name: "v0.8 empty updates waiting for beginRendering",
			opts: []Option{WithMaxComponents(2)},
			in: `<a2ui-json>[{"surfaceUpdate":{"surfaceId":"w","components":[{"id":"root","component":{"Text":{"text":{"literalString":"one"}}}}]}}]</a2ui-json>` +
				strings.Repeat(`<a2ui-json>[{"surfaceUpdate":{"surfaceId":"w","components":[]}}]</a2ui-json>`, 2) +
				`<a2ui-json>[{"beginRendering":{"surfaceId":"w","root":"root"}}]</a2ui-json>`,
			limits: []string{"components:w"},
			want:   `"literalString":"one"`,
		},
		{
			name:   "a data message read before its surfaceId takes no slot",
			opts:   []Option{WithMaxSurfaces(1)},
			in:     v09Surface("a", 2) + `<a2ui-json>[{"version":"v0.9","updateDataModel":{"path":"/x","value":{"k":"one","j":"two"},"surfaceId":"a"}}]</a2ui-json>` + v09Update("a", "c1", "still a"),
			limits: nil,
			want:   `"text":"still a"`,
		},
		{
			name: "an ignored message for a deleted v0.8 surface takes no slot",
			opts: []Option{WithMaxSurfaces(1)},
			in: `<a2ui-json>[{"beginRendering":{"surfaceId":"a","root":"root"}},{"deleteSurface":{"surfaceId":"a"}},` +
				`{"dataModelUpdate":{"surfaceId":"a","contents":[{"key":"k","valueString":"v"}]}}]</a2ui-json>` +
				`<a2ui-json>[{"beginRendering":{"surfaceId":"b","root":"root"}},{"surfaceUpdate":{"surfaceId":"b","components":[{"id":"root","component":{"Text":{"text":{"literalString":"b lives"}}}}]}}]</a2ui-json>`,
			limits: nil,
			want:   `"literalString":"b lives"`,
		},
		{
			// The held surface is b, and every slot is taken: a late update
			// for the deleted a is ignored all the same, not refused, and
			// the rest of its block goes on.
			name: "a late message for a deleted v0.8 surface is ignored when the surfaces are full",
			opts: []Option{WithMaxSurfaces(1)},
			in: `<a2ui-json>[{"beginRendering":{"surfaceId":"a","root":"r"}},{"deleteSurface":{"surfaceId":"a"}}]</a2ui-json>` +
				`<a2ui-json>[{"beginRendering":{"surfaceId":"b","root":"r"}}]</a2ui-json>` +
				`<a2ui-json>[{"surfaceUpdate":{"surfaceId":"a","components":[{"id":"r","component":{"Text":{"text":{"literalString":"x"}}}}]}},` +
				`{"surfaceUpdate":{"surfaceId":"b","components":[{"id":"r","component":{"Text":{"text":{"literalString":"b lives"}}}}]}}]</a2ui-json>`,
			limits: nil,
			want:   `"literalString":"b lives"`,
		},
		{
			// A deleted surface begun anew takes a slot again: here there
			// is none.
			name: "a deleted v0.8 surface begun anew is counted again",
			opts: []Option{WithMaxSurfaces(1)},
			in: `<a2ui-json>[{"beginRendering":{"surfaceId":"a","root":"r"}},{"deleteSurface":{"surfaceId":"a"}}]</a2ui-json>` +
				`<a2ui-json>[{"beginRendering":{"surfaceId":"b","root":"r"}}]</a2ui-json>` +
				`<a2ui-json>[{"beginRendering":{"surfaceId":"a","root":"r"}}]</a2ui-json>` +
				`<a2ui-json>[{"surfaceUpdate":{"surfaceId":"b","components":[{"id":"r","component":{"Text":{"text":{"literalString":"b lives"}}}}]}}]</a2ui-json>`,
			limits: []string{"surfaces:a"},
			want:   `"literalString":"b lives"`,
		},
		{
			name:   "data for one surface too many",
			opts:   []Option{WithMaxSurfaces(1)},
			in:     v09Surface("s1", 2) + `<a2ui-json>[{"version":"v0.9","updateDataModel":{"surfaceId":"elsewhere","path":"/x","value":1}}]</a2ui-json>` + v09Update("s1", "c1", "after"),
			limits: []string{"surfaces:elsewhere"},
			want:   `"text":"after"`,
		},
	}
	for _, tc := range cases {
		for _, mode := range []Mode{ModeProgressive, ModeDelta} {
			t.Run(tc.name+"/"+mode.String(), func(t *testing.T) {
				var whole limitRun
				for _, n := range []int{0, 1, 7} {
					p, err := New(append([]Option{WithMode(mode)}, tc.opts...)...)
					if err != nil {
						t.Fatal(err)
					}
					r := feedLimited(t, p, tc.in, n)
					if len(r.other) > 0 {
						t.Fatalf("chunks of %d: unexpected errors %v", n, r.other)
					}
					if strings.Join(r.limits, ",") != strings.Join(tc.limits, ",") {
						t.Fatalf("chunks of %d: limit errors %v, want %v", n, r.limits, tc.limits)
					}
					if len(r.msgs) == 0 || !strings.Contains(r.msgs[len(r.msgs)-1], tc.want) {
						t.Fatalf("chunks of %d: the last message does not contain %s: %v", n, tc.want, r.msgs)
					}
					e := progressiveOf(t, p.eng)
					if len(e.held) > e.maxSurfaces || len(e.seen) > e.maxSurfaces+1 {
						t.Fatalf("chunks of %d: %d surfaces held, %d with state; limit %d", n, len(e.held), len(e.seen), e.maxSurfaces)
					}
					for sid, s := range e.seen {
						if len(s.comps) > e.maxComps {
							t.Fatalf("chunks of %d: surface %q holds %d components; limit %d", n, sid, len(s.comps), e.maxComps)
						}
					}
					if n == 0 {
						whole = r
					} else if strings.Join(r.limits, ",") != strings.Join(whole.limits, ",") {
						t.Fatalf("chunks of %d: limit errors %v differ from a single feed's %v", n, r.limits, whole.limits)
					}
				}
			})
		}
	}
}

// TestProgressiveStateStaysBounded feeds a stream of many surfaces, which
// a model that never deletes them produces, and checks that every map of
// per-surface state stays within the limit.
func TestProgressiveStateStaysBounded(t *testing.T) {
	const max = 8
	var v09, v08, v08p strings.Builder
	for i := range 100 {
		v09.WriteString(v09Surface(fmt.Sprintf("s%03d", i), 3))
		// v0.8 surfaces come and go; each deleted one is remembered.
		fmt.Fprintf(&v08, `<a2ui-json>[{"beginRendering":{"surfaceId":"v%03d","root":"root"}},{"surfaceUpdate":{"surfaceId":"v%03d","components":[{"id":"root","component":{"Text":{"text":{"literalString":"x"}}}}]}},{"dataModelUpdate":{"surfaceId":"v%03d","contents":[{"key":"k","valueString":"v"}]}},{"deleteSurface":{"surfaceId":"v%03d"}}]</a2ui-json>`, i, i, i, i)
		// And some are never created.
		fmt.Fprintf(&v08p, `<a2ui-json>[{"surfaceUpdate":{"surfaceId":"p%03d","components":[]}}]</a2ui-json>`, i)
	}
	streams := []struct {
		name, in   string
		wantLimits bool
	}{
		{"v0.9 surfaces never deleted", v09.String(), true},
		{"v0.8 surfaces deleted", v08.String(), false},
		{"v0.8 surfaces never begun", v08p.String(), true},
	}
	for _, st := range streams {
		for _, mode := range []Mode{ModeProgressive, ModeDelta} {
			t.Run(st.name+"/"+mode.String(), func(t *testing.T) {
				p, err := New(WithMode(mode), WithMaxSurfaces(max))
				if err != nil {
					t.Fatal(err)
				}
				r := feedLimited(t, p, st.in, 16)
				if len(r.other) > 0 {
					t.Fatalf("unexpected errors %v", r.other)
				}
				if (len(r.limits) > 0) != st.wantLimits {
					t.Fatalf("limit errors %v", r.limits)
				}
				e := progressiveOf(t, p.eng)
				sizes := map[string]int{
					"held": len(e.held), "seen": len(e.seen), "yieldedStart": len(e.yieldedStart),
					"rootIDs": len(e.rootIDs), "surfaceVer": len(e.surfaceVer), "pending": len(e.pending),
					"deleted": len(e.deleted), "dataYielded": len(e.dataYielded),
				}
				for name, n := range sizes {
					// +1: the unnamed surface, which a stream always may use.
					if n > max+1 {
						t.Errorf("%s holds %d entries; limit %d", name, n, max)
					}
				}
			})
		}
	}
}

// TestDeletedSurfacesForgottenOldestFirst deletes more v0.8 surfaces than
// the parser remembers: the oldest is forgotten (its late message is read
// as for a surface never seen, and yielded), the others stay deleted (their
// late messages are ignored), the same way every run.
func TestDeletedSurfacesForgottenOldestFirst(t *testing.T) {
	cases := []struct {
		name      string
		deletions []string // surfaces begun and deleted, in order
		forgotten string   // the one whose late data is yielded
	}{
		{"three surfaces", []string{"a", "b", "c"}, "a"},
		// a's second deletion is the one that counts: b is the oldest.
		{"a surface deleted again", []string{"a", "b", "a", "c"}, "b"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			for _, s := range tc.deletions {
				fmt.Fprintf(&b, `<a2ui-json>[{"beginRendering":{"surfaceId":%q,"root":"root"}},{"deleteSurface":{"surfaceId":%q}}]</a2ui-json>`, s, s)
			}
			for _, s := range []string{"a", "b", "c"} {
				fmt.Fprintf(&b, `<a2ui-json>[{"dataModelUpdate":{"surfaceId":%q,"contents":[{"key":"late","valueString":%q}]}}]</a2ui-json>`, s, s)
			}
			for run := range 20 {
				p, err := New(WithMode(ModeProgressive), WithMaxSurfaces(2))
				if err != nil {
					t.Fatal(err)
				}
				r := feedLimited(t, p, b.String(), 0)
				var late []string
				for _, m := range r.msgs {
					if strings.Contains(m, `"late"`) {
						late = append(late, m)
					}
				}
				if len(late) != 1 || !strings.Contains(late[0], `"surfaceId":"`+tc.forgotten+`"`) {
					t.Fatalf("run %d: late messages yielded %v, want only %s's", run, late, tc.forgotten)
				}
			}
		})
	}
}

// TestDataRecordsStayBounded sends one surface data at many paths, and at
// one path many keys (three per message): the records of the data yielded
// stay within WithMaxComponents paths of at most that many keys plus one
// message's, and applying the delta yields still leaves the complete
// messages' data.
func TestDataRecordsStayBounded(t *testing.T) {
	const max = 8
	var b strings.Builder
	b.WriteString(v09Surface("s", 2))
	for i := range 60 {
		fmt.Fprintf(&b, `<a2ui-json>[{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/p%d","value":{"k":%d}}}]</a2ui-json>`, i, i)
		fmt.Fprintf(&b, `<a2ui-json>[{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/many","value":{"a%d":1,"b%d":2,"c%d":3}}}]</a2ui-json>`, i, i, i)
	}
	in := b.String()
	for _, mode := range []Mode{ModeProgressive, ModeDelta} {
		t.Run(mode.String(), func(t *testing.T) {
			p, err := New(WithMode(mode), WithMaxComponents(max))
			if err != nil {
				t.Fatal(err)
			}
			r := feedLimited(t, p, in, 16)
			if len(r.limits)+len(r.other) > 0 {
				t.Fatalf("errors: %v %v", r.limits, r.other)
			}
			checkDataRecords(t, progressiveOf(t, p.eng), max, 3)
			if mode == ModeDelta {
				var msgs []json.RawMessage
				for _, m := range r.msgs {
					msgs = append(msgs, json.RawMessage(m))
				}
				complete, _ := runMode(t, ModeComplete, nil, [][]byte{[]byte(in)})
				if err := diffStates("data (complete vs delta)", applyAll(t, complete).data, applyAll(t, msgs).data); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// checkDataRecords fails unless every surface has at most max data path
// records, each of at most max keys plus perMsg (one message's; a negative
// perMsg leaves the keys unchecked).
func checkDataRecords(t *testing.T, e *progressiveEngine, max, perMsg int) {
	t.Helper()
	for sid, paths := range e.dataYielded {
		if len(paths) > max {
			t.Fatalf("surface %q has %d data path records; limit %d", sid, len(paths), max)
		}
		for path, r := range paths {
			if perMsg >= 0 && r.keys.len() > max+perMsg {
				t.Fatalf("data record of %q %q holds %d keys; limit %d", sid, path, r.keys.len(), max+perMsg)
			}
		}
	}
}

// FuzzProgressiveLimits feeds arbitrary input, in chunks of a size taken
// from the input, to the progressive and delta modes under small limits
// (two surfaces, three components): neither may panic, every limit error
// must be a *LimitError inside a *BlockError, and the state kept must stay
// within the limits.
func FuzzProgressiveLimits(f *testing.F) {
	f.Add(byte(1), []byte(v09Surface("s1", 3)+v09Surface("s2", 4)+v09Surface("s3", 2)+v09Update("s1", "c1", "x")))
	f.Add(byte(6), []byte(`<a2ui-json>[{"surfaceUpdate":{"surfaceId":"w","components":[]}},{"surfaceUpdate":{"surfaceId":"w","components":[]}},{"surfaceUpdate":{"surfaceId":"w","components":[]}},{"beginRendering":{"surfaceId":"w","root":"root"}}]</a2ui-json>`))
	f.Add(byte(15), []byte(`<a2ui-json>[{"beginRendering":{"surfaceId":"a","root":"root"}},{"deleteSurface":{"surfaceId":"a"}},{"beginRendering":{"surfaceId":"b","root":"root"}},{"deleteSurface":{"surfaceId":"b"}},{"beginRendering":{"surfaceId":"c","root":"root"}},{"deleteSurface":{"surfaceId":"c"}}]</a2ui-json>`))
	f.Fuzz(func(t *testing.T, size byte, in []byte) {
		n := int(size%32) + 1
		for _, mode := range []Mode{ModeProgressive, ModeDelta} {
			p, err := New(WithMode(mode), WithMaxSurfaces(2), WithMaxComponents(3))
			if err != nil {
				t.Fatal(err)
			}
			feedLimited(t, p, string(in), n)
			e := progressiveOf(t, p.eng)
			for name, size := range map[string]int{
				"held": len(e.held), "seen": len(e.seen), "yieldedStart": len(e.yieldedStart),
				"rootIDs": len(e.rootIDs), "surfaceVer": len(e.surfaceVer), "pending": len(e.pending),
				"deleted": len(e.deleted),
			} {
				if size > 3 { // two surfaces, and the unnamed one
					t.Fatalf("%s: %s holds %d entries", mode, name, size)
				}
			}
			for sid, s := range e.seen {
				if len(s.comps) > 3 || len(e.pending[sid]) > 3 {
					t.Fatalf("%s: surface %q holds %d components, %d waiting messages", mode, sid, len(s.comps), len(e.pending[sid]))
				}
			}
			// Keys per path may exceed the limit by one message's keys,
			// which arbitrary input does not bound: only the paths are
			// checked here (TestDataRecordsStayBounded checks the keys).
			checkDataRecords(t, e, 3, -1)
		}
	})
}

// TestReferencedIDsStayBounded checks that a surface does not keep a
// record of every id its components ever referenced: a root whose children
// change to new, missing ids at every update leaves few targets.
func TestReferencedIDsStayBounded(t *testing.T) {
	var in strings.Builder
	in.WriteString(`<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}}`)
	const updates = 2000
	for i := range updates {
		fmt.Fprintf(&in, `,{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Row","children":["a%d","b%d"]}]}}`, i, i)
	}
	in.WriteString(`]</a2ui-json>`)
	for _, mode := range []Mode{ModeProgressive, ModeDelta} {
		t.Run(mode.String(), func(t *testing.T) {
			p := mustNew(t, WithMode(mode))
			if r := feedLimited(t, p, in.String(), 64); len(r.other)+len(r.limits) > 0 {
				t.Fatalf("errors %v %v", r.other, r.limits)
			}
			s := progressiveOf(t, p.eng).seen["s"]
			if s == nil {
				t.Fatal("no state for surface s")
			}
			if n := len(s.tgts); n > 4*minTargetsCompact || len(s.tidx) != n {
				t.Errorf("%d targets (%d indexed) after %d updates referencing %d ids; want at most %d", n, len(s.tidx), updates, 2*updates, 4*minTargetsCompact)
			}
		})
	}
}
