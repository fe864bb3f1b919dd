package consumer_test

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/a2ui-stream/a2ui-stream/stream/consumer"
)

func TestJetStreamMalformedInput(t *testing.T) {
	srv := startServer(t)
	js, ctx := setupStreams(t, srv)
	nc := connect(t, srv)
	ijs, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	rec := newRecorder(ijs)
	errs := newErrorSink()
	c, err := consumer.NewJetStream(nc, rec, jsTestOptions("m0", consumer.WithMaxChunk(64), consumer.WithOnError(errs.onError))...)
	if err != nil {
		t.Fatal(err)
	}
	run(t, c)
	waitReady(t, c)

	p := consumer.DefaultPrefix + "."
	for _, m := range []*nats.Msg{
		{Subject: p + "good", Data: []byte("hello ")},
		{Subject: p + "a.b", Data: []byte("too many tokens")},
		{Subject: p + "bad$token", Data: []byte("bad token")},
		endMsg(p+"nobody", nil),
		{Subject: p + "good", Data: bytes.Repeat([]byte("x"), 65)},
		{Subject: p + "good", Data: []byte("world")},
		endMsg(p+"good", nil),
	} {
		if _, err := js.PublishMsg(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	waitEnds(t, 1, rec)
	if got := rec.endedCopy()["good"]; len(got) != 1 || string(got[0]) != "hello world" {
		t.Fatalf("session good ended with %q, want one end with \"hello world\"", got)
	}
	for _, err := range checkBadInputErrors(t, errs, ctx.Done()) {
		if ce := (*consumer.ChunkError)(nil); errors.As(err, &ce) && ce.Session != "" && ce.Seq == 0 {
			t.Errorf("error %v has no input stream sequence", err)
		}
	}
	// The ended sessions (good, and the unknown one) are purged, right
	// after their end is handled: wait for it.
	in, err := js.Stream(ctx, consumer.DefaultStream)
	if err != nil {
		t.Fatal(err)
	}
	for _, subj := range []string{p + "good", p + "nobody"} {
		for {
			_, err := in.GetLastMsgForSubject(ctx, subj)
			if errors.Is(err, jetstream.ErrMsgNotFound) {
				break
			}
			if ctx.Err() != nil {
				t.Fatalf("hang guard: %s still in the input stream (err %v)", subj, err)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func TestJetStreamHandlerFailureRedeliversAndReplays(t *testing.T) {
	srv := startServer(t)
	js, ctx := setupStreams(t, srv)
	// Publish the whole session first: its chunks are all delivered
	// before the failed one comes back.
	jsPublish(t, ctx, js, []string{"f"}, 0, sessionSize/jsChunkSize, true)

	nc := connect(t, srv)
	ijs, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	rec := newRecorder(ijs)
	rec.failOnce = func(session string, n int) bool { return session == "f" && n == 5 }
	obs, errs := newObserver(), newErrorSink()
	c, err := consumer.NewJetStream(nc, rec, jsTestOptions("m0", consumer.WithObserver(obs), consumer.WithOnError(errs.onError))...)
	if err != nil {
		t.Fatal(err)
	}
	run(t, c)
	waitEnds(t, 1, rec)
	select {
	case <-obs.redeliverCh: // the failed chunk came back after it had been replayed
	case <-time.After(hangGuard):
		t.Fatal("hang guard: no redelivery")
	}

	checkHandlers(t, []string{"f"}, rec)
	checkOutputs(t, ctx, js, []string{"f"})
	redelivered, replays, _, _ := obs.counts()
	if replays < 1 || redelivered < 1 {
		t.Errorf("replays %d, redeliveries %d: want at least one of each", replays, redelivered)
	}
	all := errs.all()
	if len(all) != 1 || !errors.Is(all[0], consumer.ErrHandler) || !errors.Is(all[0], errInjected) {
		t.Fatalf("errors %v, want one ErrHandler wrapping the injected failure", all)
	}
}
