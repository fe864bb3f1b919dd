package parser_test

import (
	"fmt"

	"github.com/a2ui-stream/a2ui-stream/parser"
)

func Example() {
	p, _ := parser.New() // complete mode, <a2ui-json> tags
	stream := []string{
		"Here is your card <a2ui",
		`-json>[{"version":"v0.9","deleteSurface":{"surfaceId":"a"}},`,
		`{"version":"v0.9","deleteSurface":{"surfaceId":"b"}}]</a2ui-json> Done.`,
	}
	for _, chunk := range stream {
		parts, err := p.Feed([]byte(chunk))
		if err != nil {
			fmt.Println("error:", err)
		}
		for _, part := range parts {
			fmt.Printf("text=%q messages=%d\n", part.Text, len(part.Messages))
			for _, m := range part.Messages {
				fmt.Println("  ", string(m))
			}
		}
	}
	parts, _ := p.Close()
	fmt.Println("at close:", len(parts), "parts")
	// Output:
	// text="Here is your card " messages=0
	// text="" messages=1
	//    {"version":"v0.9","deleteSurface":{"surfaceId":"a"}}
	// text="" messages=1
	//    {"version":"v0.9","deleteSurface":{"surfaceId":"b"}}
	// text=" Done." messages=0
	// at close: 0 parts
}

func ExampleParseResponse() {
	parts, err := parser.ParseResponse("Hello\n<a2ui-json>\n```json\n[{\"id\": \"x\",}]\n```\n</a2ui-json>\nBye")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range parts {
		fmt.Printf("%q %s\n", p.Text, p.Messages)
	}
	// Output:
	// "Hello" [{"id": "x"}]
	// "Bye" []
}

// With borrowed output, what a call returns is valid until the next call:
// use it (here, write it) before feeding on, and Clone what you keep.
func ExampleWithBorrowedOutput() {
	p, _ := parser.New(parser.WithMode(parser.ModeDelta), parser.WithBorrowedOutput())
	stream := []string{
		`<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},`,
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"Hel`,
		`lo"}]}}]</a2ui-json>`,
	}
	var kept []parser.Part
	for _, chunk := range stream {
		parts, _ := p.Feed([]byte(chunk))
		for _, part := range parts {
			for _, m := range part.Messages {
				fmt.Println(string(m))
			}
			kept = append(kept, part.Clone())
		}
	}
	p.Close() // may overwrite the last call's messages, but not the clones
	fmt.Println(len(kept), "parts kept; first:", string(kept[0].Messages[0]))
	// Output:
	// {"createSurface":{"catalogId":"c","surfaceId":"s"},"version":"v0.9"}
	// {"updateComponents":{"components":[{"id":"root","component":"Text","text":"Hel"}],"surfaceId":"s"},"version":"v0.9"}
	// {"updateComponents":{"components":[{"id":"root","component":"Text","text":"Hello"}],"surfaceId":"s"},"version":"v0.9"}
	// 3 parts kept; first: {"createSurface":{"catalogId":"c","surfaceId":"s"},"version":"v0.9"}
}
