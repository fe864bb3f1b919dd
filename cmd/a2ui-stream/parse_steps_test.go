package main

import (
	"strings"
	"testing"
)

// TestParseStepsGoesOnAfterABadLine: a --steps line that is not a JSON
// string gets an error line in its place, the lines after it are still
// read and fed, there is still one output line per input line, and the
// exit status is 1 at the end.
func TestParseStepsGoesOnAfterABadLine(t *testing.T) {
	const open = `"<a2ui-json>[{\"version\":\"v0.9\","` // a message begun
	tests := []struct {
		name       string
		stdin      string
		want       []string // the output lines
		wantStderr string
	}{
		{
			name:       "issue_16",
			stdin:      "\"a\"\nx\n\"b\"\n",
			want:       []string{`[{"text":"a"}]`, `{"error":"line 2: want a JSON string holding one chunk: invalid character 'x' looking for beginning of value"}`, `[{"text":"b"}]`},
			wantStderr: "a2ui-stream parse: 1 input line was not used: line 2: want a JSON string",
		},
		{
			name:       "two_bad_lines",
			stdin:      "1\n\"a\"\n{}\n\"b\"",
			want:       []string{`{"error":"line 1: want a JSON string holding one chunk: json: cannot unmarshal number into Go value of type string"}`, `[{"text":"a"}]`, `{"error":"line 3: want a JSON string holding one chunk: json: cannot unmarshal object into Go value of type string"}`, `[{"text":"b"}]`},
			wantStderr: "2 input lines were not used; the first: line 1:",
		},
		{
			name:  "a_bad_line_inside_a_block",
			stdin: open + "\nnot json\n\"\\\"deleteSurface\\\":{\\\"surfaceId\\\":\\\"s\\\"}}]</a2ui-json>done\"\n",
			want: []string{`[]`, `{"error":"line 2: want a JSON string holding one chunk: invalid character 'o' in literal null (expecting 'u')"}`,
				`[{"a2ui":[{"version":"v0.9","deleteSurface":{"surfaceId":"s"}}]},{"text":"done"}]`},
			wantStderr: "line 2:",
		},
		{
			name:       "a_bad_last_line_carries_what_the_end_releases",
			stdin:      open + "\nx\n",
			want:       []string{`[]`, `{"error":"line 2: want a JSON string holding one chunk: invalid character 'x' looking for beginning of value\nparser: block 0 (at byte 11) dropped: Failed to parse JSON at byte 12: block ended inside an unfinished message"}`},
			wantStderr: "line 2:",
		},
		{
			name:       "too_long_line",
			stdin:      "\"a\"\n\"" + strings.Repeat("x", maxStepLineBytes) + "\"\n\"b\"\n",
			want:       []string{`[{"text":"a"}]`, `{"error":"line 2: want a JSON string holding one chunk: the line is longer than 67108864 bytes"}`, `[{"text":"b"}]`},
			wantStderr: "line 2: want a JSON string holding one chunk: the line is longer than 67108864 bytes",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tt.stdin, "parse", "--steps")
			if code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			if got := strings.Split(strings.TrimSuffix(out, "\n"), "\n"); strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("output:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if !strings.Contains(errOut, tt.wantStderr) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("stderr %q, want one line with %q", errOut, tt.wantStderr)
			}
		})
	}
}

// TestParseStepsLineCount: blank lines are empty chunks, and a final
// newline does not make a line, as before.
func TestParseStepsLineCount(t *testing.T) {
	for _, tt := range []struct {
		name, stdin string
		lines       int
	}{
		{"final_newline", "\"a\"\n", 1},
		{"no_final_newline", "\"a\"\n\"b\"", 2},
		{"blank_line", "\"a\"\n\n\"b\"\n", 3},
		{"crlf", "\"a\"\r\n\"b\"\r\n", 2},
		{"empty", "", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tt.stdin, "parse", "--steps")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if got := strings.Count(out, "\n"); got != tt.lines {
				t.Errorf("%d output lines, want %d: %q", got, tt.lines, out)
			}
		})
	}
}
