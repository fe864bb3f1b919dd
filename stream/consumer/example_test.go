package consumer_test

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/a2ui-stream/a2ui-stream/internal/natsembed"
	"github.com/a2ui-stream/a2ui-stream/stream/consumer"
)

// printer prints what it is handed (one session here).
type printer struct{ ended chan struct{} }

func (p printer) Feed(_ context.Context, session string, chunk []byte) error {
	fmt.Printf("%s: %q\n", session, chunk)
	return nil
}

func (p printer) End(_ context.Context, session string) error {
	fmt.Printf("%s: end\n", session)
	close(p.ended)
	return nil
}

func (p printer) Reset(string) {}

func Example() {
	srv, err := natsembed.Start()
	if err != nil {
		panic(err)
	}
	defer srv.Shutdown()
	nc, err := nats.Connect(srv.URL())
	if err != nil {
		panic(err)
	}
	defer nc.Close()

	h := printer{ended: make(chan struct{})}
	c, err := consumer.NewCore(nc, h)
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	for c.Ready() != nil {
		time.Sleep(10 * time.Millisecond)
	}

	// A model answer streamed in two chunks, then the end marker.
	_ = nc.Publish("a2ui.in.demo", []byte("Hello, "))
	_ = nc.Publish("a2ui.in.demo", []byte("world"))
	end := nats.NewMsg("a2ui.in.demo")
	end.Header.Set(consumer.EndHeader, "true")
	_ = nc.PublishMsg(end)

	<-h.ended
	cancel()
	fmt.Println("Run:", <-done)
	// Output:
	// demo: "Hello, "
	// demo: "world"
	// demo: end
	// Run: <nil>
}

// A JetStream consumer: run one per instance with the same options (and a
// member name of its own, by default <hostname>-<pid>).
func ExampleNewJetStream() {
	var nc *nats.Conn // connected to a JetStream-enabled server
	var pipeline consumer.Handler
	c, err := consumer.NewJetStream(nc, pipeline,
		consumer.WithStream("A2UI_IN"),
		consumer.WithGroup("a2ui"),
		consumer.WithPartitions(16),
		consumer.WithAckWait(5*time.Second),
	)
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = c.Run(context.Background())
}
