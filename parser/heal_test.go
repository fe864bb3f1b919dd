package parser

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
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
// (healOpenAt, which the progressive modes use for components) to healer.heal of the same
// bytes (which the resumable component reader's tests use): fed one byte
// at a time, after every byte, for every open container.
func TestHealOpenMatchesHeal(t *testing.T) {
	for _, tc := range healInputsWithExample(t) {
		t.Run(tc.name, func(t *testing.T) {
			var h healer
			eachOpenContainer(t, tc.in, func(e *progressiveEngine, i, j int, open []byte) {
				got, gotOK := e.healOpenAt(j, false)
				got = bytes.Clone(got)
				want, wantOK := h.heal(open)
				if gotOK != wantOK || (gotOK && !bytes.Equal(got, want)) {
					t.Fatalf("after byte %d, frame %d (%q):\nhealOpenAt: %q %v\n    heal: %q %v", i, j, open, got, gotOK, want, wantOK)
				}
			})
		})
	}
}

// healInputsWithExample is healInputs and the shipped example.
func healInputsWithExample(t *testing.T) []struct{ name, in string } {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "examples", "weather.txt"))
	if err != nil {
		t.Fatalf("the shipped example is missing: %v", err)
	}
	return append(healInputs[:len(healInputs):len(healInputs)], struct{ name, in string }{"weather.txt", string(b)})
}

// eachOpenContainer feeds in to a progressive parser one byte at a time
// and, after every byte, calls visit with each open container (its stack
// index j and its buffered bytes) while no character is cut (the healing
// is not asked then). It fails the test when nothing was visited.
func eachOpenContainer(t *testing.T, in string, visit func(e *progressiveEngine, i, j int, open []byte)) {
	t.Helper()
	p, err := New(WithMode(ModeProgressive))
	if err != nil {
		t.Fatal(err)
	}
	e := progressiveOf(t, p.eng)
	visited := 0
	for i := 0; i < len(in); i++ {
		if _, err := p.Feed([]byte{in[i]}); err != nil {
			t.Fatalf("byte %d: %v", i, err)
		}
		for j, fr := range e.sc.stack {
			if e.sc.utf8need != 0 {
				break
			}
			visit(e, i, j, e.sc.buf[fr.start:])
			visited++
		}
	}
	if visited == 0 {
		t.Fatal("no open container was compared")
	}
}

// TestLastRunes checks lastRunes (an ASCII byte stepped over without
// decoding) against decoding every character backwards.
func TestLastRunes(t *testing.T) {
	decodeAll := func(b []byte, n int) []byte {
		i := len(b)
		for k := 0; k < n && i > 0; k++ {
			_, size := utf8.DecodeLastRune(b[:i])
			i -= size
		}
		return b[i:]
	}
	tests := []struct {
		name string
		in   string
		n    int
	}{
		{"empty", "", 3},
		{"ascii shorter than n", "abc", 5},
		{"ascii longer than n", "abcdef", 2},
		{"two-byte characters", "aé€b", 3},
		{"four-byte character last", "ab😀", 2},
		{"cut character last", "ab\xe2\x82", 2},
		{"invalid byte among ascii", "a\xffbc", 3},
		{"continuation bytes alone", "\x80\x80\x80", 2},
		{"n zero", "abc", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, want := lastRunes([]byte(tc.in), tc.n), decodeAll([]byte(tc.in), tc.n)
			if string(got) != string(want) {
				t.Errorf("lastRunes(%q, %d) = %q, want %q", tc.in, tc.n, got, want)
			}
		})
	}
}
