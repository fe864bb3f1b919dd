package sinks_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/a2ui-stream/a2ui-stream/sinks"
)

// events is a short session, as a stream.Pipeline would emit it.
var events = []sinks.Event{
	{Session: "demo", Seq: 1, Kind: sinks.KindText, Line: []byte(`{"event":"text","seq":1,"text":"Hello"}`)},
	{Session: "demo", Seq: 2, Kind: sinks.KindEnd, Line: []byte(`{"event":"end","seq":2}`)},
}

func Example() {
	ctx := context.Background()
	sink := sinks.NewJSONL(os.Stdout)
	for _, e := range events {
		if err := sink.Emit(ctx, e); err != nil {
			fmt.Println(err)
		}
	}
	if err := sink.Close(ctx); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {"event":"text","seq":1,"text":"Hello"}
	// {"event":"end","seq":2}
}

// A client joining after the session ended gets its events from the
// replay buffer, and the stream ends with the end event.
func ExampleSSE() {
	ctx := context.Background()
	sse, err := sinks.NewSSE()
	if err != nil {
		fmt.Println(err)
		return
	}
	srv := httptest.NewServer(sse) // or http.Handle("/sessions/", sse)
	defer srv.Close()
	defer sse.Close(ctx) // ends the streams before the server waits for them
	for _, e := range events {
		if err := sse.Emit(ctx, e); err != nil {
			fmt.Println(err)
		}
	}
	resp, err := http.Get(srv.URL + "/sessions/demo/events")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		fmt.Println(err)
	}
	fmt.Println(resp.Header.Get("Content-Type"))
	fmt.Print(string(body))
	// Output:
	// text/event-stream
	// id: 1
	// event: text
	// data: {"event":"text","seq":1,"text":"Hello"}
	//
	// id: 2
	// event: end
	// data: {"event":"end","seq":2}
}
