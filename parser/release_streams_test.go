package parser

import (
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/speccatalog"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// The allocation reuse of the progressive modes (entries from per-surface
// chunks spared when a surface freezes, placeholder slabs reused by the
// next block, interned ids in chunks, lists in shared row arrays) checked
// on streams of many surfaces: several frozen at each block's end, new
// ones and thawed ones in the next, ids longer than 32 bytes and with
// escapes, lists of 2 to 9 children missing, more than 64 entries,
// blocks that end or fail inside a component or between messages, v0.8
// surfaces begun blocks after their first updates, and components sent
// again unchanged; and, on the same streams, the catalog's verdict on a
// complete message from its components' verdicts (listVerdict).

// surfacesID returns the id of component k of a surface: short, long
// (over 32 bytes), or written with an escape (raw: its JSON encoding).
func surfacesID(r *rand.Rand, k int) (id, raw string) {
	switch r.Intn(4) {
	case 0:
		id = fmt.Sprintf("component_with_a_long_name_number_%03d", k)
	case 1:
		id = fmt.Sprintf("e%d\"q", k)
		return id, fmt.Sprintf(`"e%d\"q"`, k)
	default:
		id = fmt.Sprintf("c%d", k)
	}
	return id, `"` + id + `"`
}

// surfacesStream writes a v0.9 (or, v08, v0.8) stream of 3 to 6 blocks over
// up to 8 surfaces from seed.
func surfacesStream(seed int64, v08 bool) []byte { return surfacesStreamVersion(seed, v08, "v0.9") }

// surfacesStreamVersion is surfacesStream, with repVer the version of the
// component messages that send a component again.
func surfacesStreamVersion(seed int64, v08 bool, repVer string) []byte {
	r := rand.New(rand.NewSource(seed))
	type surf struct {
		ids     []string // raw JSON of the ids named
		defined map[string]bool
		begun   bool
		last    string // the last component sent whole
	}
	surfs := map[string]*surf{}
	var b strings.Builder
	comp := func(s *surf, raw string, kids []string) string {
		s.defined[raw] = true
		if v08 {
			if len(kids) == 0 {
				return fmt.Sprintf(`{"id":%s,"component":{"Text":{"text":{"literalString":"t%d"}}}}`, raw, r.Intn(3))
			}
			return fmt.Sprintf(`{"id":%s,"component":{"Column":{"children":{"explicitList":[%s]}}}}`, raw, strings.Join(kids, ","))
		}
		if len(kids) == 0 {
			return fmt.Sprintf(`{"id":%s,"component":"Text","text":"t%d"}`, raw, r.Intn(3))
		}
		if len(kids) == 1 && r.Intn(2) == 0 {
			return fmt.Sprintf(`{"id":%s,"component":"Card","child":%s}`, raw, kids[0])
		}
		return fmt.Sprintf(`{"id":%s,"component":"Column","children":[%s]}`, raw, strings.Join(kids, ","))
	}
	nblocks := 3 + r.Intn(4)
	for blk := range nblocks {
		b.WriteString("p <a2ui-json>[")
		first, cut := true, false
		sep := func() {
			if !first {
				b.WriteString(",")
			}
			first = false
		}
		for range 1 + r.Intn(5) {
			sid := fmt.Sprintf("s%d", r.Intn(8))
			if r.Intn(3) == 0 {
				sid = fmt.Sprintf("surface_with_a_very_long_identifier_%d", r.Intn(3))
			}
			s := surfs[sid]
			if s == nil {
				s = &surf{defined: map[string]bool{}}
				surfs[sid] = s
				if !v08 {
					sep()
					fmt.Fprintf(&b, `{"version":"v0.9","createSurface":{"surfaceId":%q,"catalogId":"c"}}`, sid)
				}
			}
			if r.Intn(10) == 0 {
				sep()
				if v08 {
					fmt.Fprintf(&b, `{"deleteSurface":{"surfaceId":%q}}`, sid)
				} else {
					fmt.Fprintf(&b, `{"version":"v0.9","deleteSurface":{"surfaceId":%q}}`, sid)
				}
				delete(surfs, sid)
				continue
			}
			sep()
			if v08 {
				fmt.Fprintf(&b, `{"surfaceUpdate":{"surfaceId":%q,"components":[`, sid)
			} else {
				fmt.Fprintf(&b, `{"version":"v0.9","updateComponents":{"surfaceId":%q,"components":[`, sid)
			}
			var items []string
			if len(s.ids) == 0 {
				s.ids = append(s.ids, `"root"`)
			}
			for range 1 + r.Intn(4) {
				// A component lists only ids named after its own: no cycle.
				var raw string
				at := len(s.ids)
				if r.Intn(3) == 0 {
					_, raw = surfacesID(r, len(s.ids))
					s.ids = append(s.ids, raw)
				} else {
					at = r.Intn(len(s.ids))
					raw = s.ids[at]
				}
				var kids []string
				if raw == `"root"` {
					// The root lists most ids named, so that they are reachable.
					for _, k := range s.ids[1:] {
						if r.Intn(4) != 0 {
							kids = append(kids, k)
						}
					}
				} else if r.Intn(2) == 0 {
					for n := r.Intn(10); n > 0; n-- {
						if r.Intn(2) == 0 {
							_, k := surfacesID(r, len(s.ids))
							s.ids = append(s.ids, k)
							kids = append(kids, k)
						} else if at+1 < len(s.ids) {
							kids = append(kids, s.ids[at+1+r.Intn(len(s.ids)-at-1)])
						}
					}
				}
				items = append(items, comp(s, raw, kids))
			}
			if r.Intn(5) == 0 {
				// Many components at once (more than 64 entries).
				for range 20 + r.Intn(60) {
					_, raw := surfacesID(r, len(s.ids))
					s.ids = append(s.ids, raw)
					items = append(items, comp(s, raw, nil))
				}
				kids := s.ids[1:]
				items = append(items, comp(s, `"root"`, kids))
			}
			if r.Intn(2) == 0 || blk == nblocks-1 {
				// At rest: every id named is defined (as a Text).
				for _, raw := range s.ids {
					if !s.defined[raw] {
						items = append(items, comp(s, raw, nil))
					}
				}
			}
			if blk < nblocks-1 && r.Intn(6) == 0 {
				// The block ends inside the last component (healed), or
				// fails there on a junk byte.
				last := items[len(items)-1]
				b.WriteString(strings.Join(append(items[:len(items)-1:len(items)-1], last[:1+r.Intn(len(last)-1)]), ","))
				if r.Intn(2) == 0 {
					b.WriteString("x")
				}
				cut = true
				break
			}
			b.WriteString(strings.Join(items, ","))
			b.WriteString("]}}")
			if s.last != "" && r.Intn(3) == 0 {
				// A component sent again as it was, alone (its entry
				// does not change).
				if v08 {
					fmt.Fprintf(&b, `,{"surfaceUpdate":{"surfaceId":%q,"components":[%s]}}`, sid, s.last)
				} else {
					// After a child named and not defined yet, as a
					// Divider (of two members: valid in any version of
					// versionedCatalog), when there is one.
					div := ""
					for _, raw := range s.ids {
						if !s.defined[raw] {
							s.defined[raw] = true
							div = fmt.Sprintf(`{"id":%s,"component":"Divider"},`, raw)
							break
						}
					}
					fmt.Fprintf(&b, `,{"version":%q,"updateComponents":{"surfaceId":%q,"components":[%s%s]}}`, repVer, sid, div, s.last)
				}
			}
			s.last = items[r.Intn(len(items))]
			if v08 && !s.begun && (r.Intn(3) == 0 || blk == nblocks-1) {
				s.begun = true
				sep()
				fmt.Fprintf(&b, `{"beginRendering":{"surfaceId":%q,"root":"root"}}`, sid)
			}
		}
		if cut {
			b.WriteString("</a2ui-json>\n")
			continue
		}
		if r.Intn(7) == 0 && blk < nblocks-1 {
			b.WriteString(",x")
		}
		b.WriteString("]</a2ui-json>\n")
	}
	return []byte(b.String())
}

// renderRun feeds chunks to a new parser with opts, rendering every
// call's parts as they are returned.
func renderRun(t *testing.T, chunks [][]byte, opts ...Option) string {
	t.Helper()
	out, err := renderRunErr(chunks, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// renderRunErr is renderRun, which returns New's error (for goroutines
// other than the test's).
func renderRunErr(chunks [][]byte, opts ...Option) (string, error) {
	p, err := New(opts...)
	if err != nil {
		return "", err
	}
	return renderFeeds(p, chunks), nil
}

// checkSurfacesStream checks one stream: released vs kept state, the
// owned parts rendered after the stream's end as when returned, two
// parsers fed in turn (sharing the pools) as each alone, borrowed output
// as owned, and the modes against each other (v0.9).
func checkSurfacesStream(t *testing.T, data []byte, chunk int, what string) bool {
	t.Helper()
	chunks := chunksOf(data, chunk)
	for _, mode := range []Mode{ModeProgressive, ModeDelta} {
		if !checkReleaseSame(t, mode, chunks, fmt.Sprintf("%s, %v", what, mode)) {
			return false
		}
		alone := renderRun(t, chunks, WithMode(mode))
		if got := renderRun(t, chunks, WithMode(mode), WithBorrowedOutput()); got != alone {
			t.Errorf("%s, %v: borrowed output differs from owned\nowned:\n%s\nborrowed:\n%s", what, mode, alone, got)
			return false
		}
		// Owned parts kept to the end, and a second parser fed in turn.
		p, _ := New(WithMode(mode))
		q, _ := New(WithMode(mode), WithBorrowedOutput())
		other := chunksOf(surfacesStream(int64(len(data)), false), 5)
		var kept [][]Part
		var errs []error
		var w bytes.Buffer
		for i, c := range chunks {
			parts, err := p.Feed(c)
			goldenRender(&w, "feed", parts, err)
			kept, errs = append(kept, parts), append(errs, err)
			if i < len(other) {
				_, _ = q.Feed(other[i])
			}
		}
		parts, err := p.Close()
		goldenRender(&w, "close", parts, err)
		kept, errs = append(kept, parts), append(errs, err)
		_, _ = q.Close()
		if w.String() != alone {
			t.Errorf("%s, %v: output differs with a second parser fed in turn\nalone:\n%s\nin turn:\n%s", what, mode, alone, w.String())
			return false
		}
		var later bytes.Buffer
		for i := range kept {
			call := "feed"
			if i == len(kept)-1 {
				call = "close"
			}
			goldenRender(&later, call, kept[i], errs[i])
		}
		if later.String() != alone {
			t.Errorf("%s, %v: owned parts changed after later calls\nat return:\n%s\nat the end:\n%s", what, mode, alone, later.String())
			return false
		}
	}
	return true
}

// TestReuseOnManySurfaces runs checkSurfacesStream on random streams of
// many surfaces, v0.9 and v0.8, at several chunk sizes.
func TestReuseOnManySurfaces(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 30
	}
	for _, v08 := range []bool{false, true} {
		for seed := range int64(n) {
			data := surfacesStream(seed, v08)
			chunk := 1 + int(seed*7%40)
			if !checkSurfacesStream(t, data, chunk, fmt.Sprintf("seed %d (v08 %v), chunk %d, input:\n%s", seed, v08, chunk, data)) {
				return
			}
			if !v08 {
				checkModesAgree(t, chunk, data)
			}
		}
	}
}

// FuzzReuseOnManySurfaces is TestReuseOnManySurfaces on any seed.
func FuzzReuseOnManySurfaces(f *testing.F) {
	f.Add(int64(0), false, byte(3))
	f.Add(int64(1), true, byte(1))
	f.Fuzz(func(t *testing.T, seed int64, v08 bool, chunk byte) {
		data := surfacesStream(seed, v08)
		n := int(chunk%48) + 1
		checkSurfacesStream(t, data, n, fmt.Sprintf("seed %d (v08 %v), chunk %d, input:\n%s", seed, v08, n, data))
		if !v08 {
			checkModesAgree(t, n, data)
		}
	})
}

// TestListVerdictOnManySurfaces: the verdict on a complete component
// message from its components' verdicts (listVerdict), where it decides,
// is MessageVerdict's, on the random streams of many surfaces (frozen,
// thawed, long and escaped ids, blocks failing mid-way), with the v0.9
// basic catalog and with versionedCatalog on the streams whose component
// messages change version (a component's verdict in one wrapper is not
// its verdict in the other).
func TestListVerdictOnManySurfaces(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 100
	}
	cats := []struct {
		name    string
		cat     *protocol.Catalog
		version bool
	}{
		{"basic", speccatalog.BasicV09(t), false},
		{"versioned", versionedCatalog(t), true},
	}
	for _, c := range cats {
		lc := &listChecker{t: t, counts: map[string]int{}}
		for seed := range int64(n) {
			data := surfacesStream(seed, false)
			if c.version {
				data = surfacesStreamVersion(seed, false, "v0.9.1")
			}
			if seed%2 == 1 {
				// Some components invalid alone (a number for a text).
				data = bytes.ReplaceAll(data, []byte(`"text":"t2"`), []byte(`"text":2`))
			}
			lc.feed(c.cat, data, 1+int(seed*5%33))
		}
		t.Logf("%s: %v", c.name, lc.counts)
		if lc.counts["decided valid true"] == 0 {
			t.Errorf("%s: no message decided valid: the test does not test", c.name)
		}
	}
}

// FuzzListVerdictOnManySurfaces is TestListVerdictOnManySurfaces on any seed
// and chunk size: a fast fuzz target for listVerdict (FuzzListVerdict's
// corpus turns take seconds each).
func FuzzListVerdictOnManySurfaces(f *testing.F) {
	cats := []*protocol.Catalog{speccatalog.BasicV09(f), versionedCatalog(f)}
	f.Add(int64(0), uint8(5), uint8(0), false)
	f.Add(int64(7), uint8(1), uint8(1), true)
	f.Fuzz(func(t *testing.T, seed int64, chunk, ci uint8, bad bool) {
		data := surfacesStreamVersion(seed, false, "v0.9.1")
		if ci%2 == 0 {
			data = surfacesStream(seed, false)
		}
		if bad {
			data = bytes.ReplaceAll(data, []byte(`"text":"t2"`), []byte(`"text":2`))
		}
		lc := &listChecker{t: t, counts: map[string]int{}}
		lc.feed(cats[int(ci)%2], data, 1+int(chunk)%48)
	})
}
