package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("output differs from %s:\n%s\nwant:\n%s", path, got, want)
	}
}

// runCLI runs a2ui-stream with args and stdin, returning its stdout, stderr
// and exit status.
func runCLI(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), code
}

func TestParseSample(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		golden string
	}{
		{"whole file", []string{"parse", "../../examples/weather.txt"}, "parse_weather.golden"},
		{"16-byte chunks", []string{"parse", "--chunk", "16", "../../examples/weather.txt"}, "parse_weather_chunk16.golden"},
		{"1-byte chunks", []string{"parse", "--chunk", "1", "../../examples/weather.txt"}, "parse_weather_bytes.golden"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, "", tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			golden(t, tc.golden, []byte(out))
		})
	}
}

func TestParseErrorsContinue(t *testing.T) {
	out, _, code := runCLI(t, "a<a2ui-json>[{\"x\":tru}]</a2ui-json>b<a2ui-json>[{\"y\":1}]</a2ui-json>", "parse")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || lines[0] != `{"text":"a"}` || !strings.HasPrefix(lines[1], `{"error":"parser: block 0`) || lines[2] != `{"text":"b","a2ui":[{"y":1}]}` {
		t.Fatalf("unexpected output:\n%s", out)
	}
}

func TestParseSteps(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		in      []string // input lines
		want    []string // output lines; an error line's "error" is given as "ERR"
		wantErr string   // substring every "error" must contain
	}{
		{name: "chunks_split_tags",
			in: []string{`"Hello <a2ui"`, `"-json>[{\"a\":1},{\"b\""`, `":2}]</a2ui-json>bye"`, `"<a2ui-json>oops</a2ui-json>"`},
			want: []string{
				`[{"text":"Hello "}]`,
				`[{"a2ui":[{"a":1}]}]`,
				`[{"a2ui":[{"b":2}]},{"text":"bye"}]`,
				`{"error":"ERR"}`,
			},
			wantErr: "unexpected 'o' before the message list"},
		{name: "close_release_merged_into_last_line",
			in:   []string{`"Hello <a2"`},
			want: []string{`[{"text":"Hello "},{"text":"<a2"}]`}},
		{name: "close_release_after_empty_chunk",
			in:   []string{`"Hello <a2"`, `""`},
			want: []string{`[{"text":"Hello "}]`, `[{"text":"<a2"}]`}},
		{name: "empty_line_is_empty_chunk",
			in:   []string{`"a"`, ``, `"b"`},
			want: []string{`[{"text":"a"}]`, `[]`, `[{"text":"b"}]`}},
		{name: "blank_last_line_is_empty_chunk",
			in:   []string{`"a"`, `   `},
			want: []string{`[{"text":"a"}]`, `[]`}},
		{name: "crlf_lines",
			in:   []string{"\"a\"\r", "\"b\"\r"},
			want: []string{`[{"text":"a"}]`, `[{"text":"b"}]`}},
		{name: "unterminated_block_error_in_last_line_keeps_parts",
			in:      []string{`"x<a2ui-json>[{\"a\":1"`},
			want:    []string{`{"error":"ERR","parts":[{"text":"x"}]}`},
			wantErr: "block 0"},
		{name: "unterminated_block_error_after_earlier_lines",
			in:      []string{`"x"`, `"<a2ui-json>[{\"a\":1"`},
			want:    []string{`[{"text":"x"}]`, `{"error":"ERR"}`},
			wantErr: "block 0"},
		{name: "error_line_keeps_parts_of_its_chunk",
			in:      []string{`"a<a2ui-json>oops</a2ui-json>b<a2ui-json>[{\"x\":1}]</a2ui-json>"`},
			want:    []string{`{"error":"ERR","parts":[{"text":"a"},{"text":"b","a2ui":[{"x":1}]}]}`},
			wantErr: "unexpected 'o'"},
		{name: "progressive_mode_unterminated_in_last_line",
			args:    []string{"--mode", "progressive"},
			in:      []string{`"x<a2ui-json>[{\"a\":1"`},
			want:    []string{`{"error":"ERR","parts":[{"text":"x"}]}`},
			wantErr: "block 0"},
		{name: "no_input_no_output",
			in:   nil,
			want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdin := ""
			for _, l := range tt.in {
				stdin += l + "\n"
			}
			args := append([]string{"parse", "--steps"}, tt.args...)
			out, errOut, code := runCLI(t, stdin, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			got := splitLines(out)
			if len(got) != len(tt.in) {
				t.Errorf("%d output lines for %d input lines:\n%s", len(got), len(tt.in), out)
			}
			for i := range got {
				got[i] = maskError(t, got[i], tt.wantErr)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Fatalf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// splitLines splits output into lines, without the final newline.
func splitLines(out string) []string {
	if out == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(out, "\n"), "\n")
}

// maskError replaces the "error" value of an error line with "ERR", after
// checking that it contains want; other lines are returned unchanged.
func maskError(t *testing.T, line, want string) string {
	t.Helper()
	if !strings.HasPrefix(line, `{"error":`) {
		return line
	}
	var v struct {
		Error string          `json:"error"`
		Parts json.RawMessage `json:"parts,omitempty"`
	}
	if err := json.Unmarshal([]byte(line), &v); err != nil {
		t.Fatalf("bad error line %q: %v", line, err)
	}
	if !strings.Contains(v.Error, want) {
		t.Errorf("error %q lacks %q", v.Error, want)
	}
	v.Error = "ERR"
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParseCompactsMessages(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"whitespace_dropped_key_order_kept",
			"<a2ui-json>[ {\"b\" : 1,\n \"a\" : [ 1, 2 ] } ]</a2ui-json>",
			`{"a2ui":[{"b":1,"a":[1,2]}]}`},
		{"string_escapes_kept_html_not_escaped",
			`<a2ui-json>[{"t":"\u00e9 <b>&"}]</a2ui-json>`,
			`{"a2ui":[{"t":"\u00e9 <b>&"}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tt.in, "parse")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if got := strings.TrimSuffix(out, "\n"); got != tt.want {
				t.Fatalf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestParseExitCodes(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.txt")
	tests := []struct {
		name       string
		args       []string
		stdin      string
		catalog    bool // append --catalog with a valid catalog file
		wantCode   int
		wantStderr string // substring
		wantStdout string // substring
	}{
		{name: "help_exits_0", args: []string{"parse", "-h"}, wantCode: 0,
			wantStdout: "usage: a2ui-stream parse"},
		{name: "help_documents_compaction", args: []string{"parse", "--help"}, wantCode: 0,
			wantStdout: "compacted"},
		{name: "help_documents_steps_error_parts", args: []string{"parse", "--help"}, wantCode: 0,
			wantStdout: `{"error":…,"parts":[…]}`},
		{name: "help_documents_emit_lists", args: []string{"parse", "--help"}, wantCode: 0,
			wantStdout: "a2ui-stream parse --emit lists answer.txt | a2ui-stream apply"},
		{name: "catalog_with_default_mode", args: []string{"parse"}, catalog: true, wantCode: 2,
			stdin:      `<a2ui-json>[{"unknownMessage":"invalid"}]</a2ui-json>`,
			wantStderr: "--catalog applies to --mode progressive and delta"},
		{name: "catalog_with_mode_complete", args: []string{"parse", "--mode", "complete"}, catalog: true, wantCode: 2,
			wantStderr: "--catalog applies to --mode progressive and delta"},
		{name: "catalog_with_mode_progressive_validates", args: []string{"parse", "--mode", "progressive"}, catalog: true, wantCode: 0,
			stdin:      `<a2ui-json>[{"unknownMessage":"invalid"}]</a2ui-json>`,
			wantStdout: "Validation failed"},
		{name: "catalog_with_mode_delta_validates", args: []string{"parse", "--mode", "delta"}, catalog: true, wantCode: 0,
			stdin:      `<a2ui-json>[{"unknownMessage":"invalid"}]</a2ui-json>`,
			wantStdout: "Validation failed"},
		{name: "chunk_with_steps", args: []string{"parse", "--steps", "--chunk", "4"}, wantCode: 2,
			wantStderr: "--chunk and --steps cannot be used together"},
		{name: "chunk_zero_with_steps", args: []string{"parse", "--chunk", "0", "--steps"}, wantCode: 2,
			wantStderr: "--chunk and --steps cannot be used together"},
		{name: "two_files", args: []string{"parse", "a", "b"}, wantCode: 2,
			wantStderr: "at most one FILE, got 2 arguments"},
		{name: "negative_chunk", args: []string{"parse", "--chunk", "-1"}, wantCode: 2,
			wantStderr: "--chunk must be from 0 to 67108864, got -1"},
		{name: "chunk_too_large", args: []string{"parse", "--chunk", "67108865"}, wantCode: 2,
			wantStderr: "--chunk must be from 0 to 67108864, got 67108865"},
		{name: "chunk_of_the_largest_size", args: []string{"parse", "--chunk", "67108864"}, wantCode: 0,
			stdin: "hi", wantStdout: `{"text":"hi"}`},
		{name: "bad_emit", args: []string{"parse", "--emit", "blocks"}, wantCode: 2,
			wantStderr: `unknown --emit "blocks": want parts or lists`},
		{name: "emit_lists_with_steps", args: []string{"parse", "--emit", "lists", "--steps"}, wantCode: 2,
			wantStderr: "--emit lists and --steps cannot be used together"},
		{name: "bad_mode", args: []string{"parse", "--mode", "fast"}, wantCode: 2, wantStderr: "fast"},
		{name: "bad_framing", args: []string{"parse", "--framing", "xml"}, wantCode: 2, wantStderr: "xml"},
		{name: "unknown_flag", args: []string{"parse", "--nope"}, wantCode: 2},
		{name: "missing_input_file", args: []string{"parse", missing}, wantCode: 2, wantStderr: "none.txt"},
		{name: "missing_catalog_file", args: []string{"parse", "--mode", "delta", "--catalog", missing}, wantCode: 2,
			wantStderr: "none.txt"},
		{name: "steps_line_not_a_string", args: []string{"parse", "--steps"}, wantCode: 1,
			stdin: "\"a\"\nxx\n\"b\"\n", wantStdout: `[{"text":"a"}]`, wantStderr: "line 2: want a JSON string"},
		{name: "steps_line_too_long", args: []string{"parse", "--steps"}, wantCode: 1,
			stdin: "\"a\"\n\"" + strings.Repeat("x", maxStepLineBytes) + "\"\n\"b\"\n", wantStdout: `[{"text":"a"}]`,
			wantStderr: "line 2: want a JSON string holding one chunk: the line is longer than 67108864 bytes"},
		{name: "steps_line_of_the_largest_size", args: []string{"parse", "--steps"}, wantCode: 0,
			stdin: "\"" + strings.Repeat(" ", maxStepLineBytes-2) + "\"\n\"b\"\n", wantStdout: `[{"text":"b"}]`},
		{name: "unknown_command", args: []string{"nope"}, wantCode: 2, wantStderr: "unknown command"},
		{name: "smart_quotes_fail_without_repair", args: []string{"parse"}, wantCode: 0,
			stdin:      "<a2ui-json>[{“version”: “v0.9”, “deleteSurface”: {“surfaceId”: “s”},},]</a2ui-json>",
			wantStdout: `{"error":"parser: block 0`},
		{name: "repair_fixes_smart_quotes", args: []string{"parse", "--repair", "--chunk", "1"}, wantCode: 0,
			stdin:      "<a2ui-json>[{“version”: “v0.9”, “deleteSurface”: {“surfaceId”: “s”},},]</a2ui-json>",
			wantStdout: `{"a2ui":[{"version":"v0.9","deleteSurface":{"surfaceId":"s"}}]}`},
		{name: "repair_with_jsonl", args: []string{"parse", "--repair", "--framing", "jsonl"}, wantCode: 0,
			stdin:      "{“version”: “v0.9”, “deleteSurface”: {“surfaceId”: “s”},}\n",
			wantStdout: `{"a2ui":[{"version":"v0.9","deleteSurface":{"surfaceId":"s"}}]}`},
		{name: "repair_with_steps", args: []string{"parse", "--repair", "--steps"}, wantCode: 0,
			stdin:      "\"<a2ui-json>[{“version”: “v0.9”, “deleteSurface”: {“surfaceId”: “s”}},\"\n\" ]</a2ui-json> “x”\"\n",
			wantStdout: "[{\"a2ui\":[{\"version\":\"v0.9\",\"deleteSurface\":{\"surfaceId\":\"s\"}}]}]\n[{\"text\":\" “x”\"}]\n"},
		{name: "repair_with_an_unknown_framing", args: []string{"parse", "--repair", "--framing", "xml"}, wantCode: 2,
			wantStderr: `unknown framing "xml"`},
		{name: "help_synopsis_names_repair", args: []string{"parse", "-h"}, wantCode: 0,
			wantStdout: "[--repair]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args
			if tt.catalog {
				args = append(append([]string(nil), args...), "--catalog", writeCatalog(t))
			}
			out, errOut, code := runCLI(t, tt.stdin, args...)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d; stdout %q stderr %q", code, tt.wantCode, out, errOut)
			}
			if !strings.Contains(errOut, tt.wantStderr) {
				t.Errorf("stderr %q lacks %q", errOut, tt.wantStderr)
			}
			if !strings.Contains(out, tt.wantStdout) {
				t.Errorf("stdout %q lacks %q", out, tt.wantStdout)
			}
			if tt.wantCode == 2 && out != "" {
				t.Errorf("usage error printed %q on stdout", out)
			}
			if tt.wantCode == 0 && errOut != "" {
				t.Errorf("success printed %q on stderr", errOut)
			}
		})
	}
}
