package a2a

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/a2ui-stream/a2ui-stream/stream"
)

// Server is an A2A JSON-RPC endpoint over HTTP that answers messages with a
// Runner's output, parsed into text and A2UI data parts. It speaks A2A 1.0
// (SendMessage, SendStreamingMessage) and A2A 0.3 (message/send,
// message/stream) on the same URL, serves the agent card at AgentCardPath,
// and streams replies as server-sent events, one event per completed part.
//
// Answers go through a stream.Pipeline: each A2A contextId is a session
// whose processor applies every message before it is sent (a message it
// rejects is logged and forwarded all the same, as the reference does),
// and whose surfaces persist from
// one message of the context to the next, until the session is idle for
// WithSessionIdleTimeout or evicted by WithMaxSessions. The turns of one
// context run one at a time (one waits for the answer before it); other
// contexts run in parallel.
//
// A Server is safe for concurrent use. Close releases its sessions and
// stops its idle sweep.
type Server struct {
	runner     Runner
	cfg        config
	advertised []string
	log        *slog.Logger
	pl         *stream.Pipeline
	rejects    *rejectLog
	cut        cutTurns

	turnsMu sync.Mutex
	turns   map[string]*turnSlot // by contextId: the turns running or waiting
}

// NewServer returns an endpoint that answers with runner. Close it to stop
// its idle sweep.
func NewServer(runner Runner, opts ...Option) (*Server, error) {
	if runner == nil {
		return nil, errors.New("a2a: nil runner")
	}
	cfg := config{
		name:         "a2ui-stream",
		description:  "Streams A2UI interfaces from model output over A2A.",
		agentVersion: "1.0.0",
		maxBody:      DefaultMaxBodyBytes,
		maxResponse:  DefaultMaxResponseBytes,
		writeTimeout: DefaultWriteTimeout,
		maxSessions:  DefaultMaxSessions,
		idleTimeout:  DefaultSessionIdleTimeout,
		logger:       slog.New(slog.DiscardHandler),
		rejectEvery:  DefaultRejectLogEvery,
		rejectBurst:  DefaultRejectLogBurst,
	}
	for _, v := range DefaultVersions {
		e, _ := NewAgentExtension(string(v)) // known-good versions
		cfg.extensions = append(cfg.extensions, e)
	}
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	s := &Server{runner: runner, cfg: cfg, log: cfg.logger, turns: make(map[string]*turnSlot)}
	s.rejects = newRejectLog(cfg.logger, cfg.rejectEvery, cfg.rejectBurst, cfg.rejectObserver)
	pl, err := s.newPipeline()
	if err != nil {
		return nil, fmt.Errorf("a2a: %w", err)
	}
	s.pl = pl
	for _, e := range cfg.extensions {
		s.advertised = append(s.advertised, e.URI)
	}
	return s, nil
}

// Advertised returns the A2UI extension URIs the agent card lists.
func (s *Server) Advertised() []string { return append([]string(nil), s.advertised...) }

// ServeHTTP serves the agent card (GET AgentCardPath or LegacyAgentCardPath)
// and JSON-RPC requests (POST to any other path).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.cors(w, r) {
		return
	}
	switch r.URL.Path {
	case AgentCardPath, LegacyAgentCardPath:
		s.serveCard(w, r)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		e := rpcErr(CodeInvalidRequest, "Invalid Request: JSON-RPC requests are POSTed")
		s.rejects.reject(r, RejectMethodNotAllowed, http.StatusMethodNotAllowed, e, "", nil)
		writeJSON(w, http.StatusMethodNotAllowed, rpcResponse(nullID, nil, e))
		return
	}
	if !s.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="a2a"`)
		e := rpcErr(CodeInvalidRequest, "Unauthorized: a valid bearer token is required")
		s.rejects.reject(r, RejectUnauthorized, http.StatusUnauthorized, e, "", nil)
		writeJSON(w, http.StatusUnauthorized, rpcResponse(nullID, nil, e))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.maxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			e := rpcErr(CodeInvalidRequest, "Invalid Request: body exceeds %d bytes", tooBig.Limit)
			s.rejects.reject(r, RejectBodyTooLarge, http.StatusRequestEntityTooLarge, e, "", nil)
			writeJSON(w, http.StatusRequestEntityTooLarge, rpcResponse(nullID, nil, e))
			return
		}
		// The client is gone, was too slow (a read deadline) or sent a
		// broken body (bad chunked encoding): answer, in case it is still
		// there, rather than leave an empty 200. A client that hung up
		// mid-body is no rejection, only a disconnect.
		e := rpcErr(CodeParseError, "Parse error: the body could not be read")
		if errors.Is(err, io.ErrUnexpectedEOF) {
			s.log.Debug("a2a: client disconnected while sending its request", "remote", r.RemoteAddr, "err", err)
		} else {
			s.rejects.reject(r, bodyReason(err), http.StatusBadRequest, e, "", err)
		}
		writeJSON(w, http.StatusBadRequest, rpcResponse(nullID, nil, e))
		return
	}
	req, rerr := decodeRequest(body)
	if rerr == nil {
		rerr = checkVersion(r)
	}
	if _, ok := methods[req.Method]; rerr == nil && !ok {
		rerr = unserved[req.Method]
		if rerr == nil {
			rerr = rpcErr(CodeMethodNotFound, "Method not found: %s", req.Method)
		}
	}
	var rreq *Request
	if rerr == nil {
		rreq, rerr = s.decodeParams(req.Params, methods[req.Method].dialect, r.Header)
	}
	if rerr != nil {
		s.rejects.reject(r, rpcReason(rerr.Code), http.StatusOK, rerr, req.Method, nil)
		writeJSON(w, http.StatusOK, rpcResponse(req.ID, nil, rerr))
		return
	}
	m := methods[req.Method]
	rreq.Streaming = m.stream
	if rreq.Activated {
		w.Header().Set(HeaderExtensions, rreq.Extension.URI)
		w.Header().Set(LegacyHeaderExtensions, rreq.Extension.URI)
	}
	if m.stream {
		s.stream(r.Context(), w, req.ID, rreq)
		return
	}
	s.send(r.Context(), w, req.ID, rreq)
}

func (s *Server) authorized(r *http.Request) bool {
	if s.cfg.token == "" {
		return true
	}
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.TrimSpace(tok)), []byte(s.cfg.token)) == 1
}

// decodeParams reads the params of a send method into a Request and
// negotiates the extension.
func (s *Server) decodeParams(params json.RawMessage, d Dialect, h http.Header) (*Request, *RPCError) {
	p := gjson.ParseBytes(params)
	if !p.IsObject() {
		return nil, rpcErr(CodeInvalidParams, "Invalid params: params must be an object")
	}
	msg := p.Get("message")
	if !msg.IsObject() {
		return nil, rpcErr(CodeInvalidParams, "Invalid params: message is required")
	}
	req := &Request{Dialect: d, Message: json.RawMessage(msg.Raw)}
	if md := p.Get("metadata"); md.Exists() {
		req.Metadata = json.RawMessage(md.Raw)
	}
	switch c := msg.Get("contextId"); {
	case c.Type == gjson.String:
		req.ContextID = c.String()
	case c.Exists() && c.Type != gjson.Null:
		// It is echoed in the reply: a number or an object would come back
		// as a string the client never sent.
		return nil, rpcErr(CodeInvalidParams, "Invalid params: message.contextId must be a string")
	}
	if req.ContextID == "" {
		req.ContextID = newID()
	}
	parts := msg.Get("parts")
	switch {
	case !parts.Exists() || parts.Type == gjson.Null:
	case !parts.IsArray():
		return nil, rpcErr(CodeInvalidParams, "Invalid params: message.parts must be a list")
	default:
		ps, err := ParseParts([]byte(parts.Raw))
		if err != nil {
			return nil, &RPCError{Code: CodeInvalidParams, Message: "Invalid params: " + err.Error()}
		}
		req.Parts = ps
	}
	var texts []string
	for _, pt := range req.Parts {
		if pt.Kind == KindText {
			texts = append(texts, pt.Text)
		}
	}
	req.Text = strings.Join(texts, "\n")
	evs, err := DecodeClientEvents(req.Parts)
	if err != nil {
		return nil, &RPCError{Code: CodeInvalidParams, Message: "Invalid params: " + err.Error()}
	}
	req.Events = evs
	if md := msg.Get("metadata"); md.Exists() {
		cm, err := ParseClientMetadata([]byte(md.Raw))
		if err != nil {
			return nil, &RPCError{Code: CodeInvalidParams, Message: "Invalid params: " + err.Error()}
		}
		req.Client = cm
	}
	requested := RequestedFromHeader(h)
	requested = append(requested, RequestedFromMetadata(req.Metadata)...)
	if md := msg.Get("metadata"); md.Exists() {
		requested = append(requested, RequestedFromMetadata([]byte(md.Raw))...)
	}
	for _, e := range msg.Get("extensions").Array() {
		requested = append(requested, RequestedExtensions(e.String())...)
	}
	req.Extension, req.Activated = Activate(requested, s.advertised)
	return req, nil
}

// partOptions are the part options for a request's reply.
func (s *Server) partOptions(req *Request) PartOptions {
	o := PartOptions{Shape: req.Dialect.Shape(), GroupMessages: s.cfg.group, Logger: s.log}
	if req.Activated {
		o.Version = req.Extension.Version
	}
	return o
}

// send answers a non-streaming request with one agent message: the whole
// answer is buffered (up to WithMaxResponseBytes), then goes through the
// context's session as one turn (see turnOut.whole for the parts). The
// context's next turn may begin once the answer is applied, before the
// reply is written.
func (s *Server) send(ctx context.Context, w http.ResponseWriter, id json.RawMessage, req *Request) {
	canceled := rpcErr(CodeInternalError, "Internal error: the request was canceled before the agent answered")
	out := newTurnOut(s.partOptions(req))
	release, err := s.beginTurn(ctx, req.ContextID, out)
	if err != nil {
		s.log.Debug("a2a: request canceled while an earlier turn of its context ran", "contextId", req.ContextID, "err", err)
		s.writeReply(w, rpcResponse(id, nil, canceled))
		return
	}
	answer, rerr := s.answer(ctx, req)
	if rerr == nil {
		// The answer is complete: its turn is applied whatever becomes of
		// the request now.
		pctx := context.WithoutCancel(ctx)
		err = errors.Join(s.feed(pctx, req.ContextID, answer), s.pl.EndTurn(pctx, req.ContextID))
	}
	release()
	switch {
	case rerr != nil && ctx.Err() != nil:
		// The client went away or the server is shutting down; in the
		// second case the client is still there and gets an answer.
		s.log.Debug("a2a: request canceled", "err", ctx.Err())
		s.writeReply(w, rpcResponse(id, nil, canceled))
		return
	case rerr != nil:
		s.log.Error("a2a: runner failed", "err", rerr)
		s.writeReply(w, rpcResponse(id, nil, rpcErr(CodeInternalError, "Internal error: the agent failed to answer")))
		return
	case err != nil:
		s.log.Error("a2a: answer not processed", "contextId", req.ContextID, "err", turnError(err))
		s.writeReply(w, rpcResponse(id, nil, rpcErr(CodeInternalError, "Internal error: the answer could not be processed")))
		return
	}
	parts, fellBack := out.whole(answer)
	if fellBack {
		s.log.Warn("a2a: no A2UI block of the answer parsed; answering with the fallback text", "contextId", req.ContextID)
	}
	res, merr := messageResult(req.Dialect, agentMessage(req.Dialect, req.ContextID, "", parts))
	if merr != nil {
		s.writeReply(w, rpcResponse(id, nil, rpcErr(CodeInternalError, "Internal error: %v", merr)))
		return
	}
	s.writeReply(w, rpcResponse(id, res, nil))
}

// answer runs the runner and returns its whole answer. It fails when the
// runner fails, when ctx is done before the answer is complete, and with
// ErrResponseTooLarge when the answer outgrows WithMaxResponseBytes.
func (s *Server) answer(ctx context.Context, req *Request) ([]byte, error) {
	var buf bytes.Buffer
	tooLarge := false
	err := s.runner.Run(ctx, req, func(chunk []byte) error {
		if tooLarge || buf.Len()+len(chunk) > s.cfg.maxResponse {
			tooLarge = true
			return ErrResponseTooLarge
		}
		buf.Write(chunk)
		return nil
	})
	switch {
	case tooLarge: // whatever the runner made of the yield error: the answer is cut
		return nil, ErrResponseTooLarge
	case ctx.Err() != nil:
		return nil, ctx.Err()
	}
	return buf.Bytes(), err
}

// writeReply writes the JSON-RPC reply to a send under the write timeout
// (see WithWriteTimeout), flushed before the deadline is cleared.
func (s *Server) writeReply(w http.ResponseWriter, body []byte) {
	err := boundedWrite(http.NewResponseController(w), s.cfg.writeTimeout, func() error {
		writeJSON(w, http.StatusOK, body)
		return nil
	})
	if err != nil {
		s.log.Debug("a2a: reply not written", "err", err)
	}
}
