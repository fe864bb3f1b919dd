package parser

import (
	"fmt"
	"sync"
	"testing"
)

// TestParsersConcurrently: parsers used at once on several goroutines,
// which share the pools of released buffers (block buffers, borrowed
// output blocks), give each stream of surfacesStream the output it gives
// alone (run it with -race).
func TestParsersConcurrently(t *testing.T) {
	type job struct {
		chunks [][]byte
		opts   []Option
		want   string
		what   string
	}
	var jobs []job
	for seed := range int64(24) {
		for _, v08 := range []bool{false, true} {
			data := surfacesStream(seed, v08)
			chunks := chunksOf(data, 1+int(seed*3%17))
			for _, mode := range []Mode{ModeProgressive, ModeDelta} {
				for _, borrow := range []bool{false, true} {
					opts := []Option{WithMode(mode)}
					if borrow {
						opts = append(opts, WithBorrowedOutput())
					}
					jobs = append(jobs, job{chunks, opts, renderRun(t, chunks, opts...), fmt.Sprintf("seed %d (v08 %v), %v, borrowed %v", seed, v08, mode, borrow)})
				}
			}
		}
	}
	const workers = 4
	var wg sync.WaitGroup
	errs := make(chan string, len(jobs)*3)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 3 {
				for i := w; i < len(jobs); i += workers {
					j := jobs[(i+round)%len(jobs)]
					if got, err := renderRunErr(j.chunks, j.opts...); err != nil || got != j.want {
						errs <- fmt.Sprintf("%s: %v", j.what, err)
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for what := range errs {
		t.Errorf("%s: output differs when parsed concurrently with other parsers", what)
		break
	}
}
