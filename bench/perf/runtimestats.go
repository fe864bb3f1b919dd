package perf

import (
	"runtime"
	"runtime/metrics"
)

// The runtime/metrics samples a cell reads around its passes.
const (
	mAllocBytes   = "/gc/heap/allocs:bytes"
	mAllocObjects = "/gc/heap/allocs:objects"
	mTinyObjects  = "/gc/heap/tiny/allocs:objects"
	mGCCPU        = "/cpu/classes/gc/total:cpu-seconds"
	mTotalCPU     = "/cpu/classes/total:cpu-seconds"
	mIdleCPU      = "/cpu/classes/idle:cpu-seconds"
	mLiveHeap     = "/gc/heap/live:bytes"
)

// runtimeStats is one reading of the counters a cell reports.
type runtimeStats struct {
	allocBytes, allocObjects uint64
	gcCPU, busyCPU           float64 // seconds
}

var statNames = []string{mAllocBytes, mAllocObjects, mTinyObjects, mGCCPU, mTotalCPU, mIdleCPU}

// readStats reads the allocation and CPU counters.
func readStats() runtimeStats {
	s := make([]metrics.Sample, len(statNames))
	for i, n := range statNames {
		s[i].Name = n
	}
	metrics.Read(s)
	return runtimeStats{
		allocBytes:   s[0].Value.Uint64(),
		allocObjects: s[1].Value.Uint64() + s[2].Value.Uint64(),
		gcCPU:        s[3].Value.Float64(),
		busyCPU:      s[4].Value.Float64() - s[5].Value.Float64(),
	}
}

// sub returns the counters' growth from a to s.
func (s runtimeStats) sub(a runtimeStats) runtimeStats {
	return runtimeStats{
		allocBytes:   s.allocBytes - a.allocBytes,
		allocObjects: s.allocObjects - a.allocObjects,
		gcCPU:        s.gcCPU - a.gcCPU,
		busyCPU:      s.busyCPU - a.busyCPU,
	}
}

// gcShare is the collector's share of the busy CPU time in d.
func (s runtimeStats) gcShare() float64 {
	if s.busyCPU <= 0 {
		return 0
	}
	return min(max(s.gcCPU/s.busyCPU, 0), 1)
}

// liveHeap collects garbage and returns the live heap in bytes. Two
// collections: the first one's sweep frees what the second then does not
// count (one alone leaves tens of KB of noise).
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	s := []metrics.Sample{{Name: mLiveHeap}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
