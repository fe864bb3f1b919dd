package main

import (
	"bytes"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/a2ui-stream/a2ui-stream/internal/deltaengine"
	"github.com/a2ui-stream/a2ui-stream/parser"
)

// sameReport is what compareWithParser found.
type sameReport struct {
	calls, differ int
	first         string // the first call that differs, described
}

// compareWithParser feeds data in chunks of chunk bytes to the engine and
// to the parser in delta mode (or progressive mode) with borrowed output,
// and compares what each call yields, message by message, byte for byte,
// and whether it fails a block. Its error is the parser's construction's.
func compareWithParser(data []byte, chunk int, progressive bool) (sameReport, error) {
	var r sameReport
	t := newTags(deltaengine.Options{Progressive: progressive})
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
		failed := t.k.Failed()
		for _, pt := range t.feed(c) {
			mine = append(mine, pt.msgs...)
		}
		parts, err := p.Feed(c)
		for _, pt := range parts {
			for _, m := range pt.Messages {
				theirs = append(theirs, m)
			}
		}
		r.calls++
		// A block the parser fails (its error) fails here in the same call
		// (the messages of the errors are not compared).
		if same(mine, theirs) && (err != nil) == (t.k.Failed() > failed) {
			continue
		}
		if r.differ++; r.first == "" {
			r.first = fmt.Sprintf("the call with bytes %d to %d: deltaproto yields %q and fails %d blocks, the parser yields %q and returns %v",
				i, i+len(c), mine, t.k.Failed()-failed, theirs, err)
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

// suiteReport is what compareSuite found: the cases whose input the engine
// and the parser agree on at every chunk size, and a line for each of the
// others.
type suiteReport struct {
	agree, total int
	differ       []string
}

// compareSuite runs compareWithParser on the input of each case of a
// streaming conformance suite (the YAML of
// ../shared/a2ui/conformance/suites/streaming_parser.yaml: its steps'
// inputs joined), without the case's catalog, at 1, 7, 16 and 256 bytes.
// A case on which the engine panics differs: it omits much that the suite
// exercises.
func compareSuite(suite []byte, progressive bool) (suiteReport, error) {
	var r suiteReport
	var cases []struct {
		Name  string
		Steps []struct{ Input string }
	}
	if err := yaml.Unmarshal(suite, &cases); err != nil {
		return r, err
	}
	for _, c := range cases {
		var in strings.Builder
		for _, s := range c.Steps {
			in.WriteString(s.Input)
		}
		r.total++
		why := ""
		for _, chunk := range []int{1, 7, 16, 256} {
			if why = compareGuarded([]byte(in.String()), chunk, progressive); why != "" {
				why = fmt.Sprintf("%s, at %d-byte chunks: %s", c.Name, chunk, why)
				break
			}
		}
		if why == "" {
			r.agree++
		} else {
			r.differ = append(r.differ, why)
		}
	}
	return r, nil
}

// compareGuarded is compareWithParser, described in a line ("" when the
// engine and the parser agree), a panic of the engine included.
func compareGuarded(in []byte, chunk int, progressive bool) (why string) {
	defer func() {
		if x := recover(); x != nil {
			why = fmt.Sprint("deltaproto panics: ", x)
		}
	}()
	r, err := compareWithParser(in, chunk, progressive)
	switch {
	case err != nil:
		return err.Error()
	case r.differ > 0:
		return r.first
	}
	return ""
}
