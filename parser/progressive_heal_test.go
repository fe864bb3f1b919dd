package parser

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// healInputs are streams whose blocks exercise healing: escapes, cut keys,
// trailing commas, whitespace, multi-byte characters and nested lists.
var healInputs = []struct {
	name string
	in   string
}{
	{"escapes", `<a2ui-json>[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"a \"quoted\\\" \u00e9 word"},{"id":"x","component":"Column","children":["a","b\\"]}]}}]</a2ui-json>`},
	{"whitespace and commas", "<a2ui-json>[ {\"version\" : \"v0.9\" , \"updateComponents\" : { \"surfaceId\" : \"s\" , \"components\" : [ { \"id\" : \"root\" , \"component\" : \"Row\" , \"children\" : [ \"a\" , \"b\" ] } , { \"id\" : \"a\" , \"component\" : \"Text\" , \"text\" : \"x\" } ] } } ]</a2ui-json>"},
	{"multi-byte", `<a2ui-json>[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"18°C 日本 🌧"}]}}]</a2ui-json>`},
	{"v0.8 nested", `<a2ui-json>[{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Column":{"children":{"explicitList":["t"]}}}},{"id":"t","component":{"Text":{"text":{"literalString":"hi, there"}}}}]}},{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"k","valueMap":[{"key":"a","valueString":"b"}]}]}}]</a2ui-json>`},
	{"data model", `<a2ui-json>[{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/p","value":{"list":[1,2,{"q":"w\"x"}],"n":null,"t":true}}}]</a2ui-json>`},
}

// TestHealOpenMatchesHeal holds the scanner's healing of an open object
// (healOpen, which the progressive modes use) to healer.heal of the same
// bytes (which the resumable component reader's tests use): fed one byte
// at a time, after every byte, for every open container.
func TestHealOpenMatchesHeal(t *testing.T) {
	inputs := healInputs
	if b, err := os.ReadFile(filepath.Join("..", "examples", "weather.txt")); err == nil {
		inputs = append(inputs, struct{ name, in string }{"weather.txt", string(b)})
	} else {
		t.Fatalf("the shipped example is missing: %v", err)
	}
	for _, tc := range inputs {
		t.Run(tc.name, func(t *testing.T) {
			p, err := New(WithMode(ModeProgressive))
			if err != nil {
				t.Fatal(err)
			}
			e := p.eng.(*progressiveEngine)
			var h healer
			compared := 0
			for i := 0; i < len(tc.in); i++ {
				if _, err := p.Feed([]byte{tc.in[i]}); err != nil {
					t.Fatalf("byte %d: %v", i, err)
				}
				for j, fr := range e.sc.stack {
					if e.sc.utf8need != 0 {
						break // healOpen is not asked while a character is cut
					}
					got, gotOK := e.healOpen(j)
					got = bytes.Clone(got)
					want, wantOK := h.heal(e.sc.buf[fr.start:])
					if gotOK != wantOK || (gotOK && !bytes.Equal(got, want)) {
						t.Fatalf("after byte %d, frame %d (%q):\nhealOpen: %q %v\n    heal: %q %v", i, j, e.sc.buf[fr.start:], got, gotOK, want, wantOK)
					}
					compared++
				}
			}
			if compared == 0 {
				t.Fatal("no open container was compared")
			}
		})
	}
}
