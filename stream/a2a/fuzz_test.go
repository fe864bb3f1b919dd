package a2a

import (
	"context"
	"encoding/json"
	"github.com/a2ui-stream/a2ui-stream/protocol"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParsePart checks that any input either parses into a part that writes
// and reads back as an equivalent part, or fails with a typed error; never a
// panic.
func FuzzParsePart(f *testing.F) {
	for _, s := range []string{
		`{"kind":"text","text":"hello"}`, `{"text":"hello"}`,
		`{"kind":"data","data":{"a":1},"metadata":{"mimeType":"application/a2ui+json"}}`,
		`{"data":[{"a":1}],"mediaType":"application/a2ui+json"}`,
		`{"kind":"data","data":{"value":[{"m":1}]},"mimeType":"application/json+a2ui"}`,
		`{"url":"https://x/y","mediaType":"image/png"}`, `{"kind":"file","file":{"uri":"u"}}`,
		`[1]`, `{"kind":1}`, `{"text":`, ``,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		p, err := ParsePart([]byte(in))
		if err != nil {
			return
		}
		_, _ = Messages([]Part{p})
		_, _ = DecodeClientEvents([]Part{p})
		for _, shape := range []Shape{ShapeV03, ShapeV10} {
			p.Shape = shape
			b, err := json.Marshal(p)
			if err != nil {
				continue // e.g. a file part is passed through as received
			}
			q, err := ParsePart(b)
			if err != nil {
				t.Fatalf("%s: written part %s does not read back: %v", shape, b, err)
			}
			if q.Kind != p.Kind || q.Text != p.Text || q.IsA2UI() != p.IsA2UI() {
				t.Fatalf("%s: %s read back as %+v, was %+v", shape, b, q, p)
			}
		}
	})
}

// FuzzClientInput feeds arbitrary bytes to every client-side decoder.
func FuzzClientInput(f *testing.F) {
	for _, s := range []string{
		`{"v0.9.1":{"supportedCatalogIds":["a"]}}`, `{"supportedCatalogIds":[]}`,
		`{"version":"v0.9","surfaces":{"s":{}}}`,
		`{"version":"v0.9","action":{"name":"n","surfaceId":"s","sourceComponentId":"c","timestamp":"2026-01-15T12:00:00Z","context":{}}}`,
		`{"userAction":{}}`, `{"a2uiClientCapabilities":{},"X-A2A-Extensions":"` + uri091 + `"}`, `null`, `[`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		b := []byte(in)
		_, _ = ParseClientCapabilities(b)
		_, _ = ParseClientDataModel(b)
		_, _ = ParseClientMetadata(b)
		_, _ = DecodeClientEvent(b)
		_ = RequestedFromMetadata(b)
		_ = AdvertisedExtensions(b)
		_ = RequestedExtensions(in)
		_, _ = protocol.ExtensionVersion(in)
		_, _ = ParseParts(b)
	})
}

// FuzzEndpoint posts arbitrary bodies to the handler: every reply is a
// JSON-RPC response, never a panic.
func FuzzEndpoint(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"parts":[{"text":"hi"}]}}}`,
		`{"jsonrpc":"2.0","id":"x","method":"message/send","params":{"message":{"parts":[],"metadata":{"a2uiClientCapabilities":{"supportedCatalogIds":[]}}}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"nope"}`, `[]`, `{`, ``,
		`{"jsonrpc":"2.0","id":"s","method":"SendStreamingMessage","params":{"message":{"parts":[{"text":"hi"}]}}}`,
		"{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"message/stream\",\"params\":{\"message\":{\"parts\":[]}}}",
	} {
		f.Add(s)
	}
	s, err := NewServer(StaticRunner(answer))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = s.Close(context.Background()) })
	f.Fuzz(func(t *testing.T, body string) {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
		s.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK && rec.Code != http.StatusRequestEntityTooLarge {
			t.Fatalf("status %d", rec.Code)
		}
		if !utf8.Valid(rec.Body.Bytes()) {
			t.Fatalf("reply is not UTF-8: %q", rec.Body.String())
		}
		switch ct := rec.Header().Get("Content-Type"); {
		case strings.HasPrefix(ct, "application/json"):
			if !json.Valid(rec.Body.Bytes()) {
				t.Fatalf("reply is not JSON: %q", rec.Body.String())
			}
		case strings.HasPrefix(ct, "text/event-stream"):
			// Every event is one data line holding a JSON-RPC response.
			events := strings.Split(strings.TrimSuffix(rec.Body.String(), "\n\n"), "\n\n")
			for _, ev := range events {
				data, ok := strings.CutPrefix(ev, "data: ")
				if !ok || strings.Contains(data, "\n") || !json.Valid([]byte(data)) {
					t.Fatalf("event %q of %q is not one data line of JSON", ev, rec.Body.String())
				}
			}
		default:
			t.Fatalf("content type %q", ct)
		}
	})
}
