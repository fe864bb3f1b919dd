package parser

import (
	"fmt"
	"strings"
	"testing"
)

// TestCompScannerCanonical checks the components the byte-level reader
// takes in their canonical encoding (compFast, the bytes kept being that
// encoding, with their child slots) and those it still leaves to the
// generic path (compUnread).
func TestCompScannerCanonical(t *testing.T) {
	for _, tc := range []scanCase{
		{"escape in a sorted component", false, `{"id":"r","component":"Row","children":[],"label":"say \"hi\"\n\u00e9\/"}`, compFast,
			`{"children":[],"component":"Row","id":"r","label":"say \"hi\"\né/"}`, "[]"},
		{"key twice", false, `{"id":"r","text":"a","component":"Text","text":"b"}`, compFast,
			`{"component":"Text","id":"r","text":"b"}`, "[]"},
		{"child twice", false, `{"id":"r","component":"Card","child":"a","child":"b"}`, compFast,
			`{"child":"b","component":"Card","id":"r"}`, "[2:b]"},
		{"id twice", false, `{"id":"x","component":"Text","id":"r"}`, compFast,
			`{"component":"Text","id":"r"}`, "[]"},
		{"nested key twice", false, `{"id":"r","component":"Text","style":{"c":1,"d":{"e":1,"e":2},"c":2}}`, compFast,
			`{"component":"Text","id":"r","style":{"c":2,"d":{"e":2}}}`, "[]"},
		{"v08 property twice", true, `{"id":"r","component":{"Row":{"children":{"explicitList":["a"]},"alignment":"x","children":{"explicitList":["b"]}}}}`, compFast,
			`{"component":{"Row":{"alignment":"x","children":{"explicitList":["b"]}}},"id":"r"}`, "[7:b]"},
		{"many keys", false, `{"id":"r","component":"Text"` + manyKeys(33) + `}`, compFast,
			`{"component":"Text","id":"r"` + sortedKeys(33) + `}`, "[]"},
		{"many nested keys", false, `{"id":"r","component":"Text","style":{` + manyKeys(40)[1:] + `}}`, compFast,
			`{"component":"Text","id":"r","style":{` + sortedKeys(40)[1:] + `}}`, "[]"},
		{"escaped key", false, `{"id":"r","component":"Text","te\u0078t":"x"}`, compFast,
			`{"component":"Text","id":"r","text":"x"}`, "[]"},
		{"escaped child field", false, `{"id":"r","component":"Card","\u0063hild":"a"}`, compFast,
			`{"child":"a","component":"Card","id":"r"}`, "[2:a]"},
		{"key that needs its escape", false, `{"id":"r","component":"Text","q\"k":{"a\\b":1}}`, compFast,
			`{"component":"Text","id":"r","q\"k":{"a\\b":1}}`, "[]"},
		{"escaped ids", false, `{"id":"r\u006ft","component":"Row","children":["\u0061","b"],"x":"\/"}`, compFast,
			`{"children":["a","b"],"component":"Row","id":"rot","x":"/"}`, "[0:a 0:b]"},
		{"v08 escaped path", true, `{"id":"r","component":{"Text":{"text":{"path":"\/x"}}}}`, compFast,
			`{"component":{"Text":{"text":{"path":"/x"}}},"id":"r"}`, "[]"},
		{"child id that needs its escape", false, `{"id":"r","component":"Row","children":["q\"x","a\u0001\\"]}`, compFast,
			`{"children":["q\"x","a\u0001\\"],"component":"Row","id":"r"}`, `[0:q\"x 0:a\u0001\\]`},
		{"id that needs its escape", false, `{"id":"r\"","component":"Row","children":["a"]}`, compFast,
			`{"children":["a"],"component":"Row","id":"r\""}`, "[0:a]"},
		{"id with a control character and an empty list", false, `{"id":"e\u0001","component":"Row","children":[]}`, compFast,
			`{"children":[],"component":"Row","id":"e\u0001"}`, "[]"},
		{"id with an escaped backslash naming itself", false, `{"id":"b\u005c","component":"Card","child":"b\\"}`, compFast,
			`{"child":"b\\","component":"Card","id":"b\\"}`, `[2:b\\]`},
		{"v08 id that needs its escape", true, `{"id":"q\"x","component":{"Column":{"children":{"explicitList":["a\n"]}}}}`, compFast,
			`{"component":{"Column":{"children":{"explicitList":["a\n"]}}},"id":"q\"x"}`, `[7:a\n]`},
		{"type that needs its escape", false, `{"id":"r","component":"R\"w"}`, compFast,
			`{"component":"R\"w","id":"r"}`, "[]"},
		{"invalid after a key twice", false, `{"id":"r","component":"Text","a":1,"a":tru}`, compInvalid, "", ""},
		{"special key after a key twice", false, `{"id":"r","component":"Text","a":1,"a":2,"root":"x"}`, compFast,
			`{"a":2,"component":"Text","id":"r","root":"x"}`, "[8:x]"},
		{"own componentId after a key twice", false, `{"id":"r","component":"Text","a":1,"a":2,"componentId":"x"}`, compFast,
			`{"a":2,"component":"Text","componentId":"x","id":"r"}`, "[5:x]"},
		{"child field after a key twice", false, `{"id":"r","component":"Text","a":1,"a":2,"x":{"child":"c"}}`, compFast, `{"a":2,"component":"Text","id":"r","x":{"child":"c"}}`, "[2:c]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkScan(t, tc.comp, tc.v08, tc.want, tc.out, tc.ids)
		})
	}
}

// scanCase is a component read by checkScan: the outcome wanted and, for
// compFast, the bytes kept and the child slots ("[field:id ...]").
type scanCase struct {
	name string
	v08  bool
	comp string
	want int
	out  string
	ids  string
}

// checkScan reads comp with a compScanner and checks the outcome and, for
// compFast, the bytes kept (out) and the child slots (ids, "[field:id
// ...]"). It returns the scanner, or nil when the outcome is not compFast.
func checkScan(t *testing.T, comp string, v08 bool, want int, out, ids string) *compScanner {
	t.Helper()
	var c compScanner
	got := c.scanAt([]byte(comp), v08, 1, 0)
	if got != want {
		t.Fatalf("outcome %d, want %d", got, want)
	}
	if got != compFast {
		return nil
	}
	if string(c.out) != out {
		t.Errorf("bytes %s, want %s", c.out, out)
	}
	var s []string
	for _, sl := range c.slots {
		s = append(s, fmt.Sprintf("%d:%s", sl.field, c.out[sl.a:sl.b]))
	}
	if got := "[" + strings.Join(s, " ") + "]"; got != ids {
		t.Errorf("slots %s, want %s", got, ids)
	}
	return &c
}

// sortedKeys is manyKeys(n) with its members in key order.
func sortedKeys(n int) string {
	keys := make([]string, n)
	for i := range n {
		keys[i] = fmt.Sprintf(`"k%d":%d`, i, i)
	}
	for i := range keys { // (insertion sort by key)
		for j := i; j > 0 && keys[j][:strings.IndexByte(keys[j], ':')] < keys[j-1][:strings.IndexByte(keys[j-1], ':')]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return "," + strings.Join(keys, ",")
}

// canonShapeCases are streams with the component shapes read in their
// canonical encoding (entry_canon.go). Every other component in them, and
// every part of one before its shape arrives, has its keys in order, so
// that the byte-level path writes every message as the generic path does,
// byte for byte. (A component whose stream order is not sorted is written
// in that order until its shape arrives: then it is a rewrite of equal
// value, which keeps the entry as it was, in both paths; fastPathCases'
// duplicate_plain_keys checks that, up to key order.)
var canonShapeCases = []struct{ name, in string }{
	{"escape_in_sorted_component", fastCS + `{"updateComponents":{"components":[{"children":["a"],"component":"Column","id":"root"},{"children":[],"component":"Row","id":"a","label":"say \"hi\"\n"},{"component":"Text","id":"b","text":"x"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"keys_twice", fastCS + `{"updateComponents":{"components":[{"child":"a","component":"Card","child":"b","id":"root"},{"component":"Text","id":"a","text":"1","text":"one"},{"component":"Text","id":"b","style":{"c":1,"d":{"e":1,"e":2},"c":2},"text":"2"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"same_value_then_key_twice", fastCS + `{"updateComponents":{"components":[{"":"","component":"Text","id":"root","text":"a","":""}],"surfaceId":"s"},"version":"v0.9"},{"updateComponents":{"components":[{"":"","component":"Text","id":"root","text":"a"}],"surfaceId":"s"},"version":"v0.9"},{"updateComponents":{"components":[{"component":"Text","id":"root","text":"a","text":"a"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"many_keys", fastCS + `{"updateComponents":{"components":[{"children":["a"],"component":"Column","id":"root"},{"component":"Text","id":"a"` + manyKeys(40) + `,"style":{` + manyKeys(40)[1:] + `},"text":"t"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"escaped_keys_and_ids", fastCS + `{"updateComponents":{"components":[{"children":["\u0061","b","q\"x"],"component":"Column","id":"r\u006fot"},{"\u0063hild":"c","component":"Card","id":"a"},{"component":"Text","id":"b","te\u0078t":"x","q\"k":1},{"component":"Text","id":"c","text":"sea"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"v08_shapes", fastCSv08 + `{"surfaceUpdate":{"components":[{"component":{"Column":{"children":{"explicitList":["a","b"]},"alignment":"x","children":{"explicitList":["a","b","c"]}}},"id":"root"},{"component":{"Text":{"text":{"path":"\/x"}}},"id":"a"},{"component":{"Text":{"text":{"literalString":"b"},"usageHint":"h1","usageHint":"h2"}},"id":"b"},{"component":{"Text":{"text":{"literalString":"c"}}},"id":"c","weight":1,"weight":2}],"surfaceId":"s"}}]</a2ui-json>`},
}

// TestCanonicalShapesMatchRecorded: streams with components read in their
// canonical encoding give, call by call and byte for byte, their recorded
// output (the generic path's), fed one byte at a time, in two pieces
// split at every byte, and at a few chunk sizes.
func TestCanonicalShapesMatchRecorded(t *testing.T) {
	t.Parallel() // long: runs beside the other long tests
	matchRecorded(t, canonShapeCases)
}

// matchRecorded checks that each stream gives, call by call and byte for
// byte (renderRaw), its recorded output (golden_paths_test.go), in both
// progressive modes, fed one byte at a time, in two pieces split at every
// byte, and at a few chunk sizes. t is the top-level test.
func matchRecorded(t *testing.T, cases []struct{ name, in string }) {
	g := newPathGolden(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g.checkModes(t, tc.name, renderRaw, splitsOf([]byte(tc.in), true, 1, 3, 16, 0))
		})
	}
}
