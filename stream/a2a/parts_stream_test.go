package a2a

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/parser"
)

const streamAnswer = "Here you go.\n<a2ui-json>[" +
	`{"version":"v0.9.1","createSurface":{"surfaceId":"s","catalogId":"c"}},` +
	`{"version":"v0.9.1","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"Hi ✓"}]}}` +
	"]</a2ui-json>\nDone."

func partsJSON(t *testing.T, parts []Part) string {
	t.Helper()
	return mustJSON(t, parts)
}

func TestFromParserParts(t *testing.T) {
	pp := []parser.Part{
		{Text: "intro", Messages: []json.RawMessage{json.RawMessage(`{"a":1}`), json.RawMessage(`{"b":2}`)}},
		{Text: ""},
		{Text: "outro"},
	}
	tests := []struct {
		name string
		o    PartOptions
		want string
	}{
		{name: "one part per message v0.3", o: PartOptions{},
			want: `[{"kind":"text","text":"intro"},{"kind":"data","data":{"a":1},"metadata":{"mimeType":"application/a2ui+json"}},{"kind":"data","data":{"b":2},"metadata":{"mimeType":"application/a2ui+json"}},{"kind":"text","text":"outro"}]`},
		{name: "grouped v1.0", o: PartOptions{Shape: ShapeV10, GroupMessages: true, Version: "0.9.1"},
			want: `[{"text":"intro"},{"data":[{"a":1},{"b":2}],"mediaType":"application/a2ui+json","metadata":{"mimeType":"application/a2ui+json"}},{"text":"outro"}]`},
		{name: "grouped v1.0 legacy MIME before v0.9.1", o: PartOptions{Shape: ShapeV10, GroupMessages: true, Version: "0.9"},
			want: `[{"text":"intro"},{"data":[{"a":1},{"b":2}],"mediaType":"application/json+a2ui","metadata":{"mimeType":"application/json+a2ui"}},{"text":"outro"}]`},
		// The v0.8 extension carries one message per data part: no list.
		{name: "v0.8 is never grouped", o: PartOptions{Shape: ShapeV10, GroupMessages: true, Version: "0.8"},
			want: `[{"text":"intro"},{"data":{"a":1},"mediaType":"application/json+a2ui","metadata":{"mimeType":"application/json+a2ui"}},{"data":{"b":2},"mediaType":"application/json+a2ui","metadata":{"mimeType":"application/json+a2ui"}},{"text":"outro"}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := partsJSON(t, FromParserParts(pp, tt.o)); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// streamParts feeds answer to ChunkParts in chunks of size n and returns the
// A2UI messages and the concatenated text of the parts.
func streamParts(t *testing.T, answer string, n int) (msgs []string, text string) {
	t.Helper()
	p, err := parser.New()
	if err != nil {
		t.Fatal(err)
	}
	var all []Part
	for i := 0; i < len(answer); i += n {
		parts, err := ChunkParts(p, []byte(answer[i:min(i+n, len(answer))]), PartOptions{Shape: ShapeV10})
		if err != nil {
			t.Fatalf("chunk at %d: %v", i, err)
		}
		all = append(all, parts...)
	}
	parts, err := CloseParts(p, PartOptions{Shape: ShapeV10})
	if err != nil {
		t.Fatal(err)
	}
	all = append(all, parts...)
	return partsMessages(t, all)
}

// TestChunkPartsSplitInvariance checks that any chunking of the answer gives
// the same messages and text.
func TestChunkPartsSplitInvariance(t *testing.T) {
	wantMsgs, wantText := streamParts(t, streamAnswer, len(streamAnswer))
	if len(wantMsgs) != 2 || !strings.Contains(wantText, "Here you go.") || !strings.Contains(wantText, "Done.") {
		t.Fatalf("whole answer: %q %q", wantMsgs, wantText)
	}
	for n := 1; n < len(streamAnswer); n++ {
		msgs, text := streamParts(t, streamAnswer, n)
		if strings.Join(msgs, "\n") != strings.Join(wantMsgs, "\n") || text != wantText {
			t.Fatalf("chunk size %d: %q %q", n, msgs, text)
		}
	}
}

func TestChunkPartsLogsDroppedBlock(t *testing.T) {
	var logs bytes.Buffer
	p, err := parser.New()
	if err != nil {
		t.Fatal(err)
	}
	o := PartOptions{Logger: slog.New(slog.NewTextHandler(&logs, nil))}
	_, err = ChunkParts(p, []byte(`a <a2ui-json>[{"x": ]</a2ui-json> b`), o)
	if err == nil {
		t.Fatal("broken block not reported")
	}
	if !strings.Contains(logs.String(), "dropped") {
		t.Errorf("not logged: %q", logs.String())
	}
}

func TestResponseParts(t *testing.T) {
	broken := "Chart:\n<a2ui-json>[{\"a\": {</a2ui-json>\nOops."
	none := ""
	custom := "Sorry, try again."
	tests := []struct {
		name     string
		response string
		o        PartOptions
		want     string
		wantErr  bool
	}{
		{name: "prose unchanged", response: "  Just prose.\n", want: `[{"kind":"text","text":"  Just prose.\n"}]`},
		{name: "empty", response: " \n", want: `null`},
		{name: "text and messages", response: "Hi\n<a2ui-json>[{\"a\":1},{\"b\":2}]</a2ui-json>\nBye",
			want: `[{"kind":"text","text":"Hi"},{"kind":"data","data":{"a":1},"metadata":{"mimeType":"application/a2ui+json"}},{"kind":"data","data":{"b":2},"metadata":{"mimeType":"application/a2ui+json"}},{"kind":"text","text":"Bye"}]`},
		{name: "smart quotes repaired", response: "<a2ui-json>[{“a”: 1}]</a2ui-json>",
			want: `[{"kind":"data","data":{"a":1},"metadata":{"mimeType":"application/a2ui+json"}}]`},
		{name: "broken: default fallback is the response", response: broken, wantErr: true,
			want: `[{"kind":"text","text":` + mustJSONString(broken) + `}]`},
		{name: "broken: custom fallback", response: broken, o: PartOptions{Fallback: &custom}, wantErr: true,
			want: `[{"kind":"text","text":"Sorry, try again."}]`},
		{name: "broken: no fallback", response: broken, o: PartOptions{Fallback: &none}, wantErr: true, want: `null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			tt.o.Logger = slog.New(slog.NewTextHandler(&logs, nil))
			parts, err := ResponseParts(tt.response, tt.o)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if tt.wantErr && logs.Len() == 0 {
				t.Error("error not logged")
			}
			if got := partsJSON(t, parts); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func mustJSONString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
