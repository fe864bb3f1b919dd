package stream

import (
	"time"

	"github.com/a2ui-stream/a2ui-stream/sinks"
)

// Observer is told what a Pipeline does, for metrics (package
// stream/metrics implements it with Prometheus collectors). Its methods are
// called synchronously from the goroutines that feed the pipeline, for
// several sessions at once: an implementation must be safe for concurrent
// use and quick. NopObserver is the default.
type Observer interface {
	// Chunk reports a chunk of n bytes fed to a session.
	Chunk(n int)
	// Parse reports the time the parser took for one Feed or Close call.
	Parse(d time.Duration)
	// Process reports the time the processor took to apply one message.
	Process(d time.Duration)
	// Message reports one message applied (ok) or failed. kind is its
	// message kind ("" when unknown); reason is the failure's protocol
	// error code ("" when ok).
	Message(kind string, ok bool, reason string)
	// Event reports one event handed to the sinks (once per event, when at
	// least one sink took it, or there is none).
	Event(kind sinks.Kind)
	// SinkRetry reports one retried sink Emit; SinkFailure one given up.
	SinkRetry()
	SinkFailure()
	// SessionStart and SessionEnd report sessions opened and closed;
	// reason is the end event's reason (EndClosed, EndIdle, EndEvicted,
	// EndShutdown), or EndReset for a session dropped without one.
	SessionStart()
	SessionEnd(reason string)
}

// NopObserver observes nothing.
type NopObserver struct{}

func (NopObserver) Chunk(int)                    {}
func (NopObserver) Parse(time.Duration)          {}
func (NopObserver) Process(time.Duration)        {}
func (NopObserver) Message(string, bool, string) {}
func (NopObserver) Event(sinks.Kind)             {}
func (NopObserver) SinkRetry()                   {}
func (NopObserver) SinkFailure()                 {}
func (NopObserver) SessionStart()                {}
func (NopObserver) SessionEnd(string)            {}

// The reasons a session ends, as its end event and SessionEnd give them.
const (
	// EndClosed: the session's input ended (End, or an end marker).
	EndClosed = "closed"
	// EndIdle: no chunk arrived within the idle timeout.
	EndIdle = "idle"
	// EndEvicted: the session was evicted to make room for a new one
	// (the maximum session count was reached).
	EndEvicted = "evicted"
	// EndShutdown: the pipeline was closed with the session still open.
	EndShutdown = "shutdown"
	// EndReset: the session was dropped with Reset (no end event), to be
	// replayed or handed to another instance.
	EndReset = "reset"
)
