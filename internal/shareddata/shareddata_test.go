package shareddata

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeM stands in for *testing.M: its Run runs fn.
type fakeM struct{ fn func() }

func (m fakeM) Run() int { m.fn(); return 3 }

// TestMainReportsSkips: tests that Dir and Path skip for want of the
// shared directory (or of a file in it) are counted, and Main's line names
// the package, the missing path and the count. With nothing skipped, it
// prints nothing.
func TestMainReportsSkips(t *testing.T) {
	t.Setenv("CI", "")
	present := t.TempDir()
	missing := filepath.Join(t.TempDir(), "no-shared")
	tests := []struct {
		name      string
		dir       string
		skip      func(t *testing.T)
		runs      int
		wantCount string // "" for no line
		wantPath  string
	}{
		{name: "dir_missing", dir: missing, skip: func(t *testing.T) { Dir(t) }, runs: 3, wantCount: ": 3 tests or benchmarks skipped: ", wantPath: missing},
		{name: "one_skip", dir: missing, skip: func(t *testing.T) { Path(t, "a", "b.json") }, runs: 1, wantCount: ": 1 test or benchmark skipped: ", wantPath: missing},
		{name: "file_missing", dir: present, skip: func(t *testing.T) { Path(t, "x.json") }, runs: 2, wantCount: ": 2 tests or benchmarks skipped: ", wantPath: filepath.Join(present, "x.json")},
		{name: "nothing_missing", dir: present, skip: func(t *testing.T) { Dir(t) }, runs: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			skipped = skips{}
			t.Cleanup(func() { skipped = skips{} })
			t.Setenv(Env, tt.dir)
			var out strings.Builder
			code := run(fakeM{func() {
				for i := range tt.runs {
					t.Run("case"+string(rune('a'+i)), tt.skip)
				}
			}}, &out)
			if code != 3 {
				t.Errorf("exit code %d, want the tests' 3", code)
			}
			line := out.String()
			if tt.wantCount == "" {
				if line != "" {
					t.Errorf("printed %q, want nothing", line)
				}
				return
			}
			if strings.Count(line, "\n") != 1 || !strings.HasPrefix(line, "shareddata: internal/shareddata"+tt.wantCount+tt.wantPath+" not found") || !strings.Contains(line, Env) {
				t.Errorf("line %q, want %q and %q", line, tt.wantCount, tt.wantPath)
			}
		})
	}
}

// TestPackageName: the package is named by its directory in the module.
func TestPackageName(t *testing.T) {
	if got := packageName(); got != "internal/shareddata" {
		t.Errorf("packageName() = %q", got)
	}
	if _, err := os.Stat(filepath.Join(repoRoot(), "go.mod")); err != nil {
		t.Errorf("repoRoot: %v", err)
	}
}
