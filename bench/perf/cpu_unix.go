//go:build unix

package perf

import (
	"syscall"
	"time"
)

// ProcessCPU returns the CPU time (user and system, all threads) the
// process has used: the clock every rate is measured by, as
// ../shared/tools/scanlimit measures the speed limit.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
