package main

import (
	"strings"
	"testing"
)

// TestParseJSONLErrorInPlace: under JSONL framing, with several lines in
// one chunk, a bad line's {"error"} line comes where the line was: after
// the messages of the lines before it and before those of the lines after
// it, as with one byte per chunk. (Issue 16 saw it after later lines'
// messages when the lines came in one chunk.)
func TestParseJSONLErrorInPlace(t *testing.T) {
	msg := func(id string) string {
		return `{"version":"v0.9","deleteSurface":{"surfaceId":"` + id + `"}}`
	}
	tests := []struct {
		name  string
		input string
		want  []string // surface ids and "error", in output order
	}{
		{"bad_line_between", "[" + msg("a") + "]\n[{bad\n[" + msg("b") + "]\n", []string{"a", "error", "b"}},
		{"two_messages_then_bad", "[" + msg("a") + "," + msg("b") + "]\n[1,\n[" + msg("c") + "]\n[" + msg("d") + "]\n", []string{"a", "b", "error", "c", "d"}},
		{"message_then_break_in_a_line", "[" + msg("a") + "]\n[" + msg("b") + `,{"x"` + "\n[" + msg("c") + "]\n", []string{"a", "b", "error", "c"}},
		{"prose_then_lines", "hello\n[" + msg("a") + "]\n[oops]\n[" + msg("b") + "]\n", []string{"error", "a", "error", "b"}},
		{"bad_first", "[{bad\n[" + msg("a") + "]\n[" + msg("b") + "]\n", []string{"error", "a", "b"}},
	}
	for _, tt := range tests {
		for _, emit := range []string{"parts", "lists"} {
			for _, chunk := range []string{"0", "1", "7", "100000"} {
				t.Run(tt.name+"/"+emit+"/chunk_"+chunk, func(t *testing.T) {
					out, errOut, code := runCLI(t, tt.input, "parse", "--framing", "jsonl", "--emit", emit, "--chunk", chunk)
					if code != 0 {
						t.Fatalf("exit %d: %s", code, errOut)
					}
					if got := outputOrder(out); strings.Join(got, " ") != strings.Join(tt.want, " ") {
						t.Errorf("order %v, want %v:\n%s", got, tt.want, out)
					}
				})
			}
		}
	}
}

// outputOrder lists, in output order, the surface id of each message and
// "error" for each error line.
func outputOrder(out string) []string {
	var order []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.HasPrefix(line, `{"error":`) {
			order = append(order, "error")
			continue
		}
		for _, f := range strings.Split(line, `"surfaceId":"`)[1:] {
			order = append(order, f[:strings.IndexByte(f, '"')])
		}
	}
	return order
}
