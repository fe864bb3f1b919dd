// Command parserate measures the parser's throughput on a model-output file
// the way ../shared/tools/scanlimit measures the speed limit: MB/s by process
// CPU time, the median of several rounds, fed in fixed-size chunks. Run both
// in one session (bench/ratio.sh does) and quote the ratio.
//
// With -floor it measures an approximate floor instead of the parser: it
// parses the file once, keeping what each Feed returned, then times only
// allocating and copying that output (the same parts, messages and bytes,
// per Feed, allocated as the parser allocates them), which any parser
// yielding the same messages pays. The rate is still the file's size over
// that time. It is approximate: it keeps the whole recorded output live,
// so the garbage collector runs less often than it does for the parser,
// whose live heap is small.
//
// With -borrow the parser runs with parser.WithBorrowedOutput (its output is
// valid until the next Feed), and the floor copies the output into storage
// reused from one Feed to the next, as the parser then does.
//
// With -bytes it also prints the bytes of the messages yielded (from one
// more, untimed pass; leave it off under an instruction counter).
//
// With -split it also prints the mean wall time of a Feed call that yields
// messages and of one that does not (from five more passes, each call
// timed on its own): where a mode's time goes between its yields and the
// reading around them.
//
// usage: parserate [-floor] [-borrow] [-bytes] [-split] -chunk 16 -mode complete -rounds 9 FILE
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"

	"github.com/a2ui-stream/a2ui-stream/bench"
	"github.com/a2ui-stream/a2ui-stream/parser"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

func main() {
	chunk := flag.Int("chunk", 16, "chunk size in bytes")
	rounds := flag.Int("rounds", 9, "rounds")
	modeName := flag.String("mode", "complete", "complete, progressive or delta")
	floor := flag.Bool("floor", false, "time only allocating and copying the parser's output (an approximate floor)")
	borrow := flag.Bool("borrow", false, "parse with parser.WithBorrowedOutput")
	withBytes := flag.Bool("bytes", false, "parse once more, untimed, and print the bytes of the messages yielded")
	split := flag.Bool("split", false, "parse five more times and print the mean time of a Feed call that yields and of one that does not")
	catalogFile := flag.String("catalog", "", "parse with the catalog this file describes (the fields of a conformance suite's catalog block, as a2ui-stream parse --catalog reads it)")
	flag.Parse()
	mode, err := parser.ParseMode(*modeName)
	if err != nil || *chunk <= 0 || *rounds <= 0 || flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: parserate [-floor] [-borrow] [-bytes] [-split] [-catalog FILE] -chunk N -mode MODE -rounds R FILE")
		os.Exit(2)
	}
	data, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	// owned: the options of an owned-output parse (what -floor records
	// and -bytes counts).
	owned := []parser.Option{parser.WithMode(mode)}
	if *catalogFile != "" {
		cat, err := protocol.LoadCatalogFile(*catalogFile)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		owned = append(owned, parser.WithCatalog(cat))
	}
	opts := owned
	if *borrow {
		opts = append(slices.Clip(owned), parser.WithBorrowedOutput())
	}
	run := func(data []byte, chunk int) int { return parseRound(data, chunk, opts) }
	if *floor {
		outs, err := bench.RecordOutput(data, *chunk, owned...)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		run = func([]byte, int) int { return bench.CopyOutput(outs) }
		if *borrow {
			run = func([]byte, int) int { return bench.CopyOutputBorrowed(outs) }
		}
	}
	msgs := 0
	rate := bench.MedianMBps(len(data), *rounds, func() { msgs = run(data, *chunk) })
	what := ""
	if *borrow {
		what = ", borrowed output"
	}
	if *catalogFile != "" {
		what += ", catalog " + *catalogFile
	}
	if *floor {
		what += ", floor: output allocation and copy only"
	}
	count := fmt.Sprintf("%d messages", msgs)
	if *withBytes {
		count += fmt.Sprintf(" of %d bytes", yieldedBytes(data, *chunk, owned))
	}
	fmt.Printf("%.1f MB/s (chunk %d, mode %s, %s, median of %d%s)\n", rate, *chunk, mode, count, *rounds, what)
	if *split {
		y, o, ny, no := feedSplit(data, *chunk, opts, 5)
		fmt.Printf("Feed calls per pass: %d yielding messages, %v each on average; %d others, %v each (wall clock, 5 passes)\n", ny, y, no, o)
	}
}

// parseRound feeds data to a new parser in chunks and returns the number of
// messages it yielded.
func parseRound(data []byte, chunk int, opts []parser.Option) int {
	p, err := parser.New(opts...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	msgs := 0
	for i := 0; i < len(data); i += chunk {
		parts, _ := p.Feed(data[i:min(i+chunk, len(data))])
		msgs += bench.CountMessages(parts)
	}
	parts, _ := p.Close()
	return msgs + bench.CountMessages(parts)
}

// yieldedBytes parses data once more, untimed, and returns the bytes of the
// messages it yields.
func yieldedBytes(data []byte, chunk int, opts []parser.Option) int {
	outs, err := bench.RecordOutput(data, chunk, opts...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	return bench.OutputBytes(outs)
}
