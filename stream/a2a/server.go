package a2a

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/a2ui-stream/a2ui-stream/parser"
)

// Server is an A2A JSON-RPC endpoint over HTTP that answers messages with a
// Runner's output, parsed into text and A2UI data parts. It speaks A2A 1.0
// (SendMessage, SendStreamingMessage) and A2A 0.3 (message/send,
// message/stream) on the same URL, serves the agent card at AgentCardPath,
// and streams replies as server-sent events, one event per completed part.
//
// A Server is safe for concurrent use; it holds no per-request state.
type Server struct {
	runner     Runner
	cfg        config
	advertised []string
	log        *slog.Logger
	// streamOpts are the options of a streaming reply's parser: the
	// configured ones, borrowed output (each part is written before the
	// next chunk is fed), and, with the default parser, the payload
	// repairs a whole reply gets (see responseParts).
	streamOpts []parser.Option
}

// NewServer returns an endpoint that answers with runner.
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
		logger:       slog.New(slog.DiscardHandler),
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
	s := &Server{runner: runner, cfg: cfg, log: cfg.logger}
	s.streamOpts = append(slices.Clip(cfg.parserOpts), parser.WithBorrowedOutput())
	if len(cfg.parserOpts) == 0 {
		s.streamOpts = append(s.streamOpts, parser.WithPayloadRepair())
	}
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
		writeJSON(w, http.StatusMethodNotAllowed, rpcResponse(nullID, nil, rpcErr(CodeInvalidRequest, "Invalid Request: JSON-RPC requests are POSTed")))
		return
	}
	if !s.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="a2a"`)
		writeJSON(w, http.StatusUnauthorized, rpcResponse(nullID, nil, rpcErr(CodeInvalidRequest, "Unauthorized: a valid bearer token is required")))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.maxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeJSON(w, http.StatusRequestEntityTooLarge, rpcResponse(nullID, nil, rpcErr(CodeInvalidRequest, "Invalid Request: body exceeds %d bytes", tooBig.Limit)))
			return
		}
		// The client is gone or sent a broken body (bad chunked encoding):
		// answer, in case it is still there, rather than leave an empty 200.
		s.log.Debug("a2a: reading request body failed", "err", err)
		writeJSON(w, http.StatusBadRequest, rpcResponse(nullID, nil, rpcErr(CodeParseError, "Parse error: the body could not be read")))
		return
	}
	req, rerr := decodeRequest(body)
	if rerr == nil {
		rerr = checkVersion(r)
	}
	if rerr != nil {
		writeJSON(w, http.StatusOK, rpcResponse(req.ID, nil, rerr))
		return
	}
	m, ok := methods[req.Method]
	if e, known := unserved[req.Method]; !ok && known {
		writeJSON(w, http.StatusOK, rpcResponse(req.ID, nil, e))
		return
	}
	if !ok {
		writeJSON(w, http.StatusOK, rpcResponse(req.ID, nil, rpcErr(CodeMethodNotFound, "Method not found: %s", req.Method)))
		return
	}
	rreq, rerr := s.decodeParams(req.Params, m.dialect, r.Header)
	if rerr != nil {
		writeJSON(w, http.StatusOK, rpcResponse(req.ID, nil, rerr))
		return
	}
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

// send answers a non-streaming request with one agent message.
func (s *Server) send(ctx context.Context, w http.ResponseWriter, id json.RawMessage, req *Request) {
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
	if tooLarge { // whatever the runner made of the yield error: the answer is cut
		err = ErrResponseTooLarge
	}
	if ctx.Err() != nil {
		// The client went away or the server is shutting down; in the
		// second case the client is still there and gets an answer.
		s.log.Debug("a2a: request canceled", "err", ctx.Err())
		s.writeReply(w, rpcResponse(id, nil, rpcErr(CodeInternalError, "Internal error: the request was canceled before the agent answered")))
		return
	}
	if err != nil {
		s.log.Error("a2a: runner failed", "err", err)
		s.writeReply(w, rpcResponse(id, nil, rpcErr(CodeInternalError, "Internal error: the agent failed to answer")))
		return
	}
	parts := s.responseParts(buf.Bytes(), s.partOptions(req))
	res, merr := messageResult(req.Dialect, agentMessage(req.Dialect, req.ContextID, "", parts))
	if merr != nil {
		s.writeReply(w, rpcResponse(id, nil, rpcErr(CodeInternalError, "Internal error: %v", merr)))
		return
	}
	s.writeReply(w, rpcResponse(id, res, nil))
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

// responseParts parses a whole runner answer. With the default parser it is
// ResponseParts (payload repair, fallback text on failure); with parser
// options (another framing, other limits) the answer goes through a parser
// built with them, and a failure again answers with the fallback text.
func (s *Server) responseParts(answer []byte, o PartOptions) []Part {
	if len(s.cfg.parserOpts) == 0 {
		parts, _ := ResponseParts(string(answer), o) // errors are logged and answered with the fallback
		return parts
	}
	p, err := parser.New(s.cfg.parserOpts...)
	if err == nil {
		var pp, rest []parser.Part
		if pp, err = p.Feed(answer); err == nil {
			// Kept across Close, which may reuse borrowed output: the
			// parts array as well as the messages.
			kept := make([]parser.Part, len(pp), len(pp)+1)
			for i, pt := range pp {
				kept[i] = pt.Clone()
			}
			rest, err = p.Close()
			pp = append(kept, rest...)
		}
		if err == nil {
			return FromParserParts(pp, o)
		}
	}
	s.log.Warn("a2a: model response did not parse; answering with the fallback text", "err", err)
	fb := string(answer)
	if o.Fallback != nil {
		fb = *o.Fallback
	}
	if fb == "" {
		return nil
	}
	return []Part{NewTextPart(fb, o.Shape)}
}
