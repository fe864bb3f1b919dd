package a2a

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"
)

// sseWriter writes JSON-RPC responses as server-sent events.
type sseWriter struct {
	w  http.ResponseWriter
	rc *http.ResponseController
	id json.RawMessage
	// timeout bounds each event write (0: unbounded).
	timeout time.Duration
}

func (e *sseWriter) event(result []byte, err error) error {
	if err != nil {
		return err
	}
	b := rpcResponse(e.id, result, nil)
	buf := make([]byte, 0, len(b)+8)
	buf = append(buf, "data: "...)
	buf = append(buf, b...)
	buf = append(buf, "\n\n"...)
	return boundedWrite(e.rc, e.timeout, func() error {
		_, err := e.w.Write(buf)
		return err
	})
}

// stream answers a streaming request: a task event, one event per completed
// part as the runner produces the answer and the context's session parses
// and applies it, and a final status event that completes (or fails) the
// task. The handler returns, ending the response, after the final event.
func (s *Server) stream(ctx context.Context, w http.ResponseWriter, id json.RawMessage, req *Request) {
	req.TaskID = newID()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	ev := &sseWriter{w: w, rc: http.NewResponseController(w), id: id, timeout: s.cfg.writeTimeout}
	d := req.Dialect
	if err := ev.event(taskEvent(d, req.TaskID, req.ContextID)); err != nil {
		s.log.Debug("a2a: stream write failed", "err", err)
		return
	}
	artifactID := newID()
	sent := 0
	emit := func(parts []Part) error {
		for _, pt := range parts {
			var b []byte
			var err error
			if s.cfg.artifacts {
				b, err = artifactUpdateEvent(d, req.TaskID, req.ContextID, artifactID, []Part{pt}, sent > 0, false)
			} else {
				m := agentMessage(d, req.ContextID, req.TaskID, []Part{pt})
				b, err = statusUpdateEvent(d, req.TaskID, req.ContextID, stateWorking, &m, false)
			}
			if err := ev.event(b, err); err != nil {
				return err
			}
			sent++
		}
		return nil
	}
	out := newTurnOut(s.partOptions(req))
	release, err := s.beginTurn(ctx, req.ContextID, out)
	if err != nil {
		s.log.Debug("a2a: stream canceled while an earlier turn of its context ran", "contextId", req.ContextID, "err", err)
		s.finalStatus(ctx, ev, req, nil)
		return
	}
	// The session is fed whatever becomes of the request, so that the
	// turn's state stays whole; only the writes depend on the client.
	pctx := context.WithoutCancel(ctx)
	var writeErr, feedErr error
	runErr := s.runner.Run(ctx, req, func(chunk []byte) error {
		if err := s.feed(pctx, req.ContextID, chunk); err != nil {
			feedErr = err
			return err
		}
		if err := emit(out.take()); err != nil {
			writeErr = err
			return err
		}
		return nil
	})
	// What the parser still holds (text that might have begun a tag, a
	// block left open, a comma or a character the repairer waits on) is
	// released by the end of the turn and sent whatever ended the run.
	// When the client went away (or the server is shutting down), the
	// block the runner was cut off in is dropped by EndTurn: that is the
	// disconnect's doing, logged at Debug, not the model's.
	gone := writeErr != nil || ctx.Err() != nil
	if gone {
		s.cut.add(req.ContextID)
	}
	feedErr = errors.Join(feedErr, s.pl.EndTurn(pctx, req.ContextID))
	if gone {
		s.cut.remove(req.ContextID)
	}
	release()
	if writeErr != nil {
		s.log.Debug("a2a: stream ended early", "write", writeErr, "ctx", ctx.Err())
		return
	}
	if err := emit(out.take()); err != nil {
		s.log.Debug("a2a: stream ended early", "write", err, "ctx", ctx.Err())
		return
	}
	if runErr != nil && ctx.Err() == nil {
		s.log.Error("a2a: runner failed", "err", runErr)
	}
	if feedErr != nil {
		s.log.Error("a2a: answer not processed", "contextId", req.ContextID, "err", turnError(feedErr))
	}
	s.finalStatus(ctx, ev, req, errors.Join(runErr, feedErr))
}

// finalStatus ends a stream with its terminal status: canceled when ctx is
// done, failed when failure is set (the runner or the pipeline failed),
// completed otherwise.
func (s *Server) finalStatus(ctx context.Context, ev *sseWriter, req *Request, failure error) {
	d := req.Dialect
	switch {
	case ctx.Err() != nil:
		// The client went away, or the server is shutting down and the
		// client is still there: an A2A stream ends in a terminal state, so
		// try to say that the task was canceled.
		s.log.Debug("a2a: stream canceled", "ctx", ctx.Err())
		m := agentMessage(d, req.ContextID, req.TaskID, []Part{NewTextPart("The answer was interrupted.", d.Shape())})
		_ = ev.event(statusUpdateEvent(d, req.TaskID, req.ContextID, stateCanceled, &m, true))
		return
	case failure != nil:
		m := agentMessage(d, req.ContextID, req.TaskID, []Part{NewTextPart("The agent failed to answer.", d.Shape())})
		_ = ev.event(statusUpdateEvent(d, req.TaskID, req.ContextID, stateFailed, &m, true))
		return
	}
	if err := ev.event(statusUpdateEvent(d, req.TaskID, req.ContextID, stateCompleted, nil, true)); err != nil && !errors.Is(err, context.Canceled) {
		s.log.Debug("a2a: final event not written", "err", err)
	}
}
