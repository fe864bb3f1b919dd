package deltaengine_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/deltaengine"
)

// FuzzEngineYieldsJSON feeds any bytes, in chunks of any size, to the
// engine in each mode and each framing of blocks: it never panics, and
// every message it yields is one valid JSON object.
func FuzzEngineYieldsJSON(f *testing.F) {
	for _, tc := range sameCases {
		f.Add([]byte(tc.block), uint8(7), false, false)
	}
	for _, tc := range grammarCases {
		f.Add([]byte(tc.block), uint8(3), true, false)
	}
	f.Add([]byte(`{"beginRendering":{"surfaceId":"s","root":"r"}}`), uint8(5), false, true)
	f.Fuzz(func(t *testing.T, block []byte, chunk uint8, progressive, lines bool) {
		k := deltaengine.New(deltaengine.Options{Progressive: progressive, Lines: lines})
		check := func(msgs [][]byte) {
			for _, m := range msgs {
				// (Numbers as they are: a long one is JSON, if no float64.)
				d := json.NewDecoder(bytes.NewReader(m))
				d.UseNumber()
				var v map[string]any
				if err := d.Decode(&v); err != nil || d.More() {
					t.Fatalf("a message is not one JSON object: %v: %q", err, m)
				}
			}
		}
		n := int(chunk%64) + 1
		for round := 0; round < 2; round++ { // a second block sees the first's surfaces
			k.Begin()
			for i := 0; i < len(block); i += n {
				k.Data(block[i:min(i+n, len(block))])
				check(k.Flush())
			}
			k.End()
			check(k.Messages())
		}
	})
}
