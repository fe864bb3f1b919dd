// Command parserate measures the parser's throughput on a model-output file
// the way ../shared/tools/scanlimit measures the speed limit: MB/s by process
// CPU time, the median of several rounds, fed in fixed-size chunks. Run both
// in one session (bench/ratio.sh does) and quote the ratio.
//
// usage: parserate -chunk 16 -mode complete -rounds 9 FILE
package main

import (
	"flag"
	"fmt"
	"os"
	"sort"
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
	flag.Parse()
	mode, err := parser.ParseMode(*modeName)
	if err != nil || *chunk <= 0 || *rounds <= 0 || flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: parserate -chunk N -mode MODE -rounds R FILE")
		os.Exit(2)
	}
	data, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var rates []float64
	msgs := 0
	for r := 0; r < *rounds; r++ {
		p, err := parser.New(parser.WithMode(mode))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		msgs = 0
		start := cpu()
		for i := 0; i < len(data); i += *chunk {
			parts, _ := p.Feed(data[i:min(i+*chunk, len(data))])
			for _, pt := range parts {
				msgs += len(pt.Messages)
			}
		}
		parts, _ := p.Close()
		for _, pt := range parts {
			msgs += len(pt.Messages)
		}
		d := cpu() - start
		if d <= 0 {
			d = time.Microsecond
		}
		rates = append(rates, float64(len(data))/1e6/d.Seconds())
	}
	sort.Float64s(rates)
	fmt.Printf("%.1f MB/s (chunk %d, mode %s, %d messages, median of %d)\n", rates[len(rates)/2], *chunk, mode, msgs, *rounds)
}
