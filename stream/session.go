package stream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
	"github.com/a2ui-stream/a2ui-stream/parser"
	"github.com/a2ui-stream/a2ui-stream/processor"
	"github.com/a2ui-stream/a2ui-stream/sinks"
)

// session is one stream: its parser, its processor, the list being
// applied and its counts. Its mutex serialises the session's Feed and End
// calls; the events it produces go out, in order, while it is held.
type session struct {
	id  string
	pl  *Pipeline
	mu  sync.Mutex
	prs *parser.Parser
	prc *processor.Processor

	// used is the pipeline's logical clock at the session's last Feed
	// (read without mu by eviction and the idle sweep; see
	// Pipeline.clock).
	used atomic.Uint64
	// ended is set, under mu, once the session has emitted its end event
	// or was reset: a Feed that finds it set looks the session up again.
	ended bool

	seq     uint64 // events emitted
	batches int
	counts  endCounts

	// The list being applied: the processor's list, its block index,
	// its applied messages (compacted, comma-separated) and whether it
	// counted in counts.lists.
	list    *processor.List
	listIdx int
	msgs    []byte
	// rejected holds the messages of the list's batch that failed, one
	// line each, by result index: the batch event shows each in its
	// result.
	rejected []rejectedMsg

	line []byte // the event being encoded, reused

	// listBase and offBase are the blocks and bytes of the session's
	// earlier turns (see Pipeline.EndTurn): a list's index and an error's
	// offset count from the session's start.
	listBase int
	offBase  int64
}

func (pl *Pipeline) newSession(id string) (*session, error) {
	prs, err := pl.newParser()
	if err != nil {
		return nil, err
	}
	var procOpts []processor.Option
	if pl.cfg.catalog != nil {
		procOpts = append(procOpts, processor.WithCatalog(pl.cfg.catalog))
	}
	prc, err := processor.New(append(procOpts, pl.cfg.procOpts...)...)
	if err != nil {
		return nil, err
	}
	s := &session{id: id, pl: pl, prs: prs, prc: prc}
	s.used.Store(pl.clock.Add(1))
	return s, nil
}

// newParser returns a parser for a session's turn.
func (pl *Pipeline) newParser() (*parser.Parser, error) {
	c := &pl.cfg
	popts := []parser.Option{
		parser.WithMode(c.mode),
		parser.WithFraming(c.framing),
		parser.WithListEnds(),
		parser.WithBorrowedOutput(),
	}
	if c.catalog != nil && c.mode != parser.ModeComplete {
		popts = append(popts, parser.WithCatalog(c.catalog))
	}
	return parser.New(append(popts, c.parserOpts...)...)
}

// feed parses chunk and emits what it completed.
func (s *session) feed(ctx context.Context, chunk []byte) error {
	c := &s.pl.cfg
	c.observer.Chunk(len(chunk))
	if len(chunk) > c.maxChunk {
		return s.emitError(ctx, errorInfo{reason: ReasonChunk, list: -1, offset: -1,
			msg: fmt.Sprintf("stream: chunk of %d bytes is over the limit of %d bytes; it was not parsed", len(chunk), c.maxChunk)})
	}
	s.counts.bytes += int64(len(chunk))
	var t0 time.Time
	if c.timed {
		t0 = time.Now()
	}
	parts, perr := s.prs.Feed(chunk)
	if c.timed {
		c.observer.Parse(time.Since(t0))
	}
	return s.handle(ctx, parts, perr)
}

// closeParser closes the turn's parser and emits what it released.
func (s *session) closeParser(ctx context.Context) error {
	c := &s.pl.cfg
	var t0 time.Time
	if c.timed {
		t0 = time.Now()
	}
	parts, perr := s.prs.Close()
	if c.timed {
		c.observer.Parse(time.Since(t0))
	}
	err := s.handle(ctx, parts, perr)
	if s.list != nil { // not reachable with list ends; kept safe
		err = errors.Join(err, s.endList(ctx, nil))
	}
	return err
}

// endTurn closes the turn's parser and starts the next turn's, keeping the
// surfaces.
func (s *session) endTurn(ctx context.Context) error {
	err := s.closeParser(ctx)
	prs, perr := s.pl.newParser()
	if perr != nil { // the options were checked by NewPipeline
		return errors.Join(err, perr)
	}
	s.listBase += s.prs.Blocks()
	s.offBase = s.counts.bytes
	s.prs = prs
	return err
}

// end closes the parser, emits what it released and the end event.
func (s *session) end(ctx context.Context, reason string) error {
	c := &s.pl.cfg
	err := s.closeParser(ctx)
	s.ended = true
	s.pl.last.CompareAndSwap(s, nil) // keep nothing of an ended session
	s.line = appendEndEvent(s.line[:0], s.id, reason, s.counts)
	err = errors.Join(err, s.emit(ctx, sinks.KindEnd, nil))
	c.observer.SessionEnd(reason)
	c.logger.Info("stream: session ended", "session", s.id, "reason", reason,
		"bytes", s.counts.bytes, "batches", s.counts.batches, "messages", s.counts.messages,
		"failed", s.counts.failed, "errors", s.counts.errors)
	return err
}

// handle turns one parser call's parts and block errors into events, in
// stream order: each block error goes where its Before puts it.
func (s *session) handle(ctx context.Context, parts []parser.Part, perr error) error {
	fails := blockErrors(perr)
	var err error
	fi := 0
	for i := range parts {
		for ; fi < len(fails) && fails[fi].Before <= i; fi++ {
			err = errors.Join(err, s.blockFailed(ctx, fails[fi]))
		}
		p := &parts[i]
		if p.Text != "" {
			s.line = appendTextEvent(s.line[:0], s.id, p.Text)
			err = errors.Join(err, s.emit(ctx, sinks.KindText, nil))
		}
		if p.Messages != nil {
			err = errors.Join(err, s.messages(ctx, p))
		}
		if p.ListEnd && s.list != nil && s.listIdx == s.listBase+p.List {
			err = errors.Join(err, s.endList(ctx, nil))
		}
	}
	for ; fi < len(fails); fi++ {
		err = errors.Join(err, s.blockFailed(ctx, fails[fi]))
	}
	return err
}

// blockErrors returns the block errors of a parser call, in stream order.
// An error of another kind (none is expected from Feed or Close on an open
// parser) is wrapped as a block error at the end of the call.
func blockErrors(err error) []*parser.BlockError {
	list := parser.BlockErrors(err)
	out := make([]*parser.BlockError, 0, len(list))
	for _, e := range list {
		var be *parser.BlockError
		if !errors.As(e, &be) {
			be = &parser.BlockError{Block: -1, Offset: -1, Before: 1 << 30, Err: e}
		}
		out = append(out, be)
	}
	return out
}

// messages applies a part's messages to the session's list; with the
// yield policy it emits their batch at once.
func (s *session) messages(ctx context.Context, p *parser.Part) error {
	var err error
	list := s.listBase + p.List
	if s.list != nil && s.listIdx != list {
		err = s.endList(ctx, nil)
	}
	if s.list == nil {
		s.list, s.listIdx, s.msgs, s.rejected = s.prc.BeginList(""), list, s.msgs[:0], s.rejected[:0]
		s.counts.lists++
	}
	c := &s.pl.cfg
	for _, m := range p.Messages {
		var t0 time.Time
		if c.timed {
			t0 = time.Now()
		}
		r := s.list.Apply(m)
		if c.timed {
			c.observer.Process(time.Since(t0))
		}
		s.counts.messages++
		if r.OK {
			c.observer.Message(string(r.Type), true, "")
			if len(s.msgs) > 0 {
				s.msgs = append(s.msgs, ',')
			}
			s.msgs = appendOneLine(s.msgs, m)
			continue
		}
		s.counts.failed++
		s.rejected = append(s.rejected, rejectedMsg{index: r.Index, msg: appendOneLine(nil, m)})
		c.observer.Message(string(r.Type), false, r.Error.Code)
		c.logger.Warn("stream: message failed", "session", s.id, "list", list,
			"index", r.Index, "kind", string(r.Type), "surfaceId", r.SurfaceID,
			"reason", r.Error.Code, "path", r.Error.Path, "error", r.Error.Message)
	}
	if c.batching == PolicyYield && (len(p.Messages) > 0 || p.ListEnd) {
		if p.ListEnd {
			return errors.Join(err, s.endList(ctx, nil))
		}
		return errors.Join(err, s.flushYield(ctx))
	}
	return err
}

// flushYield emits the batch of what the open list applied since its last
// batch (the yield policy), leaving the list open.
func (s *session) flushYield(ctx context.Context) error {
	b := s.list.End()
	s.list = nil
	err := s.emitBatch(ctx, &b, false, nil)
	s.list = s.prc.BeginList("")
	s.msgs, s.rejected = s.msgs[:0], s.rejected[:0]
	return err
}

// endList ends the open list and emits its batch; cut is the failure
// that ended it early, if any.
func (s *session) endList(ctx context.Context, cut *errorInfo) error {
	b := s.list.End()
	s.list = nil
	if len(b.Results) == 0 && cut != nil && s.pl.cfg.batching == PolicyYield {
		// The yield policy sent the list's messages already: the error
		// event that follows says that it was cut short.
		return nil
	}
	return s.emitBatch(ctx, &b, true, cut)
}

func (s *session) emitBatch(ctx context.Context, b *processor.Batch, listEnd bool, cut *errorInfo) error {
	s.batches++
	s.counts.batches++
	s.line = appendBatchEvent(s.line[:0], s.id, s.batches, s.listIdx, listEnd, b, s.msgs, s.rejected, cut)
	return s.emit(ctx, sinks.KindBatch, b)
}

// blockFailed reports a dropped block: the batch of its list when it was
// open (with the list policy), then an error event.
func (s *session) blockFailed(ctx context.Context, be *parser.BlockError) error {
	info := errorInfo{reason: ReasonBlock, list: -1, offset: -1, msg: be.Err.Error()}
	if be.Block >= 0 {
		info.list, info.offset = s.listBase+be.Block, s.offBase+be.Offset
	}
	s.pl.cfg.logger.Warn("stream: block dropped", "session", s.id, "list", info.list,
		"offset", info.offset, "error", be.Err)
	var err error
	if s.list != nil && s.listIdx == info.list {
		err = s.endList(ctx, &info)
	}
	return errors.Join(err, s.emitError(ctx, info))
}

// emitError emits an error event.
func (s *session) emitError(ctx context.Context, e errorInfo) error {
	s.counts.errors++
	s.line = appendErrorEvent(s.line[:0], s.id, e)
	return s.emit(ctx, sinks.KindError, nil)
}

// emit hands the encoded s.line to every sink, in order, retrying a
// failing one (see WithEmitRetry). A sink that still fails is logged,
// counted and reported to the other sinks in an error event; the error
// returned is a *SinkError.
func (s *session) emit(ctx context.Context, kind sinks.Kind, b *processor.Batch) error {
	s.seq++
	ev := sinks.Event{Session: s.id, Seq: s.seq, Kind: kind, Line: s.line, Batch: b}
	c := &s.pl.cfg
	var failed []int
	var errs []error
	for i, sk := range c.sinks {
		if err := s.pl.emitTo(ctx, sk, ev); err != nil {
			failed = append(failed, i)
			errs = append(errs, &SinkError{Sink: i, Session: s.id, Seq: ev.Seq, Err: err})
		}
	}
	if len(failed) < len(c.sinks) || len(c.sinks) == 0 {
		c.observer.Event(kind) // once per event, whatever the number of sinks
	}
	if len(failed) == 0 {
		return nil
	}
	for _, e := range errs {
		c.observer.SinkFailure()
		c.logger.Error("stream: sink failed", "session", s.id, "seq", ev.Seq, "event", string(kind), "error", e)
	}
	if kind == sinks.KindError || len(failed) == len(c.sinks) {
		return errors.Join(errs...)
	}
	// Tell the sinks that took the event that the others did not.
	s.seq++
	s.counts.errors++
	line := appendErrorEvent(nil, s.id, errorInfo{reason: ReasonSink, list: -1, offset: -1, msg: errs[0].Error()})
	rep := sinks.Event{Session: s.id, Seq: s.seq, Kind: sinks.KindError, Line: line}
	took := false
	for i, sk := range c.sinks {
		if !slices.Contains(failed, i) {
			took = s.pl.emitTo(ctx, sk, rep) == nil || took
		}
	}
	if took {
		c.observer.Event(sinks.KindError)
	}
	return errors.Join(errs...)
}

// SinkError reports a sink that failed to take an event after its retries.
type SinkError struct {
	Sink    int    // the sink's position among WithSinks
	Session string // the event's session
	Seq     uint64 // the event's sequence number
	Err     error
}

func (e *SinkError) Error() string {
	return fmt.Sprintf("stream: sink %d failed on event %d of session %q: %v", e.Sink, e.Seq, e.Session, e.Err)
}

func (e *SinkError) Unwrap() error { return e.Err }

// appendOneLine appends a message as the model wrote it, or, when it
// spans lines, without its insignificant whitespace: an event stays one
// line.
func appendOneLine(dst, m []byte) []byte {
	if bytes.IndexByte(m, '\n') < 0 && bytes.IndexByte(m, '\r') < 0 {
		return append(dst, m...)
	}
	return jsonwire.AppendCompact(dst, m)
}
