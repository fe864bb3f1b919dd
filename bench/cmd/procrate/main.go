// Command procrate measures the processor's throughput on the lists of a
// model-output corpus the way bench/reference/webcore_processor.mjs measures
// the reference renderer core: every <a2ui-json> block is one list, all lists
// are applied in order to a fresh processor per pass, and the rate is messages
// per second of process CPU time, the median of several rounds. A round
// repeats passes until -mintime seconds of CPU time have gone into them. Run
// both in one session (bench/processor_vs_reference.sh does) and quote the
// ratio.
//
// Two figures: "split+apply" times processor.SplitList of each list's text
// plus ProcessList (the reference's counterpart parses each list with
// JSON.parse), "apply" times ProcessList alone on lists split before the
// clock starts, as BenchmarkProcessor does.
//
// Modes, as in BenchmarkProcessor: structural (topology off), topology (the
// default) and schema (topology plus the basic v0.9 catalog, loaded from
// -spec).
//
// usage: procrate -mode topology -rounds 9 [-spec DIR] FILE
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/a2ui-stream/a2ui-stream/bench"
	"github.com/a2ui-stream/a2ui-stream/processor"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// options returns the processor options of a mode.
func options(mode, spec string) ([]processor.Option, error) {
	switch mode {
	case "structural":
		return []processor.Option{processor.WithTopology(false)}, nil
	case "topology":
		return nil, nil
	case "schema":
		c, err := protocol.LoadCatalog(protocol.CatalogSpec{
			Version:           "0.9",
			S2CSchema:         "json/server_to_client.json",
			CatalogSchema:     "catalogs/basic/catalog.json",
			CommonTypesSchema: "json/common_types.json",
		}, spec)
		if err != nil {
			return nil, err
		}
		return []processor.Option{processor.WithCatalog(c)}, nil
	}
	return nil, errors.New("procrate: unknown mode " + mode)
}

// timing is the CPU and wall time of the timed part of one or more passes.
type timing struct{ cpu, wall time.Duration }

// pass applies all lists to a fresh processor. With split it times
// SplitList too; otherwise the lists are split before the clock starts. It
// returns the number of failed messages.
func pass(blocks [][]byte, opts []processor.Option, split bool) (timing, int, error) {
	p, err := processor.New(opts...)
	if err != nil {
		return timing{}, 0, err
	}
	var lists [][]json.RawMessage
	if !split {
		for _, b := range blocks {
			l, err := processor.SplitList(b)
			if err != nil {
				return timing{}, 0, err
			}
			lists = append(lists, l)
		}
	}
	failed := 0
	c0, w0 := bench.ProcessCPU(), time.Now()
	for i, b := range blocks {
		if split {
			l, err := processor.SplitList(b)
			if err != nil {
				return timing{}, 0, err
			}
			failed += p.ProcessList(l).Failed
		} else {
			failed += p.ProcessList(lists[i]).Failed
		}
	}
	return timing{cpu: bench.ProcessCPU() - c0, wall: time.Since(w0)}, failed, nil
}

// rates are a round's messages per CPU second and per wall second.
type rates struct{ cpu, wall float64 }

func round(blocks [][]byte, nMsgs int, opts []processor.Option, split bool, minTime time.Duration) (rates, error) {
	var t timing
	passes := 0
	for passes == 0 || t.cpu < minTime {
		pt, _, err := pass(blocks, opts, split)
		if err != nil {
			return rates{}, err
		}
		t.cpu += pt.cpu
		t.wall += pt.wall
		passes++
	}
	n := float64(nMsgs * passes)
	return rates{cpu: n / max(t.cpu, time.Microsecond).Seconds(), wall: n / max(t.wall, time.Nanosecond).Seconds()}, nil
}

func measure(blocks [][]byte, nMsgs int, opts []processor.Option, split bool, rounds, warmup int, minTime time.Duration) (rates, error) {
	var cpuRates, wallRates []float64
	for r := range warmup + rounds {
		rt, err := round(blocks, nMsgs, opts, split, minTime)
		if err != nil {
			return rates{}, err
		}
		if r >= warmup {
			cpuRates = append(cpuRates, rt.cpu)
			wallRates = append(wallRates, rt.wall)
		}
	}
	sort.Float64s(cpuRates)
	sort.Float64s(wallRates)
	return rates{cpu: cpuRates[len(cpuRates)/2], wall: wallRates[len(wallRates)/2]}, nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

func main() {
	mode := flag.String("mode", "topology", "structural, topology or schema")
	rounds := flag.Int("rounds", 9, "rounds")
	warmup := flag.Int("warmup", 2, "warm-up rounds, not counted")
	minTime := flag.Duration("mintime", 200*time.Millisecond, "CPU time a round repeats passes for")
	spec := flag.String("spec", "", "v0.9.1 specification directory for -mode schema (default: ../a2ui/specification/v0_9_1 next to FILE's directory)")
	flag.Parse()
	if *rounds <= 0 || *warmup < 0 || *minTime < 0 || flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: procrate -mode MODE -rounds R [-warmup W] [-mintime D] [-spec DIR] FILE")
		os.Exit(2)
	}
	file := flag.Arg(0)
	if *spec == "" {
		*spec = filepath.Join(filepath.Dir(file), "..", "a2ui", "specification", "v0_9_1")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		fail(err)
	}
	opts, err := options(*mode, *spec)
	if err != nil {
		fail(err)
	}
	blocks := bench.Blocks(data)
	nMsgs := 0
	for _, b := range blocks {
		l, err := processor.SplitList(b)
		if err != nil {
			fail(fmt.Errorf("procrate: corpus block is not a list: %w", err))
		}
		nMsgs += len(l)
	}
	_, failed, err := pass(blocks, opts, true)
	if err != nil {
		fail(err)
	}
	withSplit, err := measure(blocks, nMsgs, opts, true, *rounds, *warmup, *minTime)
	if err != nil {
		fail(err)
	}
	applyOnly, err := measure(blocks, nMsgs, opts, false, *rounds, *warmup, *minTime)
	if err != nil {
		fail(err)
	}
	fmt.Printf("%.0f msgs/s split+apply by CPU (wall %.0f); %.0f msgs/s apply only by CPU (wall %.0f); mode %s, %d lists, %d messages, %d failed, median of %d rounds of >= %v after %d warm-up\n",
		withSplit.cpu, withSplit.wall, applyOnly.cpu, applyOnly.wall, *mode, len(blocks), nMsgs, failed, *rounds, *minTime, *warmup)
}
