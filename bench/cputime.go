//go:build unix

package bench

import (
	"sort"
	"syscall"
	"time"
)

// ProcessCPU returns the CPU time (user and system) the process has used,
// the clock the rate commands measure by, as ../shared/tools/scanlimit
// does.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// MedianMBps calls round rounds times and returns the median rate, in MB/s
// of process CPU time, at which a round handles n bytes.
func MedianMBps(n, rounds int, round func()) float64 {
	rates := make([]float64, 0, rounds)
	for range rounds {
		start := ProcessCPU()
		round()
		d := max(ProcessCPU()-start, time.Microsecond)
		rates = append(rates, float64(n)/1e6/d.Seconds())
	}
	sort.Float64s(rates)
	return rates[len(rates)/2]
}
