package main

import (
	"fmt"
	"os"
	"time"

	"github.com/a2ui-stream/a2ui-stream/bench"
	"github.com/a2ui-stream/a2ui-stream/parser"
)

// feedSplit parses data passes times more and returns the mean wall time of
// the Feed calls that yielded messages and of those that did not, with
// their counts per pass. Each call is timed on its own (time.Now), which
// adds the clock's own cost, some tens of nanoseconds, to every call.
func feedSplit(data []byte, chunk int, opts []parser.Option, passes int) (yielding, other time.Duration, nYielding, nOther int) {
	var tYield, tOther time.Duration
	for range passes {
		p, err := parser.New(opts...)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for i := 0; i < len(data); i += chunk {
			start := time.Now()
			parts, _ := p.Feed(data[i:min(i+chunk, len(data))])
			d := time.Since(start)
			if bench.CountMessages(parts) > 0 {
				tYield += d
				nYielding++
			} else {
				tOther += d
				nOther++
			}
		}
		p.Close()
	}
	nYielding /= passes
	nOther /= passes
	if nYielding > 0 {
		yielding = tYield / time.Duration(nYielding*passes)
	}
	if nOther > 0 {
		other = tOther / time.Duration(nOther*passes)
	}
	return yielding, other, nYielding, nOther
}
