package parser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/buger/jsonparser"

	"github.com/a2ui-stream/a2ui-stream/internal/speccatalog"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// The complete message's judgement (validate: the fast verdict on the
// encoding with byte-level components as their bytes, the integrity checks
// on what the engine knows of the components, integrityOK) against the one
// on the message decoded again in full: the judgement before it
// (oldJudgement) and the catalog's Validate.

// oldJudgement is validate as it was before integrityOK, on full, the
// message decoded in full: the fast verdict on its comparison encoding,
// then protocol.ValidateIntegrity, or else the schema library.
func oldJudgement(cat *protocol.Catalog, full map[string]any, strict bool) error {
	opt := protocol.WithStrictIntegrity(strict)
	if valid, decided := cat.MessageVerdict(string(appendCmp(nil, full))); valid && decided {
		return protocol.ValidateIntegrity([]any{full}, cat.RefFields, opt)
	}
	return cat.Validate([]any{full}, opt)
}

// judgementDiff compares err, validate's judgement of msg, with those on
// msg decoded in full, and checks that integrityOK passes only a message
// whose integrity checks pass strict and loose. It returns what differs
// ("" for nothing) and whether the judgement was the cheap one (the fast
// verdict and integrityOK).
func judgementDiff(e *progressiveEngine, msg map[string]any, strict bool, err error) (string, bool) {
	full, ok := decodeObject(appendJSON(nil, msg))
	if !ok {
		return "the message does not decode again", false
	}
	show := func(err error) string { return fmt.Sprintf("%T %v", err, err) }
	if old := oldJudgement(e.cat, full, strict); show(err) != show(old) {
		return fmt.Sprintf("validate says %s, the judgement on the full decoding %s", show(err), show(old)), false
	}
	if want := e.cat.Validate([]any{full}, protocol.WithStrictIntegrity(strict)); show(err) != show(want) {
		return fmt.Sprintf("validate says %s, Validate %s", show(err), show(want)), false
	}
	if !e.integrityOK(msg) {
		return "", false
	}
	for _, s := range []bool{false, true} {
		if ierr := protocol.ValidateIntegrity([]any{full}, e.cat.RefFields, protocol.WithStrictIntegrity(s)); ierr != nil {
			return fmt.Sprintf("integrityOK passes it, ValidateIntegrity (strict %v) says %v", s, ierr), false
		}
	}
	valid, decided := e.fastVerdict(msg)
	return "", valid && decided
}

// hasStubs reports whether msg holds components read at byte level.
func hasStubs(msg map[string]any) bool {
	for _, k := range []string{kSurfaceUpdate, kUpdateComponents} {
		body, _ := msg[k].(map[string]any)
		list, _ := body["components"].([]any)
		for _, c := range list {
			if _, ok := c.(*fastComp); ok {
				return true
			}
		}
	}
	return false
}

// TestCompleteJudgementMatchesOnCorpus: every complete message the engine
// judges while it reads the corpora (progressive and delta modes, 16-byte
// chunks, the specification's catalogs) gets the judgement it gets decoded
// in full, and most take the cheap path, those with byte-level components
// among them.
func TestCompleteJudgementMatchesOnCorpus(t *testing.T) {
	cats := map[string]*protocol.Catalog{"stream_v09": speccatalog.BasicV09(t), "stream_v08": speccatalog.StandardV08(t)}
	for _, corpus := range []string{"stream_v09", "stream_v08"} {
		data := readCorpus(t, corpus+".txt")
		for _, mode := range []Mode{ModeProgressive, ModeDelta} {
			t.Run(fmt.Sprintf("%s/%v", corpus, mode), func(t *testing.T) {
				var seen, cheap, stubbed, cheapStubbed int
				validateSeen = func(e *progressiveEngine, msg map[string]any, strict bool, err error) {
					seen++
					diff, fast := judgementDiff(e, msg, strict, err)
					if diff != "" {
						t.Errorf("message %d (%.120s), strict %v: %s", seen, appendJSON(nil, msg), strict, diff)
					}
					st := hasStubs(msg)
					if st {
						stubbed++
					}
					if fast {
						cheap++
						if st {
							cheapStubbed++
						}
					}
				}
				defer func() { validateSeen = nil }()
				p, err := New(WithMode(mode), WithCatalog(cats[corpus]))
				if err != nil {
					t.Fatal(err)
				}
				for _, c := range chunked(data, 16) {
					if _, err := p.Feed(c); err != nil {
						t.Fatal(err)
					}
				}
				if _, err := p.Close(); err != nil {
					t.Fatal(err)
				}
				t.Logf("%d judgements, %d cheap; %d with byte-level components, %d of them cheap", seen, cheap, stubbed, cheapStubbed)
				if seen < 400 || cheap < seen*9/10 || stubbed < 100 || cheapStubbed < stubbed*9/10 {
					t.Errorf("%d judgements, %d cheap; %d with byte-level components, %d of them cheap: too few to test the cheap path", seen, cheap, stubbed, cheapStubbed)
				}
			})
		}
	}
}

// withStubs decodes the message src and reads the components the mask
// picks (bit i: the i-th element of its components list) at byte level
// from their bytes in src, as the engine does while they arrive: the
// message as validate gets it, and the engine to judge it (its count of
// byte-level components set).
func withStubs(tb testing.TB, cat *protocol.Catalog, src string, mask uint64) (*progressiveEngine, map[string]any, bool) {
	tb.Helper()
	msg, ok := decodeObject([]byte(src))
	if !ok {
		return nil, nil, false
	}
	e := &progressiveEngine{cat: cat}
	for _, k := range []string{kSurfaceUpdate, kUpdateComponents} {
		body, _ := msg[k].(map[string]any)
		list, _ := body["components"].([]any)
		i := 0
		jsonparser.ArrayEach([]byte(src), func(raw []byte, _ jsonparser.ValueType, _ int, _ error) {
			defer func() { i++ }()
			if i >= min(64, len(list)) || mask&(1<<i) == 0 {
				return
			}
			if _, isObj := list[i].(map[string]any); !isObj {
				return
			}
			c := compScanner{cat: cat}
			if c.scanAt(raw, k == kSurfaceUpdate, 1, 0) == compFast {
				list[i] = c.result(&e.names)
				e.sc.stubs++
			}
		}, k, "components")
	}
	return e, msg, true
}

// v09Msg and v08Msg are component messages of the components comps (JSON
// objects, comma separated).
func v09Msg(comps string) string {
	return `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` + comps + `]}}`
}

func v08Msg(comps string) string {
	return `{"surfaceUpdate":{"surfaceId":"s","components":[` + comps + `]}}`
}

// chainV09 is a v0.9 message of a chain of n Cards, c0 -> c1 -> ... ->
// c(n-1), whose last references ref.
func chainV09(n int, last string) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		next := fmt.Sprintf("c%d", i+1)
		if i == n-1 {
			next = last
		}
		fmt.Fprintf(&b, `{"id":"c%d","component":"Card","child":%q}`, i, next)
	}
	return v09Msg(b.String())
}

const (
	allStubs = ^uint64(0)
	noStubs  = uint64(0)
	oddStubs = uint64(0xaaaaaaaaaaaaaaaa) // the second, fourth... components
)

// judgementCases are complete messages validate judges, valid and invalid,
// with components read at byte level (mask) and decoded ones mixed.
var judgementCases = []struct {
	name          string
	v08           bool
	msg           string
	mask          uint64
	loose, strict string // a part of the error's text ("": valid)
}{
	{"v09 valid, byte level", false, v09Msg(`{"id":"root","component":"Column","children":["a","b"]},{"id":"a","component":"Text","text":"x"},{"id":"b","component":"Text","text":"y"}`), allStubs, "", ""},
	{"v09 valid, mixed", false, v09Msg(`{"id":"root","component":"Column","children":["a","b"]},{"id":"a","component":"Text","text":"x"},{"id":"b","component":"Text","text":"y"}`), oddStubs, "", ""},
	{"v09 valid, decoded", false, v09Msg(`{"id":"root","component":"Column","children":["a","b"]},{"id":"a","component":"Text","text":"x"},{"id":"b","component":"Text","text":"y"}`), noStubs, "", ""},
	{"v09 duplicate ids, byte level", false, v09Msg(`{"id":"a","component":"Text","text":"x"},{"id":"a","component":"Text","text":"y"}`), allStubs, "Duplicate component ID: a", "Duplicate component ID: a"},
	{"v09 duplicate ids, mixed", false, v09Msg(`{"id":"a","component":"Text","text":"x"},{"id":"a","component":"Text","text":"y"}`), oddStubs, "Duplicate component ID: a", "Duplicate component ID: a"},
	{"v09 duplicate ids, decoded", false, v09Msg(`{"id":"a","component":"Text","text":"x"},{"id":"a","component":"Text","text":"y"}`), noStubs, "Duplicate component ID: a", "Duplicate component ID: a"},
	{"v09 self reference, byte level", false, v09Msg(`{"id":"t","component":"Text","text":"x"},{"id":"a","component":"Card","child":"a"}`), allStubs, "Component 'a' references itself", "Component 'a' references itself"},
	{"v09 self reference in a list, byte level", false, v09Msg(`{"id":"a","component":"Column","children":["b","a"]},{"id":"b","component":"Text","text":"x"}`), allStubs, "Component 'a' references itself", "Component 'a' references itself"},
	{"v09 self reference, decoded", false, v09Msg(`{"id":"t","component":"Text","text":"x"},{"id":"a","component":"Card","child":"a"}`), noStubs, "Component 'a' references itself", "Component 'a' references itself"},
	{"v09 cycle, mixed", false, v09Msg(`{"id":"a","component":"Card","child":"b"},{"id":"b","component":"Card","child":"a"}`), oddStubs, "Circular reference", "Circular reference"},
	{"v09 cycle, byte level", false, v09Msg(`{"id":"x","component":"Card","child":"a"},{"id":"a","component":"Card","child":"b"},{"id":"b","component":"Column","children":["c","a"]},{"id":"c","component":"Text","text":"x"}`), allStubs, "Circular reference", "Circular reference"},
	{"v09 missing child, byte level", false, v09Msg(`{"id":"root","component":"Card","child":"nowhere"}`), allStubs, "", ""},
	{"v09 missing child, decoded", false, v09Msg(`{"id":"root","component":"Card","child":"nowhere"}`), noStubs, "", ""},
	{"v09 missing child, root declared", false, `{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"},"updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"nowhere"}]}}`, noStubs, "Validation failed", "Validation failed"},
	{"v09 chain of 50 references", false, chainV09(50, "end"), allStubs, "", ""},
	{"v09 chain of 51 references", false, chainV09(51, "end"), allStubs, "recursion limit", "recursion limit"},
	{"v09 chain of 52 references, mixed", false, chainV09(52, "end"), oddStubs, "recursion limit", "recursion limit"},
	{"v09 chain of 50 to a component", false, chainV09(50, "c0x"), allStubs, "", ""},
	{"v09 schema violation, byte level", false, v09Msg(`{"id":"root","component":"Card","child":"a"},{"id":"a","component":"Text"}`), allStubs, "Validation failed", "Validation failed"},
	{"v09 schema violation, decoded", false, v09Msg(`{"id":"root","component":"Card","child":"a"},{"id":"a","component":"Text"}`), noStubs, "Validation failed", "Validation failed"},
	{"v09 schema violation and duplicate, mixed", false, v09Msg(`{"id":"a","component":"Card","child":"b"},{"id":"a","component":"Nope"}`), oddStubs, "Validation failed", "Validation failed"},
	{"v09 id not a string", false, v09Msg(`{"id":"a","component":"Card","child":"b"},{"id":7,"component":"Text","text":"x"}`), allStubs, "Validation failed", "Validation failed"},
	{"v09 invalid UTF-8 in the surface, byte level", false, "{\"version\":\"v0.9\",\"updateComponents\":{\"surfaceId\":\"s\xff\",\"components\":[{\"id\":\"a\",\"component\":\"Card\",\"child\":\"a\"}]}}", allStubs, "Component 'a' references itself", "Component 'a' references itself"},
	{"v09 invalid UTF-8 in a component", false, "{\"version\":\"v0.9\",\"updateComponents\":{\"surfaceId\":\"s\",\"components\":[{\"id\":\"a\",\"component\":\"Text\",\"text\":\"x\xff\"},{\"id\":\"b\",\"component\":\"Text\",\"text\":\"x\"},{\"id\":\"b\",\"component\":\"Text\",\"text\":\"x\"}]}}", allStubs, "Duplicate component ID: b", "Duplicate component ID: b"},
	{"v09 invalid UTF-8 in a component, valid", false, "{\"version\":\"v0.9\",\"updateComponents\":{\"surfaceId\":\"s\",\"components\":[{\"id\":\"a\",\"component\":\"Text\",\"text\":\"x\xff\"},{\"id\":\"b\",\"component\":\"Card\",\"child\":\"a\"}]}}", allStubs, "", ""},
	{"v09 duplicate key in a component, byte level", false, v09Msg(`{"id":"a","component":"Card","child":"b","child":"a"}`), allStubs, "Component 'a' references itself", "Component 'a' references itself"},
	{"v09 escaped ids, byte level", false, v09Msg(`{"id":"a\"b","component":"Card","child":"a\"b"}`), allStubs, "Component 'a\"b' references itself", "Component 'a\"b' references itself"},
	{"v09 template reference to itself, byte level", false, v09Msg(`{"id":"l","component":"List","children":{"componentId":"l","path":"/items"}}`), allStubs, "Component 'l' references itself", "Component 'l' references itself"},
	{"v09 both surfaceUpdate and updateComponents", false, `{"version":"v0.9","surfaceUpdate":{"surfaceId":"s","components":[]},"updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Card","child":"a"}]}}`, allStubs, "Validation failed", "Validation failed"},
	{"v08 valid, byte level", true, v08Msg(`{"id":"root","component":{"Column":{"children":{"explicitList":["a"]}}}},{"id":"a","component":{"Text":{"text":{"literalString":"x"}}}}`), allStubs, "", ""},
	{"v08 duplicate ids, mixed", true, v08Msg(`{"id":"a","component":{"Text":{"text":{"literalString":"x"}}}},{"id":"a","component":{"Text":{"text":{"literalString":"y"}}}}`), oddStubs, "Duplicate component ID: a", "Duplicate component ID: a"},
	{"v08 self reference, byte level", true, v08Msg(`{"id":"a","component":{"Column":{"children":{"explicitList":["a"]}}}}`), allStubs, "Component 'a' references itself", "Component 'a' references itself"},
	{"v08 self reference in tabs, byte level", true, v08Msg(`{"id":"a","component":{"Tabs":{"tabItems":[{"title":{"literalString":"t"},"child":"a"}]}}}`), allStubs, "Component 'a' references itself", "Component 'a' references itself"},
	{"v08 cycle, mixed", true, v08Msg(`{"id":"a","component":{"Card":{"child":"b"}}},{"id":"b","component":{"Card":{"child":"a"}}}`), oddStubs, "Circular reference", "Circular reference"},
	{"v08 missing child, byte level", true, v08Msg(`{"id":"root","component":{"Card":{"child":"nowhere"}}}`), allStubs, "", ""},
	{"v08 missing child and orphan, root declared", true, `{"beginRendering":{"surfaceId":"s","root":"root"},"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Card":{"child":"nowhere"}}},{"id":"lost","component":{"Text":{"text":{"literalString":"x"}}}}]}}`, noStubs, "", "references non-existent component 'nowhere'"},
	{"v08 orphan, root declared", true, `{"beginRendering":{"surfaceId":"s","root":"root"},"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Card":{"child":"a"}}},{"id":"a","component":{"Text":{"text":{"literalString":"x"}}}},{"id":"lost","component":{"Text":{"text":{"literalString":"x"}}}}]}}`, noStubs, "", "Component 'lost' is not reachable"},
	{"v08 schema violation, byte level", true, v08Msg(`{"id":"root","component":{"Card":{}}}`), allStubs, "'child' is a required property", "'child' is a required property"},
}

// TestCompleteJudgementMatchesCrafted: on complete messages valid and
// invalid (duplicate ids, self-references, cycles, missing children, the
// depth limit, schema violations), with components read at byte level and
// decoded ones mixed, validate's judgement, strict and loose, is the one
// on the message decoded in full.
func TestCompleteJudgementMatchesCrafted(t *testing.T) {
	v09, v08 := speccatalog.BasicV09(t), speccatalog.StandardV08(t)
	invalid := 0
	for _, tc := range judgementCases {
		t.Run(tc.name, func(t *testing.T) {
			cat := v09
			if tc.v08 {
				cat = v08
			}
			for _, strict := range []bool{false, true} {
				e, msg, ok := withStubs(t, cat, tc.msg, tc.mask)
				if !ok {
					t.Fatalf("the case does not decode")
				}
				if tc.mask != noStubs && e.sc.stubs == 0 {
					t.Fatalf("no component read at byte level")
				}
				err := e.validate(msg, strict)
				if diff, _ := judgementDiff(e, msg, strict, err); diff != "" {
					t.Errorf("strict %v: %s", strict, diff)
				}
				want := tc.loose
				if strict {
					want = tc.strict
				}
				if (err == nil) != (want == "") || err != nil && !strings.Contains(err.Error(), want) {
					t.Errorf("strict %v: validate says %v, want %q", strict, err, want)
				}
				if err != nil {
					invalid++
				}
			}
		})
	}
	if invalid < len(judgementCases) {
		t.Errorf("%d invalid judgements of %d: the cases test little", invalid, 2*len(judgementCases))
	}
}

// FuzzCompleteJudgement: validate's judgement of a complete message with
// the components the mask picks read at byte level is the one on the
// message decoded in full, strict and loose, with the v0.9 basic catalog
// (v08 false) or the v0.8 standard one.
func FuzzCompleteJudgement(f *testing.F) {
	for _, tc := range judgementCases {
		f.Add(tc.msg, tc.mask, tc.v08)
	}
	for _, corpus := range []string{"stream_v09", "stream_v08"} {
		for _, turn := range corpusTurns(f, corpus, 0, 42) {
			for _, m := range corpusMessages(turn) {
				f.Add(m, allStubs, corpus == "stream_v08")
				f.Add(m, oddStubs, corpus == "stream_v08")
			}
		}
	}
	v09, v08 := speccatalog.BasicV09(f), speccatalog.StandardV08(f)
	f.Fuzz(func(t *testing.T, src string, mask uint64, isV08 bool) {
		cat := v09
		if isV08 {
			cat = v08
		}
		for _, strict := range []bool{false, true} {
			e, msg, ok := withStubs(t, cat, src, mask)
			if !ok {
				return
			}
			err := e.validate(msg, strict)
			if diff, _ := judgementDiff(e, msg, strict, err); diff != "" {
				t.Errorf("strict %v: %s", strict, diff)
			}
		}
	})
}

// corpusMessages are the messages of the a2ui-json blocks of a corpus
// turn, as JSON texts.
func corpusMessages(turn []byte) []string {
	var out []string
	for rest := string(turn); ; {
		_, after, ok := strings.Cut(rest, "<a2ui-json>")
		if !ok {
			return out
		}
		block, tail, _ := strings.Cut(after, "</a2ui-json>")
		rest = tail
		list, ok := decodeArray(block)
		if !ok {
			continue
		}
		for _, m := range list {
			out = append(out, string(appendJSON(nil, m)))
		}
	}
}

// decodeArray decodes a JSON array of values.
func decodeArray(s string) ([]any, bool) {
	m, ok := decodeObject([]byte(`{"l":` + s + `}`))
	if !ok {
		return nil, false
	}
	list, ok := m["l"].([]any)
	return list, ok
}
