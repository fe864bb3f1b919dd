package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
	"github.com/a2ui-stream/a2ui-stream/processor"
)

const applyInput = `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json","theme":{"primaryColor":"#00BFFF"},"sendDataModel":true}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":{"path":"/name"}}]}}]
not json
[{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/name","value":"Ann"}},{"version":"v0.9","updateDataModel":{"surfaceId":"nope","value":{}}}]

[{"beginRendering":{"surfaceId":"old","root":"r","styles":{"font":"x"}}},{"surfaceUpdate":{"surfaceId":"old","components":[{"id":"r","component":{"Text":{"text":{"literalString":"hi"}}}}]}}]
`

// The exact canonical --state form: keys sorted at every level, 2-space
// indent, trailing newline; v0.8 surfaces add root and styles.
const applyWantState = `{
  "errors": [
    {
      "list": 1,
      "message": "a2ui-stream apply: line 2 is not a JSON array of messages: it begins with 'n', not '[' (at byte 0)"
    },
    {
      "list": 2,
      "message": "processor: message 1 (updateDataModel, surface \"nope\"): unknown surface: surface \"nope\" does not exist"
    }
  ],
  "surfaces": {
    "old": {
      "catalogId": null,
      "components": {
        "r": {
          "component": {
            "Text": {
              "text": {
                "literalString": "hi"
              }
            }
          },
          "id": "r"
        }
      },
      "dataModel": {},
      "root": "r",
      "sendDataModel": false,
      "styles": {
        "font": "x"
      },
      "theme": null
    },
    "s": {
      "catalogId": "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json",
      "components": {
        "root": {
          "component": "Text",
          "id": "root",
          "text": {
            "path": "/name"
          }
        }
      },
      "dataModel": {
        "name": "Ann"
      },
      "sendDataModel": true,
      "theme": {
        "primaryColor": "#00BFFF"
      }
    }
  }
}
`

func TestRunApplyState(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := runApply(context.Background(), []string{"--state"}, strings.NewReader(applyInput), &stdout, &stderr)
	if code != 1 {
		t.Errorf("exit %d, want 1 (some messages failed); stderr %s", code, stderr.String())
	}
	if got := stdout.String(); got != applyWantState {
		t.Errorf("state:\n%s\nwant:\n%s", got, applyWantState)
	}
}

func TestRunApplyBatches(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := runApply(context.Background(), nil, strings.NewReader(applyInput), &stdout, &stderr)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("got %d lines, want 4 (3 batches, 1 line error):\n%s", len(lines), stdout.String())
	}
	var b processor.Batch
	if err := json.Unmarshal([]byte(lines[0]), &b); err != nil {
		t.Fatal(err)
	}
	if b.Seq != 1 || b.Applied != 2 || !equalStrings(b.Changes.SurfacesCreated, []string{"s"}) {
		t.Errorf("batch 1 = %s", lines[0])
	}
	var le applyLineError
	if err := json.Unmarshal([]byte(lines[1]), &le); err != nil || le.List != 1 || le.Error == "" {
		t.Errorf("line error = %s (%v)", lines[1], err)
	}
	b = processor.Batch{}
	if err := json.Unmarshal([]byte(lines[2]), &b); err != nil {
		t.Fatal(err)
	}
	if b.Seq != 2 || b.Failed != 1 || b.Results[1].Error == nil || b.Results[1].Error.Code != "VALIDATION_FAILED" {
		t.Errorf("batch 2 = %s", lines[2])
	}
}

func TestRunApplyFileAndUsage(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	if err := os.WriteFile(good, []byte(`[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name       string
		args       []string
		wantCode   int
		wantStdout string
		wantStderr string
	}{
		{name: "file_all_applied", args: []string{"--state", good}, wantCode: 0, wantStdout: `"catalogId": "c"`},
		{name: "missing_file", args: []string{filepath.Join(dir, "none.jsonl")}, wantCode: 2, wantStderr: "none.jsonl"},
		{name: "two_files", args: []string{good, good}, wantCode: 2, wantStderr: "at most one FILE"},
		{name: "bad_flag", args: []string{"--nope"}, wantCode: 2, wantStderr: "usage"},
		{name: "bad_catalog", args: []string{"--catalog", filepath.Join(dir, "none.json"), good}, wantCode: 2, wantStderr: "protocol: catalog"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runApply(context.Background(), tc.args, strings.NewReader(""), &stdout, &stderr)
			if code != tc.wantCode {
				t.Errorf("exit %d, want %d; stderr %s", code, tc.wantCode, stderr.String())
			}
			if !strings.Contains(stdout.String(), tc.wantStdout) {
				t.Errorf("stdout %q lacks %q", stdout.String(), tc.wantStdout)
			}
			if !strings.Contains(stderr.String(), tc.wantStderr) {
				t.Errorf("stderr %q lacks %q", stderr.String(), tc.wantStderr)
			}
		})
	}
}

// With the basic catalog, a schema-invalid message fails, and the valid
// ones apply.
func TestRunApplyCatalog(t *testing.T) {
	spec := shareddata.Path(t, "a2ui", "specification", "v0_9_1")
	body, _ := json.Marshal(map[string]any{
		"version":             "0.9",
		"s2c_schema":          filepath.Join(spec, "json", "server_to_client.json"),
		"catalog_schema":      filepath.Join(spec, "catalogs", "basic", "catalog.json"),
		"common_types_schema": filepath.Join(spec, "json", "common_types.json"),
	})
	catalog := filepath.Join(t.TempDir(), "basic.json")
	if err := os.WriteFile(catalog, body, 0o600); err != nil {
		t.Fatal(err)
	}
	input := `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}},` +
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":42}]}},` +
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"ok"}]}}]` + "\n"
	var stdout, stderr bytes.Buffer
	code := runApply(context.Background(), []string{"--catalog", catalog}, strings.NewReader(input), &stdout, &stderr)
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr %s; stdout %s", code, stderr.String(), stdout.String())
	}
	var b processor.Batch
	if err := json.Unmarshal(stdout.Bytes(), &b); err != nil {
		t.Fatal(err)
	}
	if !b.Results[0].OK || b.Results[1].OK || !b.Results[2].OK {
		t.Errorf("results = %s", stdout.String())
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
