package perf_test

import (
	"fmt"

	"github.com/a2ui-stream/a2ui-stream/bench/perf"
)

func ExampleScanBoundaries() {
	data := []byte(`Here: <a2ui-json>[{"a":"}"},{"b":[1,2]}]</a2ui-json> done`)
	found, blocks := perf.ScanBoundaries(data, 4)
	for _, b := range found {
		fmt.Printf("%d-%d %s\n", b.Start, b.End, data[b.Start:b.End])
	}
	fmt.Println(blocks, "block")
	// Output:
	// 18-27 {"a":"}"}
	// 28-39 {"b":[1,2]}
	// 1 block
}

func ExampleSummarize() {
	// Latencies in µs of ten yields: the 99th percentile is the slowest
	// but one only from 100 values on.
	p := perf.Summarize([]float64{12, 3, 4, 3, 5, 3, 4, 250, 3, 4})
	fmt.Printf("%d values: p50 %v, p99 %v, max %v\n", p.Count, p.P50, p.P99, p.Max)
	// Output:
	// 10 values: p50 4, p99 250, max 250
}
