package main

import (
	"flag"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
)

// TestDispatch: each command name reaches its command (seen by what only
// that command prints).
func TestDispatch(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		stdin      string
		wantCode   int
		wantStdout string // prefix
		wantStderr string // substring
	}{
		{name: "parse", args: []string{"parse"}, stdin: "hi", wantStdout: `{"text":"hi"}`},
		{name: "apply", args: []string{"apply"}, stdin: "[]\n", wantStdout: `{"seq":1,`},
		{name: "validate", args: []string{"validate"}, wantCode: 2, wantStderr: "a2ui-stream validate: --catalog FILE is required"},
		{name: "a2a", args: []string{"a2a"}, wantCode: 2, wantStderr: "a2ui-stream a2a: --replay FILE is required"},
		{name: "version", args: []string{"version"}, wantStdout: "a2ui-stream "},
		{name: "version_flag", args: []string{"--version"}, wantStdout: "a2ui-stream "},
		{name: "help", args: []string{"help"}, wantStdout: "a2ui-stream turns streamed model output"},
		{name: "help_flag", args: []string{"--help"}, wantStdout: "a2ui-stream turns streamed model output"},
		{name: "h_flag", args: []string{"-h"}, wantStdout: "a2ui-stream turns streamed model output"},
		{name: "help_flag_then_command", args: []string{"--help", "apply"}, wantStdout: "usage: a2ui-stream apply"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tt.stdin, tt.args...)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d; stdout %q stderr %q", code, tt.wantCode, out, errOut)
			}
			if !strings.HasPrefix(out, tt.wantStdout) {
				t.Errorf("stdout %q does not start with %q", out, tt.wantStdout)
			}
			if !strings.Contains(errOut, tt.wantStderr) {
				t.Errorf("stderr %q lacks %q", errOut, tt.wantStderr)
			}
		})
	}
}

// TestTopLevelHelpListsEveryCommand: the top-level help lists each
// command of the table with its synopsis.
func TestTopLevelHelpListsEveryCommand(t *testing.T) {
	out, errOut, code := runCLI(t, "", "help")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, c := range commands {
		if !regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(c.name) + ` +` + regexp.QuoteMeta(c.synopsis) + `$`).MatchString(out) {
			t.Errorf("help does not list %s with its synopsis %q:\n%s", c.name, c.synopsis, out)
		}
	}
}

// TestCommandHelp: "CMD --help", "CMD -h" and "help CMD" print the same
// help on stdout and exit 0, each flag spelled --name.
func TestCommandHelp(t *testing.T) {
	singleDash := regexp.MustCompile(`(?m)^\s+-[a-z]`)
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			var first string
			for i, args := range [][]string{{c.name, "--help"}, {c.name, "-h"}, {"help", c.name}} {
				out, errOut, code := runCLI(t, "", args...)
				if code != 0 || errOut != "" {
					t.Fatalf("%q: exit %d, stderr %q", args, code, errOut)
				}
				if !strings.HasPrefix(out, "usage: a2ui-stream "+c.name) {
					t.Errorf("%q: help starts %q", args, out[:min(len(out), 60)])
				}
				if i == 0 {
					first = out
				} else if out != first {
					t.Errorf("%q printed a different help:\n%s\nthan %q:\n%s", args, out, []string{c.name, "--help"}, first)
				}
			}
			if singleDash.MatchString(first) {
				t.Errorf("help lists a flag with one dash:\n%s", first)
			}
			fs := newFlagSet(c.name)
			if c.flags != nil {
				c.flags(fs)
			}
			fs.VisitAll(func(f *flag.Flag) {
				if !regexp.MustCompile(`(?m)^  --` + regexp.QuoteMeta(f.Name) + `( |$)`).MatchString(first) {
					t.Errorf("help does not list --%s:\n%s", f.Name, first)
				}
			})
		})
	}
}

// TestFlagDefaultsListed: a flag's default is shown when it is not the
// zero value, quoted for strings, as flag.PrintDefaults does.
func TestFlagDefaultsListed(t *testing.T) {
	out, _, _ := runCLI(t, "", "help", "a2a")
	for _, want := range []string{
		"--listen ADDR\n        listen on ADDR (host:port) (default \"127.0.0.1:8080\")\n",
		"(default 20ms)",
		"--v\n        log requests' problems to stderr\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("a2a help lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "(default false)") || strings.Contains(out, `(default "")`) {
		t.Errorf("a2a help shows a zero default:\n%s", out)
	}
	if !strings.Contains(out, a2aShutdownGrace.String()) {
		t.Errorf("a2a help does not give the shutdown grace %s:\n%s", a2aShutdownGrace, out)
	}
}

// TestUsageErrors: a usage error prints one line naming the problem and
// one pointing to the help, on stderr, nothing on stdout, and exits 2.
func TestUsageErrors(t *testing.T) {
	const top = `Run "a2ui-stream help" for usage.`
	hint := func(cmd string) string { return `Run "a2ui-stream ` + cmd + ` --help" for usage.` }
	tests := []struct {
		name     string
		args     []string
		wantLine string
		wantHint string
	}{
		{"no_command", nil, "a2ui-stream: no command given", top},
		{"unknown_command", []string{"nope"}, `a2ui-stream: unknown command "nope"`, top},
		{"unknown_top_level_flag", []string{"--mode", "delta"},
			"a2ui-stream: unknown flag --mode (flags other than --help and --version go after the command)", top},
		{"unknown_flag", []string{"parse", "--nope"}, "a2ui-stream parse: flag provided but not defined: --nope", hint("parse")},
		{"unknown_flag_one_dash", []string{"apply", "-nope"}, "a2ui-stream apply: flag provided but not defined: --nope", hint("apply")},
		{"bad_int", []string{"parse", "--chunk", "x"}, `a2ui-stream parse: invalid value "x" for flag --chunk: parse error`, hint("parse")},
		{"missing_value", []string{"parse", "--chunk"}, "a2ui-stream parse: flag needs an argument: --chunk", hint("parse")},
		{"bad_bool", []string{"validate", "--strict=maybe"}, `a2ui-stream validate: invalid boolean value "maybe" for --strict: parse error`, hint("validate")},
		{"bad_duration", []string{"a2a", "--pace", "soon"}, `a2ui-stream a2a: invalid value "soon" for flag --pace: parse error`, hint("a2a")},
		{"parse_two_files", []string{"parse", "a", "b"}, "a2ui-stream parse: at most one FILE, got 2 arguments", hint("parse")},
		{"parse_bad_emit", []string{"parse", "--emit", "blocks"}, `a2ui-stream parse: unknown --emit "blocks": want parts or lists`, hint("parse")},
		{"validate_no_catalog", []string{"validate"}, "a2ui-stream validate: --catalog FILE is required", hint("validate")},
		{"validate_two_payloads", []string{"validate", "--catalog", "c", "a", "b"}, "a2ui-stream validate: at most one PAYLOAD file, got 2 arguments", hint("validate")},
		{"apply_two_files", []string{"apply", "a", "b"}, "a2ui-stream apply: at most one FILE, got 2 arguments", hint("apply")},
		{"a2a_no_replay", []string{"a2a"}, "a2ui-stream a2a: --replay FILE is required", hint("a2a")},
		{"a2a_argument", []string{"a2a", "--replay", "f", "x"}, "a2ui-stream a2a: takes no arguments, got 1", hint("a2a")},
		{"help_unknown_command", []string{"help", "nope"}, `a2ui-stream help: unknown command "nope"`, hint("help")},
		{"help_two_commands", []string{"help", "parse", "apply"}, "a2ui-stream help: at most one COMMAND, got 2 arguments", hint("help")},
		{"version_argument", []string{"version", "x"}, "a2ui-stream version: takes no arguments, got 1", hint("version")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, "", tt.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if out != "" {
				t.Errorf("stdout %q, want none", out)
			}
			if want := tt.wantLine + "\n" + tt.wantHint + "\n"; errOut != want {
				t.Errorf("stderr:\n%s\nwant:\n%s", errOut, want)
			}
		})
	}
}

func TestVersion(t *testing.T) {
	out, errOut, code := runCLI(t, "", "version")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	flagOut, _, _ := runCLI(t, "", "--version")
	if flagOut != out {
		t.Errorf("--version printed %q, version %q", flagOut, out)
	}
	if !regexp.MustCompile(`^a2ui-stream \S+\nrevision: \S+\ntime: \S+\nmodified: \S+\ngo: go\S+\n$`).MatchString(out) {
		t.Errorf("version output %q", out)
	}

	tests := []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"no_build_info", nil,
			"a2ui-stream (devel)\nrevision: unknown\ntime: unknown\nmodified: unknown\ngo: unknown\n"},
		{"no_vcs_settings", &debug.BuildInfo{GoVersion: "go1.26.8"},
			"a2ui-stream (devel)\nrevision: unknown\ntime: unknown\nmodified: unknown\ngo: go1.26.8\n"},
		{"vcs_settings", &debug.BuildInfo{
			GoVersion: "go1.26.8",
			Main:      debug.Module{Path: "github.com/a2ui-stream/a2ui-stream", Version: "v1.2.3"},
			Settings: []debug.BuildSetting{
				{Key: "vcs.revision", Value: "4606dee"},
				{Key: "vcs.time", Value: "2026-12-06T10:00:00Z"},
				{Key: "vcs.modified", Value: "true"},
			},
		}, "a2ui-stream v1.2.3\nrevision: 4606dee\ntime: 2026-12-06T10:00:00Z\nmodified: true\ngo: go1.26.8\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			writeVersion(&b, tt.info)
			if b.String() != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", b.String(), tt.want)
			}
		})
	}
}

// TestSignalsMarked: the server catches signals and the commands that
// read their input to its end do not (signal_test.go checks what each
// does on a signal).
func TestSignalsMarked(t *testing.T) {
	for name, want := range map[string]bool{"a2a": true, "parse": false, "validate": false, "apply": false, "version": false, "help": false} {
		c := lookup(name)
		if c == nil {
			t.Errorf("no command %s", name)
			continue
		}
		if c.signals != want {
			t.Errorf("%s: signals %v, want %v", name, c.signals, want)
		}
	}
}
