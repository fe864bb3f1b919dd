package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/a2ui-stream/a2ui-stream/bench/perf"
	"github.com/a2ui-stream/a2ui-stream/parser"
)

// benchUsage is the help of "a2ui-stream bench".
const benchUsage = `usage: a2ui-stream bench [--stage parse,process,pipeline] [--mode complete,progressive,delta]
                         [--chunk 4,16,256,65536] [--turns FILE.turns.json|auto] [--sessions N]
                         [--rounds N | --duration D] [--json] [--quiet] [--plot DIR] [--scaling] FILE...
       a2ui-stream bench --from RESULTS.json [--json] [--plot DIR]

Measures how fast a2ui-stream handles model output: each FILE (prose with
<a2ui-json> blocks, as a model streams it) is fed in chunks to each stage,
in each mode, at each chunk size. For every cell it reports MB/s and
messages/s (median and range over the rounds, by process CPU time),
allocations per MB of input, the garbage collector's share of the CPU, the
latency from a message's closing brace to its yield (in bytes and µs), for
the pipeline the latency from a chunk in to its batch out, and the live
heap per session after the turns fed and at the end.

Stages: parse is the parser alone, as a pipeline session runs it; process
is the processor alone, applying what the parser yielded (recorded before
the clock starts); pipeline is stream.Pipeline with a counting sink and
--sessions concurrent sessions, each fed the whole input.

Beside every cell the command measures its own floor, in the same rounds:
a bare JSON boundary scan of the same bytes at the same chunk size (what
anything that parses them must at least do). Each throughput is also given
as a percentage of it, which is the figure to compare across machines: the
machine may be shared and busy, and the floor moves with it.

--turns FILE reads turn offsets ({"offsets": [[start, end], ...]}): a new
parse starts at each turn (a fresh parser, or the session's EndTurn), as an
agent streams one answer per turn. --turns auto takes each FILE's
NAME.turns.json next to it. --plot DIR writes SVG plots (throughput by
chunk size, heap per session by turns fed, and the scaling check: time
per byte for messages of 100, 1,000 and 10,000 components, which --plot
and --scaling run). The table goes to stdout (--json: the results as JSON,
whose schema is bench/perf/result.schema.json); a progress bar goes to
stderr when it is a terminal, unless --quiet. --from reads results saved
with --json and writes their table (or JSON, or plots) again, measuring
nothing.

Exit status: 0 on success; 1 when a stage failed; 2 for usage errors and
unreadable files.
`

// benchFlags holds the flags of "a2ui-stream bench".
type benchFlags struct {
	stages, modes, chunks, turns, plot, from string
	sessions, rounds                         int
	duration                                 time.Duration
	json, quiet, scaling                     bool
}

func (f *benchFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.stages, "stage", "parse,process,pipeline", "comma-separated `STAGES` to measure: parse, process, pipeline")
	fs.StringVar(&f.modes, "mode", "complete,progressive,delta", "comma-separated parser `MODES`: complete, progressive, delta")
	fs.StringVar(&f.chunks, "chunk", "4,16,256,65536", "comma-separated chunk `SIZES` in bytes")
	fs.StringVar(&f.turns, "turns", "", "turn offsets `FILE` (one FILE only), or auto for each FILE's NAME.turns.json")
	fs.IntVar(&f.sessions, "sessions", perf.DefaultSessions, "`N` concurrent sessions in the pipeline stage")
	fs.IntVar(&f.rounds, "rounds", perf.DefaultRounds, "`N` timed rounds per cell")
	fs.DurationVar(&f.duration, "duration", 0, "time each cell for `D` of CPU time instead of a number of rounds (at least 3 rounds)")
	fs.BoolVar(&f.json, "json", false, "write the results as JSON instead of tables")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress bar")
	fs.StringVar(&f.plot, "plot", "", "write SVG plots into `DIR` (runs the scaling check too)")
	fs.StringVar(&f.from, "from", "", "measure nothing: present the results saved with --json in `FILE`")
	fs.BoolVar(&f.scaling, "scaling", false, "run the scaling check (messages of 100, 1,000 and 10,000 components)")
}

// options turns the flags into the runner's options. set holds the flags
// given on the command line. Bad values are flagValueErrors.
func (f *benchFlags) options(set map[string]bool) ([]perf.Option, error) {
	var stages []perf.Stage
	for _, s := range splitList(f.stages) {
		st, err := perf.ParseStage(s)
		if err != nil {
			return nil, flagValueError{fmt.Sprintf("--stage %q: want parse, process or pipeline", s)}
		}
		stages = append(stages, st)
	}
	var modes []parser.Mode
	for _, s := range splitList(f.modes) {
		m, err := parser.ParseMode(s)
		if err != nil {
			return nil, flagValueError{fmt.Sprintf("--mode %q: want complete, progressive or delta", s)}
		}
		modes = append(modes, m)
	}
	var chunks []int
	for _, s := range splitList(f.chunks) {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > perf.MaxChunk {
			return nil, flagValueError{fmt.Sprintf("--chunk %q: want a size in bytes from 1 to %d", s, perf.MaxChunk)}
		}
		chunks = append(chunks, n)
	}
	switch {
	case len(stages) == 0:
		return nil, flagValueError{"--stage: no stage given"}
	case len(modes) == 0:
		return nil, flagValueError{"--mode: no mode given"}
	case len(chunks) == 0:
		return nil, flagValueError{"--chunk: no chunk size given"}
	case set["rounds"] && set["duration"]:
		return nil, flagValueError{"--rounds and --duration exclude each other"}
	case f.rounds < 1:
		return nil, flagValueError{fmt.Sprintf("--rounds %d: want 1 or more", f.rounds)}
	case set["duration"] && f.duration <= 0:
		return nil, flagValueError{fmt.Sprintf("--duration %v: want more than 0", f.duration)}
	case f.sessions < 1 || f.sessions > perf.MaxSessions:
		return nil, flagValueError{fmt.Sprintf("--sessions %d: want 1 to %d", f.sessions, perf.MaxSessions)}
	}
	opts := []perf.Option{perf.WithStages(stages...), perf.WithModes(modes...), perf.WithChunks(chunks...),
		perf.WithSessions(f.sessions), perf.WithScaling(f.scaling || f.plot != ""), perf.WithRounds(f.rounds)}
	if set["duration"] {
		opts = append(opts, perf.WithDuration(f.duration))
	}
	return opts, nil
}

// splitList splits a comma-separated flag value; an empty item is kept
// (as "") so that it is reported.
func splitList(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	items := strings.Split(s, ",")
	for i := range items {
		items[i] = strings.TrimSpace(items[i])
	}
	return items
}

// runBench implements "a2ui-stream bench" (see benchUsage).
func runBench(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	var f benchFlags
	fs := newFlagSet("bench")
	f.register(fs)
	if code, done := parseArgs(fs, args, stdout, stderr); done {
		return code
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if f.from != "" {
		return benchFrom(stdout, stderr, &f, fs.NArg())
	}
	opts, err := f.options(set)
	switch {
	case err != nil:
		return usageFail(stderr, "bench", "%v", err)
	case fs.NArg() == 0:
		return usageFail(stderr, "bench", "no FILE given")
	case f.turns != "" && f.turns != "auto" && fs.NArg() > 1:
		return usageFail(stderr, "bench", "--turns FILE goes with one FILE, got %d (use --turns auto)", fs.NArg())
	}
	var inputs []*perf.Input
	for _, name := range fs.Args() {
		turns := f.turns
		if turns == "auto" {
			turns = perf.TurnsFileFor(name)
		}
		in, err := perf.ReadInput(name, turns)
		if err != nil {
			fmt.Fprintf(stderr, "a2ui-stream bench: %v\n", err)
			return 2
		}
		inputs = append(inputs, in)
	}
	bar := newBenchProgress(stderr, f.quiet)
	if bar != nil {
		opts = append(opts, perf.WithProgress(bar.update))
	}
	runner, err := perf.NewRunner(opts...)
	if err != nil {
		return usageFail(stderr, "bench", "%v", err)
	}
	res, err := runner.Run(ctx, inputs)
	bar.finish()
	if err != nil {
		fmt.Fprintf(stderr, "a2ui-stream bench: %v\n", err)
		var se *perf.StageError
		if errors.As(err, &se) {
			return 1
		}
		return 2
	}
	return writeBench(stdout, stderr, &f, res)
}

// benchFrom presents saved results (--from).
func benchFrom(stdout, stderr io.Writer, f *benchFlags, args int) int {
	if args > 0 {
		return usageFail(stderr, "bench", "--from takes no FILE, got %d arguments", args)
	}
	data, err := os.ReadFile(f.from)
	if err != nil {
		fmt.Fprintf(stderr, "a2ui-stream bench: %v\n", err)
		return 2
	}
	var res perf.Result
	if err := json.Unmarshal(data, &res); err != nil || res.Tool != "a2ui-stream bench" {
		fmt.Fprintf(stderr, "a2ui-stream bench: %s: not the --json output of a2ui-stream bench\n", f.from)
		return 2
	}
	return writeBench(stdout, stderr, f, &res)
}

// writeBench writes the results (table or JSON) and the plots.
func writeBench(stdout, stderr io.Writer, f *benchFlags, res *perf.Result) int {
	var err error
	if f.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(res)
	} else {
		err = perf.WriteTable(stdout, res)
	}
	if err != nil {
		fmt.Fprintf(stderr, "a2ui-stream bench: writing the results: %v\n", err)
		return 2
	}
	if f.plot != "" {
		paths, err := perf.WritePlots(f.plot, res)
		if err != nil {
			fmt.Fprintf(stderr, "a2ui-stream bench: %v\n", err)
			return 2
		}
		if !f.quiet {
			fmt.Fprintf(stderr, "a2ui-stream bench: wrote %s\n", strings.Join(paths, ", "))
		}
	}
	return 0
}
