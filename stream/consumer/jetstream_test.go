package consumer_test

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/a2ui-stream/a2ui-stream/internal/natsembed"
	"github.com/a2ui-stream/a2ui-stream/stream/consumer"
)

// Test tuning: small timeouts so that a dead instance's partitions move
// within seconds.
func jsTestOptions(member string, extra ...consumer.Option) []consumer.Option {
	return append([]consumer.Option{
		consumer.WithMember(member),
		consumer.WithPartitions(8),
		consumer.WithWorkers(16),
		consumer.WithAckWait(2 * time.Second),
		consumer.WithMaxAckPending(256),
		consumer.WithMemberInterval(500 * time.Millisecond),
		consumer.WithRetryDelay(100 * time.Millisecond),
		consumer.WithDrainTimeout(5 * time.Second),
		consumer.WithLogger(quietLogger()),
	}, extra...)
}

type instance struct {
	nc  *nats.Conn
	rec *recorder
	c   *consumer.JetStream
	rn  *runner
}

func startInstance(t *testing.T, srv *natsembed.Server, member string, obs consumer.Observer, errs *errorSink) *instance {
	t.Helper()
	nc := connect(t, srv)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	rec := newRecorder(js)
	opts := jsTestOptions(member, consumer.WithObserver(obs), consumer.WithOnError(errs.onError))
	c, err := consumer.NewJetStream(nc, rec, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return &instance{nc: nc, rec: rec, c: c, rn: run(t, c)}
}

func setupStreams(t *testing.T, srv *natsembed.Server) (jetstream.JetStream, context.Context) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	t.Cleanup(cancel)
	js, err := jetstream.New(connect(t, srv))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := consumer.EnsureInputStream(ctx, js, consumer.InputStreamConfig{}); err != nil {
		t.Fatal(err)
	}
	if _, err := consumer.EnsureOutputStream(ctx, js, consumer.OutputStreamConfig{}); err != nil {
		t.Fatal(err)
	}
	return js, ctx
}

// jsPublish publishes with JetStream asynchronously (in order: one
// connection) and waits for the input stream to acknowledge them all.
func jsPublish(t *testing.T, ctx context.Context, js jetstream.JetStream, sessions []string, from, to int, withEnd bool) {
	t.Helper()
	wait := func() {
		select {
		case <-js.PublishAsyncComplete():
		case <-ctx.Done():
			t.Fatal("hang guard: publishes not acknowledged")
		}
	}
	n := 0
	publishInterleaved(t, sessions, jsChunkSize, from, to, withEnd, func(m *nats.Msg) error {
		if n++; n%1000 == 0 {
			wait()
		}
		_, err := js.PublishMsgAsync(m)
		return err
	})
	wait()
}

// checkOutputs reads the whole output stream and checks that every
// session's events are complete, in order, and stored once each.
func checkOutputs(t *testing.T, ctx context.Context, js jetstream.JetStream, sessions []string) {
	t.Helper()
	s, err := js.Stream(ctx, consumer.DefaultOutStream)
	if err != nil {
		t.Fatal(err)
	}
	wantChunks := sessionSize / jsChunkSize
	info, err := s.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := uint64(len(sessions) * (wantChunks + 1)); info.State.Msgs != want {
		t.Errorf("output stream holds %d messages, want %d (one per chunk and one per end, no duplicates)", info.State.Msgs, want)
	}
	oc, err := s.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	it, err := oc.Messages()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Stop()
	got := map[string][]*nats.Msg{}
	for n := uint64(0); n < info.State.Msgs; n++ {
		m, err := it.Next()
		if err != nil {
			t.Fatalf("reading output %d: %v", n, err)
		}
		session := strings.TrimPrefix(m.Subject(), consumer.DefaultOutPrefix+".")
		got[session] = append(got[session], &nats.Msg{Subject: m.Subject(), Header: m.Headers(), Data: m.Data()})
	}
	for _, sess := range sessions {
		msgs := got[sess]
		if len(msgs) != wantChunks+1 {
			t.Errorf("session %s: %d outputs, want %d", sess, len(msgs), wantChunks+1)
			continue
		}
		var b bytes.Buffer
		for i, m := range msgs {
			if id, want := m.Header.Get(jetstream.MsgIDHeader), sess+":"+strconv.Itoa(i+1); id != want {
				t.Errorf("session %s: output %d has id %q, want %q", sess, i, id, want)
				break
			}
			if i < wantChunks {
				b.Write(m.Data)
			} else if string(m.Data) != "END" {
				t.Errorf("session %s: last output %q, want END", sess, m.Data)
			}
		}
		if want := content(sess, sessionSize); !bytes.Equal(b.Bytes(), want) {
			t.Errorf("session %s: outputs hold %.40q..., want %.40q...", sess, b.Bytes(), want)
		}
	}
}

// checkHandlers checks that every session ended with its complete content
// on some instance, and that every end seen held the complete content.
func checkHandlers(t *testing.T, sessions []string, recs ...*recorder) {
	t.Helper()
	for _, s := range sessions {
		want := content(s, sessionSize)
		n := 0
		for _, r := range recs {
			for _, got := range r.endedCopy()[s] {
				n++
				if !bytes.Equal(got, want) {
					t.Errorf("session %s ended with %d bytes %.40q..., want %d bytes", s, len(got), got, len(want))
				}
			}
		}
		if n == 0 {
			t.Errorf("session %s never ended", s)
		}
	}
}

func TestJetStreamThreeInstances(t *testing.T) {
	srv := startServer(t)
	js, ctx := setupStreams(t, srv)
	obs, errs := newObserver(), newErrorSink()
	var insts []*instance
	for i := range 3 {
		insts = append(insts, startInstance(t, srv, fmt.Sprintf("m%d", i), obs, errs))
	}
	for _, in := range insts {
		waitReady(t, in.c)
	}
	sessions := sessionsN(numSessions)
	jsPublish(t, ctx, js, sessions, 0, sessionSize/jsChunkSize, true)
	recs := []*recorder{insts[0].rec, insts[1].rec, insts[2].rec}
	waitEnds(t, numSessions, recs...)

	checkHandlers(t, sessions, recs...)
	checkOutputs(t, ctx, js, sessions)
	for i, in := range insts {
		if in.rec.feedCount() == 0 {
			t.Errorf("instance %d handled no chunk: the partitions were not shared", i)
		}
	}
	for _, err := range errs.all() {
		t.Errorf("error reported: %v", err)
	}
	for i, in := range insts {
		if err := in.rn.stop(t); err != nil {
			t.Errorf("instance %d: Run = %v, want nil", i, err)
		}
	}
	// Ended sessions were purged from the input stream.
	in, err := js.Stream(ctx, consumer.DefaultStream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := in.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Msgs != 0 {
		t.Errorf("input stream still holds %d messages after every session ended", info.State.Msgs)
	}
}

func TestJetStreamInstanceKilledMidStream(t *testing.T) {
	srv := startServer(t)
	js, ctx := setupStreams(t, srv)
	obs := newObserver()
	var insts []*instance
	var errs []*errorSink
	for i := range 3 {
		errs = append(errs, newErrorSink())
		insts = append(insts, startInstance(t, srv, fmt.Sprintf("m%d", i), obs, errs[i]))
	}
	for _, in := range insts {
		waitReady(t, in.c)
	}
	sessions := sessionsN(numSessions)
	half := sessionSize / jsChunkSize / 2
	jsPublish(t, ctx, js, sessions, 0, half, false)

	// Kill the victim once it has handled chunks of its sessions.
	victim := insts[0]
	for victim.rec.feedCount() < 10 {
		select {
		case <-time.After(10 * time.Millisecond):
		case <-ctx.Done():
			t.Fatal("hang guard: the victim handled no chunk")
		}
	}
	victim.nc.Close() // no drain: as if the process died
	_ = victim.rn.stop(t)

	jsPublish(t, ctx, js, sessions, half, sessionSize/jsChunkSize, true)
	survivors := []*recorder{insts[1].rec, insts[2].rec}
	waitEnds(t, numSessions, survivors...)

	checkHandlers(t, sessions, survivors...)
	checkOutputs(t, ctx, js, sessions)
	if _, replays, _, _ := obs.counts(); replays == 0 {
		t.Error("no replay counted: the victim's sessions were not rebuilt")
	}
	// The victim's queued chunks fail on its closed connection; the
	// survivors report nothing.
	for i, e := range errs[1:] {
		for _, err := range e.all() {
			t.Errorf("instance %d reported: %v", i+1, err)
		}
	}
}
