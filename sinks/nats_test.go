package sinks

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// runNATS starts an embedded NATS server with JetStream and returns a
// connection to it; both end with the test.
func runNATS(t *testing.T) *nats.Conn {
	t.Helper()
	srv, err := server.NewServer(&server.Options{
		Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(), NoLog: true, NoSigs: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	srv.Start()
	t.Cleanup(func() { srv.Shutdown(); srv.WaitForShutdown() })
	if !srv.ReadyForConnections(30 * time.Second) {
		t.Fatal("nats server not ready")
	}
	nc, err := nats.Connect(srv.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

var fixedTime = time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)

func TestNewNATSChecksPrefix(t *testing.T) {
	tests := []struct {
		name   string
		prefix string
		ok     bool
	}{
		{"two tokens", "a2ui.out", true},
		{"one token", "events", true},
		{"empty", "", false},
		{"empty token", "a2ui..out", false},
		{"trailing dot", "a2ui.out.", false},
		{"leading dot", ".a2ui", false},
		{"space", "a2ui out", false},
		{"star wildcard", "a2ui.*", false},
		{"tail wildcard", "a2ui.>", false},
		{"control byte", "a2ui\x00", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewNATS(&fakePublisher{}, tc.prefix)
			var se *SubjectError
			switch {
			case tc.ok && err != nil:
				t.Errorf("NewNATS(%q) = %v", tc.prefix, err)
			case !tc.ok && (!errors.As(err, &se) || se.Part != "prefix" || !errors.Is(err, ErrBadSubject)):
				t.Errorf("NewNATS(%q) = %v, want a *SubjectError on the prefix", tc.prefix, err)
			}
		})
	}
}

func TestNewNATSErrors(t *testing.T) {
	tests := []struct {
		name string
		pub  Publisher
		opts []NATSOption
	}{
		{"nil publisher", nil, nil},
		{"nil connection", CorePublisher(nil), nil},
		{"nil JetStream", JetStreamPublisher(nil), nil},
		{"nil clock", &fakePublisher{}, []NATSOption{WithClock(nil)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if s, err := NewNATS(tc.pub, "a2ui.out", tc.opts...); err == nil || s != nil {
				t.Errorf("NewNATS = %v, %v; want an error", s, err)
			}
		})
	}
}

func TestNATSRejectsSessionsThatAreNotOneToken(t *testing.T) {
	tests := []struct {
		name    string
		session string
	}{
		{"empty", ""},
		{"dot", "a.b"},
		{"space", "a b"},
		{"star", "a*"},
		{"greater than", "a>"},
		{"tab", "a\tb"},
		{"newline", "a\nb"},
		{"delete", "a\x7f"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pub := &fakePublisher{}
			s, err := NewNATS(pub, "a2ui.out")
			if err != nil {
				t.Fatal(err)
			}
			err = s.Emit(context.Background(), evOf(tc.session, 1, KindText))
			var se *SubjectError
			if !errors.As(err, &se) || se.Part != "session" || se.Value != tc.session || !errors.Is(err, ErrBadSubject) {
				t.Errorf("Emit = %v, want a *SubjectError on the session", err)
			}
			if pub.count() != 0 {
				t.Errorf("published %d messages", pub.count())
			}
		})
	}
}

func TestNATSEventErrors(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*Event)
		field string
	}{
		{"zero seq", func(e *Event) { e.Seq = 0 }, "seq"},
		{"empty kind", func(e *Event) { e.Kind = "" }, "kind"},
		{"kind with a newline", func(e *Event) { e.Kind = "text\r\nX-Evil: 1" }, "kind"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pub := &fakePublisher{}
			s, err := NewNATS(pub, "a2ui.out")
			if err != nil {
				t.Fatal(err)
			}
			e := ev(1)
			tc.edit(&e)
			err = s.Emit(context.Background(), e)
			var ee *EventError
			if !errors.As(err, &ee) || ee.Field != tc.field {
				t.Errorf("Emit = %v, want an *EventError on the %s", err, tc.field)
			}
			if pub.count() != 0 {
				t.Errorf("published %d messages", pub.count())
			}
		})
	}
}

func TestNATSPublishError(t *testing.T) {
	failure := errors.New("connection closed")
	s, err := NewNATS(&fakePublisher{err: failure}, "a2ui.out")
	if err != nil {
		t.Fatal(err)
	}
	err = s.Emit(context.Background(), ev(7))
	var pe *PublishError
	if !errors.As(err, &pe) || pe.Subject != "a2ui.out.s1" || pe.Seq != 7 || !errors.Is(err, failure) ||
		!strings.HasPrefix(err.Error(), "sinks: nats: publish") {
		t.Errorf("Emit with a failing publisher = %v, want a *PublishError wrapping %v", err, failure)
	}
}

// wantHeaders is what the NATS sink should set for e at fixedTime.
func wantHeaders(e Event, seq string) map[string]string {
	return map[string]string{
		HeaderMsgID: e.Session + ":" + seq,
		HeaderEvent: string(e.Kind),
		HeaderSeq:   seq,
		HeaderTime:  "2026-01-02T03:04:05.000000006Z",
	}
}

func checkMsg(t *testing.T, m *nats.Msg, e Event, seq string) {
	t.Helper()
	if want := "a2ui.out." + e.Session; m.Subject != want {
		t.Errorf("subject %q, want %q", m.Subject, want)
	}
	if string(m.Data) != string(e.Line) {
		t.Errorf("data %s, want %s", m.Data, e.Line)
	}
	for k, want := range wantHeaders(e, seq) {
		if got := m.Header.Get(k); got != want {
			t.Errorf("header %s = %q, want %q", k, got, want)
		}
	}
}

func TestNATSCorePublishes(t *testing.T) {
	nc := runNATS(t)
	sub, err := nc.SubscribeSync("a2ui.out.>")
	if err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	s, err := NewNATS(CorePublisher(nc), "a2ui.out", WithClock(func() time.Time { return fixedTime }))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		e    Event
		seq  string
	}{
		{"text", evOf("s1", 1, KindText), "1"},
		{"batch", evOf("s1", 2, KindBatch), "2"},
		{"another session", evOf("other-session_9", 1, KindError), "1"},
		{"end", evOf("s1", 18446744073709551615, KindEnd), "18446744073709551615"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := s.Emit(context.Background(), tc.e); err != nil {
				t.Fatal(err)
			}
			m, err := sub.NextMsg(30 * time.Second) // a hang guard
			if err != nil {
				t.Fatal(err)
			}
			checkMsg(t, m, tc.e, tc.seq)
		})
	}
	if err := s.Close(context.Background()); err != nil {
		t.Errorf("Close = %v", err)
	}
	if !nc.IsConnected() {
		t.Error("Close closed the caller's connection")
	}
}

func TestNATSTimeHeaderIsNow(t *testing.T) {
	nc := runNATS(t)
	sub, err := nc.SubscribeSync("a2ui.out.>")
	if err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	s, err := NewNATS(CorePublisher(nc), "a2ui.out")
	if err != nil {
		t.Fatal(err)
	}
	before := time.Now()
	if err := s.Emit(context.Background(), ev(1)); err != nil {
		t.Fatal(err)
	}
	after := time.Now()
	m, err := sub.NextMsg(30 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	at, err := time.Parse(time.RFC3339Nano, m.Header.Get(HeaderTime))
	if err != nil {
		t.Fatal(err)
	}
	if at.Before(before.Add(-time.Second)) || at.After(after.Add(time.Second)) {
		t.Errorf("%s = %v, not between %v and %v", HeaderTime, at, before, after)
	}
}

func TestNATSJetStreamDeduplicates(t *testing.T) {
	nc := runNATS(t)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
	defer cancel()
	stream, err := js.CreateStream(ctx, jetstream.StreamConfig{
		Name: "A2UI", Subjects: []string{"a2ui.out.>"}, Duplicates: time.Hour,
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewNATS(JetStreamPublisher(js), "a2ui.out", WithClock(func() time.Time { return fixedTime }))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		e      Event
		stored uint64 // messages in the stream after the Emit
	}{
		{"first event", evOf("s1", 1, KindText), 1},
		{"the same event again", evOf("s1", 1, KindText), 1},
		{"the next event", evOf("s1", 2, KindEnd), 2},
		{"the same seq in another session", evOf("s2", 1, KindText), 3},
		{"the next event again", evOf("s1", 2, KindEnd), 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := s.Emit(ctx, tc.e); err != nil {
				t.Fatal(err)
			}
			info, err := stream.Info(ctx) // Emit returned: the ack is in, no waiting needed
			if err != nil {
				t.Fatal(err)
			}
			if info.State.Msgs != tc.stored {
				t.Errorf("stream holds %d messages, want %d", info.State.Msgs, tc.stored)
			}
		})
	}
	raw, err := stream.GetLastMsgForSubject(ctx, "a2ui.out.s1")
	if err != nil {
		t.Fatal(err)
	}
	checkMsg(t, &nats.Msg{Subject: raw.Subject, Data: raw.Data, Header: raw.Header}, evOf("s1", 2, KindEnd), "2")
	if err := s.Close(ctx); err != nil {
		t.Errorf("Close = %v", err)
	}
}

func TestNATSJetStreamWithoutStreamFails(t *testing.T) {
	nc := runNATS(t)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewNATS(JetStreamPublisher(js), "nowhere")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
	defer cancel()
	err = s.Emit(ctx, ev(1))
	var pe *PublishError
	if !errors.As(err, &pe) || !errors.Is(err, jetstream.ErrNoStreamResponse) {
		t.Errorf("Emit on a subject no stream captures = %v, want a *PublishError wrapping ErrNoStreamResponse", err)
	}
}
