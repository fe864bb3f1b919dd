package frame

import (
	"strings"
	"testing"
)

var tagsCases = []splitCase{
	{"empty stream", "", ""},
	{"prose only", "Hello, world", `
text "Hello, world"
`},
	{"one block between prose", "Hi <a2ui-json>[1]</a2ui-json> bye", `
text "Hi "
start @14
data "[1]"
end @17
text " bye"
`},
	{"empty block", "<a2ui-json></a2ui-json>", `
start @11
end @11
`},
	{"two blocks back to back", "<a2ui-json>1</a2ui-json><a2ui-json>2</a2ui-json>", `
start @11
data "1"
end @12
start @35
data "2"
end @36
`},
	{"almost-tags in prose", "a < b <a2ui <a2ui-jso <A2UI-JSON> x", `
text "a < b <a2ui <a2ui-jso <A2UI-JSON> x"
`},
	{"'<' right before the tags", "<<a2ui-json>x<</a2ui-json><", `
text "<"
start @12
data "x<"
end @14
text "<"
`},
	{"close tag prefix inside a block is content", `<a2ui-json>["</a2ui"]</a2ui-json>`, `
start @11
data "[\"</a2ui\"]"
end @21
`},
	{"open tag inside a block is content", "<a2ui-json><a2ui-json></a2ui-json>", `
start @11
data "<a2ui-json>"
end @22
`},
	{"close tag outside a block is prose", "a</a2ui-json>b", `
text "a</a2ui-json>b"
`},
	{"unclosed block ends with the stream", "x<a2ui-json>[1", `
text "x"
start @12
data "[1"
end @14
`},
	{"stream ends in a partial open tag", "x <a2ui-js", `
text "x <a2ui-js"
`},
	{"stream ends in a partial close tag", "<a2ui-json>[1]</a2ui", `
start @11
data "[1]</a2ui"
end @20
`},
	{"multi-byte prose", "18°C 日本 🎉<a2ui-json>é</a2ui-json>🎉", `
text "18°C 日本 🎉"
start @28
data "é"
end @30
text "🎉"
`},
	{"stream ends in an incomplete UTF-8 sequence", "a\xf0\x9f\x8e", `
text "a\xf0\x9f\x8e"
`},
}

func TestTags(t *testing.T) { runCases(t, tagsFraming, tagsCases) }

// TestTagMarkersFirstByteOnce checks what Tags.Split relies on to resume
// after a mismatch without looking back: the tags' first byte occurs in
// neither tag again.
func TestTagMarkersFirstByteOnce(t *testing.T) {
	for _, m := range []string{TagOpen, TagClose} {
		if m[0] != tagFirst || strings.IndexByte(m[1:], tagFirst) >= 0 {
			t.Errorf("marker %q: first byte %q must start it and occur once", m, tagFirst)
		}
	}
}
