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
//   - streamed model output to parts (ChunkParts, ResponseParts) with the
//     parser package;
//   - an A2A JSON-RPC endpoint over net/http (Server) that answers with a
//     pluggable Runner and streams one server-sent event per completed part
//     (with the default parser, streamed output gets the payload repairs a
//     whole reply gets, see WithParserOptions);
//     it speaks A2A 1.0 and 0.3 on one URL (the method names select the
//     dialect) and refuses a request whose A2A-Version header or query
//     parameter names another version (CodeVersionNotSupported).
//
// Errors are typed: *PartError, *MetadataError and *EventError wrap the
// sentinels ErrMalformedPart, ErrMalformedMetadata and ErrInvalidEvent
// (test them with errors.Is and errors.As), and *RPCError carries a JSON-RPC
// error code.
//
// Concurrency: the functions of this package are safe for concurrent use.
// Part and the metadata types are plain values. A Server is safe for
// concurrent use and serves requests in parallel; each request runs its
// Runner on the request's goroutine and stops it through the request's
// context when the client disconnects or the server cancels it (a stream
// then ends with a canceled task status), and through an error from yield
// when the reply cannot be written (a streaming client that stops reading
// misses the write deadline, see WithWriteTimeout). ReplayRunner and
// StaticRunner are safe for concurrent use.
package a2a
