package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/bench/perf"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// benchInput writes a small model answer of two turns, and its turns file
// next to it, and returns the answer's path.
func benchInput(t *testing.T) string {
	t.Helper()
	turn := `Here you go. <a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},` +
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"Hi"}]}}]</a2ui-json> Done.` + "\n"
	dir := t.TempDir()
	file := filepath.Join(dir, "answer.txt")
	if err := os.WriteFile(file, []byte(turn+strings.Replace(turn, `"s"`, `"t"`, 2)), 0o644); err != nil {
		t.Fatal(err)
	}
	turns := `{"offsets":[[0,` + strconv.Itoa(len(turn)) + `],[` + strconv.Itoa(len(turn)) + `,` + strconv.Itoa(2*len(turn)) + `]]}`
	if err := os.WriteFile(filepath.Join(dir, "answer.turns.json"), []byte(turns), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestBenchUsageErrors: each bad flag gives one line naming it and the
// help hint, on stderr, and exit status 2.
func TestBenchUsageErrors(t *testing.T) {
	file := benchInput(t)
	tests := []struct {
		name     string
		args     []string
		wantLine string
	}{
		{"no_file", nil, "no FILE given"},
		{"unknown_stage", []string{"--stage", "parse,render", file}, `--stage "render": want parse, process or pipeline`},
		{"empty_stage", []string{"--stage", "", file}, "--stage: no stage given"},
		{"unknown_mode", []string{"--mode", "fast", file}, `--mode "fast": want complete, progressive or delta`},
		{"chunk_zero", []string{"--chunk", "16,0", file}, `--chunk "0": want a size in bytes from 1 to 16777216`},
		{"chunk_not_a_number", []string{"--chunk", "4k", file}, `--chunk "4k": want a size in bytes from 1 to 16777216`},
		{"chunk_empty_item", []string{"--chunk", "4,,16", file}, `--chunk "": want a size in bytes from 1 to 16777216`},
		{"chunk_too_large", []string{"--chunk", "16777217", file}, `--chunk "16777217": want a size in bytes from 1 to 16777216`},
		{"rounds_zero", []string{"--rounds", "0", file}, "--rounds 0: want 1 or more"},
		{"duration_negative", []string{"--duration", "-1s", file}, "--duration -1s: want more than 0"},
		{"rounds_and_duration", []string{"--rounds", "3", "--duration", "1s", file}, "--rounds and --duration exclude each other"},
		{"sessions_zero", []string{"--sessions", "0", file}, "--sessions 0: want 1 to 4096"},
		{"sessions_not_a_number", []string{"--sessions", "many", file}, `invalid value "many" for flag --sessions: parse error`},
		{"turns_file_with_two_inputs", []string{"--turns", "x.json", file, file}, "--turns FILE goes with one FILE, got 2 (use --turns auto)"},
		{"unknown_flag", []string{"--chunks", "4", file}, "flag provided but not defined: --chunks"},
		{"from_with_file", []string{"--from", "r.json", file}, "--from takes no FILE, got 1 arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCmd(t, "", append([]string{"bench"}, tt.args...)...)
			want := "a2ui-stream bench: " + tt.wantLine + "\n" + `Run "a2ui-stream bench --help" for usage.` + "\n"
			if code != 2 || out != "" || errOut != want {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 2, no stdout, stderr:\n%s", code, out, errOut, want)
			}
		})
	}
}

// TestBenchFileErrors: unreadable inputs are one line on stderr, exit 2.
func TestBenchFileErrors(t *testing.T) {
	file := benchInput(t)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"missing_input", []string{filepath.Join(t.TempDir(), "none.txt")}, "no such file"},
		{"missing_turns", []string{"--turns", "auto", file, filepath.Join(filepath.Dir(file), "..", "none.txt")}, "no such file"},
		{"from_not_results", []string{"--from", writeTemp(t, `{"files":[]}`)}, "not the --json output of a2ui-stream bench"},
		{"from_missing", []string{"--from", filepath.Join(t.TempDir(), "none.json")}, "no such file"},
		{"turns_past_the_input", []string{"--turns", writeTemp(t, `{"offsets":[[0,100000]]}`), file}, "turn 0: ends at 100000, past the input's"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCmd(t, "", append([]string{"bench", "--quiet"}, tt.args...)...)
			if code != 2 || out != "" || !strings.HasPrefix(errOut, "a2ui-stream bench: ") ||
				!strings.Contains(errOut, tt.want) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2, none, one line containing %q", code, out, errOut, tt.want)
			}
		})
	}
}

func writeTemp(t *testing.T, content string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "f.json")
	if err := os.WriteFile(f, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestBenchJSON runs a small bench with --json and validates the output
// against the published schema. stderr is not a terminal here, so the
// progress bar is off: nothing is written there.
func TestBenchJSON(t *testing.T) {
	file := benchInput(t)
	code, out, errOut := runCmd(t, "", "bench", "--json", "--rounds", "1", "--chunk", "8,64",
		"--mode", "complete,delta", "--sessions", "2", "--turns", "auto", file)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	if errOut != "" {
		t.Errorf("stderr %q: want nothing (no progress bar when stderr is not a terminal)", errOut)
	}
	schema, err := os.ReadFile(filepath.Join("..", "..", "bench", "perf", "result.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(schema, perf.Schema) {
		t.Error("bench/perf/result.schema.json and perf.Schema differ")
	}
	c := jsonschema.NewCompiler()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource("result.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("result.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, out)
	}
	if err := sch.Validate(v); err != nil {
		t.Fatalf("the output does not validate: %v", err)
	}
	var res perf.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	// --from gives the same JSON back, and its table.
	saved := writeTemp(t, out)
	if code, again, errOut := runCmd(t, "", "bench", "--from", saved, "--json"); code != 0 || again != out {
		t.Errorf("--from --json: exit %d, stderr %q, output differs: %v", code, errOut, again != out)
	}
	if code, table, errOut := runCmd(t, "", "bench", "--from", saved); code != 0 || !strings.Contains(table, "answer.txt: ") {
		t.Errorf("--from: exit %d, stderr %q, table:\n%s", code, errOut, table)
	}
	f := res.Files[0]
	if f.Name != "answer.txt" || f.Turns != 2 || f.Messages != 4 || len(f.Cells) != 3*2*2 || res.Settings.Sessions != 2 {
		t.Errorf("results: %s, %d turns, %d messages, %d cells, %d sessions; want answer.txt, 2, 4, 12, 2",
			f.Name, f.Turns, f.Messages, len(f.Cells), res.Settings.Sessions)
	}
}

// TestBenchTableAndPlots runs a small bench with the table and plots.
func TestBenchTableAndPlots(t *testing.T) {
	file := benchInput(t)
	dir := filepath.Join(t.TempDir(), "plots")
	code, out, errOut := runCmd(t, "", "bench", "--quiet", "--rounds", "1", "--chunk", "16", "--mode", "complete",
		"--stage", "parse", "--plot", dir, file)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"answer.txt: ", "floor (bare boundary scan", "parse  complete", "scaling: parse stage"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	for _, name := range []string{"throughput-answer.svg", "heap-answer.svg", "scaling.svg"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("plot: %v", err)
		}
	}
}

// TestBenchProgressOff: the progress bar is off when stderr is not a
// terminal (a buffer, a file, a pipe) and with --quiet.
func TestBenchProgressOff(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for name, stderr := range map[string]io.Writer{"buffer": &bytes.Buffer{}, "file": f, "pipe": w} {
		if progressOn(stderr, false) {
			t.Errorf("%s: progress bar on", name)
		}
		if newBenchProgress(stderr, false) != nil {
			t.Errorf("%s: newBenchProgress returned a bar", name)
		}
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		if progressOn(tty, true) {
			t.Error("terminal with --quiet: progress bar on")
		}
	}
	// A nil bar takes finish.
	var none *benchProgress
	none.finish()
}
