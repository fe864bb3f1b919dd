// Package protocol is the shared vocabulary of a2ui-stream: A2UI protocol
// versions and their families, message envelope kinds, MIME types and A2A
// extension URIs, catalogs, and validation (catalog JSON Schema and component
// topology).
//
// Everything in this package is safe for concurrent use once constructed
// (a loaded Catalog is immutable), except a Tape: one goroutine at a time
// parses into it and reads it.
package protocol
