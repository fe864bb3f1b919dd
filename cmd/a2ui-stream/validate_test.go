package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
)

// writeCatalog writes a catalog file naming the conformance suite's
// simplified v0.9 schemas by absolute path.
func writeCatalog(t *testing.T) string {
	t.Helper()
	dir := shareddata.Path(t, "a2ui", "conformance", "test_data")
	body := map[string]any{
		"version":             "0.9",
		"s2c_schema":          filepath.Join(dir, "simplified_s2c_v09.json"),
		"catalog_schema":      filepath.Join(dir, "simplified_catalog_v09.json"),
		"common_types_schema": filepath.Join(dir, "simplified_common_types_v09.json"),
	}
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "catalog.json")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRunValidate(t *testing.T) {
	catalog := writeCatalog(t)
	payloadFile := filepath.Join(t.TempDir(), "payload.json")
	if err := os.WriteFile(payloadFile, []byte(`[{"version":"v0.9","deleteSurface":{"surfaceId":"s"}}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	catalogBytes, err := os.ReadFile(catalog)
	if err != nil {
		t.Fatal(err)
	}
	junkCatalog := filepath.Join(t.TempDir(), "junk.json")
	if err := os.WriteFile(junkCatalog, append(catalogBytes, " xyz"...), 0o600); err != nil {
		t.Fatal(err)
	}
	const deleteS = `[{"version":"v0.9","deleteSurface":{"surfaceId":"s"}}]`
	tests := []struct {
		name       string
		args       []string
		stdin      string
		wantCode   int
		wantStdout []string // JSON lines, exactly
		wantStderr string   // substring
	}{
		{name: "valid_stdin", args: []string{"--catalog", catalog}, wantCode: 0,
			stdin: `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},
			         {"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"hi"}]}}]`},
		{name: "valid_file", args: []string{"--catalog", catalog, payloadFile}, wantCode: 0},
		{name: "schema_error", args: []string{"--catalog", catalog, "-"}, wantCode: 1,
			stdin:      `[{"version":"v0.9","createSurface":{"surfaceId":123,"catalogId":"c"}}]`,
			wantStdout: []string{`{"code":"VALIDATION_FAILED","surfaceId":"","path":"/surfaceId","message":"Validation failed: 123 is not of type 'string'"}`}},
		{name: "topology_errors_one_line_each", args: []string{"--catalog", catalog}, wantCode: 1,
			stdin: `[{"version":"v0.9","updateComponents":{"surfaceId":"a","components":[{"id":"x","component":"Card","child":"x"}]}},
			         {"version":"v0.9","updateComponents":{"surfaceId":"b","components":[{"id":"y","component":"Card","child":"z"},{"id":"z","component":"Card","child":"y"}]}}]`,
			wantStdout: []string{
				`{"code":"VALIDATION_FAILED","surfaceId":"a","path":"/components","message":"Self-reference detected: Component 'x' references itself in field 'child'"}`,
				`{"code":"VALIDATION_FAILED","surfaceId":"b","path":"/components","message":"Circular reference detected involving component 'y'"}`,
			}},
		{name: "orphan_lenient", args: []string{"--catalog", catalog, "--strict=false"}, wantCode: 0,
			stdin: `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},
			         {"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"a"},{"id":"o","component":"Text","text":"b"}]}}]`},
		{name: "malformed_json", args: []string{"--catalog", catalog}, stdin: `[{`, wantCode: 1},
		{name: "payload_with_trailing_junk", args: []string{"--catalog", catalog}, stdin: deleteS + "}", wantCode: 1,
			wantStdout: []string{`{"code":"VALIDATION_FAILED","surfaceId":"","path":"/","message":"Invalid JSON: trailing data \"}\" after the JSON value at offset ` + strconv.Itoa(len(deleteS)) + `"}`}},
		{name: "catalog_with_trailing_junk", args: []string{"--catalog", junkCatalog}, stdin: deleteS, wantCode: 2,
			wantStderr: "protocol: catalog " + junkCatalog + ": invalid JSON at offset " + strconv.Itoa(len(catalogBytes)+1) + `: trailing data "xyz" after the JSON value`},
		{name: "missing_catalog_flag", args: nil, wantCode: 2, wantStderr: "--catalog FILE is required"},
		{name: "bad_catalog_file", args: []string{"--catalog", filepath.Join(t.TempDir(), "none.json")}, wantCode: 2, wantStderr: "protocol: catalog"},
		{name: "missing_payload_file", args: []string{"--catalog", catalog, filepath.Join(t.TempDir(), "none.json")}, wantCode: 2, wantStderr: "none.json"},
		{name: "too_many_args", args: []string{"--catalog", catalog, "a", "b"}, wantCode: 2, wantStderr: "at most one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runValidate(context.Background(), tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d; stdout %q stderr %q", code, tt.wantCode, stdout.String(), stderr.String())
			}
			if tt.wantStdout != nil {
				got := strings.Split(strings.TrimRight(stdout.String(), "\n"), "\n")
				if strings.Join(got, "\n") != strings.Join(tt.wantStdout, "\n") {
					t.Fatalf("stdout:\n%s\nwant:\n%s", stdout.String(), strings.Join(tt.wantStdout, "\n"))
				}
			}
			if tt.wantCode == 1 && tt.wantStdout == nil {
				for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
					var rep map[string]any
					if err := json.Unmarshal([]byte(line), &rep); err != nil || rep["code"] != "VALIDATION_FAILED" {
						t.Fatalf("bad error line %q (%v)", line, err)
					}
				}
			}
			if tt.wantCode == 0 && stdout.Len() != 0 {
				t.Fatalf("valid payload printed %q", stdout.String())
			}
			if !strings.Contains(stderr.String(), tt.wantStderr) {
				t.Fatalf("stderr %q lacks %q", stderr.String(), tt.wantStderr)
			}
		})
	}
}
