// Package shareddata locates the project's read-only reference material
// (conformance suites, specification, corpus) for tests and benchmarks.
//
// The material lives outside the repository, at $A2UI_SHARED or, by default,
// at ../shared relative to the repository root. Where it is absent, tests skip
// with a message naming the path, except under CI (CI=true), where its absence
// fails the test.
//
// A package whose tests use it calls Main from its TestMain, so that the
// skips do not go unnoticed: after the tests, Main prints one line naming
// the missing path and how many tests and benchmarks it skipped. The go
// command shows a test binary's output for a package run on its own
// ("go test" in its directory, "go test ./parser"), under -v or -json, and
// for a package that fails; "go test ./..." (package list mode) prints only
// the "ok" line of a package that passes, so the line shows there only with
// -v or -json.
//
// Dir, Path and Main are safe for concurrent use (parallel tests).
package shareddata

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
		skipped.note(d)
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
		skipped.note(p)
		tb.Skipf("shared reference file missing: %v", err)
	}
	return p
}

// skips counts the tests and benchmarks Dir and Path skipped, and the
// paths they found missing, in order.
type skips struct {
	mu      sync.Mutex
	n       int
	missing []string
}

// skipped is the skips of this test binary.
var skipped skips

func (s *skips) note(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	for _, m := range s.missing {
		if m == path {
			return
		}
	}
	s.missing = append(s.missing, path)
}

// summary is the line Main prints for pkg, "" when nothing was skipped.
func (s *skips) summary(pkg string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n == 0 {
		return ""
	}
	what := "tests or benchmarks"
	if s.n == 1 {
		what = "test or benchmark"
	}
	missing := s.missing[0]
	if len(s.missing) > 1 {
		missing += fmt.Sprintf(" (and %d other paths)", len(s.missing)-1)
	}
	return fmt.Sprintf("shareddata: %s: %d %s skipped: %s not found (set %s to the shared directory's path)", pkg, s.n, what, missing, Env)
}

// Main runs a package's tests (call it from TestMain, in place of
// os.Exit(m.Run())), prints the summary line of the skips on stdout when
// Dir or Path skipped any, and exits with the tests' status. m is a
// *testing.M, or one wrapped to check something after the tests ran.
func Main(m interface{ Run() int }) {
	os.Exit(run(m, os.Stdout))
}

// run runs m and writes the summary line to w.
func run(m interface{ Run() int }, w io.Writer) int {
	code := m.Run()
	if line := skipped.summary(packageName()); line != "" {
		fmt.Fprintln(w, line)
	}
	return code
}

// packageName names the package under test by its directory inside the
// module (tests run in their package's directory), e.g. "cmd/a2ui-stream".
func packageName() string {
	wd, err := os.Getwd()
	if err != nil {
		return "?"
	}
	rel, err := filepath.Rel(repoRoot(), wd)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return filepath.Base(wd)
	}
	return filepath.ToSlash(rel)
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
