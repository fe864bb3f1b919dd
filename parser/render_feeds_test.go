package parser

import (
	"bytes"
)

// renderFeeds feeds chunks to p and closes it, rendering each call's
// parts as it returns them (goldenRender).
func renderFeeds(p *Parser, chunks [][]byte) string {
	var w bytes.Buffer
	for _, c := range chunks {
		parts, ferr := p.Feed(c)
		goldenRender(&w, "feed", parts, ferr)
	}
	parts, cerr := p.Close()
	goldenRender(&w, "close", parts, cerr)
	return w.String()
}

// chunksOf splits b into chunks of n bytes.
func chunksOf(b []byte, n int) [][]byte {
	var out [][]byte
	for i := 0; i < len(b); i += n {
		out = append(out, b[i:min(i+n, len(b))])
	}
	return out
}
