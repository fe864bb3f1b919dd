package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
)

// versionUsage is the help of "a2ui-stream version".
const versionUsage = `usage: a2ui-stream version

Prints the module version and the version control revision, time and
modified flag the binary was built from ("(devel)" or "unknown" when the
build did not record them), and the Go version. "a2ui-stream --version"
does the same.
`

// runVersion implements "a2ui-stream version".
func runVersion(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("version")
	if code, done := parseArgs(fs, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		return usageFail(stderr, "version", "takes no arguments, got %d", fs.NArg())
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = nil
	}
	writeVersion(stdout, info)
	return 0
}

// writeVersion writes the version lines for info (nil when the binary has
// no build information).
func writeVersion(w io.Writer, info *debug.BuildInfo) {
	version, goVersion := "(devel)", "unknown"
	settings := map[string]string{}
	if info != nil {
		if info.Main.Version != "" {
			version = info.Main.Version
		}
		if info.GoVersion != "" {
			goVersion = info.GoVersion
		}
		for _, s := range info.Settings {
			settings[s.Key] = s.Value
		}
	}
	setting := func(key string) string {
		if v := settings[key]; v != "" {
			return v
		}
		return "unknown"
	}
	fmt.Fprintf(w, "a2ui-stream %s\nrevision: %s\ntime: %s\nmodified: %s\ngo: %s\n",
		version, setting("vcs.revision"), setting("vcs.time"), setting("vcs.modified"), goVersion)
}
