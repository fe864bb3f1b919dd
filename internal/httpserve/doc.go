// Package httpserve runs the project's HTTP listeners (the A2A endpoint,
// the Prometheus metrics endpoint, server-sent event streams) one hardened
// way.
//
// A Config names the address, the handler and the limits; its zero fields
// take safe defaults and Validate rejects negative ones with a
// *ConfigError (matching ErrInvalidConfig), so flag values can be checked
// before anything starts:
//
//   - MaxConns (1,024) caps the connections open at once with
//     golang.org/x/net/netutil.LimitListener; one beyond the cap waits in
//     the listen backlog until another closes.
//   - ReadHeaderTimeout (10s) bounds reading the request headers.
//   - ReadTimeout (30s) is a body-read deadline: it bounds reading the
//     request, body included, and net/http lifts it once the body has been
//     read, so it never cuts a long response short.
//   - IdleTimeout (60s) closes idle keep-alive connections.
//   - WriteTimeout (0, none) bounds a whole response; SSE streams are
//     long-lived, so listeners serving them leave it 0.
//   - MaxHeaderBytes (64 KiB) bounds the request line and headers.
//   - DrainTimeout (10s) and CancelGrace (2s) bound the shutdown.
//
// Serve(ctx, ln) serves until ctx is done and then shuts down gracefully,
// returning nil when every request has returned. Listen binds the address
// first, so a caller with port 0 learns the port from the listener;
// ListenAndServe does both, and Addr reports the bound address.
//
// A Server is safe for concurrent use and serves once. Errors are *Error
// (the step and the cause) or *ConfigError, their messages prefixed with
// "httpserve: ".
package httpserve
