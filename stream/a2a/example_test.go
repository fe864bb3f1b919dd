package a2a_test

import (
	"encoding/json"
	"fmt"
	"github.com/a2ui-stream/a2ui-stream/protocol"
	"net/http"

	"github.com/a2ui-stream/a2ui-stream/stream/a2a"
)

// A client asks for two A2UI versions; the agent advertises one of them.
func Example_negotiation() {
	h := http.Header{}
	h.Set("X-A2A-Extensions", "https://a2ui.org/a2a-extension/a2ui/v0.8, https://a2ui.org/a2a-extension/a2ui/v0.9.1")
	ext, _ := a2a.NewAgentExtension("0.9.1", a2a.WithSupportedCatalogIDs("https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"))
	card, _ := json.Marshal(map[string]any{"capabilities": map[string]any{"extensions": []a2a.AgentExtension{ext}}})

	act, ok := a2a.Activate(a2a.RequestedFromHeader(h), a2a.AdvertisedExtensions(card))
	fmt.Println(ok, act.Version, protocol.MIMETypeFor(act.Version))
	// Output: true 0.9.1 application/a2ui+json
}

// A model answer becomes A2A parts, here in the A2A 1.0 shape.
func ExampleResponseParts() {
	answer := "Your form:\n<a2ui-json>[{\"version\":\"v0.9.1\",\"deleteSurface\":{\"surfaceId\":\"old\"}}]</a2ui-json>"
	parts, err := a2a.ResponseParts(answer, a2a.PartOptions{Shape: a2a.ShapeV10})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range parts {
		b, _ := json.Marshal(p)
		fmt.Println(string(b))
	}
	msgs, _ := a2a.Messages(parts)
	fmt.Println(len(msgs), "message")
	// Output:
	// {"text":"Your form:"}
	// {"data":{"version":"v0.9.1","deleteSurface":{"surfaceId":"old"}},"mediaType":"application/a2ui+json","metadata":{"mimeType":"application/a2ui+json"}}
	// 1 message
}
