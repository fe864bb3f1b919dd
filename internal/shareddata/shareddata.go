// Package shareddata locates the project's read-only reference material
// (conformance suites, specification, corpus) for tests and benchmarks.
//
// The material lives outside the repository, at $A2UI_SHARED or, by default,
// at ../shared relative to the repository root. Where it is absent, tests skip
// with a message naming the path, except under CI (CI=true), where its absence
// fails the test.
package shareddata

import (
	"os"
	"path/filepath"
	"testing"
)

// Env is the environment variable that names the shared directory.
const Env = "A2UI_SHARED"

// Find returns the shared directory and whether it exists. It never fails:
// when nothing is found it returns the path it looked at.
func Find() (string, bool) {
	if d := os.Getenv(Env); d != "" {
		abs, err := filepath.Abs(d)
		if err == nil {
			d = abs
		}
		return d, isDir(d)
	}
	root := repoRoot()
	d := filepath.Join(filepath.Dir(root), "shared")
	return d, isDir(d)
}

// Dir returns the shared directory for a test or benchmark. When it is
// missing, tb is skipped, or failed when the CI environment variable is "true".
func Dir(tb testing.TB) string {
	tb.Helper()
	d, ok := Find()
	if !ok {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("shared reference data not found at %s (set %s); required under CI", d, Env)
		}
		tb.Skipf("shared reference data not found at %s (set %s to its path)", d, Env)
	}
	return d
}

// Path joins elem onto the shared directory, skipping or failing tb as Dir
// does when the shared directory or the named file is missing.
func Path(tb testing.TB, elem ...string) string {
	tb.Helper()
	p := filepath.Join(append([]string{Dir(tb)}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("shared reference file missing: %v", err)
		}
		tb.Skipf("shared reference file missing: %v", err)
	}
	return p
}

// repoRoot walks up from the working directory to the directory holding
// go.mod. Tests run in their package directory, so this finds the module root.
func repoRoot() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for d := wd; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return wd
		}
		d = parent
	}
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
