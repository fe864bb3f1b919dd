package processor_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
	"github.com/a2ui-stream/a2ui-stream/processor"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// examplePayloads lists the example payloads of a spec directory: each
// file holds either a JSON array of messages (v0.8) or an object with a
// "messages" array (v0.9.1).
func examplePayloads(t *testing.T, dir string) map[string][]json.RawMessage {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no example payloads in %s", dir)
	}
	out := make(map[string][]json.RawMessage, len(files))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var msgs []json.RawMessage
		if bytes.HasPrefix(bytes.TrimSpace(data), []byte("[")) {
			err = json.Unmarshal(data, &msgs)
		} else {
			var wrapper struct {
				Messages []json.RawMessage `json:"messages"`
			}
			err = json.Unmarshal(data, &wrapper)
			msgs = wrapper.Messages
		}
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[strings.TrimSuffix(filepath.Base(f), ".json")] = msgs
	}
	return out
}

// TestGoldenExamples applies every example payload of the basic catalogs
// (v0.9.1 and v0.8), from an empty state, as one list, and compares the
// canonical state with testdata/golden/<version>/<example>.json. Run with
// -update to rewrite the goldens (then review them by eye).
func TestGoldenExamples(t *testing.T) {
	sets := []struct {
		name string
		dir  []string
	}{
		{"v0_9_1", []string{"a2ui", "specification", "v0_9_1", "catalogs", "basic", "examples"}},
		{"v0_8", []string{"a2ui", "specification", "v0_8", "json", "catalogs", "basic", "examples"}},
	}
	for _, set := range sets {
		payloads := examplePayloads(t, shareddata.Path(t, set.dir...))
		names := make([]string, 0, len(payloads))
		for n := range payloads {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, name := range names {
			msgs := payloads[name]
			t.Run(set.name+"/"+name, func(t *testing.T) {
				p, err := processor.New(processor.WithStrictTopology(false))
				if err != nil {
					t.Fatal(err)
				}
				b := p.ProcessList(msgs)
				var errs []stateError
				for _, e := range b.Errors() {
					errs = append(errs, stateError{List: 0, Message: e.Error()})
				}
				if b.Failed != 0 {
					t.Errorf("%d of %d messages failed: %v", b.Failed, len(msgs), errs)
				}
				got, err := stateJSON(p, errs)
				if err != nil {
					t.Fatal(err)
				}
				golden := filepath.Join("testdata", "golden", set.name, name+".json")
				if *update {
					if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, got, 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test -run TestGoldenExamples -update to create it)", err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("state differs from %s:\n got: %s\nwant: %s", golden, got, want)
				}
			})
		}
	}
}
