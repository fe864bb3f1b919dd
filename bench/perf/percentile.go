package perf

import (
	"math"
	"slices"
)

// Percentile returns the p-th percentile (0 < p <= 100) of values by the
// nearest-rank method: the smallest value that at least p% of the values
// are less than or equal to. It sorts values in place. It returns 0 for no
// values, and the smallest value for p <= 0.
func Percentile(values []float64, p float64) float64 {
	if len(values) == 0 {
		return 0
	}
	slices.Sort(values)
	return rank(values, p)
}

// rank is Percentile on sorted values.
func rank(sorted []float64, p float64) float64 {
	k := int(math.Ceil(p / 100 * float64(len(sorted))))
	return sorted[min(max(k, 1), len(sorted))-1]
}

// Percentiles are a distribution's 50th and 99th percentiles and its
// maximum (nearest rank), over Count values.
type Percentiles struct {
	Count int     `json:"count"`
	P50   float64 `json:"p50"`
	P99   float64 `json:"p99"`
	Max   float64 `json:"max"`
}

// Summarize returns the percentiles of values, which it sorts in place.
func Summarize(values []float64) Percentiles {
	if len(values) == 0 {
		return Percentiles{}
	}
	slices.Sort(values)
	return Percentiles{Count: len(values), P50: rank(values, 50), P99: rank(values, 99), Max: values[len(values)-1]}
}

// Spread is a measurement's median and range over rounds.
type Spread struct {
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

// SpreadOf returns the median (the upper one of an even count), minimum
// and maximum of values, which it sorts in place.
func SpreadOf(values []float64) Spread {
	if len(values) == 0 {
		return Spread{}
	}
	slices.Sort(values)
	return Spread{Median: values[len(values)/2], Min: values[0], Max: values[len(values)-1]}
}
