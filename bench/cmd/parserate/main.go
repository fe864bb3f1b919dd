// Command parserate measures the parser's throughput on a model-output file
// the way ../shared/tools/scanlimit measures the speed limit: MB/s by process
// CPU time, the median of several rounds, fed in fixed-size chunks. Run both
// in one session (bench/ratio.sh does) and quote the ratio.
//
// With -floor it measures a floor instead of the parser: it parses the file
// once, keeping what each Feed returned, then times only allocating and
// copying that output (the same parts, messages and bytes, per Feed), which
// any parser yielding the same messages pays. The rate is still the file's
// size over that time.
//
// usage: parserate [-floor] -chunk 16 -mode complete -rounds 9 FILE
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/a2ui-stream/a2ui-stream/parser"
)

func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func main() {
	chunk := flag.Int("chunk", 16, "chunk size in bytes")
	rounds := flag.Int("rounds", 9, "rounds")
	modeName := flag.String("mode", "complete", "complete, progressive or delta")
	floor := flag.Bool("floor", false, "time only allocating and copying the parser's output")
	flag.Parse()
	mode, err := parser.ParseMode(*modeName)
	if err != nil || *chunk <= 0 || *rounds <= 0 || flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: parserate [-floor] -chunk N -mode MODE -rounds R FILE")
		os.Exit(2)
	}
	data, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	run := parseRound
	if *floor {
		outs := record(data, *chunk, mode)
		run = func([]byte, int, parser.Mode) int { return copyRound(outs) }
	}
	var rates []float64
	msgs := 0
	for r := 0; r < *rounds; r++ {
		start := cpu()
		msgs = run(data, *chunk, mode)
		d := cpu() - start
		if d <= 0 {
			d = time.Microsecond
		}
		rates = append(rates, float64(len(data))/1e6/d.Seconds())
	}
	sort.Float64s(rates)
	what := ""
	if *floor {
		what = ", floor: output allocation and copy only"
	}
	fmt.Printf("%.1f MB/s (chunk %d, mode %s, %d messages, median of %d%s)\n", rates[len(rates)/2], *chunk, mode, msgs, *rounds, what)
}

// parseRound feeds data to a new parser in chunks and returns the number of
// messages it yielded.
func parseRound(data []byte, chunk int, mode parser.Mode) int {
	p, err := parser.New(parser.WithMode(mode))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	msgs := 0
	for i := 0; i < len(data); i += chunk {
		parts, _ := p.Feed(data[i:min(i+chunk, len(data))])
		msgs += countMessages(parts)
	}
	parts, _ := p.Close()
	return msgs + countMessages(parts)
}

func countMessages(parts []parser.Part) int {
	n := 0
	for _, pt := range parts {
		n += len(pt.Messages)
	}
	return n
}

// record parses data once and returns what each call returned.
func record(data []byte, chunk int, mode parser.Mode) [][]parser.Part {
	p, err := parser.New(parser.WithMode(mode))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var outs [][]parser.Part
	for i := 0; i < len(data); i += chunk {
		parts, _ := p.Feed(data[i:min(i+chunk, len(data))])
		outs = append(outs, parts)
	}
	parts, _ := p.Close()
	return append(outs, parts)
}

// sink keeps the copies reachable, so that the compiler keeps the work.
var sink []parser.Part

// copyRound allocates and fills a copy of every call's parts, as the parser
// would have (one parts array, one messages array, one allocation per
// message and per text), and returns the number of messages.
func copyRound(outs [][]parser.Part) int {
	msgs := 0
	for _, parts := range outs {
		if len(parts) == 0 {
			continue
		}
		own := make([]parser.Part, len(parts))
		n := countMessages(parts)
		var ms []json.RawMessage
		if n > 0 {
			ms = make([]json.RawMessage, 0, n)
		}
		for i, pt := range parts {
			own[i].Text = strings.Clone(pt.Text)
			for _, m := range pt.Messages {
				ms = append(ms, append(json.RawMessage(nil), m...))
			}
			if pt.Messages != nil {
				own[i].Messages = ms[len(ms)-len(pt.Messages):]
			}
		}
		msgs += n
		sink = own
	}
	return msgs
}
