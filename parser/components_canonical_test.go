package parser

import (
	"testing"
)

// canonShapeCases are streams with component shapes the parser writes in
// their canonical encoding (keys sorted at every depth, the last of equal
// keys kept) rather than in stream order: an empty child list, a key
// twice, many keys (40 in an object), an escape in a key or an id, v0.8
// definitions with a key twice. Every other component in them, and every
// part of one before its shape arrives, has its keys in sorted order, so
// that the two orders differ only where the shape itself does. (A
// component whose stream order is not sorted is written in that order
// until its shape shows, then canonically; fastPathCases'
// duplicate_plain_keys covers that, up to key order.)
var canonShapeCases = []struct{ name, in string }{
	{"escape_in_sorted_component", fastCS + `{"updateComponents":{"components":[{"children":["a"],"component":"Column","id":"root"},{"children":[],"component":"Row","id":"a","label":"say \"hi\"\n"},{"component":"Text","id":"b","text":"x"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"keys_twice", fastCS + `{"updateComponents":{"components":[{"child":"a","component":"Card","child":"b","id":"root"},{"component":"Text","id":"a","text":"1","text":"one"},{"component":"Text","id":"b","style":{"c":1,"d":{"e":1,"e":2},"c":2},"text":"2"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"same_value_then_key_twice", fastCS + `{"updateComponents":{"components":[{"":"","component":"Text","id":"root","text":"a","":""}],"surfaceId":"s"},"version":"v0.9"},{"updateComponents":{"components":[{"":"","component":"Text","id":"root","text":"a"}],"surfaceId":"s"},"version":"v0.9"},{"updateComponents":{"components":[{"component":"Text","id":"root","text":"a","text":"a"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"many_keys", fastCS + `{"updateComponents":{"components":[{"children":["a"],"component":"Column","id":"root"},{"component":"Text","id":"a"` + manyKeys(40) + `,"style":{` + manyKeys(40)[1:] + `},"text":"t"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"escaped_keys_and_ids", fastCS + `{"updateComponents":{"components":[{"children":["\u0061","b","q\"x"],"component":"Column","id":"r\u006fot"},{"\u0063hild":"c","component":"Card","id":"a"},{"component":"Text","id":"b","te\u0078t":"x","q\"k":1},{"component":"Text","id":"c","text":"sea"}],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`},
	{"v08_shapes", fastCSv08 + `{"surfaceUpdate":{"components":[{"component":{"Column":{"children":{"explicitList":["a","b"]},"alignment":"x","children":{"explicitList":["a","b","c"]}}},"id":"root"},{"component":{"Text":{"text":{"path":"\/x"}}},"id":"a"},{"component":{"Text":{"text":{"literalString":"b"},"usageHint":"h1","usageHint":"h2"}},"id":"b"},{"component":{"Text":{"text":{"literalString":"c"}}},"id":"c","weight":1,"weight":2}],"surfaceId":"s"}}]</a2ui-json>`},
}

// TestCanonicalShapesMatchRecorded: canonShapeCases give, call by call
// and byte for byte, their recorded output (see golden_paths_test.go), fed
// one byte at a time, in two pieces split at every byte, and at a few
// chunk sizes.
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
