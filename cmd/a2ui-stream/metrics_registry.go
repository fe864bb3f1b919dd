package main

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/a2ui-stream/a2ui-stream/stream/metrics"
)

// newMetrics returns a registry of its own (never the global one) with the
// Go runtime's and the process's collectors, and the pipeline's and
// service's metrics registered on it: what serve and a2a expose on
// --metrics.
func newMetrics(opts ...metrics.Option) (*prometheus.Registry, *metrics.Metrics, error) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m, err := metrics.New(reg, opts...)
	return reg, m, err
}
