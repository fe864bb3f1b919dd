package metrics

import (
	"time"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/a2ui-stream/a2ui-stream/sinks"
	"github.com/a2ui-stream/a2ui-stream/stream"
)

// Namespace prefixes every metric's name.
const Namespace = "a2ui_stream"

// DefaultDurationBuckets are the upper bounds, in seconds, of the
// parse_seconds and process_seconds histograms: 10µs to 1s, since parsing
// a chunk and applying a message take microseconds to milliseconds.
var DefaultDurationBuckets = []float64{
	0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005,
	0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1,
}

// Bounds on the options, which keep the number of series bounded.
const (
	maxExtraLabelValues = 32
	maxLabelValueLen    = 64
	maxBuckets          = 64
)

// Metrics holds the pipeline's and the NATS service's collectors. It
// implements stream.Observer. All its methods are safe for concurrent use
// and do not allocate: every series is created by New, and a method only
// looks up its counter in maps that are never written after New.
type Metrics struct {
	chunks       prometheus.Counter
	bytes        prometheus.Counter
	batches      prometheus.Counter
	retries      prometheus.Counter
	sinkFailures prometheus.Counter
	redeliveries prometheus.Counter
	parse        prometheus.Histogram
	process      prometheus.Histogram
	active       prometheus.Gauge

	messages counterSet
	failures counterSet
	events   counterSet
	ended    counterSet

	listeners labelSet
	reasons   labelSet
	rejected  map[[2]string]prometheus.Counter
}

var _ stream.Observer = (*Metrics)(nil)

// Option configures New.
type Option func(*config) error

type config struct {
	buckets   []float64
	listeners []string
	reasons   []string
}

// WithDurationBuckets sets the upper bounds, in seconds, of the
// parse_seconds and process_seconds buckets (default
// DefaultDurationBuckets): at most 64, positive and increasing.
func WithDurationBuckets(bounds ...float64) Option {
	return func(c *config) error {
		if len(bounds) == 0 || len(bounds) > maxBuckets {
			return &OptionError{Option: "WithDurationBuckets", Reason: "needs 1 to 64 bounds"}
		}
		for i, b := range bounds {
			if !(b > 0) || (i > 0 && b <= bounds[i-1]) {
				return &OptionError{Option: "WithDurationBuckets", Reason: "bounds must be positive and increasing"}
			}
		}
		c.buckets = append([]float64(nil), bounds...)
		return nil
	}
}

// WithListeners adds known values of http_rejected_total's listener label
// to DefaultListeners (at most 32, each 1 to 64 bytes of UTF-8).
func WithListeners(names ...string) Option {
	return func(c *config) error {
		if err := checkLabelValues("WithListeners", len(c.listeners), names); err != nil {
			return err
		}
		c.listeners = append(c.listeners, names...)
		return nil
	}
}

// WithRejectReasons adds known values of http_rejected_total's reason
// label to DefaultRejectReasons (at most 32, each 1 to 64 bytes of UTF-8).
func WithRejectReasons(reasons ...string) Option {
	return func(c *config) error {
		if err := checkLabelValues("WithRejectReasons", len(c.reasons), reasons); err != nil {
			return err
		}
		c.reasons = append(c.reasons, reasons...)
		return nil
	}
}

func checkLabelValues(option string, have int, values []string) error {
	if have+len(values) > maxExtraLabelValues {
		return &OptionError{Option: option, Reason: "more than 32 values"}
	}
	for _, v := range values {
		if v == "" || len(v) > maxLabelValueLen || !utf8.ValidString(v) {
			return &OptionError{Option: option, Reason: "a value must be 1 to 64 bytes of UTF-8"}
		}
	}
	return nil
}

// New creates the collectors and registers them on reg (never on the
// global registry unless that is what reg is). A collector the registry
// refuses, e.g. because New already ran on it, is a *RegisterError, and
// reg is left as it was.
func New(reg prometheus.Registerer, opts ...Option) (*Metrics, error) {
	if reg == nil {
		return nil, ErrNilRegisterer
	}
	cfg := config{buckets: DefaultDurationBuckets}
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}

	counter := func(name, help string) prometheus.Counter {
		return prometheus.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: name, Help: help})
	}
	counterVec := func(name, help string, labels ...string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: name, Help: help}, labels)
	}
	histogram := func(name, help string) prometheus.Histogram {
		return prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: Namespace, Name: name, Help: help, Buckets: cfg.buckets})
	}

	messages := counterVec("messages_total", "A2UI messages applied or failed, by message kind (unknown kinds count as other).", "kind")
	failures := counterVec("message_failures_total", "A2UI messages that failed, by protocol error code (unknown codes count as other).", "reason")
	events := counterVec("events_published_total", "Events handed to the sinks, by event kind.", "kind")
	ended := counterVec("sessions_ended_total", "Sessions ended, by reason; idle and evicted are the evictions.", "reason")
	rejected := counterVec("http_rejected_total", "HTTP requests or connections rejected, by listener and reason.", "listener", "reason")
	m := &Metrics{
		chunks:       counter("chunks_total", "Chunks fed to sessions."),
		bytes:        counter("bytes_total", "Bytes of the chunks fed to sessions."),
		batches:      counter("batches_total", "Batches handed to the sinks (batch events)."),
		retries:      counter("publish_retries_total", "Sink publishes retried."),
		sinkFailures: counter("publish_failures_total", "Sink publishes given up."),
		redeliveries: counter("redeliveries_total", "Messages the NATS consumer received again (redelivered)."),
		parse:        histogram("parse_seconds", "Time the parser took for one Feed or Close call, in seconds."),
		process:      histogram("process_seconds", "Time the processor took to apply one message, in seconds."),
		active: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: Namespace, Name: "sessions_active",
			Help: "Sessions open now."}),
		messages:  newCounterSet(messages, MessageKinds),
		failures:  newCounterSet(failures, FailureReasons),
		events:    newCounterSet(events, EventKinds),
		ended:     newCounterSet(ended, EndReasons),
		listeners: newLabelSet(DefaultListeners, cfg.listeners),
		reasons:   newLabelSet(DefaultRejectReasons, cfg.reasons),
		rejected:  map[[2]string]prometheus.Counter{},
	}
	for l := range m.listeners {
		for r := range m.reasons {
			m.rejected[[2]string{l, r}] = rejected.WithLabelValues(l, r)
		}
	}

	collectors := []struct {
		name string
		c    prometheus.Collector
	}{
		{"chunks_total", m.chunks},
		{"bytes_total", m.bytes},
		{"messages_total", messages},
		{"message_failures_total", failures},
		{"batches_total", m.batches},
		{"events_published_total", events},
		{"publish_retries_total", m.retries},
		{"publish_failures_total", m.sinkFailures},
		{"parse_seconds", m.parse},
		{"process_seconds", m.process},
		{"sessions_active", m.active},
		{"sessions_ended_total", ended},
		{"redeliveries_total", m.redeliveries},
		{"http_rejected_total", rejected},
	}
	for i, c := range collectors {
		if err := reg.Register(c.c); err != nil {
			for _, done := range collectors[:i] {
				reg.Unregister(done.c)
			}
			return nil, &RegisterError{Metric: prometheus.BuildFQName(Namespace, "", c.name), Err: err}
		}
	}
	return m, nil
}

// counterSet holds one counter per known label value, and one for Other.
type counterSet map[string]prometheus.Counter

func newCounterSet(vec *prometheus.CounterVec, known []string) counterSet {
	s := counterSet{Other: vec.WithLabelValues(Other)}
	for _, v := range known {
		s[v] = vec.WithLabelValues(v)
	}
	return s
}

// inc counts one under v, or under Other if v is not known.
func (s counterSet) inc(v string) {
	c, ok := s[v]
	if !ok {
		c = s[Other]
	}
	c.Inc()
}

// Chunk counts a chunk and its bytes (a negative n counts no bytes).
func (m *Metrics) Chunk(n int) {
	m.chunks.Inc()
	if n > 0 {
		m.bytes.Add(float64(n))
	}
}

// Parse observes a parser call's duration (a negative one as 0).
func (m *Metrics) Parse(d time.Duration) { m.parse.Observe(seconds(d)) }

// Process observes a message's processing time (a negative one as 0).
func (m *Metrics) Process(d time.Duration) { m.process.Observe(seconds(d)) }

func seconds(d time.Duration) float64 {
	if d < 0 {
		return 0
	}
	return d.Seconds()
}

// Message counts a message under its kind in messages_total, whether it
// was applied or failed, and a failure also under its reason in
// message_failures_total. Unknown kinds and reasons (including "") count
// as Other.
func (m *Metrics) Message(kind string, ok bool, reason string) {
	m.messages.inc(kind)
	if !ok {
		m.failures.inc(reason)
	}
}

// Event counts an event handed to the sinks under its kind; a batch event
// also counts in batches_total.
func (m *Metrics) Event(kind sinks.Kind) {
	m.events.inc(string(kind))
	if kind == sinks.KindBatch {
		m.batches.Inc()
	}
}

// SinkRetry counts a retried publish.
func (m *Metrics) SinkRetry() { m.retries.Inc() }

// SinkFailure counts a publish given up.
func (m *Metrics) SinkFailure() { m.sinkFailures.Inc() }

// SessionStart counts a session opened.
func (m *Metrics) SessionStart() { m.active.Inc() }

// SessionEnd counts a session ended under its reason (stream.EndClosed,
// EndIdle, EndEvicted, EndShutdown, EndReset; others count as Other).
func (m *Metrics) SessionEnd(reason string) {
	m.active.Dec()
	m.ended.inc(reason)
}

// Redelivery counts a message the NATS consumer received again.
func (m *Metrics) Redelivery() { m.redeliveries.Inc() }

// Rejected counts a request or connection an HTTP listener rejected.
// listener and reason outside their known sets (DefaultListeners and
// DefaultRejectReasons, plus the options') count as Other.
func (m *Metrics) Rejected(listener, reason string) {
	m.rejected[[2]string{m.listeners.clamp(listener), m.reasons.clamp(reason)}].Inc()
}
