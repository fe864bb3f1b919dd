package protocol_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// validatorCase is one case of a2ui/conformance/suites/validator.yaml.
type validatorCase struct {
	Name        string          `yaml:"name"`
	Catalog     any             `yaml:"catalog"`
	Action      string          `yaml:"action"`
	Payload     any             `yaml:"payload"`
	ExpectError string          `yaml:"expect_error"`
	Steps       []validatorStep `yaml:"steps"`
}

type validatorStep struct {
	Payload     any    `yaml:"payload"`
	ExpectError string `yaml:"expect_error"`
}

func loadValidatorSuite(t testing.TB) ([]validatorCase, string) {
	t.Helper()
	path := shareddata.Path(t, "a2ui", "conformance", "suites", "validator.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []validatorCase
	if err := yaml.Unmarshal(data, &cases); err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	return cases, filepath.Dir(filepath.Dir(path))
}

// runValidatorCase runs every step of a case and returns the first failure.
func runValidatorCase(c validatorCase, conformanceDir string) error {
	if c.Action != "validate" {
		return fmt.Errorf("unsupported action %q", c.Action)
	}
	spec, err := protocol.CatalogSpecFromValue(c.Catalog)
	if err != nil {
		return err
	}
	cat, err := protocol.LoadCatalog(spec, conformanceDir)
	if err != nil {
		return err
	}
	steps := c.Steps
	if len(steps) == 0 {
		if c.Payload == nil {
			return fmt.Errorf("case has neither payload nor steps")
		}
		steps = []validatorStep{{Payload: c.Payload, ExpectError: c.ExpectError}}
	}
	for i, s := range steps {
		msgs, ok := s.Payload.([]any)
		if !ok {
			msgs = []any{s.Payload}
		}
		verr := cat.Validate(msgs)
		switch {
		case s.ExpectError == "" && verr != nil:
			return fmt.Errorf("step %d: unexpected error: %v", i, verr)
		case s.ExpectError != "" && verr == nil:
			return fmt.Errorf("step %d: no error, want one matching %q", i, s.ExpectError)
		case s.ExpectError != "":
			re, err := regexp.Compile(s.ExpectError)
			if err != nil {
				return fmt.Errorf("step %d: bad pattern %q: %v", i, s.ExpectError, err)
			}
			if !re.MatchString(verr.Error()) {
				return fmt.Errorf("step %d: error %q does not match %q", i, verr.Error(), s.ExpectError)
			}
		}
	}
	return nil
}

func TestConformanceValidator(t *testing.T) {
	cases, dir := loadValidatorSuite(t)
	passed, failed := 0, 0
	for _, c := range cases {
		err := runValidatorCase(c, dir)
		t.Run(c.Name, func(t *testing.T) {
			if err != nil {
				t.Error(err)
			}
		})
		if err != nil {
			failed++
		} else {
			passed++
		}
	}
	fmt.Printf("conformance validator: %d passed, %d failed\n", passed, failed)
	if failed > 0 {
		t.Fatalf("conformance validator: %d passed, %d failed", passed, failed)
	}
	if len(cases) != 45 {
		t.Errorf("suite has %d cases, want 45", len(cases))
	}
}
