// Package a2a binds A2UI to A2A (Agent2Agent), following the A2UI A2A
// extension specification (v0.9.1) and both A2A protocol versions in use:
// 1.0 and 0.3.
//
// It covers:
//
//   - extension URIs (protocol.ExtensionURI, protocol.ExtensionVersion) and negotiation:
//     the URIs a request asks for in its A2A-Extensions or X-A2A-Extensions
//     headers or its metadata (RequestedFromHeader, RequestedFromMetadata),
//     the URIs an agent card advertises (AdvertisedExtensions), and the
//     newest common version by SemVer (SelectNewest, Activate);
//   - the agent card entry (NewAgentExtension) and the MIME types
//     (protocol.MIMEType, protocol.LegacyMIMEType, protocol.MIMETypeFor);
//   - parts in both wire shapes (Part, ShapeV03, ShapeV10): building,
//     reading, detecting A2UI parts and extracting their messages
//     (Messages), including the {"messages":[…]} and {"value":[…]} wrappings;
//   - client metadata (a2uiClientCapabilities in its keyed and flat forms,
//     a2uiClientDataModel) and client-to-server events (action, error);
//   - model output to parts (ChunkParts, CloseParts, ResponseParts) with
//     the parser package, for callers that parse on their own;
//   - an A2A JSON-RPC endpoint over net/http (Server) that answers with a
//     pluggable Runner and streams one server-sent event per completed part;
//     it speaks A2A 1.0 and 0.3 on one URL (the method names select the
//     dialect) and refuses a request whose A2A-Version header or query
//     parameter names another version (CodeVersionNotSupported).
//
// # The endpoint's path from model output to parts
//
// The Server runs every answer through one stream.Pipeline, streamed or
// not. Its sessions are the A2A contexts (a request without a contextId
// gets a new one): each answer is one turn of its context's session, fed
// chunk by chunk and ended with stream.Pipeline.EndTurn, so that the
// surfaces an answer creates are there for the context's next message,
// until the session is idle for WithSessionIdleTimeout or evicted by
// WithMaxSessions. Prose becomes text parts; the messages of each batch
// become A2UI data parts (one per message, or one per batch with
// WithGroupedMessages), once the session's processor applied them. A
// message it rejects (an update of a surface the context never created, a
// v0.8 beginRendering without its root) is logged and counted, and still
// forwarded in its place, as the reference agent SDK forwards what the
// model wrote (the A2A conformance suite requires it); the renderer
// validates what it receives. A block
// that does not parse is logged and dropped; the blocks around it are
// kept. Without WithParserOptions the parser repairs payloads
// (parser.WithPayloadRepair). A non-streaming reply holds what the
// streamed reply of the same answer would, but for the grouping of data
// parts and for its prose, joined between blocks and trimmed; an answer
// none of whose blocks parsed is answered with its own text, unchanged.
//
// Rejected requests (a missing or wrong bearer token, a body over
// WithMaxBodyBytes or read too slowly, a JSON-RPC error) are logged at Info
// with their reason (RejectReasons) and the client's address, paced by
// WithRejectLogLimit so that a flood cannot fill the disk, and each is
// handed to WithRejectObserver (for metrics). A client that disconnects is
// logged at Debug, and so is the block its disconnect left unfinished.
// The Server sets no connection limit, read or idle timeout of its own:
// serve it through a hardened http.Server (the command uses
// internal/httpserve).
//
// Errors are typed: *PartError, *MetadataError and *EventError wrap the
// sentinels ErrMalformedPart, ErrMalformedMetadata and ErrInvalidEvent
// (test them with errors.Is and errors.As), and *RPCError carries a JSON-RPC
// error code.
//
// Concurrency: the functions of this package are safe for concurrent use.
// Part and the metadata types are plain values. A Server is safe for
// concurrent use and serves requests in parallel, but the messages of one
// context one at a time (a message waits until the answer to the one
// before it is complete). Each request runs its Runner on the
// request's goroutine and stops it through the request's context when the
// client disconnects or the server cancels it (a stream then ends with a
// canceled task status), and through an error from yield when the reply
// cannot be written (a streaming client that stops reading misses the
// write deadline, see WithWriteTimeout). The Server's one goroutine is the
// pipeline's idle sweep, which Close stops. ReplayRunner and StaticRunner
// are safe for concurrent use.
package a2a
