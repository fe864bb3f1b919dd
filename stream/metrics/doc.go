// Package metrics exports the work of the streaming pipeline (package
// stream) and of the NATS service as Prometheus metrics, and serves them
// with health and readiness probes.
//
// New registers its collectors, namespace "a2ui_stream", on the
// prometheus.Registerer it is given (never on the global registry unless
// that is what it is given):
//
//	chunks_total, bytes_total            chunks fed to sessions, their bytes
//	messages_total{kind}                 messages applied or failed
//	message_failures_total{reason}       messages failed, by protocol error code
//	batches_total                        batch events handed to the sinks
//	events_published_total{kind}         events handed to the sinks
//	publish_retries_total                sink publishes retried
//	publish_failures_total               sink publishes given up
//	parse_seconds, process_seconds       histograms: parser call, message apply
//	sessions_active                      gauge: sessions open
//	sessions_ended_total{reason}         closed, idle, evicted, shutdown
//	redeliveries_total                   NATS messages received again
//	http_rejected_total{listener,reason} requests an HTTP listener rejected
//
// Evictions are sessions_ended_total with reason idle or evicted. A second
// New on the same registry fails with a *RegisterError matching
// ErrAlreadyRegistered and leaves the registry as it was.
//
// *Metrics implements stream.Observer (pass it with stream.WithObserver);
// Redelivery is for the NATS consumer and Rejected for HTTP listeners.
// Every label value is bounded: a value outside its label's known set
// (MessageKinds, FailureReasons, EventKinds, EndReasons, DefaultListeners
// and DefaultRejectReasons, the last two extensible by options) is counted
// as "other", so no input can grow the number of series. Every series
// exists, at zero, from New on.
//
// Handler serves /metrics (promhttp), /healthz (the process is up) and
// /readyz (200 when the given check passes, 503 with its error otherwise).
//
// A *Metrics and the Handler are safe for concurrent use. Errors are
// typed (*OptionError, *RegisterError) and prefixed "metrics: ".
package metrics
