package a2a

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// JSON-RPC 2.0 error codes the endpoint answers with.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
)

// A2A error codes the endpoint answers with for A2A methods it knows but
// does not serve (it keeps no tasks).
const (
	CodeTaskNotFound                 = -32001
	CodePushNotificationNotSupported = -32003
	CodeUnsupportedOperation         = -32004
	CodeExtendedCardNotConfigured    = -32007
)

// CodeVersionNotSupported is A2A's VersionNotSupportedError: the request's
// A2A-Version header (or query parameter) names a version the endpoint does
// not speak.
const CodeVersionNotSupported = -32009

// RPCError is a JSON-RPC error object. It is also the error type the request
// decoding reports, so callers can read its Code.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (e *RPCError) Error() string {
	return fmt.Sprintf("a2a: JSON-RPC error %d: %s", e.Code, e.Message)
}

func rpcErr(code int, format string, args ...any) *RPCError {
	return &RPCError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// rpcRequest is a decoded JSON-RPC request. ID holds the id exactly as
// received so that replies echo it unchanged.
type rpcRequest struct {
	ID     json.RawMessage
	Method string
	Params json.RawMessage
}

var nullID = json.RawMessage("null")

// decodeRequest validates a JSON-RPC 2.0 request envelope. On failure it
// returns the id it could recover (null otherwise) with the error.
func decodeRequest(body []byte) (rpcRequest, *RPCError) {
	req := rpcRequest{ID: nullID}
	if !json.Valid(body) {
		return req, rpcErr(CodeParseError, "Parse error: the body is not valid JSON")
	}
	if !utf8.Valid(body) {
		// JSON between systems is UTF-8 (RFC 8259); the id would otherwise
		// be echoed with the bad bytes.
		return req, rpcErr(CodeParseError, "Parse error: the body is not valid UTF-8")
	}
	r := gjson.ParseBytes(body)
	if !r.IsObject() {
		return req, rpcErr(CodeInvalidRequest, "Invalid Request: the body is not a JSON-RPC request object (batches are not supported)")
	}
	id := r.Get("id")
	switch {
	case !id.Exists():
		return req, rpcErr(CodeInvalidRequest, "Invalid Request: id is required")
	case id.Type == gjson.String, id.Type == gjson.Number, id.Type == gjson.Null:
		req.ID = json.RawMessage(id.Raw)
	default:
		return req, rpcErr(CodeInvalidRequest, "Invalid Request: id must be a string, a number or null")
	}
	if v := r.Get("jsonrpc"); v.Type != gjson.String || v.String() != "2.0" {
		return req, rpcErr(CodeInvalidRequest, `Invalid Request: jsonrpc must be "2.0"`)
	}
	m := r.Get("method")
	if m.Type != gjson.String || m.String() == "" {
		return req, rpcErr(CodeInvalidRequest, "Invalid Request: method must be a non-empty string")
	}
	req.Method = m.String()
	if p := r.Get("params"); p.Exists() && p.Type != gjson.Null {
		req.Params = json.RawMessage(p.Raw)
	}
	return req, nil
}

// rpcResponse builds a JSON-RPC response with a result (already JSON) or an
// error.
func rpcResponse(id json.RawMessage, result []byte, e *RPCError) []byte {
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":`)
	b.Write(id)
	if e != nil {
		eb, _ := json.Marshal(e)
		b.WriteString(`,"error":`)
		b.Write(eb)
	} else {
		b.WriteString(`,"result":`)
		b.Write(result)
	}
	b.WriteByte('}')
	return b.Bytes()
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
