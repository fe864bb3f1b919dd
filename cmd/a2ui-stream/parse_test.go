package main

import (
	"bytes"
	"context"
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

func runCmd(t *testing.T, stdin string, args ...string) (string, string, int) {
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
			out, errOut, code := runCmd(t, "", tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			golden(t, tc.golden, []byte(out))
		})
	}
}

func TestParseSteps(t *testing.T) {
	in := strings.Join([]string{
		`"Hello <a2ui"`,
		`"-json>[{\"a\":1},{\"b\""`,
		`":2}]</a2ui-json>bye"`,
		`"<a2ui-json>oops</a2ui-json>"`,
	}, "\n") + "\n"
	out, errOut, code := runCmd(t, in, "parse", "--steps")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := `[{"text":"Hello "}]
[{"a2ui":[{"a":1}]}]
[{"a2ui":[{"b":2}]},{"text":"bye"}]
{"error":"parser: block 1 (at byte 60) dropped: parser: Failed to parse JSON at byte 60: unexpected 'o' before the message list; want an A2UI message object"}
`
	if out != want {
		t.Fatalf("got:\n%s\nwant:\n%s", out, want)
	}
}

func TestParseErrorsContinue(t *testing.T) {
	out, _, code := runCmd(t, "a<a2ui-json>[{\"x\":tru}]</a2ui-json>b<a2ui-json>[{\"y\":1}]</a2ui-json>", "parse")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || lines[0] != `{"text":"a"}` || !strings.HasPrefix(lines[1], `{"error":"parser: block 0`) || lines[2] != `{"text":"b","a2ui":[{"y":1}]}` {
		t.Fatalf("unexpected output:\n%s", out)
	}
}

func TestParseBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"parse", "--mode", "fast"},
		{"parse", "--framing", "xml"},
		{"parse", "--chunk", "-1"},
		{"parse", "a", "b"},
	} {
		if _, _, code := runCmd(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if _, _, code := runCmd(t, "", "nope"); code != 2 {
		t.Errorf("unknown command: exit %d, want 2", code)
	}
}
