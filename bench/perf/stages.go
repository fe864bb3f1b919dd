package perf

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/a2ui-stream/a2ui-stream/parser"
	"github.com/a2ui-stream/a2ui-stream/processor"
	"github.com/a2ui-stream/a2ui-stream/sinks"
	"github.com/a2ui-stream/a2ui-stream/stream"
)

// A stageRun runs one cell's stage over its input.
type stageRun interface {
	// pass runs the stage once over the input. probes is nil in timed
	// passes; otherwise it holds one probe per session. It returns the
	// messages yielded (parse) or applied (process, pipeline), summed
	// over the sessions.
	pass(ctx context.Context, probes []*probe) (int, error)
	// heap feeds the input once, turn by turn, and calls sample after
	// each turn was fed to every session (turn counted from 0) and
	// after every session ended (turn -1).
	heap(ctx context.Context, sample func(turn int)) error
}

// parserOptions are the options a pipeline session's parser runs with.
func parserOptions(mode parser.Mode) []parser.Option {
	return []parser.Option{parser.WithMode(mode), parser.WithListEnds(), parser.WithBorrowedOutput()}
}

// parseRun is the parse stage: a parser per turn, fed in chunks.
type parseRun struct {
	in    *Input
	chunk int
	opts  []parser.Option
}

func (r *parseRun) pass(_ context.Context, probes []*probe) (int, error) {
	var pr *probe
	if probes != nil {
		pr = probes[0]
	}
	msgs := 0
	for ti, t := range r.in.turns() {
		p, err := parser.New(r.opts...)
		if err != nil {
			return 0, err
		}
		for off := t.Start; off < t.End; off += r.chunk {
			end := min(off+r.chunk, t.End)
			if pr != nil {
				pr.chunk(off, end)
			}
			parts, perr := p.Feed(r.in.Data[off:end])
			n, y := countParts(parts)
			msgs += n
			if pr != nil {
				pr.observe(y, perr)
			}
		}
		if pr != nil {
			pr.turn(ti)
			pr.call()
		}
		parts, perr := p.Close()
		n, y := countParts(parts)
		msgs += n
		if pr != nil {
			pr.observe(y, perr)
		}
	}
	return msgs, nil
}

func (r *parseRun) heap(ctx context.Context, sample func(int)) error {
	pr := &probe{turnFed: sample}
	if _, err := r.pass(ctx, []*probe{pr}); err != nil {
		return err
	}
	sample(-1)
	runtime.KeepAlive(r) // the input and recorded output count in the base
	return nil
}

// observe records a parser call's outcome.
func (p *probe) observe(yielded bool, err error) {
	if yielded {
		p.yield()
	}
	p.dropped += countBlockErrors(err)
}

// countParts returns the messages in parts and whether they hold a yield
// (messages, or the end of a list).
func countParts(parts []parser.Part) (int, bool) {
	n, y := 0, false
	for i := range parts {
		n += len(parts[i].Messages)
		y = y || parts[i].Messages != nil || parts[i].ListEnd
	}
	return n, y
}

// countBlockErrors returns the number of blocks a parser call dropped.
func countBlockErrors(err error) int { return len(parser.BlockErrors(err)) }

// processRun is the process stage: a processor applying what a parser
// yielded, recorded per turn and per call before the clock starts, list
// by list as a pipeline session applies it (one list per block in
// complete mode, one per yield in the progressive modes).
type processRun struct {
	calls [][][]parser.Part // per turn, per parser call
	yield bool              // one list per yield
}

// newProcessRun records the parser's output on in, fed in chunks.
func newProcessRun(in *Input, chunk int, mode parser.Mode) (*processRun, error) {
	r := &processRun{yield: mode != parser.ModeComplete}
	for _, t := range in.turns() {
		p, err := parser.New(parserOptions(mode)...)
		if err != nil {
			return nil, err
		}
		var calls [][]parser.Part
		keep := func(parts []parser.Part) {
			if len(parts) == 0 {
				return
			}
			own := make([]parser.Part, len(parts))
			for i := range parts {
				own[i] = parts[i].Clone()
			}
			calls = append(calls, own)
		}
		for off := t.Start; off < t.End; off += chunk {
			parts, _ := p.Feed(in.Data[off:min(off+chunk, t.End)])
			keep(parts)
		}
		parts, _ := p.Close()
		keep(parts)
		r.calls = append(r.calls, calls)
	}
	return r, nil
}

func (r *processRun) pass(_ context.Context, probes []*probe) (int, error) {
	var pr *probe
	if probes != nil {
		pr = probes[0]
	}
	prc, err := processor.New()
	if err != nil {
		return 0, err
	}
	msgs := 0
	for ti, calls := range r.calls {
		var list *processor.List
		listIdx := -1
		for _, parts := range calls {
			for i := range parts {
				p := &parts[i]
				if p.Messages != nil {
					if list != nil && listIdx != p.List {
						list.End()
						list = nil
					}
					if list == nil {
						list, listIdx = prc.BeginList(""), p.List
					}
					for _, m := range p.Messages {
						if res := list.Apply(m); !res.OK && pr != nil {
							pr.failed++
						}
					}
					msgs += len(p.Messages)
				}
				if list != nil && (p.ListEnd || r.yield && p.Messages != nil) {
					list.End()
					list = nil
				}
			}
		}
		if list != nil {
			list.End()
		}
		if pr != nil {
			pr.turn(ti)
		}
	}
	return msgs, nil
}

func (r *processRun) heap(ctx context.Context, sample func(int)) error {
	pr := &probe{turnFed: sample}
	if _, err := r.pass(ctx, []*probe{pr}); err != nil {
		return err
	}
	sample(-1)
	runtime.KeepAlive(r) // the input and recorded output count in the base
	return nil
}

// pipelineRun is the pipeline stage: a stream.Pipeline with a counting
// sink, sessions sessions fed the whole input each, concurrently.
type pipelineRun struct {
	in       *Input
	chunk    int
	mode     parser.Mode
	sessions int
	ids      []string
}

func newPipelineRun(in *Input, chunk int, mode parser.Mode, sessions int) *pipelineRun {
	ids := make([]string, sessions)
	for i := range ids {
		ids[i] = fmt.Sprintf("session-%04d", i)
	}
	return &pipelineRun{in: in, chunk: chunk, mode: mode, sessions: sessions, ids: ids}
}

// sessionCount is what the counting sink counts for one session. Only
// the session's feeding goroutine touches it (sinks run on the emitting
// goroutine).
type sessionCount struct {
	messages int
	probe    *probe
}

// open returns a pipeline whose sink counts into counts (by session id).
func (r *pipelineRun) open(counts map[string]*sessionCount) (*stream.Pipeline, error) {
	sink := sinks.NewFunc(func(_ context.Context, e sinks.Event) error {
		c := counts[e.Session]
		if c == nil {
			return nil
		}
		switch e.Kind {
		case sinks.KindBatch:
			if e.Batch != nil {
				c.messages += len(e.Batch.Results)
				if c.probe != nil {
					c.probe.failed += e.Batch.Failed
				}
			}
			if c.probe != nil {
				c.probe.batch()
			}
		case sinks.KindError:
			if c.probe != nil {
				c.probe.dropped++
			}
		}
		return nil
	})
	return stream.NewPipeline(
		stream.WithMode(r.mode),
		stream.WithSinks(sink),
		stream.WithIdleTimeout(0),
		stream.WithEmitRetry(0, 0, 0, 0),
		stream.WithMaxChunk(max(r.chunk, stream.DefaultMaxChunk)),
		stream.WithMaxSessions(max(r.sessions, stream.DefaultMaxSessions)),
	)
}

func (r *pipelineRun) counts(probes []*probe) map[string]*sessionCount {
	counts := make(map[string]*sessionCount, len(r.ids))
	for i, id := range r.ids {
		c := &sessionCount{}
		if probes != nil {
			c.probe = probes[i]
		}
		counts[id] = c
	}
	return counts
}

func (r *pipelineRun) pass(ctx context.Context, probes []*probe) (int, error) {
	counts := r.counts(probes)
	pl, err := r.open(counts)
	if err != nil {
		return 0, err
	}
	errs := make([]error, len(r.ids))
	var wg sync.WaitGroup
	for i, id := range r.ids {
		wg.Go(func() { errs[i] = r.feedSession(ctx, pl, id, counts[id].probe) })
	}
	wg.Wait()
	err = errors.Join(append(errs, pl.Close(ctx))...)
	msgs := 0
	for _, c := range counts {
		msgs += c.messages
	}
	return msgs, err
}

// feedSession feeds the input to one session, turn by turn, and ends it.
func (r *pipelineRun) feedSession(ctx context.Context, pl *stream.Pipeline, id string, pr *probe) error {
	turns := r.in.turns()
	for ti, t := range turns {
		if err := r.feedTurn(ctx, pl, id, t, pr); err != nil {
			return err
		}
		if pr != nil {
			pr.turn(ti)
			pr.call()
		}
		if ti < len(turns)-1 {
			if err := pl.EndTurn(ctx, id); err != nil {
				return err
			}
		}
	}
	return pl.End(ctx, id)
}

func (r *pipelineRun) feedTurn(ctx context.Context, pl *stream.Pipeline, id string, t Turn, pr *probe) error {
	for off := t.Start; off < t.End; off += r.chunk {
		end := min(off+r.chunk, t.End)
		if pr != nil {
			pr.chunk(off, end)
		}
		if err := pl.Feed(ctx, id, r.in.Data[off:end]); err != nil {
			return err
		}
	}
	return nil
}

// heap feeds every session turn by turn from one goroutine, so that each
// sample sees all sessions at the same turn.
func (r *pipelineRun) heap(ctx context.Context, sample func(int)) error {
	pl, err := r.open(r.counts(nil))
	if err != nil {
		return err
	}
	turns := r.in.turns()
	for ti, t := range turns {
		for _, id := range r.ids {
			if err := r.feedTurn(ctx, pl, id, t, nil); err != nil {
				return errors.Join(err, pl.Close(ctx))
			}
		}
		sample(ti)
		if ti < len(turns)-1 {
			for _, id := range r.ids {
				if err := pl.EndTurn(ctx, id); err != nil {
					return errors.Join(err, pl.Close(ctx))
				}
			}
		}
	}
	for _, id := range r.ids {
		if err := pl.End(ctx, id); err != nil {
			return errors.Join(err, pl.Close(ctx))
		}
	}
	sample(-1)
	runtime.KeepAlive(r)
	return pl.Close(ctx)
}
