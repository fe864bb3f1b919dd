package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCmd runs a2ui-stream with args and stdin, returning its exit status,
// stdout and stderr.
func runCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestRunGolden runs the sample through "a2ui-stream run" and compares the
// events with testdata/run_weather*.golden (go test -run TestRunGolden
// -update rewrites them).
func TestRunGolden(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		golden string
	}{
		{"whole", []string{"run", "../../examples/weather.txt"}, "run_weather.golden"},
		{"chunk 16", []string{"run", "--chunk", "16", "../../examples/weather.txt"}, "run_weather_chunk16.golden"},
		{"delta", []string{"run", "--mode", "delta", "--chunk", "64", "../../examples/weather.txt"}, "run_weather_delta.golden"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCmd(t, "", tc.args...)
			if code != 0 {
				t.Fatalf("exit %d, stderr:\n%s", code, errOut)
			}
			path := filepath.Join("testdata", tc.golden)
			if *update {
				if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if out != string(want) {
				t.Errorf("output differs from %s:\n%s", path, out)
			}
			if !strings.Contains(errOut, "stream: session ended") {
				t.Errorf("stderr lacks the session's end:\n%s", errOut)
			}
		})
	}
}

// TestRunBatchesDoNotDependOnChunking: in complete mode the batch and end
// events are the same at every chunk size.
func TestRunBatchesDoNotDependOnChunking(t *testing.T) {
	in, err := os.ReadFile("../../examples/weather.txt")
	if err != nil {
		t.Fatal(err)
	}
	batches := func(out string) string {
		var keep []string
		for _, l := range strings.Split(out, "\n") {
			if !strings.HasPrefix(l, `{"event":"text"`) {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	_, whole, _ := runCmd(t, string(in), "run")
	for _, n := range []string{"1", "3", "8", "100", "4096"} {
		code, out, errOut := runCmd(t, string(in), "run", "--chunk", n, "-")
		if code != 0 {
			t.Fatalf("--chunk %s: exit %d: %s", n, code, errOut)
		}
		if batches(out) != batches(whole) {
			t.Errorf("--chunk %s: batch events differ:\n%s\nwant\n%s", n, batches(out), batches(whole))
		}
	}
}

func TestRunErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"bad mode", []string{"run", "--mode", "fast"}, 2, "mode"},
		{"bad batch", []string{"run", "--batch", "all"}, 2, "batch policy"},
		{"negative chunk", []string{"run", "--chunk", "-1"}, 2, "--chunk"},
		{"two files", []string{"run", "a", "b"}, 2, "at most one FILE"},
		{"missing file", []string{"run", "/nonexistent/x.txt"}, 2, "no such file"},
		{"bad log level", []string{"run", "--log-level", "loud"}, 2, "--log-level"},
		{"empty session", []string{"run", "--session", ""}, 2, "--session"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runCmd(t, "", tc.args...)
			if code != tc.code || !strings.Contains(errOut, tc.want) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, errOut, tc.code, tc.want)
			}
		})
	}
}
