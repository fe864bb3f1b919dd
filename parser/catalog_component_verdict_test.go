package parser

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/protocoltape"
	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
	"github.com/a2ui-stream/a2ui-stream/internal/speccatalog"
	"github.com/a2ui-stream/a2ui-stream/protocol"
	"github.com/buger/jsonparser"
)

// verdictCase is a component message the engine asks a verdict on: its
// wrapper (open, close), its component, under cat.
type verdictCase struct {
	cat               *protocol.Catalog
	open, close, comp string
}

// verdictTable collects verdict cases, each once.
type verdictTable struct {
	seen  map[string]bool
	cases []verdictCase
}

func (vt *verdictTable) add(c verdictCase) {
	key := fmt.Sprintf("%p\x00%s\x00%s\x00%s", c.cat, c.open, c.close, c.comp)
	if vt.seen == nil {
		vt.seen = map[string]bool{}
	}
	if !vt.seen[key] {
		vt.seen[key] = true
		vt.cases = append(vt.cases, c)
	}
}

// collectAsked feeds input, in chunks of n bytes, to a parser in each of
// the progressive modes with cat, and adds to vt every component message
// its engine asks a verdict on (verdictAsked: the test must not run in
// parallel).
func collectAsked(t testing.TB, vt *verdictTable, cat *protocol.Catalog, input []byte, n int) {
	t.Helper()
	defer func() { verdictAsked = nil }()
	verdictAsked = func(open, close, comp []byte, _ string) {
		vt.add(verdictCase{cat, string(open), string(close), string(comp)})
	}
	for _, mode := range []Mode{ModeProgressive, ModeDelta} {
		feedWithCatalog(t, cat, mode, input, n)
	}
}

// feedWithCatalog feeds input in chunks of n bytes to a new parser in mode
// with cat, and closes it (the stream's errors are part of it).
func feedWithCatalog(t testing.TB, cat *protocol.Catalog, mode Mode, input []byte, n int) {
	t.Helper()
	p, err := New(WithMode(mode), WithCatalog(cat))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chunked(input, n) {
		_, _ = p.Feed(c)
	}
	_, _ = p.Close()
}

// specExampleCases adds the components of the v0.9 specification's test
// cases, wrapped as the engine wraps them.
func specExampleCases(t testing.TB, vt *verdictTable, cat *protocol.Catalog) {
	t.Helper()
	files, err := filepath.Glob(shareddata.Path(t, "a2ui", "specification", "v0_9", "test", "cases") + "/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no specification test cases: %v", err)
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Tests []struct {
				Data json.RawMessage `json:"data"`
			} `json:"tests"`
		}
		if json.Unmarshal(raw, &doc) != nil {
			continue
		}
		for _, tc := range doc.Tests {
			var msg struct {
				Version string `json:"version"`
				UC      struct {
					SurfaceID  string            `json:"surfaceId"`
					Components []json.RawMessage `json:"components"`
				} `json:"updateComponents"`
			}
			if json.Unmarshal(tc.Data, &msg) != nil {
				continue
			}
			b := appendJSONString([]byte(`],"surfaceId":`), msg.UC.SurfaceID)
			close := string(append(appendJSONString(append(b, `},"version":`...), msg.Version), '}'))
			for _, c := range msg.UC.Components {
				vt.add(verdictCase{cat, string(openUpdateComponents), close, string(c)})
			}
		}
	}
}

// catalogCase is a streaming suite case with a catalog: the catalog and
// the case's input, its steps joined.
type catalogCase struct {
	cat   *protocol.Catalog
	input []byte
}

// streamingCatalogCases returns the streaming suite's cases that have a
// catalog which loads.
func streamingCatalogCases(t *testing.T) []catalogCase {
	cases, confDir := loadStreamingSuite(t)
	var out []catalogCase
	for _, c := range cases {
		if c.Catalog == nil {
			continue
		}
		cat, err := loadCaseCatalog(c, confDir)
		if err != nil {
			continue // (a case about a catalog that does not load)
		}
		var all []byte
		for _, st := range c.Steps {
			all = append(all, st.Input...)
		}
		out = append(out, catalogCase{cat, all})
	}
	return out
}

// verdictSources builds the table: every component message the engine
// asks a verdict on in both corpora (16-byte chunks, both progressive
// modes) with the specification's catalogs and in the streaming suite's
// cases with their catalogs (3-byte chunks), and the components of the
// specification's v0.9 test cases; then variants of a sample of them
// (invalidComponents).
func verdictSources(t testing.TB, v09, v08 *protocol.Catalog) (cases []verdictCase, variantsFrom int) {
	var vt verdictTable
	for _, c := range []struct {
		name string
		cat  *protocol.Catalog
	}{{"stream_v09", v09}, {"stream_v08", v08}} {
		data := readCorpus(t, c.name+".txt")
		collectAsked(t, &vt, c.cat, data, 16)
	}
	if tt, ok := t.(*testing.T); ok {
		for _, c := range streamingCatalogCases(tt) {
			collectAsked(t, &vt, c.cat, c.input, 3)
		}
	}
	idCat := patternedIDCatalog(t)
	for _, turn := range corpusTurns(t, "stream_v09", 0, 1, 7, 42) {
		collectAsked(t, &vt, idCat, turn, 16)
	}
	specExampleCases(t, &vt, v09)
	asked := len(vt.cases)
	for i := 0; i < asked; i += 1 + asked/400 {
		c := vt.cases[i]
		for _, comp := range invalidComponents(c.comp) {
			vt.add(verdictCase{c.cat, c.open, c.close, comp})
		}
	}
	return vt.cases, asked
}

// patternedIDCatalog is the v0.9 basic catalog with component ids of a
// pattern (a verdict that reads the id).
func patternedIDCatalog(t testing.TB) *protocol.Catalog {
	return v09Mutated(t, func(_, common map[string]any) {
		common["$defs"].(map[string]any)["ComponentId"] = map[string]any{"type": "string", "pattern": "^[a-z0-9_-]*$"}
	})
}

// invalidComponents returns variants of comp, most of them invalid: each
// member (of the component and of its objects two levels down) dropped or
// of another type, a bad path, function calls nested too deep, nesting at
// and past the wrapper's limit, a duplicate key, an escaped key, a key
// with an escape that reads as a known one, and what is not a component.
func invalidComponents(comp string) []string {
	var v any
	d := json.NewDecoder(strings.NewReader(comp))
	d.UseNumber()
	if d.Decode(&v) != nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	var out []string
	enc := func(x any) {
		b, err := json.Marshal(x)
		if err == nil {
			out = append(out, string(b))
		}
	}
	var visit func(obj map[string]any, level int)
	visit = func(obj map[string]any, level int) {
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			old := obj[k]
			delete(obj, k)
			enc(m)
			for _, other := range []any{json.Number("7"), "x", []any{}, map[string]any{}, nil, true} {
				obj[k] = other
				enc(m)
			}
			obj[k] = old
			if sub, ok := old.(map[string]any); ok && level < 2 {
				visit(sub, level+1)
			}
		}
		obj["path"] = "/a/~2"
		enc(m)
		obj["path"] = "/a/~1b"
		enc(m)
		delete(obj, "path")
	}
	visit(m, 0)
	var call any = map[string]any{"call": "f", "args": map[string]any{}}
	for i := 0; i <= protocol.MaxFunctionCallDepth; i++ {
		m["zzCall"] = call
		enc(m)
		call = map[string]any{"call": "f", "args": map[string]any{"a": call}}
	}
	delete(m, "zzCall")
	for _, depth := range []int{45, 46, 47, 48} {
		var deep any = "x"
		for i := 0; i < depth; i++ {
			deep = []any{deep}
		}
		m["zzDeep"] = deep
		enc(m)
	}
	delete(m, "zzDeep")
	inner := strings.TrimPrefix(comp, "{")
	out = append(out,
		`{"id":"dup",`+inner, `{"\u0069d":"esc",`+inner, `{"zz\u0041":1,`+inner,
		`{"component":"Text","component":"Row",`+inner,
		comp[:len(comp)/2], `"x"`, `[]`, `null`, `{}`, ` `+comp+` `)
	return out
}

// TestComponentVerdictMatchesMessageVerdict: the verdict on a component
// alone (protocoltape.ComponentVerdict) is MessageVerdict's on its
// one-component message, valid and decided alike, for every component
// message the engine asks a verdict on (corpora, streaming suite,
// specification examples) and invalid variants of them; and where it says
// free of the "id", the message's verdict is the same with other ids.
func TestComponentVerdictMatchesMessageVerdict(t *testing.T) {
	cases, _ := verdictSources(t, speccatalog.BasicV09(t), speccatalog.StandardV08(t))
	count := map[string]int{}
	for _, c := range cases {
		valid, decided, free := checkComponentVerdict(t, c)
		count[fmt.Sprintf("valid %v decided %v", valid, decided)]++
		if free {
			count["free"]++
		}
	}
	t.Logf("%d cases: %v", len(cases), count)
	for _, want := range []string{"valid true decided true", "valid false decided true", "valid false decided false", "free"} {
		if count[want] == 0 {
			t.Errorf("no case with %s", want)
		}
	}
}

// freeIDs are the ids a verdict free of the id is checked with.
var freeIDs = []string{"", "x", "loading_root", "é \"q\" \u2028 \\ \x01", "\xff", strings.Repeat("y", 300), "/a/~2"}

// checkComponentVerdict compares the two verdicts on c: the same, valid
// and decided.
func checkComponentVerdict(t testing.TB, c verdictCase) (valid, decided, free bool) {
	t.Helper()
	judge := protocoltape.ComponentVerdicts(c.cat, []byte(c.open), []byte(c.close))
	valid, decided, free = judge(c.comp, "id", nil)
	wantValid, wantDecided := c.cat.MessageVerdict(c.open + c.comp + c.close)
	// (Text that is not one JSON value, e.g. "" or "1,2", makes no message
	// of one component: the verdict leaves it to the message's path.)
	if (valid != wantValid || decided != wantDecided) && (decided || json.Valid([]byte(c.comp))) {
		t.Fatalf("component %s in %s…%s: verdict (%v, %v), MessageVerdict (%v, %v)", c.comp, c.open, c.close, valid, decided, wantValid, wantDecided)
	}
	if !free {
		return
	}
	for _, id := range freeIDs {
		b, err := jsonparser.Set([]byte(c.comp), appendJSONString(nil, id), "id")
		if err != nil {
			t.Fatalf("free component %s: the id does not change: %v", c.comp, err)
		}
		if v, d := c.cat.MessageVerdict(c.open + string(b) + c.close); v != valid || d != decided {
			t.Fatalf("component %s, free of its id, has verdict (%v, %v); with id %q MessageVerdict says (%v, %v)", c.comp, valid, decided, id, v, d)
		}
	}
	return valid, decided, free
}

// FuzzComponentVerdict: the verdict on a component alone is
// MessageVerdict's on its message, for the specification's catalogs, on
// components seeded from the differential table (about 2,000 of the
// components asked, 4,000 of the variants).
func FuzzComponentVerdict(f *testing.F) {
	cats := []*protocol.Catalog{speccatalog.BasicV09(f), speccatalog.StandardV08(f)}
	opens := [][]byte{openUpdateComponents, openSurfaceUpdate}
	closes := []string{`],"surfaceId":"s"},"version":"v0.9"}`, `],"surfaceId":"s"}}`}
	seeds := map[string]bool{}
	table, variants := verdictSources(f, cats[0], cats[1])
	for i := 0; i < len(table); i++ {
		if i < variants {
			i += variants / 2000
		} else {
			i += (len(table) - variants) / 4000
		}
		if i >= len(table) {
			break
		}
		c := table[i]
		fam := byte(0)
		if bytes.Equal([]byte(c.open), openSurfaceUpdate) {
			fam = 1
		}
		if c.cat != cats[fam] || seeds[c.comp] {
			continue
		}
		seeds[c.comp] = true
		f.Add(fam, c.comp)
	}
	f.Fuzz(func(t *testing.T, fam byte, comp string) {
		fam %= 2
		checkComponentVerdict(t, verdictCase{cats[fam], string(opens[fam]), closes[fam], comp})
	})
}
