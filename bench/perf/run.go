package perf

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/a2ui-stream/a2ui-stream/parser"
)

// maxRounds bounds the rounds of a cell under WithDuration.
const maxRounds = 1000

// Runner measures inputs. Make one with NewRunner; its Run is not safe
// for concurrent use (measurements in parallel would disturb each other).
type Runner struct {
	cfg config
}

// NewRunner returns a Runner configured by opts.
func NewRunner(opts ...Option) (*Runner, error) {
	c := config{
		stages:   Stages,
		modes:    DefaultModes,
		chunks:   DefaultChunks,
		rounds:   DefaultRounds,
		minRound: DefaultMinRound,
		sessions: DefaultSessions,
		sizes:    ScalingComponents,
	}
	for _, o := range opts {
		if o == nil {
			return nil, &OptionError{"NewRunner", "nil option"}
		}
		if err := o(&c); err != nil {
			return nil, err
		}
	}
	return &Runner{cfg: c}, nil
}

// Run measures every input and returns the results. It stops at the first
// error, or when ctx is done (between passes), with ctx's error.
func (r *Runner) Run(ctx context.Context, inputs []*Input) (*Result, error) {
	c := &r.cfg
	res := &Result{
		Tool: "a2ui-stream bench",
		Machine: Machine{Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH,
			CPUs: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0)},
		Settings: Settings{Chunks: c.chunks, Rounds: c.rounds, DurationSeconds: c.duration.Seconds(),
			MinRoundSeconds: c.minRound.Seconds(), Sessions: c.sessions, Clock: "process CPU time"},
	}
	for _, s := range c.stages {
		res.Settings.Stages = append(res.Settings.Stages, string(s))
	}
	for _, m := range c.modes {
		res.Settings.Modes = append(res.Settings.Modes, modeName(m))
	}
	pr := progress{fn: c.progress, total: len(inputs) * len(c.stages) * len(c.modes) * len(c.chunks)}
	if c.scaling {
		pr.total += len(c.modes) * len(c.sizes)
	}
	for _, in := range inputs {
		fr, err := r.runInput(ctx, in, &pr)
		if err != nil {
			return nil, err
		}
		res.Files = append(res.Files, *fr)
	}
	if c.scaling {
		pts, err := r.scaling(ctx, &pr)
		if err != nil {
			return nil, err
		}
		res.Scaling = pts
	}
	pr.step("done")
	return res, nil
}

// progress counts finished steps for the progress function.
type progress struct {
	fn          func(Progress)
	done, total int
}

// next reports that the step named doing starts.
func (p *progress) next(doing string) {
	if p.fn != nil {
		p.fn(Progress{Done: p.done, Total: p.total, Doing: doing})
	}
	p.done++
}

// step reports the end of the run.
func (p *progress) step(doing string) {
	if p.fn != nil {
		p.fn(Progress{Done: p.total, Total: p.total, Doing: doing})
	}
}

// runInput measures one input: every cell, each round beside a round of
// the floor at the same chunk size.
func (r *Runner) runInput(ctx context.Context, in *Input, pr *progress) (*FileResult, error) {
	c := &r.cfg
	fr := &FileResult{Name: in.Name, Bytes: len(in.Data), FedBytes: in.fedBytes(),
		Turns: len(in.turns()), TurnsFile: in.TurnsFile}
	var braces []int64
	for _, t := range in.turns() {
		found, blocks := ScanBoundaries(in.Data[t.Start:t.End], 1<<16)
		for _, b := range found {
			braces = append(braces, int64(t.Start)+b.End-1)
		}
		fr.Messages += len(found)
		fr.Blocks += blocks
	}
	floors := make(map[int][]float64, len(c.chunks))
	for _, stage := range c.stages {
		for _, mode := range c.modes {
			for _, chunk := range c.chunks {
				pr.next(fmt.Sprintf("%s: %s %s %d", in.Name, stage, modeName(mode), chunk))
				cell, fl, err := r.cell(ctx, in, braces, stage, mode, chunk)
				if err != nil {
					return nil, &StageError{Stage: stage, Mode: modeName(mode), Chunk: chunk, Err: err}
				}
				fr.Cells = append(fr.Cells, *cell)
				floors[chunk] = append(floors[chunk], fl...)
			}
		}
	}
	for _, chunk := range c.chunks {
		fr.Floor = append(fr.Floor, FloorResult{Chunk: chunk, Rounds: len(floors[chunk]), MBps: SpreadOf(floors[chunk])})
	}
	return fr, nil
}

// newStage returns the runner of a cell's stage.
func (r *Runner) newStage(in *Input, stage Stage, mode parser.Mode, chunk int) (stageRun, int, error) {
	switch stage {
	case StageParse:
		return &parseRun{in: in, chunk: chunk, opts: parserOptions(mode)}, 1, nil
	case StageProcess:
		run, err := newProcessRun(in, chunk, mode)
		return run, 1, err
	default:
		return newPipelineRun(in, chunk, mode, r.cfg.sessions), r.cfg.sessions, nil
	}
}

// cell measures one cell; it also returns the floor's rate in each round.
func (r *Runner) cell(ctx context.Context, in *Input, braces []int64, stage Stage, mode parser.Mode, chunk int) (*Cell, []float64, error) {
	run, sessions, err := r.newStage(in, stage, mode, chunk)
	if err != nil {
		return nil, nil, err
	}
	cell := &Cell{Stage: string(stage), Mode: modeName(mode), Chunk: chunk, Sessions: sessions}
	// The untimed pass: counts, latencies (and a warm-up).
	probes := make([]*probe, sessions)
	for i := range probes {
		probes[i] = newProbe(braces)
	}
	if cell.Messages, err = run.pass(ctx, probes); err != nil {
		return nil, nil, err
	}
	r.latencies(cell, stage, probes)

	mb := float64(in.fedBytes()*sessions) / 1e6
	var rates, msgRates, ratios, floor []float64
	var stats runtimeStats
	var cpu time.Duration
	for round := 0; r.moreRounds(round, cpu); round++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		s0 := readStats()
		passes, d, err := r.timedRound(ctx, run)
		if err != nil {
			return nil, nil, err
		}
		stats = addStats(stats, readStats().sub(s0))
		cpu += d
		cell.Passes += passes
		rate := mb * float64(passes) / d.Seconds()
		rates = append(rates, rate)
		msgRates = append(msgRates, float64(cell.Messages*passes)/d.Seconds())
		fl := r.floorRound(in, chunk)
		floor = append(floor, fl)
		ratios = append(ratios, 100*rate/fl)
	}
	cell.Rounds = len(rates)
	cell.MBps, cell.MessagesPerSecond, cell.FloorPercent = SpreadOf(rates), SpreadOf(msgRates), SpreadOf(ratios)
	if total := mb * float64(cell.Passes); total > 0 {
		cell.AllocsPerMB = float64(stats.allocObjects) / total
		cell.AllocBytesPerMB = float64(stats.allocBytes) / total
	}
	cell.GCCPUShare = stats.gcShare()

	if err := r.heap(ctx, cell, run, in, sessions); err != nil {
		return nil, nil, err
	}
	return cell, floor, nil
}

// latencies fills in a cell's latencies and counts from its probes.
func (r *Runner) latencies(cell *Cell, stage Stage, probes []*probe) {
	var bytesLat, usLat, batchLat []float64
	unresolved := 0
	for _, p := range probes {
		bytesLat = append(bytesLat, p.bytesLat...)
		usLat = append(usLat, p.usLat...)
		batchLat = append(batchLat, p.batchLat...)
		unresolved += len(p.pending) + len(p.braces) - p.next
		cell.Failed += p.failed
		cell.DroppedBlocks += p.dropped
	}
	if stage == StageProcess {
		return
	}
	cell.Latency = &Latency{Bytes: Summarize(bytesLat), Micros: Summarize(usLat), Unresolved: unresolved}
	if stage == StagePipeline {
		b := Summarize(batchLat)
		cell.BatchMicros = &b
	}
}

// moreRounds reports whether a cell takes another round after round
// rounds that took cpu.
func (r *Runner) moreRounds(round int, cpu time.Duration) bool {
	if r.cfg.duration > 0 {
		return round < MinDurationRounds || (cpu < r.cfg.duration && round < maxRounds)
	}
	return round < r.cfg.rounds
}

// timedRound repeats passes until minRound of CPU time went into them; it
// returns the passes and their CPU time.
func (r *Runner) timedRound(ctx context.Context, run stageRun) (int, time.Duration, error) {
	start := ProcessCPU()
	passes := 0
	for {
		if _, err := run.pass(ctx, nil); err != nil {
			return 0, 0, err
		}
		passes++
		if d := ProcessCPU() - start; d >= r.cfg.minRound {
			return passes, max(d, time.Microsecond), nil
		}
	}
}

// floorRound times the floor on in's turns at chunk bytes, as timedRound
// times a stage, and returns its MB/s.
func (r *Runner) floorRound(in *Input, chunk int) float64 {
	start := ProcessCPU()
	passes := 0
	for {
		floorPass(in, chunk)
		passes++
		if d := ProcessCPU() - start; d >= r.cfg.minRound {
			return float64(in.fedBytes()) * float64(passes) / 1e6 / max(d, time.Microsecond).Seconds()
		}
	}
}

// floorPass scans in's turns, a scanner per turn, and returns the
// messages found.
func floorPass(in *Input, chunk int) int {
	n := 0
	for _, t := range in.turns() {
		var s Scanner
		feedChunks(in.Data[t.Start:t.End], chunk, s.Write)
		n += s.Messages
	}
	return n
}

// heap samples the live heap per session through one more pass.
func (r *Runner) heap(ctx context.Context, cell *Cell, run stageRun, in *Input, sessions int) error {
	last := len(in.turns()) - 1
	base := liveHeap()
	per := func() float64 { return (float64(liveHeap()) - float64(base)) / float64(sessions) }
	return run.heap(ctx, func(turn int) {
		switch {
		case turn < 0:
			cell.Heap.AfterEnd = per()
		case turn == last:
			cell.Heap.End = per()
			cell.Heap.Turns = append(cell.Heap.Turns, HeapPoint{Turns: turn + 1, Bytes: cell.Heap.End})
		case slices.Contains(heapTurns(last+1), turn+1):
			cell.Heap.Turns = append(cell.Heap.Turns, HeapPoint{Turns: turn + 1, Bytes: per()})
		}
	})
}

// heapTurns are the turn counts the heap is sampled after: 1, 2, 5, 10,
// 20, 50, … below n (and n itself, sampled as the end).
func heapTurns(n int) []int {
	var out []int
	for step := 1; step < n; step *= 10 {
		for _, k := range []int{1, 2, 5} {
			if k*step < n {
				out = append(out, k*step)
			}
		}
	}
	return out
}

func addStats(a, b runtimeStats) runtimeStats {
	return runtimeStats{
		allocBytes:   a.allocBytes + b.allocBytes,
		allocObjects: a.allocObjects + b.allocObjects,
		gcCPU:        a.gcCPU + b.gcCPU,
		busyCPU:      a.busyCPU + b.busyCPU,
	}
}
