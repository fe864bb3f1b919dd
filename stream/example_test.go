package stream_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/a2ui-stream/a2ui-stream/internal/natsembed"
	"github.com/a2ui-stream/a2ui-stream/sinks"
	"github.com/a2ui-stream/a2ui-stream/stream"
)

// A block of three messages fed in 8-byte chunks, as a model streams it,
// gives one batch: one repaint for the list.
func Example() {
	out := sinks.NewJSONL(os.Stdout)
	pl, err := stream.NewPipeline(stream.WithSinks(out))
	if err != nil {
		panic(err)
	}
	answer := []byte(`Here you go.<a2ui-json>[` +
		`{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},` +
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"Hi"}]}},` +
		`{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/n","value":1}}` +
		`]</a2ui-json>`)
	ctx := context.Background()
	for len(answer) > 0 {
		n := min(8, len(answer))
		if err := pl.Feed(ctx, "demo", answer[:n]); err != nil {
			panic(err)
		}
		answer = answer[n:]
	}
	if err := pl.End(ctx, "demo"); err != nil {
		panic(err)
	}
	if err := pl.Close(ctx); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {"event":"text","session":"demo","text":"Here you"}
	// {"event":"text","session":"demo","text":" go."}
	// {"event":"batch","session":"demo","batch":1,"list":0,"listEnd":true,"applied":3,"failed":0,"messages":[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"Hi"}]}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/n","value":1}}],"results":[{"index":0,"type":"createSurface","surfaceId":"s","ok":true},{"index":1,"type":"updateComponents","surfaceId":"s","ok":true},{"index":2,"type":"updateDataModel","surfaceId":"s","ok":true}],"changes":{"surfacesCreated":["s"],"surfaces":{"s":{"componentsUpserted":["root"],"dataPaths":["/n"],"root":"root"}}}}
	// {"event":"end","session":"demo","reason":"closed","bytes":298,"lists":1,"batches":1,"messages":3,"failed":0,"errors":0}
}

// A pipeline wired to a NATS sink: each event is published on
// a2ui.out.<session>, its line as the data, with a de-duplication id of the
// session and the event's sequence number. (An embedded server stands in
// for a real one here.)
func Example_nats() {
	srv, err := natsembed.Start(natsembed.WithoutJetStream())
	if err != nil {
		panic(err)
	}
	defer srv.Shutdown()
	nc, err := nats.Connect(srv.URL())
	if err != nil {
		panic(err)
	}
	defer nc.Close()
	sub, err := nc.SubscribeSync("a2ui.out.demo")
	if err != nil {
		panic(err)
	}

	out, err := sinks.NewNATS(sinks.CorePublisher(nc), "a2ui.out")
	if err != nil {
		panic(err)
	}
	pl, err := stream.NewPipeline(stream.WithSinks(out))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	_ = pl.Feed(ctx, "demo", []byte(`Done.<a2ui-json>[{"version":"v0.9","deleteSurface":{"surfaceId":"s"}}]</a2ui-json>`))
	_ = pl.End(ctx, "demo")
	_ = pl.Close(ctx) // flushes the connection

	for {
		m, err := sub.NextMsg(10 * time.Second)
		if err != nil {
			panic(err)
		}
		fmt.Println(m.Header.Get("Nats-Msg-Id"), m.Header.Get("A2UI-Event"), len(m.Data) > 0)
		if m.Header.Get("A2UI-Event") == "end" {
			break
		}
	}
	// Output:
	// demo:1 text true
	// demo:2 batch true
	// demo:3 end true
}
