package sinks

import "time"

// The SSE sink's defaults.
const (
	DefaultReplay        = 256
	DefaultReplayBytes   = 4 << 20
	DefaultEndedSessions = 64
	DefaultMaxSessions   = 1024
	DefaultClientQueue   = 64
	DefaultMaxClients    = 4096
	DefaultHeartbeat     = 15 * time.Second
)

// sseConfig holds an SSE sink's options.
type sseConfig struct {
	replay        int
	replayBytes   int
	endedSessions int
	maxSessions   int
	clientQueue   int
	maxClients    int
	heartbeat     time.Duration
	onDrop        func(session string)
}

// SSEOption configures an SSE sink. A value out of range is an
// *OptionError from NewSSE.
type SSEOption func(*sseConfig) error

// WithReplay sets how many of a session's latest events are kept for
// clients that join late (default 256; 0 keeps none).
func WithReplay(events int) SSEOption {
	return func(c *sseConfig) error {
		if events < 0 {
			return &OptionError{Option: "WithReplay", Reason: "negative"}
		}
		c.replay = events
		return nil
	}
}

// WithReplayBytes bounds the bytes of a session's replay buffer (default
// 4 MiB): the oldest events go first, and an event larger than the bound
// empties the buffer and is not kept.
func WithReplayBytes(n int) SSEOption {
	return func(c *sseConfig) error {
		if n <= 0 {
			return &OptionError{Option: "WithReplayBytes", Reason: "not positive"}
		}
		c.replayBytes = n
		return nil
	}
}

// WithEndedSessions sets how many ended sessions (after their end event)
// keep their replay buffer, the least recently used going first
// (default 64; 0 drops a session's buffer as soon as it ends).
func WithEndedSessions(n int) SSEOption {
	return func(c *sseConfig) error {
		if n < 0 {
			return &OptionError{Option: "WithEndedSessions", Reason: "negative"}
		}
		c.endedSessions = n
		return nil
	}
}

// WithMaxSessions bounds the sessions held at once: live, ended and
// awaited by a client (default 1,024).
func WithMaxSessions(n int) SSEOption {
	return func(c *sseConfig) error {
		if n <= 0 {
			return &OptionError{Option: "WithMaxSessions", Reason: "not positive"}
		}
		c.maxSessions = n
		return nil
	}
}

// WithClientQueue sets how many events may wait for one client (default
// 64). A client whose queue is full when an event arrives is dropped.
func WithClientQueue(events int) SSEOption {
	return func(c *sseConfig) error {
		if events <= 0 {
			return &OptionError{Option: "WithClientQueue", Reason: "not positive"}
		}
		c.clientQueue = events
		return nil
	}
}

// WithMaxClients bounds the clients connected at once (default 4,096);
// one more gets 503 Service Unavailable.
func WithMaxClients(n int) SSEOption {
	return func(c *sseConfig) error {
		if n <= 0 {
			return &OptionError{Option: "WithMaxClients", Reason: "not positive"}
		}
		c.maxClients = n
		return nil
	}
}

// WithHeartbeat sets how often an idle stream gets a comment line that
// keeps proxies from closing it (default 15 s; 0 sends none).
func WithHeartbeat(every time.Duration) SSEOption {
	return func(c *sseConfig) error {
		if every < 0 {
			return &OptionError{Option: "WithHeartbeat", Reason: "negative"}
		}
		c.heartbeat = every
		return nil
	}
}

// WithOnDrop sets a function called with the session's id each time a
// slow client is dropped (for a metric or a log line). It runs on the
// emitting goroutine, outside the sink's lock, and must not block.
func WithOnDrop(fn func(session string)) SSEOption {
	return func(c *sseConfig) error {
		if fn == nil {
			return &OptionError{Option: "WithOnDrop", Reason: "nil function"}
		}
		c.onDrop = fn
		return nil
	}
}
