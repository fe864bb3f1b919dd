package consumer

import "time"

// WithStream names the input stream (default "A2UI_IN"), created on
// <prefix>.> if missing.
func WithStream(name string) Option {
	return opt("WithStream", jsOnly, func(c *config) error {
		if !validName(name) {
			return optErr("stream name %q (want 1-64 of [A-Za-z0-9_-])", name)
		}
		c.stream = name
		return nil
	})
}

// WithGroup names the partitioned consumer group (default "a2ui"). Its
// work-queue stream is named <stream>-<group>.
func WithGroup(name string) Option {
	return opt("WithGroup", jsOnly, func(c *config) error {
		if !validName(name) {
			return optErr("group name %q (want 1-64 of [A-Za-z0-9_-])", name)
		}
		c.group = name
		return nil
	})
}

// WithPartitions sets the number of partitions (default 16): the most
// instances that share the work. Every instance of a group must use the
// same value; changing it needs a new group.
func WithPartitions(n int) Option {
	return opt("WithPartitions", jsOnly, func(c *config) error {
		if n < 1 || n > 1024 {
			return optErr("partitions %d out of range [1, 1024]", n)
		}
		c.partitions = n
		return nil
	})
}

// WithMember names this instance in the group (default DefaultMember(),
// <hostname>-<pid>). It must be unique per running instance.
func WithMember(name string) Option {
	return opt("WithMember", jsOnly, func(c *config) error {
		if !validName(name) {
			return optErr("member name %q (want 1-64 of [A-Za-z0-9_-])", name)
		}
		c.member = name
		return nil
	})
}

// WithAckWait sets the consumer's ack wait (default 5 s): a chunk not
// acknowledged within it is redelivered (and skipped if it was handled
// meanwhile). Keep it above the longest wait of a chunk in this instance's
// queues plus its Handler.Feed. The group derives from it the pin TTL, the
// consumer's inactive threshold and how soon a member retries creating its
// consumer after a membership change; under 2 s the pin can flap
// (harmless, but wasteful).
func WithAckWait(d time.Duration) Option {
	return opt("WithAckWait", jsOnly, func(c *config) error {
		if d < 100*time.Millisecond {
			return optErr("ack wait %v below 100ms", d)
		}
		c.ackWait = d
		return nil
	})
}

// WithMaxAckPending bounds the chunks delivered to this instance and not yet
// acknowledged (default 1,000).
func WithMaxAckPending(n int) Option {
	return opt("WithMaxAckPending", jsOnly, func(c *config) error {
		if n < 1 {
			return optErr("max ack pending %d must be positive", n)
		}
		c.maxAckPending = n
		return nil
	})
}

// WithMaxAge sets the input stream's MaxAge when the consumer creates it
// (default 24 h): the safety net for sessions that never end.
func WithMaxAge(d time.Duration) Option {
	return opt("WithMaxAge", jsOnly, func(c *config) error {
		if d <= 0 {
			return optErr("max age %v must be positive", d)
		}
		c.maxAge = d
		return nil
	})
}

// WithRetryDelay sets how long a chunk whose handler failed waits before it
// is redelivered (default 1 s).
func WithRetryDelay(d time.Duration) Option {
	return opt("WithRetryDelay", jsOnly, func(c *config) error {
		if d <= 0 {
			return optErr("retry delay %v must be positive", d)
		}
		c.retryDelay = d
		return nil
	})
}

// WithMemberInterval sets how often an instance heartbeats and checks the
// group's membership (default: the ack wait). A heartbeat lives three
// intervals; a member whose heartbeat is missing on two checks in a row is
// dropped from the group and its consumer deleted, so its partitions move
// to the others. Every instance of a group should use the same value (the
// heartbeat bucket's TTL is set by the instance that creates it).
func WithMemberInterval(d time.Duration) Option {
	return opt("WithMemberInterval", jsOnly, func(c *config) error {
		if d < 50*time.Millisecond {
			return optErr("member interval %v below 50ms", d)
		}
		c.memberInterval = d
		return nil
	})
}

// WithReplicas sets the replicas of the streams the consumer creates
// (default 1).
func WithReplicas(n int) Option {
	return opt("WithReplicas", jsOnly, func(c *config) error {
		if n < 1 || n > 5 {
			return optErr("replicas %d out of range [1, 5]", n)
		}
		c.replicas = n
		return nil
	})
}

// WithMaxBuffered bounds the messages buffered in the group's work-queue
// stream (default 0, unbounded). When full, sourcing pauses.
func WithMaxBuffered(n int64) Option {
	return opt("WithMaxBuffered", jsOnly, func(c *config) error {
		if n < 0 {
			return optErr("max buffered %d is negative", n)
		}
		c.maxBufferedMsgs = n
		return nil
	})
}
