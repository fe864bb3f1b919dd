package metrics_test

import (
	"bufio"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/a2ui-stream/a2ui-stream/sinks"
	"github.com/a2ui-stream/a2ui-stream/stream"
	"github.com/a2ui-stream/a2ui-stream/stream/metrics"
)

func Example() {
	reg := prometheus.NewRegistry() // never the global one
	m, err := metrics.New(reg)
	if err != nil {
		fmt.Println(err)
		return
	}

	// The pipeline reports through the stream.Observer interface
	// (stream.WithObserver(m)).
	var obs stream.Observer = m
	obs.SessionStart()
	obs.Chunk(42)
	obs.Parse(300 * time.Microsecond)
	obs.Message("createSurface", true, "")
	obs.Message("noSuchKind", false, "VALIDATION_FAILED") // kind clamped to "other"
	obs.Event(sinks.KindBatch)

	srv := httptest.NewServer(metrics.Handler(reg, func() error { return nil }))
	defer srv.Close()
	resp, err := http.Get(srv.URL + metrics.MetricsPath)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		for _, show := range []string{
			"a2ui_stream_bytes_total ",
			`a2ui_stream_messages_total{kind="createSurface"}`,
			`a2ui_stream_messages_total{kind="other"}`,
			`a2ui_stream_message_failures_total{reason="VALIDATION_FAILED"}`,
			"a2ui_stream_batches_total ",
			"a2ui_stream_parse_seconds_count ",
			"a2ui_stream_sessions_active ",
		} {
			if strings.HasPrefix(line, show) {
				fmt.Println(line)
			}
		}
	}
	// Output:
	// a2ui_stream_batches_total 1
	// a2ui_stream_bytes_total 42
	// a2ui_stream_message_failures_total{reason="VALIDATION_FAILED"} 1
	// a2ui_stream_messages_total{kind="createSurface"} 1
	// a2ui_stream_messages_total{kind="other"} 1
	// a2ui_stream_parse_seconds_count 1
	// a2ui_stream_sessions_active 1
}
