package parser

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/speccatalog"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// listChecker compares listVerdict's decided answers with MessageVerdict
// on the message's comparison encoding (listSeen: the test must not run
// in parallel), and counts them.
type listChecker struct {
	t      testing.TB
	counts map[string]int
}

func (lc *listChecker) seen(e *progressiveEngine, msg map[string]any, valid, decided bool) {
	_, uc := msg[kUpdateComponents]
	_, su := msg[kSurfaceUpdate]
	if uc || su {
		lc.counts["component messages"]++
	}
	if !decided {
		return
	}
	enc := string(appendCmp(nil, msg))
	wantValid, wantDecided := e.cat.MessageVerdict(enc)
	if valid != wantValid || !wantDecided {
		lc.t.Fatalf("%.300s: list verdict (%v, %v), MessageVerdict (%v, %v)", enc, valid, decided, wantValid, wantDecided)
	}
	lc.counts[fmt.Sprintf("decided valid %v", valid)]++
}

// feedChecked feeds input to a parser in each of the progressive modes
// with cat, in chunks of n bytes, with lc checking listVerdict.
func (lc *listChecker) feed(cat *protocol.Catalog, input []byte, n int) {
	defer func() { listSeen = nil }()
	listSeen = lc.seen
	for _, mode := range []Mode{ModeProgressive, ModeDelta} {
		p, err := New(WithMode(mode), WithCatalog(cat))
		if err != nil {
			lc.t.Fatal(err)
		}
		for _, c := range chunked(input, n) {
			_, _ = p.Feed(c) // errors are part of the streams
		}
		_, _ = p.Close()
	}
}

// v09Variant is the v0.9 basic catalog with its components array's
// schema and component id schema amended by extra members.
func v09Variant(t testing.TB, components, id map[string]any) *protocol.Catalog {
	t.Helper()
	return v09Mutated(t, func(s2c, common map[string]any) {
		for k, v := range components {
			updateComponentsSchema(s2c)["properties"].(map[string]any)["updateComponents"].(map[string]any)["properties"].(map[string]any)["components"].(map[string]any)[k] = v
		}
		for k, v := range id {
			common["$defs"].(map[string]any)["ComponentId"].(map[string]any)[k] = v
		}
	})
}

// updateComponentsSchema is the updateComponents message's schema in the
// v0.9 server-to-client schema s2c.
func updateComponentsSchema(s2c map[string]any) map[string]any {
	return s2c["$defs"].(map[string]any)["UpdateComponentsMessage"].(map[string]any)
}

// v09Mutated is the v0.9 basic catalog with its server-to-client and
// common types schemas changed by mutate.
func v09Mutated(t testing.TB, mutate func(s2c, common map[string]any)) *protocol.Catalog {
	t.Helper()
	spec := speccatalog.BasicV09Spec(t)
	s2c, common := readSchema(t, spec.S2CSchema), readSchema(t, spec.CommonTypesSchema)
	mutate(s2c, common)
	spec.S2CSchema, spec.CommonTypesSchema = s2c, common
	cat, err := protocol.LoadCatalog(spec, "")
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// versionedCatalog is the v0.9 basic catalog where an updateComponents
// message may have any version, and one of another version than "v0.9"
// components of at most two members.
func versionedCatalog(t testing.TB) *protocol.Catalog {
	return v09Mutated(t, func(s2c, _ map[string]any) {
		uc := updateComponentsSchema(s2c)
		uc["properties"].(map[string]any)["version"] = map[string]any{"type": "string"}
		uc["if"] = map[string]any{"properties": map[string]any{"version": map[string]any{"const": "v0.9"}}}
		uc["else"] = map[string]any{"properties": map[string]any{"updateComponents": map[string]any{"properties": map[string]any{
			"components": map[string]any{"items": map[string]any{"maxProperties": 2}}}}}}
	})
}

// growingStream is a surface whose component messages end with a
// component that grows past four members (its form of four, judged while
// it arrived, is valid with at most four) as the message ends.
const growingStream = `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},
{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["a","b","c"]},{"id":"a","component":"Text","text":"hello"}]}}]</a2ui-json>
<a2ui-json>[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"b","component":"Text","text":"hi","variant":"h1","weight":1}]}}]</a2ui-json>
<a2ui-json>[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Text","text":"hello"},{"id":"c","component":"Text","text":"hi","variant":"h2","weight":2}]}}]</a2ui-json>
<a2ui-json>[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Text","text":"hello"},{"id":"b","component":"Text","text":"hi"}]}}]</a2ui-json>`

// versionedStream is a surface whose second component message, of another
// version, holds a component of the first again (its entry unchanged,
// judged in the first's wrapper) after a new one: valid in the first, not
// in the second.
const versionedStream = `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},
{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["a","b"]},{"id":"a","component":"Text","text":"hello"}]}},
{"version":"v0.9.1","updateComponents":{"surfaceId":"s","components":[{"id":"b","component":"Divider"},{"id":"a","component":"Text","text":"hello"}]}},
{"version":"v0.9.1","updateComponents":{"surfaceId":"s","components":[{"id":"b","component":"Divider"},{"id":"c","component":"Divider"}]}}]</a2ui-json>`

// wideRoots returns input with 65 more members in each component whose
// id comes first and is "root" (more than the fast path reads where an
// unevaluatedProperties needs to know which were evaluated: its verdict
// on them is undecided).
func wideRoots(input []byte) []byte {
	var members []byte
	for i := 0; i < 65; i++ {
		members = fmt.Appendf(members, `"x%d":0,`, i)
	}
	return bytes.ReplaceAll(input, []byte(`{"id":"root"`), append(append([]byte("{"), members...), `"id":"root"`...))
}

// TestListVerdictMatchesMessageVerdict: the engine's verdict on a
// complete component message from what it knows of its components
// (listVerdict), where it decides, is MessageVerdict's on the message's
// encoding, in both progressive modes, on both corpora with the
// specification's catalogs and with catalogs that bound the item count,
// make many components invalid alone or leave some undecided, and on the
// streaming suite's cases with their catalogs.
func TestListVerdictMatchesMessageVerdict(t *testing.T) {
	corpus := func(name string) []byte {
		data := readCorpus(t, name+".txt")
		return data
	}
	v09, v08 := corpus("stream_v09"), corpus("stream_v08")
	for _, tc := range []struct {
		name                         string
		cat                          func(t *testing.T) *protocol.Catalog
		input                        []byte
		chunks                       []int
		decidesValid, decidesInvalid bool
	}{
		{"v0.9 basic", func(t *testing.T) *protocol.Catalog { return speccatalog.BasicV09(t) }, v09, []int{16}, true, false},
		{"v0.9 basic, 5-byte chunks", func(t *testing.T) *protocol.Catalog { return speccatalog.BasicV09(t) }, v09, []int{5}, true, false},
		{"v0.8 standard", func(t *testing.T) *protocol.Catalog { return speccatalog.StandardV08(t) }, v08, []int{16}, true, false},
		{"v0.8 standard, 5-byte chunks", func(t *testing.T) *protocol.Catalog { return speccatalog.StandardV08(t) }, v08, []int{5}, true, false},
		{"at most 20 components", func(t *testing.T) *protocol.Catalog {
			return v09Variant(t, map[string]any{"maxItems": 20}, nil)
		}, v09, []int{16}, true, true},
		{"at least 40 components", func(t *testing.T) *protocol.Catalog {
			return v09Variant(t, map[string]any{"minItems": 40}, nil)
		}, v09, []int{16}, false, false},
		{"ids of at most 14 characters", func(t *testing.T) *protocol.Catalog {
			return v09Variant(t, nil, map[string]any{"maxLength": 14})
		}, v09, []int{16}, true, false},
		{"ids of lower case letters", func(t *testing.T) *protocol.Catalog { return patternedIDCatalog(t) }, v09, []int{16}, true, false},
		{"roots with more members than the fast path reads", func(t *testing.T) *protocol.Catalog {
			return v09Variant(t, map[string]any{"items": map[string]any{"$ref": "catalog.json#/$defs/anyComponent", "unevaluatedProperties": true}}, nil)
		}, wideRoots(v09), []int{16}, true, false},
		{"a last component that grows past 4 members", func(t *testing.T) *protocol.Catalog {
			return v09Variant(t, map[string]any{"items": map[string]any{"$ref": "catalog.json#/$defs/anyComponent", "maxProperties": 4}}, nil)
		}, []byte(growingStream), []int{1, 2, 3, 4, 5, 6, 7, 8, 16}, true, false},
		{"a version that changes what a component may be", func(t *testing.T) *protocol.Catalog { return versionedCatalog(t) }, []byte(versionedStream), []int{16}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lc := &listChecker{t: t, counts: map[string]int{}}
			cat := tc.cat(t)
			for _, n := range tc.chunks {
				lc.feed(cat, tc.input, n)
			}
			t.Logf("%v", lc.counts)
			if got := lc.counts["decided valid true"] > 0; got != tc.decidesValid {
				t.Errorf("decides valid: %v, want %v", got, tc.decidesValid)
			}
			if got := lc.counts["decided valid false"] > 0; got != tc.decidesInvalid {
				t.Errorf("decides invalid: %v, want %v", got, tc.decidesInvalid)
			}
		})
	}
	t.Run("streaming suite", func(t *testing.T) {
		lc := &listChecker{t: t, counts: map[string]int{}}
		for _, c := range streamingCatalogCases(t) {
			for _, n := range []int{1, 3, 16} {
				lc.feed(c.cat, c.input, n)
			}
		}
		t.Logf("%v", lc.counts)
		if lc.counts["decided valid true"] == 0 {
			t.Error("no verdict decided")
		}
	})
}

// FuzzListVerdict: listVerdict's decided answers are MessageVerdict's,
// on streams seeded from corpus turns, with the v0.9 basic catalog and
// with one that bounds the item count.
func FuzzListVerdict(f *testing.F) {
	cats := []*protocol.Catalog{speccatalog.BasicV09(f), v09Variant(f, map[string]any{"maxItems": 12}, map[string]any{"maxLength": 14})}
	for _, turn := range corpusTurns(f, "stream_v09", 0, 1, 7, 42) {
		f.Add(turn, uint8(16), uint8(0))
		f.Add(turn, uint8(3), uint8(1))
	}
	f.Fuzz(func(t *testing.T, input []byte, chunk, ci uint8) {
		lc := &listChecker{t: t, counts: map[string]int{}}
		lc.feed(cats[int(ci)%len(cats)], input, 1+int(chunk)%64)
	})
}

// TestNextWrapper: the wrappers are numbered on from the last one, and
// once the numbers run out all are noWrapper, in which listVerdict takes
// no verdict as recorded.
func TestNextWrapper(t *testing.T) {
	for _, tc := range []struct {
		name       string
		last, next uint32
	}{
		{"first", 0, 1},
		{"next", 41, 42},
		{"last number", noWrapper - 2, noWrapper - 1},
		{"numbers run out", noWrapper - 1, noWrapper},
		{"numbers ran out", noWrapper, noWrapper},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &progressiveEngine{closing: closingEnc{epoch: tc.last}}
			if got := e.nextWrapper(); got != tc.next {
				t.Errorf("after %d: %d, want %d", tc.last, got, tc.next)
			}
		})
	}
	e := &progressiveEngine{closing: closingEnc{ok: true, epoch: noWrapper}}
	if _, decided := e.listVerdict(map[string]any{}); decided {
		t.Error("a verdict in a wrapper past the numbers")
	}
}
