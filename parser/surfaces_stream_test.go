package parser

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// Random streams of many surfaces over several blocks, whose output
// TestParsersConcurrently compares alone and beside other parsers:
// several surfaces updated in each block, new ones and ones updated again
// in the next, surfaces deleted, ids longer than 32 bytes and with
// escapes, lists of 2 to 9 children missing, more than 64 components in a
// message, blocks that end or fail inside a component or between
// messages, v0.8 surfaces begun blocks after their first updates, and
// components sent again unchanged.

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
				// Many components at once (more than 64).
				for range 20 + r.Intn(60) {
					_, raw := surfacesID(r, len(s.ids))
					s.ids = append(s.ids, raw)
					items = append(items, comp(s, raw, nil))
				}
				kids := s.ids[1:]
				items = append(items, comp(s, `"root"`, kids))
			}
			if r.Intn(2) == 0 || blk == nblocks-1 {
				// Every id named is defined (as a Text): the surface is complete.
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
				// A component sent again as it was, alone (it does not
				// change).
				if v08 {
					fmt.Fprintf(&b, `,{"surfaceUpdate":{"surfaceId":%q,"components":[%s]}}`, sid, s.last)
				} else {
					// After a child named and not defined yet, as a
					// Divider (of two members), when there is one.
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
