package perf

import (
	"math"
	"testing"
)

func TestPercentile(t *testing.T) {
	tests := []struct {
		name   string
		values []float64
		p      float64
		want   float64
	}{
		{"empty", nil, 50, 0},
		{"one value", []float64{7}, 99, 7},
		{"median of four is the second", []float64{4, 1, 3, 2}, 50, 2},
		{"median of five is the third", []float64{5, 1, 4, 2, 3}, 50, 3},
		{"p99 of 100 is the 99th", seq(100), 99, 99},
		{"p99 of 1000 is the 990th", seq(1000), 99, 990},
		{"p99 of 10 is the maximum", seq(10), 99, 10},
		{"p100 is the maximum", []float64{3, 9, 1}, 100, 9},
		{"p0 is the minimum", []float64{3, 9, 1}, 0, 1},
		{"p1 of 200 is the second", seq(200), 1, 2},
		{"ties", []float64{2, 2, 2, 5}, 75, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Percentile(append([]float64(nil), tt.values...), tt.p); got != tt.want {
				t.Errorf("Percentile(%v, %v) = %v, want %v", tt.values, tt.p, got, tt.want)
			}
		})
	}
}

// seq returns 1..n in reverse order (so that sorting matters).
func seq(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(n - i)
	}
	return out
}

func TestSummarize(t *testing.T) {
	tests := []struct {
		name   string
		values []float64
		want   Percentiles
	}{
		{"empty", nil, Percentiles{}},
		{"hundred", seq(100), Percentiles{Count: 100, P50: 50, P99: 99, Max: 100}},
		{"outlier shows in max only", append(seq(199), 1e6), Percentiles{Count: 200, P50: 100, P99: 198, Max: 1e6}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Summarize(tt.values); got != tt.want {
				t.Errorf("Summarize = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestSpreadOf(t *testing.T) {
	tests := []struct {
		name   string
		values []float64
		want   Spread
	}{
		{"empty", nil, Spread{}},
		{"odd", []float64{3, 1, 2}, Spread{Median: 2, Min: 1, Max: 3}},
		{"even takes the upper median", []float64{4, 1, 3, 2}, Spread{Median: 3, Min: 1, Max: 4}},
		{"infinite max kept", []float64{1, math.Inf(1), 2}, Spread{Median: 2, Min: 1, Max: math.Inf(1)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SpreadOf(tt.values); got != tt.want {
				t.Errorf("SpreadOf = %+v, want %+v", got, tt.want)
			}
		})
	}
}
