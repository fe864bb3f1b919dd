package parser

import (
	"encoding/json"
	"testing"
)

func TestPartClone(t *testing.T) {
	tests := []struct {
		name string
		part Part
	}{
		{name: "text only", part: Part{Text: "hi"}},
		{name: "one message", part: Part{Messages: []json.RawMessage{json.RawMessage(`{"a":1}`)}}},
		{name: "text and messages", part: Part{Text: "x", Messages: []json.RawMessage{json.RawMessage(`{"a":1}`), json.RawMessage(`{"b":22}`)}}},
		{name: "empty message list", part: Part{Messages: []json.RawMessage{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := partString(tt.part)
			c := tt.part.Clone()
			if got := partString(c); got != want {
				t.Fatalf("clone %s, want %s", got, want)
			}
			if (c.Messages == nil) != (tt.part.Messages == nil) {
				t.Fatalf("clone's Messages nil = %v, original's %v", c.Messages == nil, tt.part.Messages == nil)
			}
			// Overwrite the original's bytes and slots: the clone must not change.
			for i, m := range tt.part.Messages {
				for j := range m {
					m[j] = 'X'
				}
				tt.part.Messages[i] = nil
			}
			if got := partString(c); got != want {
				t.Errorf("clone changed with the original: %s, want %s", got, want)
			}
			for i, m := range c.Messages {
				if cap(m) != len(m) {
					t.Errorf("message %d: cap %d, len %d: appending would reach the next", i, cap(m), len(m))
				}
			}
		})
	}
}

func partString(p Part) string {
	b, err := json.Marshal(struct {
		Text string
		Msgs []string
	}{p.Text, msgStrings(p.Messages)})
	if err != nil {
		panic(err)
	}
	return string(b)
}

func msgStrings(ms []json.RawMessage) []string {
	var out []string
	for _, m := range ms {
		out = append(out, string(m))
	}
	return out
}
