package a2a

import (
	"context"
	"errors"
	"log/slog"

	"github.com/a2ui-stream/a2ui-stream/parser"
	"github.com/a2ui-stream/a2ui-stream/sinks"
	"github.com/a2ui-stream/a2ui-stream/stream"
)

// The server's answers go through one stream.Pipeline: an A2A contextId is
// a pipeline session, each answer one turn of it (fed chunk by chunk, then
// EndTurn), so that a context's surfaces persist across its messages and
// every message is applied by the session's processor before it is sent
// (a rejected one is logged, and forwarded as the reference forwards it).
// The pipeline's events come back through one sink, which hands them to
// the turn running for their session.

// newPipeline builds the server's pipeline from its configuration: the
// parser options (with payload repair when none are given), one batch per
// parser yield (each chunk's completed messages are sent at once, as the
// model streams them), the session bounds, and the routing sink. Its log
// records about a turn whose client went away are demoted to Debug (see
// demoteHandler).
func (s *Server) newPipeline() (*stream.Pipeline, error) {
	popts := s.cfg.parserOpts
	if len(popts) == 0 {
		popts = []parser.Option{parser.WithPayloadRepair()}
	}
	return stream.NewPipeline(
		stream.WithParserOptions(popts...),
		stream.WithBatchPolicy(stream.PolicyYield),
		stream.WithMaxSessions(s.cfg.maxSessions),
		stream.WithIdleTimeout(s.cfg.idleTimeout),
		stream.WithMaxChunk(s.cfg.maxResponse),
		stream.WithLogger(slog.New(&demoteHandler{next: s.log.Handler(), cut: &s.cut})),
		stream.WithSinks(sinks.NewFunc(s.route)),
	)
}

// turnSlot serialises the turns of one context and routes its events to
// the running turn. Its fields are guarded by Server.turnsMu, but for sem.
type turnSlot struct {
	// sem holds a token while a turn of the context runs.
	sem chan struct{}
	// refs counts the requests that hold or wait for the slot; the slot
	// leaves the map when it drops to zero.
	refs int
	// out collects the running turn's events; nil between turns.
	out *turnOut
}

// beginTurn waits until no other turn of the context runs (or ctx is
// done), then routes the context's events to out. The returned function
// ends the routing and lets the next turn begin.
func (s *Server) beginTurn(ctx context.Context, contextID string, out *turnOut) (release func(), err error) {
	s.turnsMu.Lock()
	sl := s.turns[contextID]
	if sl == nil {
		sl = &turnSlot{sem: make(chan struct{}, 1)}
		s.turns[contextID] = sl
	}
	sl.refs++
	s.turnsMu.Unlock()
	// A free slot is taken whatever ctx says (as a select of both would
	// pick at random): the turn then runs and ends through its context,
	// the same way whenever the client leaves. Only waiting for an
	// earlier turn of the context gives up on ctx.
	select {
	case sl.sem <- struct{}{}:
	default:
		select {
		case sl.sem <- struct{}{}:
		case <-ctx.Done():
			s.dropSlot(contextID, sl)
			return nil, ctx.Err()
		}
	}
	s.turnsMu.Lock()
	sl.out = out
	s.turnsMu.Unlock()
	return func() {
		s.turnsMu.Lock()
		sl.out = nil
		s.turnsMu.Unlock()
		<-sl.sem
		s.dropSlot(contextID, sl)
	}, nil
}

func (s *Server) dropSlot(contextID string, sl *turnSlot) {
	s.turnsMu.Lock()
	defer s.turnsMu.Unlock()
	if sl.refs--; sl.refs == 0 {
		delete(s.turns, contextID)
	}
}

// route is the pipeline's sink: it hands an event to the turn running for
// its session. Events of a session with no turn running (an idle session
// ending, the pipeline closing) have no reader and are dropped.
func (s *Server) route(_ context.Context, ev sinks.Event) error {
	s.turnsMu.Lock()
	var out *turnOut
	if sl := s.turns[ev.Session]; sl != nil {
		out = sl.out
	}
	s.turnsMu.Unlock()
	if out != nil {
		out.add(ev)
	}
	return nil
}

// feed hands a chunk of an answer to the context's session, in pieces no
// larger than the pipeline's chunk limit. Its events are collected by the
// turn's turnOut, read once feed returns.
func (s *Server) feed(ctx context.Context, contextID string, chunk []byte) error {
	for len(chunk) > 0 {
		n := min(len(chunk), s.cfg.maxResponse)
		if err := s.pl.Feed(ctx, contextID, chunk[:n]); err != nil {
			return err
		}
		chunk = chunk[n:]
	}
	return nil
}

// Close ends every context's session and stops the server's idle sweep,
// within ctx. Requests served afterwards answer with an internal error.
// Close does not wait for requests in flight: shut the http.Server down
// first.
func (s *Server) Close(ctx context.Context) error {
	return turnError(s.pl.Close(ctx))
}

// turnError maps the pipeline's ErrClosed to ErrServerClosed.
func turnError(err error) error {
	if errors.Is(err, stream.ErrClosed) {
		return ErrServerClosed
	}
	return err
}
