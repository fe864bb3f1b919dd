package parser

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// streamingCase is one case of the official streaming_parser.yaml suite.
type streamingCase struct {
	Name    string
	Catalog any
	Steps   []streamingStep
}

type streamingStep struct {
	Input       string
	Expect      []map[string]any
	HasExpect   bool
	ExpectError string
}

// loadStreamingSuite reads streaming_parser.yaml.
func loadStreamingSuite(t *testing.T) (cases []streamingCase, confDir string) {
	t.Helper()
	confDir = shareddata.Path(t, "a2ui", "conformance")
	data, err := os.ReadFile(filepath.Join(confDir, "suites", "streaming_parser.yaml"))
	if err != nil {
		t.Fatalf("read suite: %v", err)
	}
	var raw []map[string]any
	if err := yaml.Unmarshal(data, &raw); err != nil {
		t.Fatalf("parse suite: %v", err)
	}
	for i, rc := range raw {
		c := streamingCase{Catalog: rc["catalog"]}
		c.Name, _ = rc["name"].(string)
		if c.Name == "" {
			c.Name = fmt.Sprintf("case_%d", i)
		}
		steps, _ := rc["steps"].([]any)
		if steps == nil {
			steps, _ = rc["process_chunk"].([]any)
		}
		for _, s := range steps {
			sm, _ := s.(map[string]any)
			var st streamingStep
			st.Input, _ = sm["input"].(string)
			if e, ok := sm["expect_error"].(string); ok {
				st.ExpectError = e
			}
			if ex, ok := sm["expect"]; ok {
				st.HasExpect = true
				list, _ := ex.([]any)
				for _, p := range list {
					pm, _ := p.(map[string]any)
					st.Expect = append(st.Expect, pm)
				}
			}
			c.Steps = append(c.Steps, st)
		}
		cases = append(cases, c)
	}
	return cases, confDir
}

// loadCaseCatalog builds a case's catalog; schema paths are relative to
// the conformance directory.
func loadCaseCatalog(c streamingCase, confDir string) (*protocol.Catalog, error) {
	spec, err := protocol.CatalogSpecFromValue(c.Catalog)
	if err != nil {
		return nil, err
	}
	return protocol.LoadCatalog(spec, confDir)
}

// canonical turns YAML- or JSON-decoded data into one comparable form.
func canonical(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	err = json.Unmarshal(b, &out)
	return out, err
}

// comparePartsToExpect compares parts as the reference harness does: same
// number of parts; each part's text equals the expected text ("" when
// absent) and its messages equal the expected a2ui list (none when absent).
func comparePartsToExpect(parts []Part, expect []map[string]any) error {
	if len(parts) != len(expect) {
		return fmt.Errorf("got %d parts, want %d:\n got: %s\nwant: %s", len(parts), len(expect), renderParts(parts), renderAny(expect))
	}
	for i, p := range parts {
		wantText, _ := expect[i]["text"].(string)
		if p.Text != wantText {
			return fmt.Errorf("part %d: text %q, want %q", i, p.Text, wantText)
		}
		want, hasWant := expect[i]["a2ui"]
		if !hasWant {
			if p.Messages != nil {
				return fmt.Errorf("part %d: unexpected messages %s", i, renderParts(parts[i:i+1]))
			}
			continue
		}
		var got []any
		for _, m := range p.Messages {
			var v any
			if err := json.Unmarshal(m, &v); err != nil {
				return fmt.Errorf("part %d: message is not JSON: %v: %s", i, err, m)
			}
			got = append(got, v)
		}
		cw, err := canonical(want)
		if err != nil {
			return err
		}
		cg, err := canonical(got)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(cg, cw) {
			return fmt.Errorf("part %d messages differ:\n got: %s\nwant: %s", i, renderAny(got), renderAny(want))
		}
	}
	return nil
}

func renderAny(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func renderParts(parts []Part) string {
	b, _ := json.Marshal(parts)
	return string(b)
}

// runStreamingSteps runs a case step by step in progressive mode.
func runStreamingSteps(c streamingCase, cat *protocol.Catalog, opts ...Option) error {
	p, err := New(append([]Option{WithMode(ModeProgressive), WithCatalog(cat)}, opts...)...)
	if err != nil {
		return err
	}
	for i, st := range c.Steps {
		parts, err := p.Feed([]byte(st.Input))
		if st.ExpectError != "" {
			if err == nil {
				return fmt.Errorf("step %d: no error, want one matching %q (parts %s)", i, st.ExpectError, renderParts(parts))
			}
			re, rerr := regexp.Compile(st.ExpectError)
			if rerr != nil {
				return fmt.Errorf("step %d: bad expect_error pattern: %v", i, rerr)
			}
			if !re.MatchString(err.Error()) {
				return fmt.Errorf("step %d: error %q does not match %q", i, err, st.ExpectError)
			}
			continue
		}
		if err != nil {
			return fmt.Errorf("step %d: unexpected error: %v", i, err)
		}
		if !st.HasExpect {
			return fmt.Errorf("step %d: neither expect nor expect_error", i)
		}
		if err := comparePartsToExpect(parts, st.Expect); err != nil {
			return fmt.Errorf("step %d (input %q): %v", i, st.Input, err)
		}
	}
	return nil
}

// completeRun feeds chunks in complete mode and returns the messages, the
// text and whether any error was reported.
func completeRun(chunks [][]byte) (msgs []string, text string, failed bool, err error) {
	p, err := New(WithMode(ModeComplete))
	if err != nil {
		return nil, "", false, err
	}
	var sb strings.Builder
	collect := func(parts []Part, ferr error) {
		for _, pt := range parts {
			sb.WriteString(pt.Text)
			for _, m := range pt.Messages {
				msgs = append(msgs, string(m))
			}
		}
		if ferr != nil {
			failed = true
		}
	}
	for _, c := range chunks {
		collect(p.Feed(c))
	}
	collect(p.Close())
	return msgs, sb.String(), failed, nil
}

// checkSplits feeds the case's whole input in two chunks split at every
// byte and compares the complete-mode results with a single feed.
func checkSplits(c streamingCase) error {
	var all bytes.Buffer
	for _, st := range c.Steps {
		all.WriteString(st.Input)
	}
	in := all.Bytes()
	wantMsgs, wantText, wantFail, err := completeRun([][]byte{in})
	if err != nil {
		return err
	}
	for k := 0; k <= len(in); k++ {
		msgs, text, failed, err := completeRun([][]byte{in[:k], in[k:]})
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(msgs, wantMsgs) || text != wantText || failed != wantFail {
			return fmt.Errorf("split at %d: messages %q text %q failed %v; single feed: %q %q %v", k, msgs, text, failed, wantMsgs, wantText, wantFail)
		}
	}
	return nil
}

func TestConformanceStreamingParser(t *testing.T) {
	cases, confDir := loadStreamingSuite(t)
	passed, failed := 0, 0
	for _, c := range cases {
		ok := t.Run(c.Name, func(t *testing.T) {
			cat, err := loadCaseCatalog(c, confDir)
			if err != nil {
				t.Fatalf("catalog: %v", err)
			}
			if err := runStreamingSteps(c, cat); err != nil {
				t.Fatalf("progressive: %v", err)
			}
			if err := checkSplits(c); err != nil {
				t.Fatalf("complete-mode split check: %v", err)
			}
		})
		if ok {
			passed++
		} else {
			failed++
		}
	}
	fmt.Printf("conformance streaming_parser: %d passed, %d failed\n", passed, failed)
	if failed > 0 {
		t.Errorf("conformance streaming_parser: %d passed, %d failed", passed, failed)
	}
}
