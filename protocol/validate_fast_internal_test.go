package protocol

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
)

// slowVerdict is what ValidMessageJSON must agree with: the library's
// schema validation and CheckLimits on the decoded message.
func slowVerdict(c *Catalog, msg string) bool {
	v, err := decodeJSON([]byte(msg))
	if err != nil {
		return false
	}
	return c.ValidateSchema([]any{v}) == nil && CheckLimits(v) == nil
}

func basicCatalog09(tb testing.TB) *Catalog {
	tb.Helper()
	return specCatalog(tb, "0.9", "v0_9_1")
}

// corpusMessages returns the messages of the v0.9 corpus and of the basic
// catalog's examples, as JSON text.
func corpusMessages(tb testing.TB) []string {
	tb.Helper()
	var out []string
	data, err := os.ReadFile(shareddata.Path(tb, "corpus", "stream_v09.txt"))
	if err != nil {
		tb.Fatal(err)
	}
	blocks := regexp.MustCompile(`(?s)<a2ui-json>(.*?)</a2ui-json>`).FindAllStringSubmatch(string(data), -1)
	for _, b := range blocks {
		var list []json.RawMessage
		if err := json.Unmarshal([]byte(b[1]), &list); err != nil {
			tb.Fatal(err)
		}
		for _, m := range list {
			out = append(out, string(m))
		}
	}
	files, _ := filepath.Glob(filepath.Join(shareddata.Path(tb, "a2ui", "specification", "v0_9_1", "catalogs", "basic", "examples"), "*.json"))
	if len(files) == 0 {
		tb.Fatal("no basic catalog examples")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		var ex struct {
			Messages []json.RawMessage `json:"messages"`
		}
		if err := json.Unmarshal(data, &ex); err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		for _, m := range ex.Messages {
			out = append(out, string(m))
		}
	}
	return out
}

// mutations returns copies of v with one change each: a member removed, a
// member added, a value replaced by one of another type.
func mutations(v any) []any {
	var out []any
	others := []any{json.Number("1"), json.Number("1.5"), json.Number("-3"), "x", true, nil, map[string]any{}, []any{}}
	out = append(out, others...)
	switch x := v.(type) {
	case map[string]any:
		extra := copyMap(x)
		extra["zzUnknown"] = json.Number("1")
		out = append(out, extra)
		for k, child := range x {
			without := copyMap(x)
			delete(without, k)
			out = append(out, without)
			for _, m := range mutations(child) {
				changed := copyMap(x)
				changed[k] = m
				out = append(out, changed)
			}
		}
	case []any:
		if len(x) > 0 {
			out = append(out, append([]any(nil), x[1:]...))
		}
		for i, child := range x {
			for _, m := range mutations(child) {
				changed := append([]any(nil), x...)
				changed[i] = m
				out = append(out, changed)
			}
		}
	case string:
		out = append(out, x+"~2", "")
	}
	return out
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// shortest is the shortest message of a kind among msgs[from:].
func shortest(msgs []string, kind string, from int) string {
	best := ""
	for _, m := range msgs[from:] {
		if strings.Contains(m, `"`+kind+`"`) && (best == "" || len(m) < len(best)) {
			best = m
		}
	}
	return best
}

func TestFastVerdictMatchesLibrary(t *testing.T) {
	cat := basicCatalog09(t)
	if cat.fast == nil {
		t.Fatal("the basic v0.9 catalog did not compile for the fast path")
	}
	msgs := corpusMessages(t)
	if len(msgs) < 600 {
		t.Fatalf("only %d messages", len(msgs))
	}
	for _, m := range msgs {
		valid, decided := cat.fastVerdict(m)
		if !decided || !valid {
			t.Fatalf("valid message not accepted by the fast path (decided %v): %.300s", decided, m)
		}
	}
	// Mutations of a sample of messages: a few corpus messages of each
	// kind, a few examples (the library is slow: keep the sample small).
	sample := []string{msgs[0], msgs[2], shortest(msgs, "updateComponents", 0), shortest(msgs, "updateComponents", 600)}
	checked, decidedN := 0, 0
	for _, m := range sample {
		v, err := decodeJSON([]byte(m))
		if err != nil {
			t.Fatal(err)
		}
		for _, mv := range mutations(v) {
			b, err := json.Marshal(mv)
			if err != nil {
				t.Fatal(err)
			}
			text := string(b)
			valid, decided := cat.fastVerdict(text)
			checked++
			if !decided {
				continue
			}
			decidedN++
			if want := slowVerdict(cat, text); valid != want {
				t.Fatalf("fast verdict %v, library %v, for %.400s", valid, want, text)
			}
		}
	}
	if decidedN < checked*9/10 {
		t.Errorf("fast path decided only %d of %d mutated messages", decidedN, checked)
	}
	t.Logf("%d mutated messages, %d decided by the fast path", checked, decidedN)
}

func TestFastVerdictLimits(t *testing.T) {
	cat := basicCatalog09(t)
	deep := strings.Repeat(`{"a":`, 51) + `1` + strings.Repeat(`}`, 51)
	fn := `{"call":"f","args":{"x":` + strings.Repeat(`{"call":"f","args":{"x":`, 5) + `1` + strings.Repeat(`}}`, 5) + `}}`
	cases := []struct {
		name    string
		msg     string
		decided bool // whether the fast path decides
	}{
		{"invalid path", `{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/a/~2","value":1}}`, true},
		{"valid path", `{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/a/~1","value":1}}`, true},
		{"deep value", `{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/a","value":` + deep + `}}`, false},
		{"function call depth 6", `{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/a","value":` + fn + `}}`, true},
		{"duplicate keys", `{"version":"v0.9","updateDataModel":{"surfaceId":"s","surfaceId":"t"}}`, false},
		{"escaped key", `{"version":"v0.9","updateDataModel":{"surfaceI\u0064":"s"}}`, false},
		{"not json", `{"version":`, false},
		{"escaped const", `{"version":"v0.\u0039","deleteSurface":{"surfaceId":"s"}}`, true},
		{"integer as float", `{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":1.0}}`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			valid, decided := cat.fastVerdict(c.msg)
			if decided != c.decided {
				t.Fatalf("decided = %v, want %v", decided, c.decided)
			}
			want := slowVerdict(cat, c.msg)
			if decided && valid != want {
				t.Fatalf("fast verdict %v, library %v", valid, want)
			}
			if got := cat.ValidMessageJSON(c.msg); got != (decided && want) {
				t.Fatalf("ValidMessageJSON = %v, library %v (decided %v)", got, want, decided)
			}
		})
	}
}

// TestFastVerdictSuiteCatalogs checks the fast path against the library
// on every catalog and payload of the validator conformance suite.
func TestFastVerdictSuiteCatalogs(t *testing.T) {
	cases := loadValidatorSuite(t)
	compiled, decidedN := 0, 0
	for _, c := range cases {
		cat := c.Catalog
		if cat.fast != nil {
			compiled++
		}
		for _, p := range c.Payloads {
			msgs, ok := p.([]any)
			if !ok {
				msgs = []any{p}
			}
			for _, m := range msgs {
				variants := append([]any{m}, mutations(m)...)
				for _, mv := range variants {
					b, err := json.Marshal(mv)
					if err != nil {
						t.Fatal(err)
					}
					valid, decided := cat.fastVerdict(string(b))
					if !decided {
						continue
					}
					decidedN++
					if want := slowVerdict(cat, string(b)); valid != want {
						t.Fatalf("%s: fast verdict %v, library %v, for %.400s", c.Name, valid, want, b)
					}
				}
			}
		}
	}
	if decidedN == 0 {
		t.Fatal("the fast path decided nothing")
	}
	t.Logf("%d of %d catalogs compiled for the fast path; %d messages decided", compiled, len(cases), decidedN)
}

// FuzzFastVerdict: whenever the fast path decides, it agrees with the
// library.
func FuzzFastVerdict(f *testing.F) {
	cat := basicCatalog09(f)
	msgs := corpusMessages(f)
	for i, m := range msgs {
		if i%20 == 0 {
			f.Add(m)
		}
	}
	f.Add(`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":{"path":"/a"}}]}}`)
	f.Add(`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Slider","value":5,"min":0,"max":1e1}]}}`)
	f.Add(`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Slider","value":1e10000000,"min":-1.5e-999999,"max":1.` + strings.Repeat("0", 120) + `1}]}}`)
	f.Fuzz(func(t *testing.T, msg string) {
		valid, decided := cat.fastVerdict(msg)
		if !decided {
			return
		}
		if want := slowVerdict(cat, msg); valid != want {
			t.Fatalf("fast verdict %v, library %v, for %q", valid, want, msg)
		}
	})
}
