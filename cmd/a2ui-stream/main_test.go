//go:build unix

package main

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
)

// nofileEnv, with runMainEnv, sets the soft limit on open files of the
// command the test binary runs (see TestA2AConnectionExhaustion).
const nofileEnv = "A2UI_STREAM_TEST_NOFILE"

// TestMain runs the command itself when runMainEnv is "1" (under the file
// limit nofileEnv gives, if any), so that tests can run it as a process;
// otherwise it runs the tests and reports the ones skipped for want of the
// shared reference data (see shareddata.Main).
func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		if v := os.Getenv(nofileEnv); v != "" {
			if err := setNofile(v); err != nil {
				fmt.Fprintf(os.Stderr, "test: %s=%s: %v\n", nofileEnv, v, err)
				os.Exit(3)
			}
		}
		main()
		return
	}
	shareddata.Main(m)
}

// setNofile lowers the soft limit on open files to v.
func setNofile(v string) error {
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return err
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return err
	}
	lim.Cur = min(n, lim.Max)
	return syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
}
