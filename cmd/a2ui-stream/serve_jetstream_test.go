package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/a2ui-stream/a2ui-stream/internal/natsembed"
	"github.com/a2ui-stream/a2ui-stream/stream/consumer"
)

// jsInstance is one "serve --jetstream" instance, built as serve builds it
// on a connection of its own, so that a test can kill it: close its
// connection without draining.
type jsInstance struct {
	nc     *nats.Conn
	svc    *service
	cancel context.CancelFunc
	done   chan error
}

// fed returns the chunks the instance's pipeline was fed, from its
// metrics.
func (in *jsInstance) fed(t *testing.T) float64 {
	t.Helper()
	fams, err := in.svc.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() == "a2ui_stream_chunks_total" {
			return f.GetMetric()[0].GetCounter().GetValue()
		}
	}
	t.Fatal("no a2ui_stream_chunks_total")
	return 0
}

// startJSInstance starts an instance with the same flags as every other
// but its member name, with test tuning: small ack wait and membership
// intervals, so that a dead instance's partitions move within seconds.
func startJSInstance(t *testing.T, url, member string) *jsInstance {
	t.Helper()
	var f serveFlags
	fs := newFlagSet("serve")
	f.register(fs)
	if err := fs.Parse([]string{"--jetstream", "--nats-url", url, "--member", member,
		"--partitions", "8", "--ack-wait", "2s", "--max-ack-pending", "4096", "--drain-timeout", "5s"}); err != nil {
		t.Fatal(err)
	}
	f.consumerOpts = []consumer.Option{
		consumer.WithMemberInterval(500 * time.Millisecond),
		consumer.WithRetryDelay(100 * time.Millisecond),
	}
	nc, err := nats.Connect(url, nats.MaxReconnects(-1), nats.ErrorHandler(func(*nats.Conn, *nats.Subscription, error) {}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	popts, err := pipelineOptions("complete", "", "tags", "", false)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	svc, err := newService(ctx, &f, nc, popts, log)
	if err != nil {
		t.Fatal(err)
	}
	in := &jsInstance{nc: nc, svc: svc, cancel: cancel, done: make(chan error, 1)}
	go func() { in.done <- svc.run(ctx) }()
	t.Cleanup(func() { in.stop(t) })
	return in
}

// stop ends the instance gracefully (or after a kill, reaps it).
func (in *jsInstance) stop(t *testing.T) {
	t.Helper()
	if in.cancel == nil {
		return
	}
	in.cancel()
	in.cancel = nil
	select {
	case <-in.done:
	case <-time.After(60 * time.Second):
		t.Error("instance did not stop")
	}
}

// outputEvents reads every event stored in the output stream, by session,
// until each of sessions has its end event (hang guard: 90 s).
func outputEvents(t *testing.T, js jetstream.JetStream, sessions []string) map[string]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	out := map[string]*strings.Builder{}
	ended := map[string]bool{}
	st, err := js.Stream(ctx, consumer.DefaultOutStream)
	if err != nil {
		t.Fatal(err)
	}
	var seq uint64
	for len(ended) < len(sessions) {
		msg, err := st.GetMsg(ctx, seq+1)
		if err != nil {
			if ctx.Err() != nil {
				t.Fatalf("hang guard: %d of %d sessions ended in the output stream", len(ended), len(sessions))
			}
			time.Sleep(20 * time.Millisecond) // the next event is not stored yet
			continue
		}
		seq = msg.Sequence
		session := strings.TrimPrefix(msg.Subject, "a2ui.out.")
		if out[session] == nil {
			out[session] = &strings.Builder{}
		}
		out[session].Write(msg.Data)
		out[session].WriteByte('\n')
		if msg.Header.Get("A2UI-Event") == "end" {
			ended[session] = true
		}
	}
	res := map[string]string{}
	for k, v := range out {
		res[k] = v.String()
	}
	return res
}

// TestServeJetStream: three instances with the same flags share 50
// sessions, each a corpus turn in 16-byte chunks, interleaved; the output
// stream holds every session's events complete, in order and once (each
// equals run's output for its turn). Then the same with one instance
// killed mid-stream (its connection closed without draining): another
// finishes its sessions, with no event lost and none stored twice.
func TestServeJetStream(t *testing.T) {
	turns := corpusTurns(t, 50)
	for _, kill := range []bool{false, true} {
		t.Run(map[bool]string{false: "three instances", true: "one killed mid-stream"}[kill], func(t *testing.T) {
			srv, err := natsembed.Start(natsembed.WithStoreDir(t.TempDir()))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(srv.Shutdown)
			var insts []*jsInstance
			for i := range 3 {
				insts = append(insts, startJSInstance(t, srv.URL(), fmt.Sprintf("m%d", i)))
			}
			for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				ready := 0
				for _, in := range insts {
					if in.svc.consumer.Ready() == nil {
						ready++
					}
				}
				if ready == len(insts) {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("hang guard: instances not ready")
				}
			}
			nc, err := nats.Connect(srv.URL())
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			js, err := jetstream.New(nc)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			sessions := make([]string, len(turns))
			maxChunks := 0
			for i, turn := range turns {
				sessions[i] = fmt.Sprintf("s%02d", i)
				maxChunks = max(maxChunks, (len(turn)+15)/16)
			}
			publishRound := func(k int) {
				for i, turn := range turns {
					if off := k * 16; off < len(turn) {
						if _, err := js.PublishAsync("a2ui.in."+sessions[i], turn[off:min(off+16, len(turn))]); err != nil {
							t.Fatal(err)
						}
					}
				}
				select { // a round at a time: the client bounds what is in flight
				case <-js.PublishAsyncComplete():
				case <-ctx.Done():
					t.Fatal("hang guard: publishing")
				}
			}
			half := maxChunks / 2
			for k := range half {
				publishRound(k)
			}
			if kill {
				victim := insts[0]
				for deadline := time.Now().Add(60 * time.Second); victim.fed(t) < 50; time.Sleep(10 * time.Millisecond) {
					if time.Now().After(deadline) {
						t.Fatal("hang guard: the victim was fed nothing")
					}
				}
				victim.nc.Close() // no drain: as if the process died
				victim.stop(t)
			}
			for k := half; k < maxChunks; k++ {
				publishRound(k)
			}
			for _, s := range sessions {
				end := nats.NewMsg("a2ui.in." + s)
				end.Header.Set("A2UI-End", "true")
				if _, err := js.PublishMsgAsync(end); err != nil {
					t.Fatal(err)
				}
			}
			select {
			case <-js.PublishAsyncComplete():
			case <-ctx.Done():
				t.Fatal("hang guard: publishing")
			}
			got := outputEvents(t, js, sessions)
			for i, s := range sessions {
				if want := runOutput(t, turns[i], 16, s); got[s] != want {
					t.Fatalf("session %s: stored events differ from run's:\n%s\nwant\n%s", s, got[s], want)
				}
			}
			if kill && insts[0].fed(t) == 0 {
				t.Fatal("the victim handled nothing: the test killed no work")
			}
		})
	}
}
