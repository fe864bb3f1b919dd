package a2a

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/a2ui-stream/a2ui-stream/parser"
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
// part as the runner produces the answer, and a final status event that
// completes (or fails) the task. The handler returns, ending the response,
// after the final event.
func (s *Server) stream(ctx context.Context, w http.ResponseWriter, id json.RawMessage, req *Request) {
	p, err := parser.New(s.streamOpts...)
	if err != nil { // options were validated by NewServer
		writeJSON(w, http.StatusOK, rpcResponse(id, nil, rpcErr(CodeInternalError, "Internal error: %v", err)))
		return
	}
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
	opts := s.partOptions(req)
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
	var writeErr error
	runErr := s.runner.Run(ctx, req, func(chunk []byte) error {
		parts, _ := ChunkParts(p, chunk, opts) // a dropped block is logged; the stream goes on
		if err := emit(parts); err != nil {
			writeErr = err
			return err
		}
		return nil
	})
	if writeErr != nil {
		s.log.Debug("a2a: stream ended early", "write", writeErr, "ctx", ctx.Err())
		return
	}
	// What the parser still holds (text that might have begun a tag, a
	// block left open, a comma or a character the repairer waits on) is
	// sent whatever ended the run.
	parts, _ := CloseParts(p, opts)
	if err := emit(parts); err != nil {
		s.log.Debug("a2a: stream ended early", "write", err, "ctx", ctx.Err())
		return
	}
	switch {
	case ctx.Err() != nil:
		// The client went away, or the server is shutting down and the
		// client is still there: an A2A stream ends in a terminal state, so
		// try to say that the task was canceled.
		s.log.Debug("a2a: stream canceled", "ctx", ctx.Err())
		m := agentMessage(d, req.ContextID, req.TaskID, []Part{NewTextPart("The answer was interrupted.", d.Shape())})
		_ = ev.event(statusUpdateEvent(d, req.TaskID, req.ContextID, stateCanceled, &m, true))
		return
	case runErr != nil:
		s.log.Error("a2a: runner failed", "err", runErr)
		m := agentMessage(d, req.ContextID, req.TaskID, []Part{NewTextPart("The agent failed to answer.", d.Shape())})
		_ = ev.event(statusUpdateEvent(d, req.TaskID, req.ContextID, stateFailed, &m, true))
		return
	}
	if err := ev.event(statusUpdateEvent(d, req.TaskID, req.ContextID, stateCompleted, nil, true)); err != nil && !errors.Is(err, context.Canceled) {
		s.log.Debug("a2a: final event not written", "err", err)
	}
}
