package metrics

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/a2ui-stream/a2ui-stream/sinks"
	"github.com/a2ui-stream/a2ui-stream/stream"
)

// driveAll calls every Observer method (and Redelivery, Rejected) a known
// number of times; want below is what one call of it adds.
func driveAll(o stream.Observer, m *Metrics) {
	o.Chunk(10)
	o.Chunk(10)
	o.Chunk(10)
	o.Chunk(-5) // counted as a chunk, no bytes
	o.Parse(time.Millisecond)
	o.Parse(time.Millisecond)
	o.Parse(-time.Second) // observed as 0
	o.Process(2 * time.Millisecond)
	o.Message("createSurface", true, "")
	o.Message("createSurface", true, "")
	o.Message("updateComponents", false, "VALIDATION_FAILED")
	o.Message("callFunction", true, "")
	o.Message("bogusKind", false, "WEIRD_CODE")
	o.Message("", false, "")
	o.Event(sinks.KindText)
	o.Event(sinks.KindText)
	o.Event(sinks.KindBatch)
	o.Event(sinks.KindBatch)
	o.Event(sinks.KindBatch)
	o.Event(sinks.KindEnd)
	o.Event(sinks.Kind("strange"))
	o.SinkRetry()
	o.SinkRetry()
	o.SinkFailure()
	for range 5 {
		o.SessionStart()
	}
	o.SessionEnd(stream.EndClosed)
	o.SessionEnd(stream.EndIdle)
	o.SessionEnd(stream.EndEvicted)
	o.SessionEnd("exploded")
	for range 4 {
		m.Redelivery()
	}
	m.Rejected("a2a", "unauthorized")
	m.Rejected("a2a", "unauthorized")
	m.Rejected("a2a", "no-such-reason")
	m.Rejected("no-such-listener", "body_too_large")
}

func TestObserverCountsEverythingSent(t *testing.T) {
	reg := prometheus.NewRegistry()
	m, err := New(reg)
	if err != nil {
		t.Fatal(err)
	}
	const callers = 4 // concurrent drivers, as sessions feed the pipeline
	var wg sync.WaitGroup
	for range callers {
		wg.Go(func() { driveAll(m, m) })
	}
	wg.Wait()

	n := func(v float64) series { return series{value: v * callers} }
	want := map[string]series{
		"a2ui_stream_chunks_total":                                                  n(4),
		"a2ui_stream_bytes_total":                                                   n(30),
		"a2ui_stream_parse_seconds":                                                 {count: 3 * callers, sum: 0.002 * callers},
		"a2ui_stream_process_seconds":                                               {count: 1 * callers, sum: 0.002 * callers},
		`a2ui_stream_messages_total{kind="createSurface"}`:                          n(2),
		`a2ui_stream_messages_total{kind="updateComponents"}`:                       n(1),
		`a2ui_stream_messages_total{kind="callFunction"}`:                           n(1),
		`a2ui_stream_messages_total{kind="other"}`:                                  n(2),
		`a2ui_stream_message_failures_total{reason="VALIDATION_FAILED"}`:            n(1),
		`a2ui_stream_message_failures_total{reason="other"}`:                        n(2),
		`a2ui_stream_events_published_total{kind="text"}`:                           n(2),
		`a2ui_stream_events_published_total{kind="batch"}`:                          n(3),
		`a2ui_stream_events_published_total{kind="end"}`:                            n(1),
		`a2ui_stream_events_published_total{kind="other"}`:                          n(1),
		"a2ui_stream_batches_total":                                                 n(3),
		"a2ui_stream_publish_retries_total":                                         n(2),
		"a2ui_stream_publish_failures_total":                                        n(1),
		"a2ui_stream_sessions_active":                                               n(1),
		`a2ui_stream_sessions_ended_total{reason="closed"}`:                         n(1),
		`a2ui_stream_sessions_ended_total{reason="idle"}`:                           n(1),
		`a2ui_stream_sessions_ended_total{reason="evicted"}`:                        n(1),
		`a2ui_stream_sessions_ended_total{reason="other"}`:                          n(1),
		"a2ui_stream_redeliveries_total":                                            n(4),
		`a2ui_stream_http_rejected_total{listener="a2a",reason="unauthorized"}`:     n(2),
		`a2ui_stream_http_rejected_total{listener="a2a",reason="other"}`:            n(1),
		`a2ui_stream_http_rejected_total{listener="other",reason="body_too_large"}`: n(1),
	}
	got := scrape(t, reg)
	checkScrape(t, got, want)
	// Every known label value is exported from the start, at zero.
	for _, key := range []string{
		`a2ui_stream_messages_total{kind="actionResponse"}`,
		`a2ui_stream_sessions_ended_total{reason="shutdown"}`,
		`a2ui_stream_events_published_total{kind="error"}`,
		`a2ui_stream_http_rejected_total{listener="a2a",reason="read_timeout"}`,
	} {
		if _, ok := got[key]; !ok {
			t.Errorf("%s: missing from the scrape, want it at zero", key)
		}
	}
}

func TestLabelClamping(t *testing.T) {
	tests := []struct {
		name string
		opts []Option
		call func(m *Metrics)
		want string
	}{
		{"every known message kind", nil, func(m *Metrics) {
			for _, k := range MessageKinds {
				m.Message(k, true, "")
			}
		}, ""},
		{"unknown message kind", nil, func(m *Metrics) { m.Message("createSurfaceX", true, "") }, `a2ui_stream_messages_total{kind="other"}`},
		{"empty message kind", nil, func(m *Metrics) { m.Message("", true, "") }, `a2ui_stream_messages_total{kind="other"}`},
		{"kind is case sensitive", nil, func(m *Metrics) { m.Message("CREATESURFACE", true, "") }, `a2ui_stream_messages_total{kind="other"}`},
		{"known failure code", nil, func(m *Metrics) { m.Message("deleteSurface", false, "VALIDATION_FAILED") }, `a2ui_stream_message_failures_total{reason="VALIDATION_FAILED"}`},
		{"unknown failure code", nil, func(m *Metrics) { m.Message("deleteSurface", false, strings.Repeat("x", 10000)) }, `a2ui_stream_message_failures_total{reason="other"}`},
		{"reason of an applied message is ignored", nil, func(m *Metrics) { m.Message("deleteSurface", true, "VALIDATION_FAILED") }, `a2ui_stream_messages_total{kind="deleteSurface"}`},
		{"unknown event kind", nil, func(m *Metrics) { m.Event("") }, `a2ui_stream_events_published_total{kind="other"}`},
		{"unknown end reason", nil, func(m *Metrics) { m.SessionEnd("\xff") }, `a2ui_stream_sessions_ended_total{reason="other"}`},
		{"known end reason", nil, func(m *Metrics) { m.SessionEnd(stream.EndShutdown) }, `a2ui_stream_sessions_ended_total{reason="shutdown"}`},
		{"unknown listener and reason", nil, func(m *Metrics) { m.Rejected("nats-http", "custom") }, `a2ui_stream_http_rejected_total{listener="other",reason="other"}`},
		{"listener and reason added by options", []Option{WithListeners("nats-http"), WithRejectReasons("custom")},
			func(m *Metrics) { m.Rejected("nats-http", "custom") }, `a2ui_stream_http_rejected_total{listener="nats-http",reason="custom"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := prometheus.NewRegistry()
			m, err := New(reg, tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			tt.call(m)
			got := scrape(t, reg)
			var want map[string]series
			switch {
			case tt.want != "":
				want = map[string]series{tt.want: {value: 1}}
				if strings.Contains(tt.want, "message_failures") {
					want[`a2ui_stream_messages_total{kind="deleteSurface"}`] = series{value: 1}
				}
			default: // every known kind once, under its own label
				want = map[string]series{}
				for _, k := range MessageKinds {
					want[`a2ui_stream_messages_total{kind="`+k+`"}`] = series{value: 1}
				}
			}
			if strings.HasPrefix(tt.want, "a2ui_stream_sessions_ended_total") {
				want["a2ui_stream_sessions_active"] = series{value: -1}
			}
			checkScrape(t, got, want)
		})
	}
}

func TestNewTwiceOnOneRegistryFails(t *testing.T) {
	reg := prometheus.NewRegistry()
	first, err := New(reg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = New(reg)
	var re *RegisterError
	if !errors.As(err, &re) || !errors.Is(err, ErrAlreadyRegistered) {
		t.Fatalf("second New: %v, want a *RegisterError matching ErrAlreadyRegistered", err)
	}
	if re.Metric != "a2ui_stream_chunks_total" {
		t.Errorf("Metric: got %q, want a2ui_stream_chunks_total", re.Metric)
	}
	const want = "metrics: a2ui_stream_chunks_total is already registered on this registry (one metrics.New per registry)"
	if err.Error() != want {
		t.Errorf("message: got %q, want %q", err.Error(), want)
	}
	var are prometheus.AlreadyRegisteredError
	if !errors.As(err, &are) {
		t.Errorf("%v does not unwrap to the registry's AlreadyRegisteredError", err)
	}
	// The first Metrics still counts on the registry.
	first.Chunk(7)
	got := scrape(t, reg)
	if g := got["a2ui_stream_bytes_total"].value; g != 7 {
		t.Errorf("bytes_total after the failed New: got %v, want 7", g)
	}
}

func TestNewLeavesRegistryAsItWasOnFailure(t *testing.T) {
	reg := prometheus.NewRegistry()
	// A foreign collector takes a name New registers late in its list (with
	// the same help: a registry keeps a name's help and labels for life).
	taken := prometheus.NewGauge(prometheus.GaugeOpts{Namespace: Namespace, Name: "sessions_active", Help: "Sessions open now."})
	reg.MustRegister(taken)
	_, err := New(reg)
	var re *RegisterError
	if !errors.As(err, &re) || re.Metric != "a2ui_stream_sessions_active" {
		t.Fatalf("New: %v, want a *RegisterError for a2ui_stream_sessions_active", err)
	}
	families, gerr := reg.Gather()
	if gerr != nil {
		t.Fatal(gerr)
	}
	if len(families) != 1 || families[0].GetName() != "a2ui_stream_sessions_active" {
		var names []string
		for _, f := range families {
			names = append(names, f.GetName())
		}
		t.Fatalf("registry after the failed New holds %v, want only the foreign gauge", names)
	}
	// With the name free again, New succeeds: nothing of the failed one
	// was left behind.
	reg.Unregister(taken)
	if _, err := New(reg); err != nil {
		t.Fatalf("New after freeing the name: %v", err)
	}
}

func TestNewRejectsBadInput(t *testing.T) {
	tests := []struct {
		name   string
		reg    prometheus.Registerer
		opts   []Option
		want   error
		option string
	}{
		{"nil registerer", nil, nil, ErrNilRegisterer, ""},
		{"no buckets", prometheus.NewRegistry(), []Option{WithDurationBuckets()}, ErrInvalidOption, "WithDurationBuckets"},
		{"decreasing buckets", prometheus.NewRegistry(), []Option{WithDurationBuckets(0.1, 0.01)}, ErrInvalidOption, "WithDurationBuckets"},
		{"zero bucket", prometheus.NewRegistry(), []Option{WithDurationBuckets(0, 1)}, ErrInvalidOption, "WithDurationBuckets"},
		{"empty listener", prometheus.NewRegistry(), []Option{WithListeners("")}, ErrInvalidOption, "WithListeners"},
		{"long reason", prometheus.NewRegistry(), []Option{WithRejectReasons(strings.Repeat("r", 65))}, ErrInvalidOption, "WithRejectReasons"},
		{"invalid UTF-8 reason", prometheus.NewRegistry(), []Option{WithRejectReasons("\xff")}, ErrInvalidOption, "WithRejectReasons"},
		{"too many listeners", prometheus.NewRegistry(), []Option{WithListeners(make20("l")...), WithListeners(make20("m")...)}, ErrInvalidOption, "WithListeners"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := New(tt.reg, tt.opts...)
			if m != nil || !errors.Is(err, tt.want) {
				t.Fatalf("New: %v, %v; want nil and an error matching %v", m, err, tt.want)
			}
			var oe *OptionError
			if tt.option != "" && (!errors.As(err, &oe) || oe.Option != tt.option) {
				t.Fatalf("New: %v, want an *OptionError of %s", err, tt.option)
			}
			if !strings.HasPrefix(err.Error(), "metrics: ") {
				t.Fatalf("message %q lacks the package prefix", err)
			}
		})
	}
}

func TestCustomBuckets(t *testing.T) {
	reg := prometheus.NewRegistry()
	m, err := New(reg, WithDurationBuckets(0.5, 1))
	if err != nil {
		t.Fatal(err)
	}
	m.Parse(750 * time.Millisecond)
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != "a2ui_stream_parse_seconds" {
			continue
		}
		b := f.GetMetric()[0].GetHistogram().GetBucket()
		if len(b) != 2 || b[0].GetUpperBound() != 0.5 || b[0].GetCumulativeCount() != 0 || b[1].GetCumulativeCount() != 1 {
			t.Fatalf("buckets: got %v, want (0.5: 0), (1: 1)", b)
		}
		return
	}
	t.Fatal("parse_seconds not gathered")
}

func make20(prefix string) []string {
	out := make([]string, 20)
	for i := range out {
		out[i] = prefix + string(rune('a'+i))
	}
	return out
}
