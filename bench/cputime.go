package bench

import (
	"sort"
	"time"

	"github.com/a2ui-stream/a2ui-stream/bench/perf"
)

// ProcessCPU returns the CPU time (user and system) the process has used,
// the clock the rate commands measure by, as ../shared/tools/scanlimit
// does (perf.ProcessCPU, which a2ui-stream bench uses too).
func ProcessCPU() time.Duration { return perf.ProcessCPU() }

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
