package parser

import (
	"bytes"
	"github.com/a2ui-stream/a2ui-stream/internal/deltaengine"
	"testing"
)

// TestMayCutKeepsItsAnswer feeds data model messages one byte at a time
// and checks that the data reader's cached answer (mayCut) is, at every
// byte inside a string, the one mayCutString gives for the whole text:
// strings under keys that may be cut and keys that may not, link values
// (each prefix of "https://" arriving byte by byte) and a link-like key.
func TestMayCutKeepsItsAnswer(t *testing.T) {
	for _, tc := range []struct{ name, msg string }{
		{"v08_plain_text", `{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"title","valueString":"hello there, a long text"}]}}`},
		{"v08_link_value", `{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"t","valueString":"https://example.com/a"},{"key":"u","valueString":"http:/x"}]}}`},
		{"v08_short_values", `{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"a","valueString":"/"},{"key":"b","valueString":"dat"},{"key":"c","valueString":"data:x"},{"key":"d","valueString":"ht"}]}}`},
		{"v08_link_key", `{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"imageUrl","valueString":"plain words here"}]}}`},
		{"v08_escape", `{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"x","valueString":"a\"b\u00e9 https://"}]}}`},
		{"v09_values", `{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":{"name":"https://a.b","note":"short","u":"/p"}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v08 := bytes.Contains([]byte(tc.msg), []byte("dataModelUpdate"))
			r := &dataReader{}
			strings := 0
			for n := 1; n <= len(tc.msg); n++ {
				buf := []byte(tc.msg[:n])
				r.sync(buf, 1, 0, v08)
				if r.none || r.frozen || r.lex != lexStr {
					continue
				}
				f := deltaengine.RStripSpace(buf[r.fs:r.end])
				want := mayCutString(f, r.tok-r.fs)
				if got := r.mayCut(f); got != want {
					t.Fatalf("after %q: mayCut %v, mayCutString %v", tc.msg[:n], got, want)
				}
				strings++
			}
			if strings == 0 {
				t.Fatal("no byte inside a string was read")
			}
		})
	}
}
