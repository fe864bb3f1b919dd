package bench

import (
	"encoding/json"
	"runtime"
	"strings"

	"github.com/a2ui-stream/a2ui-stream/parser"
)

// The floor of a parse: allocating and copying the parts it returns and
// nothing else. What any parser yielding the same parts must at least
// spend; quoted beside the parser's own figures (parserate -floor,
// BenchmarkScalingFloor).

// RecordOutput parses data once, fed in chunks of chunk bytes, and returns
// what each Feed and the Close call returned.
func RecordOutput(data []byte, chunk int, opts ...parser.Option) ([][]parser.Part, error) {
	p, err := parser.New(opts...)
	if err != nil {
		return nil, err
	}
	var outs [][]parser.Part
	for i := 0; i < len(data); i += chunk {
		parts, _ := p.Feed(data[i:min(i+chunk, len(data))])
		outs = append(outs, parts)
	}
	parts, _ := p.Close()
	return append(outs, parts), nil
}

// CopyOutput allocates and fills a copy of every call's parts the way the
// parser allocates them (text-only parts from a shared slab of 16, one
// allocation for one part with one message, otherwise one parts array and
// one messages array; one allocation per message and per text), and
// returns the number of messages.
func CopyOutput(outs [][]parser.Part) int {
	msgs := 0
	var slab, last []parser.Part
	for _, parts := range outs {
		if len(parts) == 0 {
			continue
		}
		n := CountMessages(parts)
		var own []parser.Part
		var ms []json.RawMessage
		switch {
		case n == 0:
			if len(slab) < len(parts) {
				slab = make([]parser.Part, max(16, len(parts)))
			}
			own, slab = slab[:len(parts):len(parts)], slab[len(parts):]
		case len(parts) == 1 && n == 1:
			one := &struct {
				part [1]parser.Part
				msg  [1]json.RawMessage
			}{}
			own, ms = one.part[:], one.msg[:0]
		default:
			own, ms = make([]parser.Part, len(parts)), make([]json.RawMessage, 0, n)
		}
		for i, pt := range parts {
			own[i].Text = strings.Clone(pt.Text)
			if pt.Messages == nil {
				continue
			}
			a := len(ms)
			for _, m := range pt.Messages {
				ms = append(ms, append(json.RawMessage(nil), m...))
			}
			own[i].Messages = ms[a:len(ms):len(ms)]
		}
		msgs += n
		last = own
	}
	runtime.KeepAlive(last) // the copies escape, as the parser's output does
	return msgs
}

// CopyOutputBorrowed is CopyOutput for a parser with borrowed output: the
// parts, messages and bytes of each call are copied into storage reused
// from one call to the next (texts are still allocated: they are strings).
func CopyOutputBorrowed(outs [][]parser.Part) int {
	msgs := 0
	var own []parser.Part
	var ms []json.RawMessage
	var buf []byte
	for _, parts := range outs {
		own, ms, buf = own[:0], ms[:0], buf[:0]
		for _, pt := range parts {
			cp := parser.Part{Text: strings.Clone(pt.Text)}
			if pt.Messages != nil {
				a := len(ms)
				for _, m := range pt.Messages {
					b := len(buf)
					buf = append(buf, m...)
					ms = append(ms, buf[b:len(buf):len(buf)])
				}
				cp.Messages = ms[a:len(ms):len(ms)]
			}
			own = append(own, cp)
		}
		msgs += CountMessages(parts)
	}
	runtime.KeepAlive(own)
	return msgs
}

// CountMessages is the number of messages in parts.
func CountMessages(parts []parser.Part) int {
	n := 0
	for _, pt := range parts {
		n += len(pt.Messages)
	}
	return n
}

// OutputBytes is the number of message bytes in outs (what RecordOutput
// returns).
func OutputBytes(outs [][]parser.Part) int {
	n := 0
	for _, parts := range outs {
		for _, pt := range parts {
			for _, m := range pt.Messages {
				n += len(m)
			}
		}
	}
	return n
}
