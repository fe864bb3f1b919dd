package consumer_test

import (
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/a2ui-stream/a2ui-stream/stream/consumer"
)

func TestInvalidOptions(t *testing.T) {
	srv := startServer(t)
	nc := connect(t, srv)
	h := newRecorder(nil)
	for _, tc := range []struct {
		name string
		opt  consumer.Option
		core bool // try it on NewCore (else NewJetStream)
	}{
		{"wildcard prefix", consumer.WithPrefix("a2ui.*"), true},
		{"empty prefix token", consumer.WithPrefix("a2ui..in"), true},
		{"control byte in prefix", consumer.WithPrefix("a2ui.\x01"), true}, // the NATS sink refuses it too
		{"DEL in prefix", consumer.WithPrefix("a2ui\x7f.in"), true},
		{"zero workers", consumer.WithWorkers(0), true},
		{"zero queue", consumer.WithQueueSize(0), true},
		{"zero max chunk", consumer.WithMaxChunk(0), true},
		{"zero max sessions", consumer.WithMaxSessions(0), true},
		{"zero drain timeout", consumer.WithDrainTimeout(0), true},
		{"nil OnError", consumer.WithOnError(nil), true},
		{"nil observer", consumer.WithObserver(nil), true},
		{"nil logger", consumer.WithLogger(nil), true},
		{"zero pending limits", consumer.WithPendingLimits(0, 1), true},
		{"zero stats interval", consumer.WithStatsInterval(0), true},
		{"JetStream option on Core", consumer.WithPartitions(4), true},
		{"zero Option", consumer.Option{}, true},
		{"stream name with dot", consumer.WithStream("A.B"), false},
		{"empty group", consumer.WithGroup(""), false},
		{"zero partitions", consumer.WithPartitions(0), false},
		{"member with space", consumer.WithMember("a b"), false},
		{"tiny ack wait", consumer.WithAckWait(time.Millisecond), false},
		{"zero max ack pending", consumer.WithMaxAckPending(0), false},
		{"zero max age", consumer.WithMaxAge(0), false},
		{"zero retry delay", consumer.WithRetryDelay(0), false},
		{"tiny member interval", consumer.WithMemberInterval(time.Millisecond), false},
		{"six replicas", consumer.WithReplicas(6), false},
		{"negative max buffered", consumer.WithMaxBuffered(-1), false},
		{"Core option on JetStream", consumer.WithPendingLimits(10, 10), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if tc.core {
				_, err = consumer.NewCore(nc, h, tc.opt)
			} else {
				_, err = consumer.NewJetStream(nc, h, tc.opt)
			}
			if !errors.Is(err, consumer.ErrOption) {
				t.Fatalf("error %v, want ErrOption", err)
			}
		})
	}
}

func TestConstructorsRejectNil(t *testing.T) {
	srv := startServer(t)
	nc := connect(t, srv)
	for _, tc := range []struct {
		name string
		nc   *nats.Conn
		h    consumer.Handler
	}{
		{"nil connection", nil, newRecorder(nil)},
		{"nil handler", nc, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ce *consumer.ConfigError
			if _, err := consumer.NewCore(tc.nc, tc.h); !errors.As(err, &ce) {
				t.Errorf("NewCore: %v, want *ConfigError", err)
			}
			if _, err := consumer.NewJetStream(tc.nc, tc.h); !errors.As(err, &ce) {
				t.Errorf("NewJetStream: %v, want *ConfigError", err)
			}
		})
	}
}

func TestDefaultMemberIsAValidName(t *testing.T) {
	srv := startServer(t)
	nc := connect(t, srv)
	c, err := consumer.NewJetStream(nc, newRecorder(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Member() != consumer.DefaultMember() || c.Member() == "" {
		t.Fatalf("Member() = %q, DefaultMember() = %q", c.Member(), consumer.DefaultMember())
	}
	if _, err := consumer.NewJetStream(nc, newRecorder(nil), consumer.WithMember(consumer.DefaultMember())); err != nil {
		t.Fatalf("DefaultMember %q rejected: %v", consumer.DefaultMember(), err)
	}
}

func TestEnsureStreamsRejectBadConfig(t *testing.T) {
	srv := startServer(t)
	js, ctx := setupStreams(t, srv)
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"input: bad name", func() error {
			_, err := consumer.EnsureInputStream(ctx, js, consumer.InputStreamConfig{Name: "a.b"})
			return err
		}()},
		{"input: bad prefix", func() error {
			_, err := consumer.EnsureInputStream(ctx, js, consumer.InputStreamConfig{Prefix: "a.>"})
			return err
		}()},
		{"output: window past max age", func() error {
			_, err := consumer.EnsureOutputStream(ctx, js, consumer.OutputStreamConfig{Name: "O2", Prefix: "o2", Duplicates: time.Hour, MaxAge: time.Minute})
			return err
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ce *consumer.ConfigError
			if !errors.As(tc.err, &ce) || !errors.Is(tc.err, consumer.ErrOption) {
				t.Fatalf("error %v, want a *ConfigError wrapping ErrOption", tc.err)
			}
		})
	}
	// Existing streams are returned as they are.
	s, err := consumer.EnsureOutputStream(ctx, js, consumer.OutputStreamConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if d := s.CachedInfo().Config.Duplicates; d != consumer.DefaultDuplicates {
		t.Fatalf("output stream duplicate window %v, want %v", d, consumer.DefaultDuplicates)
	}
}
