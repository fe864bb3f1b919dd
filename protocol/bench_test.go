package protocol_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// BenchmarkValidate measures schema + topology validation of one
// updateComponents message with n components (a column of cards).
func BenchmarkValidate(b *testing.B) {
	cat := loadSimplified(b, "0.9")
	for _, n := range []int{10, 100, 1000} {
		var sb strings.Builder
		sb.WriteString(`[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":[`)
		for i := 0; i < n; i++ {
			if i > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, `"c%d"`, i)
		}
		sb.WriteString(`]}`)
		for i := 0; i < n; i++ {
			fmt.Fprintf(&sb, `,{"id":"c%d","component":"Card","child":"t%d"},{"id":"t%d","component":"Text","text":"hello %d"}`, i, i, i, i)
		}
		sb.WriteString(`]}}]`)
		payload := []byte(sb.String())
		var msgs []any
		if err := json.Unmarshal(payload, &msgs); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("components=%d", 2*n+1), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(payload)))
			for b.Loop() {
				if err := cat.Validate(msgs); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("topology_only/components=%d", 2*n+1), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(payload)))
			for b.Loop() {
				if err := protocol.ValidateIntegrity(msgs, cat.RefFields); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkValidateSchemaExtremeNumbers: a message of 20 numbers with
// six-digit exponents under numeric keywords (the library alone takes
// seconds on it; see numbers.go).
func BenchmarkValidateSchemaExtremeNumbers(b *testing.B) {
	cat := numbersCatalog(b)
	items := strings.TrimSuffix(strings.Repeat(`{"min":1e999999,"exMin":1.5e-999999},`, 10), ",")
	payload := []byte(`[` + strings.ReplaceAll(items, `{"min"`, `{"k":{"min"`) + `]`)
	payload = []byte(strings.ReplaceAll(string(payload), `1.5e-999999}`, `1.5e-999999}}`))
	var msgs []any
	dec := json.NewDecoder(strings.NewReader(string(payload)))
	dec.UseNumber()
	if err := dec.Decode(&msgs); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(payload)))
	for b.Loop() {
		if err := cat.ValidateSchema(msgs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidateIntegrityManyMessages: a payload of many one-component
// updates, each of its own surface (finding each update's root must not
// rescan the payload).
func BenchmarkValidateIntegrityManyMessages(b *testing.B) {
	for _, n := range []int{100, 4000} {
		msgs := make([]any, n)
		for i := range msgs {
			msgs[i] = map[string]any{"updateComponents": map[string]any{
				"surfaceId":  fmt.Sprint("s", i),
				"components": []any{map[string]any{"id": "a", "component": "Text"}},
			}}
		}
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := protocol.ValidateIntegrity(msgs, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
