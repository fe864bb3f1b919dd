package main

import (
	"bytes"
	"fmt"

	"github.com/a2ui-stream/a2ui-stream/parser"
)

// sameReport is what compareWithParser found.
type sameReport struct {
	calls, differ int
	first         string // the first call that differs, described
}

// compareWithParser feeds data in chunks of chunk bytes to the engine and
// to the parser in delta mode (or progressive mode) with borrowed output,
// and compares what each call yields, message by message, byte for byte.
func compareWithParser(data []byte, chunk int, progressive bool) (sameReport, error) {
	var r sameReport
	k := newEngine()
	k.progressive = progressive
	mode := parser.ModeDelta
	if progressive {
		mode = parser.ModeProgressive
	}
	p, err := parser.New(parser.WithMode(mode), parser.WithBorrowedOutput())
	if err != nil {
		return r, err
	}
	var mine, theirs [][]byte
	for i := 0; i < len(data); i += chunk {
		c := data[i:min(i+chunk, len(data))]
		mine, theirs = mine[:0], theirs[:0]
		for _, pt := range k.feed(c) {
			mine = append(mine, pt.msgs...)
		}
		parts, err := p.Feed(c)
		if err != nil {
			return r, fmt.Errorf("parser, at byte %d: %w", i, err)
		}
		for _, pt := range parts {
			for _, m := range pt.Messages {
				theirs = append(theirs, m)
			}
		}
		r.calls++
		if same(mine, theirs) {
			continue
		}
		if r.differ++; r.first == "" {
			r.first = fmt.Sprintf("the call with bytes %d to %d: deltaproto yields %q, the parser %q", i, i+len(c), mine, theirs)
		}
	}
	return r, nil
}

func same(a, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}
