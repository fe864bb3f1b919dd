package consumer

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/a2ui-stream/a2ui-stream/internal/natssubj"
	"github.com/nats-io/nats.go/jetstream"
)

// Defaults of the output stream.
const (
	DefaultOutStream  = "A2UI_OUT"
	DefaultOutPrefix  = "a2ui.out"
	DefaultDuplicates = 10 * time.Minute
)

// InputStreamConfig describes the input stream: limits retention on
// <Prefix>.>, so that chunks stay readable after their ack (for replays)
// until their session ends (the consumer purges its subject) or MaxAge.
type InputStreamConfig struct {
	Name     string        // default DefaultStream
	Prefix   string        // default DefaultPrefix
	MaxAge   time.Duration // default DefaultMaxAge
	Replicas int           // default 1
}

// OutputStreamConfig describes the output stream on <Prefix>.>, whose
// duplicate window drops events re-published by a replay (same
// Nats-Msg-Id).
type OutputStreamConfig struct {
	Name       string        // default DefaultOutStream
	Prefix     string        // default DefaultOutPrefix
	Duplicates time.Duration // duplicate window, default DefaultDuplicates
	MaxAge     time.Duration // default DefaultMaxAge
	Replicas   int           // default 1
}

// EnsureInputStream returns the input stream, creating it if missing. An
// existing stream is used as it is.
func EnsureInputStream(ctx context.Context, js jetstream.JetStream, c InputStreamConfig) (jetstream.Stream, error) {
	c.Name = orDefault(c.Name, DefaultStream)
	c.Prefix = orDefault(c.Prefix, DefaultPrefix)
	if c.MaxAge == 0 {
		c.MaxAge = DefaultMaxAge
	}
	if c.Replicas == 0 {
		c.Replicas = DefaultReplicas
	}
	if err := checkStream(c.Name, c.Prefix, c.MaxAge, c.Replicas); err != nil {
		return nil, err
	}
	return ensureStream(ctx, js, jetstream.StreamConfig{
		Name:        c.Name,
		Description: "a2ui-stream: model output chunks, one subject per session",
		Subjects:    []string{c.Prefix + ".>"},
		Retention:   jetstream.LimitsPolicy,
		Discard:     jetstream.DiscardOld,
		MaxAge:      c.MaxAge,
		Storage:     jetstream.FileStorage,
		Replicas:    c.Replicas,
		AllowDirect: true,
	})
}

// EnsureOutputStream returns the output stream, creating it if missing. An
// existing stream is used as it is.
func EnsureOutputStream(ctx context.Context, js jetstream.JetStream, c OutputStreamConfig) (jetstream.Stream, error) {
	c.Name = orDefault(c.Name, DefaultOutStream)
	c.Prefix = orDefault(c.Prefix, DefaultOutPrefix)
	if c.Duplicates == 0 {
		c.Duplicates = DefaultDuplicates
	}
	if c.MaxAge == 0 {
		c.MaxAge = DefaultMaxAge
	}
	if c.Replicas == 0 {
		c.Replicas = DefaultReplicas
	}
	if err := checkStream(c.Name, c.Prefix, c.MaxAge, c.Replicas); err != nil {
		return nil, err
	}
	if c.Duplicates < 0 || c.Duplicates > c.MaxAge {
		return nil, &ConfigError{What: "output stream", Err: optErr("duplicate window %v not in (0, max age %v]", c.Duplicates, c.MaxAge)}
	}
	return ensureStream(ctx, js, jetstream.StreamConfig{
		Name:        c.Name,
		Description: "a2ui-stream: events, one subject per session",
		Subjects:    []string{c.Prefix + ".>"},
		Retention:   jetstream.LimitsPolicy,
		Discard:     jetstream.DiscardOld,
		MaxAge:      c.MaxAge,
		Duplicates:  c.Duplicates,
		Storage:     jetstream.FileStorage,
		Replicas:    c.Replicas,
		AllowDirect: true,
	})
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func checkStream(name, prefix string, maxAge time.Duration, replicas int) error {
	switch {
	case !validName(name):
		return &ConfigError{What: "stream", Err: optErr("stream name %q (want 1-64 of [A-Za-z0-9_-])", name)}
	case natssubj.PrefixProblem(prefix) != "":
		return &ConfigError{What: "stream", Err: optErr("prefix %q is not a literal NATS subject: %s", prefix, natssubj.PrefixProblem(prefix))}
	case maxAge < 0:
		return &ConfigError{What: "stream", Err: optErr("max age %v is negative", maxAge)}
	case replicas < 1 || replicas > 5:
		return &ConfigError{What: "stream", Err: optErr("replicas %d out of range [1, 5]", replicas)}
	}
	return nil
}

func ensureStream(ctx context.Context, js jetstream.JetStream, sc jetstream.StreamConfig) (jetstream.Stream, error) {
	s, err := js.Stream(ctx, sc.Name)
	if err == nil {
		return s, nil
	}
	if !errors.Is(err, jetstream.ErrStreamNotFound) {
		return nil, &ConfigError{What: fmt.Sprintf("stream %s", sc.Name), Err: err}
	}
	s, err = js.CreateStream(ctx, sc)
	if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
		s, err = js.Stream(ctx, sc.Name) // created meanwhile by another instance
	}
	if err != nil {
		return nil, &ConfigError{What: fmt.Sprintf("create stream %s", sc.Name), Err: err}
	}
	return s, nil
}
