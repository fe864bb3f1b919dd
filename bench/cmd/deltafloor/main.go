// Command deltafloor estimates how fast an engine built only for delta
// mode could be, by doing just what such an engine cannot avoid on v0.9
// model output: tags framing, a JSON scanner that keeps the current block,
// and at the end of every chunk a healed copy of the open component (its
// open string and containers closed), wrapped as an updateComponents
// message in a fresh allocation whenever it changed, with one map lookup
// per yield. It has no reachability, placeholders, data model or
// cuttable-key rule (so it heals every string and yields more often than
// the parser), and no error handling: it is a measuring stick, not a
// parser. It prints MB/s by process CPU time, the median of several rounds,
// as parserate and ../shared/tools/scanlimit do.
//
// usage: deltafloor -chunk 16 -rounds 9 FILE
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/a2ui-stream/a2ui-stream/bench"
)

const (
	openTag  = "<a2ui-json>"
	closeTag = "</a2ui-json>"
	// envelope is the start of every yielded message (the surface is fixed:
	// this estimates cost, not content).
	envelope = `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[`
)

// skeleton is the estimating engine's state.
type skeleton struct {
	inBlock  bool
	tagPos   int    // bytes of the awaited tag matched so far
	buf      []byte // the current block
	stack    []byte // open containers
	inStr    bool
	esc      bool
	comp     int    // start in buf of the open component, or -1
	healed   []byte // scratch for the healed component
	last     []byte // the component last yielded
	seen     map[string]int
	yields   int
	outBytes int
}

func (k *skeleton) feed(chunk []byte) {
	for i := 0; i < len(chunk); i++ {
		c := chunk[i]
		if k.inStr {
			j := i
			for j < len(chunk) && chunk[j] != '"' && chunk[j] != '\\' && !k.esc {
				j++
			}
			if j > i {
				k.buf = append(k.buf, chunk[i:j]...)
				i = j - 1
				continue
			}
			k.buf = append(k.buf, c)
			switch {
			case k.esc:
				k.esc = false
			case c == '\\':
				k.esc = true
			case c == '"':
				k.inStr = false
			}
			continue
		}
		if !k.inBlock || len(k.stack) == 0 {
			// Outside the block's JSON: only a tag matters.
			tag := openTag
			if k.inBlock {
				tag = closeTag
			}
			switch {
			case c == tag[k.tagPos]:
				k.tagPos++
			case c == tag[0]:
				k.tagPos = 1
			default:
				k.tagPos = 0
			}
			if k.tagPos == len(tag) {
				k.tagPos = 0
				k.inBlock = !k.inBlock
				k.buf, k.stack, k.comp = k.buf[:0], k.stack[:0], -1
				continue
			}
			if !k.inBlock || (c != '[' && c != '{') {
				continue
			}
		}
		k.buf = append(k.buf, c)
		switch c {
		case '"':
			k.inStr = true
		case '{', '[':
			k.stack = append(k.stack, c)
			// [ message { updateComponents { components [ component {
			if c == '{' && len(k.stack) == 5 && k.stack[3] == '[' {
				k.comp = len(k.buf) - 1
			}
		case '}', ']':
			if len(k.stack) > 0 {
				k.stack = k.stack[:len(k.stack)-1]
			}
			if c == '}' && len(k.stack) == 4 && k.comp >= 0 {
				k.yield(k.buf[k.comp:])
				k.comp = -1
			}
		}
	}
	if k.inBlock && k.comp >= 0 {
		h := append(k.healed[:0], k.buf[k.comp:]...)
		if k.inStr {
			h = append(h, '"')
		}
		for j := len(k.stack) - 1; j >= 4; j-- {
			if k.stack[j] == '{' {
				h = append(h, '}')
			} else {
				h = append(h, ']')
			}
		}
		k.healed = h
		k.yield(h)
	}
}

// yield wraps comp as a message when it changed since the last yield.
func (k *skeleton) yield(comp []byte) {
	if bytes.Equal(comp, k.last) {
		return
	}
	k.last = append(k.last[:0], comp...)
	k.seen[string(comp[:min(len(comp), 24)])]++ // a lookup by id, at least
	msg := make([]byte, 0, len(envelope)+len(comp)+3)
	msg = append(append(append(msg, envelope...), comp...), "]}}"...)
	k.yields++
	k.outBytes += len(msg)
}

func main() {
	chunk := flag.Int("chunk", 16, "chunk size in bytes")
	rounds := flag.Int("rounds", 9, "rounds")
	flag.Parse()
	if *chunk <= 0 || *rounds <= 0 || flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: deltafloor -chunk N -rounds R FILE")
		os.Exit(2)
	}
	data, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var k *skeleton
	rate := bench.MedianMBps(len(data), *rounds, func() {
		k = &skeleton{comp: -1, seen: map[string]int{}}
		for i := 0; i < len(data); i += *chunk {
			k.feed(data[i:min(i+*chunk, len(data))])
		}
	})
	fmt.Printf("%.1f MB/s (chunk %d, %d yields, %d bytes, median of %d)\n", rate, *chunk, k.yields, k.outBytes, *rounds)
}
