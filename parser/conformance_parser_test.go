package parser

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
)

// parserCase is one case of the parser.yaml conformance suite.
type parserCase struct {
	Name        string `yaml:"name"`
	Action      string `yaml:"action"`
	Input       string `yaml:"input"`
	Expect      any    `yaml:"expect"`
	ExpectError string `yaml:"expect_error"`
}

// TestConformanceParser runs every case of the official parser.yaml suite
// (non-streaming parse, payload fixer, has_parts). A case the harness cannot
// run counts as failed.
func TestConformanceParser(t *testing.T) {
	path := shareddata.Path(t, "a2ui", "conformance", "suites", "parser.yaml")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []parserCase
	if err := yaml.Unmarshal(raw, &cases); err != nil {
		t.Fatalf("parse suite: %v", err)
	}
	passed, failed := 0, 0
	for _, tc := range cases {
		ok := t.Run(tc.Name, func(t *testing.T) {
			if err := runParserCase(tc); err != nil {
				t.Error(err)
			}
		})
		if ok {
			passed++
		} else {
			failed++
		}
	}
	fmt.Printf("conformance parser: %d passed, %d failed\n", passed, failed)
	if len(cases) == 0 {
		t.Fatal("suite has no cases")
	}
}

func runParserCase(tc parserCase) error {
	var got any
	var err error
	switch tc.Action {
	case "parse_full":
		var parts []Part
		parts, err = ParseResponse(tc.Input)
		if err == nil {
			got = partsToValue(parts, true)
		}
	case "fix_payload":
		var msgs []json.RawMessage
		msgs, err = FixPayload([]byte(tc.Input))
		if err == nil {
			got, err = rawToValue(msgs)
		}
	case "has_parts":
		got = HasParts(tc.Input)
	default:
		return fmt.Errorf("unknown action %q: cannot run", tc.Action)
	}
	return compareOutcome(got, err, tc.Expect, tc.ExpectError)
}

// compareOutcome checks a result against a case's expectation: an error
// matching the expect_error pattern (a regular expression searched in the
// message, as the reference harness does), or a value equal to expect.
func compareOutcome(got any, err error, expect any, expectError string) error {
	if expectError != "" {
		if err == nil {
			return fmt.Errorf("no error, want one matching %q (got %v)", expectError, got)
		}
		re, rerr := regexp.Compile(expectError)
		if rerr != nil {
			return fmt.Errorf("bad expect_error pattern: %v", rerr)
		}
		if !re.MatchString(err.Error()) {
			return fmt.Errorf("error %q does not match %q", err, expectError)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("unexpected error: %v", err)
	}
	want, werr := normalize(expect)
	if werr != nil {
		return werr
	}
	gotN, gerr := normalize(got)
	if gerr != nil {
		return gerr
	}
	if !reflect.DeepEqual(gotN, want) {
		g, _ := json.Marshal(gotN)
		w, _ := json.Marshal(want)
		return fmt.Errorf("got %s\nwant %s", g, w)
	}
	return nil
}

// partsToValue renders parts the way the suites write them: {text, a2ui},
// with a2ui present only for parts that carry messages. withEmptyText keeps
// an empty text key on message parts (the non-streaming suite writes it).
func partsToValue(parts []Part, withEmptyText bool) []any {
	out := make([]any, 0, len(parts))
	for _, p := range parts {
		m := map[string]any{}
		if p.Text != "" || (withEmptyText && p.Messages != nil) {
			m["text"] = p.Text
		}
		if p.Messages != nil {
			if v, err := rawToValue(p.Messages); err == nil {
				m["a2ui"] = v
			} else {
				m["a2ui"] = err.Error()
			}
		}
		out = append(out, m)
	}
	return out
}

func rawToValue(msgs []json.RawMessage) ([]any, error) {
	out := make([]any, 0, len(msgs))
	for _, m := range msgs {
		var v any
		if err := json.Unmarshal(m, &v); err != nil {
			return nil, fmt.Errorf("message %s: %v", m, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// normalize round-trips a value through JSON so YAML- and JSON-decoded
// values compare equal (numbers as float64, maps as map[string]any).
func normalize(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("normalize: %v", err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("normalize: %v", err)
	}
	return out, nil
}
