package protocol_test

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
	"github.com/a2ui-stream/a2ui-stream/internal/speccatalog"
	"github.com/a2ui-stream/a2ui-stream/parser"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// corpusUpdateV09 returns the first updateComponents message of the v0.9
// corpus of at least 3 KB (32 components), decoded with json.Number, as
// the parser's complete mode yields it.
func corpusUpdateV09(tb testing.TB) map[string]any {
	tb.Helper()
	data, err := os.ReadFile(shareddata.Path(tb, "corpus", "stream_v09.txt"))
	if err != nil {
		tb.Fatal(err)
	}
	p, err := parser.New()
	if err != nil {
		tb.Fatal(err)
	}
	parts, err := p.Feed(data)
	if err != nil {
		tb.Fatal(err)
	}
	for _, part := range parts {
		for _, raw := range part.Messages {
			if len(raw) < 3000 || !bytes.Contains(raw, []byte(`"updateComponents"`)) {
				continue
			}
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.UseNumber()
			var m map[string]any
			if err := dec.Decode(&m); err != nil {
				tb.Fatal(err)
			}
			return m
		}
	}
	tb.Fatal("no updateComponents message of 3 KB in the corpus")
	return nil
}

// invalidV09Cases are realistic invalid variants of a corpus update: each
// edits a deep copy of msg. The first component of the corpus's updates is
// a Card.
func invalidV09Cases() []struct {
	name string
	edit func(comps []any)
} {
	firstOf := func(comps []any, typ string) map[string]any {
		for _, c := range comps {
			if m := c.(map[string]any); m["component"] == typ {
				return m
			}
		}
		panic("no " + typ + " component")
	}
	return []struct {
		name string
		edit func(comps []any)
	}{
		{"missing_component", func(comps []any) { delete(comps[0].(map[string]any), "component") }},
		{"missing_required_prop", func(comps []any) { delete(firstOf(comps, "Card"), "child") }},
		{"wrong_prop_type", func(comps []any) { firstOf(comps, "Text")["text"] = json.Number("42") }},
		{"unknown_component_type", func(comps []any) { comps[0].(map[string]any)["component"] = "Carousel" }},
		{"bad_path", func(comps []any) {
			firstOf(comps, "Text")["text"] = map[string]any{"path": "/a/~2"}
		}},
		{"every_component_untyped", func(comps []any) {
			for _, c := range comps {
				delete(c.(map[string]any), "component")
			}
		}},
		{"every_card_missing_child", func(comps []any) {
			for _, c := range comps {
				if m := c.(map[string]any); m["component"] == "Card" {
					delete(m, "child")
				}
			}
		}},
	}
}

// BenchmarkValidateInvalid: Validate of one corpus updateComponents
// message (3-4 KB, ~32 components) under the specification's v0.9 basic
// catalog, valid and with one realistic fault, or one fault in every
// component (untyped: the worst case, every component's report) or every
// Card. An invalid message needs the schema library's error report; it
// should cost a small multiple of a valid one, plus a share per faulty
// component.
func BenchmarkValidateInvalid(b *testing.B) {
	cat := speccatalog.BasicV09(b)
	valid := corpusUpdateV09(b)
	b.Run("valid", func(b *testing.B) {
		msgs := []any{valid}
		b.ReportAllocs()
		for b.Loop() {
			if err := cat.Validate(msgs); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, tc := range invalidV09Cases() {
		m := protocol.CloneValue(valid).(map[string]any)
		tc.edit(m["updateComponents"].(map[string]any)["components"].([]any))
		msgs := []any{m}
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := cat.Validate(msgs); err == nil {
					b.Fatal("invalid message validated")
				}
			}
		})
	}
}
