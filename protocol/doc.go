// Package protocol is the shared vocabulary of a2ui-stream: A2UI protocol
// versions and their families, message envelope kinds, MIME types and A2A
// extension URIs, catalogs, and validation (catalog JSON Schema and component
// topology).
//
// Everything in this package is safe for concurrent use once constructed
// (a loaded Catalog is immutable).
//
// # Token tapes
//
// The fast validity check (Catalog.ValidMessageJSON) reads a message from a
// token tape (internal/jsontape), parsed once. The processor shares that
// tape: it parses a message onto one, reads the envelope and components
// from it, and runs the catalog's check on the same tokens. The tape is
// not this package's API: the entry points the processor needs (the check
// on a parsed tape, and the mapping of the tape parser's errors to this
// package's *JSONSyntaxError and ErrRecursionLimit) are unexported and
// registered at init into internal/protocoltape, which only the module's
// packages can import.
package protocol
