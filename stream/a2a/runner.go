package a2a

import (
	"context"
	"encoding/json"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// Runner produces a model's answer to a request as a stream of chunks. The
// endpoint calls Run once per request on the request's goroutine.
//
// Run calls yield with each chunk as the model produces it and returns when
// the answer is complete, when ctx is done (the client disconnected or the
// server is shutting down), or when yield returns an error (the reply could
// not be written, or a non-streaming reply outgrew its limit); it must then
// return promptly. yield does not retain chunk after it returns. yield must
// not be called after Run returns, nor from several goroutines at once. A
// Runner must be safe for concurrent use: the endpoint serves requests in
// parallel.
type Runner interface {
	Run(ctx context.Context, req *Request, yield func(chunk []byte) error) error
}

// RunnerFunc adapts a function to Runner.
type RunnerFunc func(ctx context.Context, req *Request, yield func(chunk []byte) error) error

// Run calls f.
func (f RunnerFunc) Run(ctx context.Context, req *Request, yield func(chunk []byte) error) error {
	return f(ctx, req, yield)
}

// Request is what a Runner learns about an incoming A2A message.
type Request struct {
	// Dialect is the A2A protocol version the client speaks.
	Dialect Dialect
	// Streaming reports a streaming method (SendStreamingMessage,
	// message/stream).
	Streaming bool
	// ContextID is the conversation id: the client's, or a new one.
	ContextID string
	// TaskID is the task the reply belongs to (streaming replies only).
	TaskID string
	// Message is the client's message as received.
	Message json.RawMessage
	// Parts are the message's parts.
	Parts []Part
	// Text joins the message's text parts with newlines.
	Text string
	// Events are the A2UI client-to-server events the message carries.
	Events []ClientEvent
	// Client is the A2UI metadata the message carries.
	Client ClientMetadata
	// Extension is the activated A2UI extension; Activated reports whether
	// there is one.
	Extension Activation
	Activated bool
	// Metadata is the request's params.metadata, if any.
	Metadata json.RawMessage
}

// StaticRunner answers every request with the same output, in one chunk.
type StaticRunner string

// Run yields the output.
func (s StaticRunner) Run(ctx context.Context, _ *Request, yield func([]byte) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s == "" {
		return nil
	}
	return yield([]byte(s))
}

// Version reports the protocol version used to mark a request's data parts:
// the activated extension's, or empty (the current protocol).
func (r *Request) Version() protocol.Version {
	if r.Activated {
		return r.Extension.Version
	}
	return ""
}
