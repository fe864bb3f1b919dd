//go:build !unix

package perf

import (
	"runtime/metrics"
	"time"
)

// ProcessCPU returns the runtime's estimate of the CPU time the process
// has used (without getrusage, the Go runtime's own accounting: less
// precise, and only updated at each collection for the collector's part).
func ProcessCPU() time.Duration {
	s := []metrics.Sample{{Name: "/cpu/classes/total:cpu-seconds"}, {Name: "/cpu/classes/idle:cpu-seconds"}}
	metrics.Read(s)
	return time.Duration((s[0].Value.Float64() - s[1].Value.Float64()) * 1e9)
}
