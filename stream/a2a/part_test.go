package a2a

import (
	"encoding/json"
	"errors"
	"github.com/a2ui-stream/a2ui-stream/protocol"
	"testing"
)

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestPartMarshal(t *testing.T) {
	msg := json.RawMessage(`{"version":"v0.9.1","deleteSurface":{"surfaceId":"s"}}`)
	list := json.RawMessage(`[{"a":1},{"b":2}]`)
	tests := []struct {
		name string
		part Part
		want string
	}{
		{name: "text v0.3", part: NewTextPart("hi", ShapeV03), want: `{"kind":"text","text":"hi"}`},
		{name: "text v1.0", part: NewTextPart("hi", ShapeV10), want: `{"text":"hi"}`},
		{name: "data v0.3", part: NewDataPart(msg, "0.9.1", ShapeV03),
			want: `{"kind":"data","data":{"version":"v0.9.1","deleteSurface":{"surfaceId":"s"}},"metadata":{"mimeType":"application/a2ui+json"}}`},
		{name: "data v1.0 writes mediaType and metadata.mimeType", part: NewDataPart(list, "0.9.1", ShapeV10),
			want: `{"data":[{"a":1},{"b":2}],"mediaType":"application/a2ui+json","metadata":{"mimeType":"application/a2ui+json"}}`},
		{name: "legacy MIME for v0.8", part: NewDataPart(list, "0.8", ShapeV03),
			want: `{"kind":"data","data":[{"a":1},{"b":2}],"metadata":{"mimeType":"application/json+a2ui"}}`},
		{name: "no version is the current MIME", part: NewDataPart(list, "", ShapeV10),
			want: `{"data":[{"a":1},{"b":2}],"mediaType":"application/a2ui+json","metadata":{"mimeType":"application/a2ui+json"}}`},
		{name: "other metadata kept", part: Part{Kind: KindText, Text: "x", Metadata: map[string]json.RawMessage{"k": json.RawMessage(`1`)}, Shape: ShapeV03},
			want: `{"kind":"text","text":"x","metadata":{"k":1}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mustJSON(t, tt.part); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestPartMarshalErrors(t *testing.T) {
	tests := []struct {
		name string
		part Part
	}{
		{name: "invalid data", part: Part{Kind: KindData, Data: json.RawMessage(`{`)}},
		{name: "unknown kind", part: Part{Kind: "video"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := json.Marshal(tt.part)
			if !errors.Is(err, ErrMalformedPart) {
				t.Errorf("err = %v, want ErrMalformedPart", err)
			}
		})
	}
}

func TestParsePart(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		kind      PartKind
		shape     Shape
		text      string
		data      string
		mediaType string
		isA2UI    bool
		wantErr   bool
	}{
		{name: "v0.3 text", in: `{"kind":"text","text":"hello"}`, kind: KindText, shape: ShapeV03, text: "hello"},
		{name: "v1.0 text", in: `{"text":"hello"}`, kind: KindText, shape: ShapeV10, text: "hello"},
		{name: "v0.3 data in metadata.mimeType", in: `{"kind":"data","data":{"a":1},"metadata":{"mimeType":"application/a2ui+json"}}`,
			kind: KindData, shape: ShapeV03, data: `{"a":1}`, mediaType: protocol.MIMEType, isA2UI: true},
		{name: "v1.0 data in mediaType", in: `{"data":[{"a":1}],"mediaType":"application/a2ui+json"}`,
			kind: KindData, shape: ShapeV10, data: `[{"a":1}]`, mediaType: protocol.MIMEType, isA2UI: true},
		{name: "legacy MIME", in: `{"kind":"data","data":{},"metadata":{"mimeType":"application/json+a2ui"}}`,
			kind: KindData, shape: ShapeV03, data: `{}`, mediaType: protocol.LegacyMIMEType, isA2UI: true},
		{name: "mimeType on the part itself", in: `{"kind":"data","data":{},"mimeType":"application/a2ui+json"}`,
			kind: KindData, shape: ShapeV03, data: `{}`, mediaType: protocol.MIMEType, isA2UI: true},
		{name: "A2UI MIME wins over another", in: `{"data":{},"mediaType":"application/json","metadata":{"mimeType":"application/a2ui+json"}}`,
			kind: KindData, shape: ShapeV10, data: `{}`, mediaType: protocol.MIMEType, isA2UI: true},
		{name: "plain data part", in: `{"kind":"data","data":{"x":1},"metadata":{"mimeType":"application/json"}}`,
			kind: KindData, shape: ShapeV03, data: `{"x":1}`, mediaType: "application/json"},
		{name: "data with no MIME", in: `{"data":{"x":1}}`, kind: KindData, shape: ShapeV10, data: `{"x":1}`},
		{name: "data string value", in: `{"data":"a\"b"}`, kind: KindData, shape: ShapeV10, data: `"a\"b"`},
		{name: "v0.3 file", in: `{"kind":"file","file":{"uri":"u"}}`, kind: KindFile, shape: ShapeV03},
		{name: "v1.0 url", in: `{"url":"https://x/y","mediaType":"image/png"}`, kind: KindFile, shape: ShapeV10, mediaType: "image/png"},
		{name: "not an object", in: `[1]`, wantErr: true},
		{name: "broken JSON", in: `{"text":`, wantErr: true},
		{name: "invalid UTF-8 in text", in: "{\"text\":\"\xbe\"}", wantErr: true},
		{name: "unknown kind", in: `{"kind":"video"}`, wantErr: true},
		{name: "kind not a string", in: `{"kind":1}`, wantErr: true},
		{name: "no content", in: `{"metadata":{}}`, wantErr: true},
		{name: "text not a string", in: `{"kind":"text","text":5}`, wantErr: true},
		{name: "data kind without data", in: `{"kind":"data"}`, wantErr: true},
		{name: "metadata not an object", in: `{"text":"x","metadata":3}`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParsePart([]byte(tt.in))
			if tt.wantErr {
				if !errors.Is(err, ErrMalformedPart) {
					t.Fatalf("err = %v, want ErrMalformedPart", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Kind != tt.kind || p.Shape != tt.shape || p.Text != tt.text || string(p.Data) != tt.data || p.MediaType != tt.mediaType {
				t.Errorf("got kind=%q shape=%v text=%q data=%s mediaType=%q", p.Kind, p.Shape, p.Text, p.Data, p.MediaType)
			}
			if p.IsA2UI() != tt.isA2UI || IsA2UIPart([]byte(tt.in)) != tt.isA2UI {
				t.Errorf("IsA2UI = %v, want %v", p.IsA2UI(), tt.isA2UI)
			}
		})
	}
}

// TestPartRoundTrip checks that both shapes read back what they write, and
// that a part read in one shape can be written in the other.
func TestPartRoundTrip(t *testing.T) {
	data := json.RawMessage(`[{"version":"v0.9.1","deleteSurface":{"surfaceId":"s"}}]`)
	for _, from := range []Shape{ShapeV03, ShapeV10} {
		for _, to := range []Shape{ShapeV03, ShapeV10} {
			t.Run(from.String()+" to "+to.String(), func(t *testing.T) {
				b := mustJSON(t, NewDataPart(data, "0.9.1", from))
				p, err := ParsePart([]byte(b))
				if err != nil {
					t.Fatal(err)
				}
				if p.Shape != from || !p.IsA2UI() || string(p.Data) != string(data) || p.Metadata != nil {
					t.Fatalf("read %+v", p)
				}
				p.Shape = to
				q, err := ParsePart([]byte(mustJSON(t, p)))
				if err != nil {
					t.Fatal(err)
				}
				if q.Shape != to || !q.IsA2UI() || string(q.Data) != string(data) {
					t.Errorf("converted %+v", q)
				}
			})
		}
	}
}

func TestParseParts(t *testing.T) {
	parts, err := ParseParts([]byte(`[{"text":"a"},{"kind":"bad"},{"kind":"text","text":"b"}]`))
	var pe *PartError
	if !errors.As(err, &pe) || pe.Index != 1 || !errors.Is(err, ErrMalformedPart) {
		t.Errorf("err = %v, want a *PartError at index 1", err)
	}
	if len(parts) != 2 || parts[0].Text != "a" || parts[1].Text != "b" {
		t.Errorf("parts = %+v", parts)
	}
	if _, err := ParseParts([]byte(`{}`)); !errors.Is(err, ErrMalformedPart) {
		t.Errorf("object: err = %v", err)
	}
}

func TestMessages(t *testing.T) {
	a2ui := func(data string) string {
		return `{"kind":"data","data":` + data + `,"metadata":{"mimeType":"application/a2ui+json"}}`
	}
	tests := []struct {
		name    string
		parts   string
		want    []string
		wantErr bool
	}{
		{name: "single message", parts: `[` + a2ui(`{"m":1}`) + `]`, want: []string{`{"m":1}`}},
		{name: "list", parts: `[` + a2ui(`[{"m":1},{"m":2}]`) + `]`, want: []string{`{"m":1}`, `{"m":2}`}},
		{name: "value wrapper", parts: `[` + a2ui(`{"value":[{"m":1},{"m":2}]}`) + `]`, want: []string{`{"m":1}`, `{"m":2}`}},
		{name: "value with other keys is a message", parts: `[` + a2ui(`{"value":[1],"x":2}`) + `]`, want: []string{`{"value":[1],"x":2}`}},
		{name: "messages wrapper of the list-wrapper schemas", parts: `[` + a2ui(`{"messages":[{"m":1},{"m":2}]}`) + `]`, want: []string{`{"m":1}`, `{"m":2}`}},
		{name: "messages with other keys is a message", parts: `[` + a2ui(`{"messages":[{"m":1}],"x":2}`) + `]`, want: []string{`{"messages":[{"m":1}],"x":2}`}},
		{name: "value not a list is a message", parts: `[` + a2ui(`{"value":{"m":1}}`) + `]`, want: []string{`{"value":{"m":1}}`}},
		{name: "order across parts, others skipped", parts: `[` + a2ui(`{"m":1}`) + `,{"text":"t"},{"data":{"x":1}},{"data":[{"m":2}],"mediaType":"application/json+a2ui"}]`,
			want: []string{`{"m":1}`, `{"m":2}`}},
		{name: "mimeType on the part itself", parts: `[{"kind":"data","data":{"m":1},"mimeType":"application/a2ui+json"}]`, want: []string{`{"m":1}`}},
		{name: "scalar data is an error, others kept", parts: `[` + a2ui(`5`) + `,` + a2ui(`{"m":1}`) + `]`, want: []string{`{"m":1}`}, wantErr: true},
		{name: "non-object list entries", parts: `[` + a2ui(`[{"m":1},2]`) + `]`, want: []string{`{"m":1}`}, wantErr: true},
		{name: "empty list", parts: `[` + a2ui(`[]`) + `]`, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts, err := ParseParts([]byte(tt.parts))
			if err != nil {
				t.Fatal(err)
			}
			msgs, err := Messages(parts)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			var pe *PartError
			if err != nil && !errors.As(err, &pe) {
				t.Errorf("err %v is not a *PartError", err)
			}
			var got []string
			for _, m := range msgs {
				got = append(got, string(m))
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("message %d = %s, want %s", i, got[i], tt.want[i])
				}
			}
		})
	}
}
