// Package processor applies lists of A2UI messages to per-surface state,
// one message at a time, the way a renderer (or a gateway that mirrors a
// renderer) must.
//
// A Processor holds a group of surfaces. Each has its identity (id,
// catalog id, theme, sendDataModel), a flat map of components, a data
// model and, for v0.8, a root and styles. ProcessList applies the v0.9
// family (createSurface, updateComponents, updateDataModel, deleteSurface;
// the v0.10 additions callFunction and actionResponse are recognised and
// reported as unsupported) and v0.8 (beginRendering, surfaceUpdate,
// dataModelUpdate, deleteSurface).
//
// # Isolation and atomicity
//
// Every message of a list is validated and applied on its own. A message
// that fails changes nothing (a failing updateComponents leaves none of its
// components behind); its failure is recorded, as a *MessageError with the
// message's index and surface id, in the list's Batch, logged with log/slog
// (WithLogger), and the rest of the list still applies. Errors also come in
// the protocol's agent-facing form (MessageError.Report), ready to be fed
// back to the agent's model.
//
// # One batch per list
//
// Each list yields exactly one Batch (also for an empty or all-failed
// list): a sequence number, one Result per message and the net Changes.
// OnBatch callbacks fire once per list, never per message, so a renderer
// repaints once per list.
//
// # Semantics
//
// As the specification and the reference renderer define them:
// createSurface for an existing surface and updates to an unknown surface
// are errors; an update to an existing component id replaces all its
// properties, and a changed type recreates it; updateDataModel is an upsert
// at a JSON Pointer (missing parents are created, as an array when the next
// segment is an index; an omitted value removes the key, or empties an
// array slot keeping the length; an omitted path or "/" replaces the whole
// model; writing through a primitive is an error); v0.8 dataModelUpdate
// contents become plain JSON values; deleteSurface removes everything and
// the surface can be created again. Where the reference is looser than the
// message schema, the schema wins: every component needs its "component"
// type, also when it updates an existing id. Removing a path that does not
// exist changes nothing (the reference creates its missing parents);
// deleting an unknown surface is a no-op, as in the reference. A data path
// without a leading "/" is read from the root, and empty segments are
// skipped, as in the reference.
//
// # Validation
//
// Every message is read in one validating pass (JSON syntax, UTF-8, the
// protocol's depth limit) and its envelope is checked structurally, without
// any schema files. Topology checks (WithTopology, on by default) apply the
// rules of package protocol (protocol.CheckIntegrity and
// protocol.AnalyzeTopology: duplicate ids, self-references, cycles, depth;
// with WithStrictTopology also missing root, dangling references and
// orphans), with its sentinels and texts, to the surface's whole component
// graph as it would be after the message. They run incrementally on the raw
// message, without decoding it; differential tests hold them to the protocol
// package's functions. WithCatalog adds the catalog's JSON Schema
// (protocol.Catalog.ValidateSchema) and protocol.CheckLimits: a message
// first takes the fast check of protocol.Catalog.ValidMessageJSON, and only
// one that does not pass it is decoded and validated again for the error
// report.
//
// A message is parsed once, onto a token tape (internal/jsontape) from
// which the envelope, the components and their references are read. The
// catalog's fast check runs on that same tape through
// internal/protocoltape, where package protocol registers its unexported
// entry points (the check, and the mapping of the tape's parse errors to
// protocol.JSONSyntaxError and protocol.ErrRecursionLimit): the tape is
// not part of any package's public API.
//
// # Concurrency and memory
//
// A Processor is not safe for concurrent use: one goroutine owns it, and
// Batch callbacks run on that goroutine. Its memory is bounded by
// WithMaxSurfaces, WithMaxComponents (per surface) and
// WithMaxDataModelBytes (per surface); a message that would exceed a bound
// fails with ErrLimit and changes nothing. Components and data values are
// held as the JSON text they arrived as (copied: the caller keeps its
// bytes; the small messages of a list share one copy). A surface indexes
// its components by offsets into that text, so its state holds few
// pointers for the garbage collector. Copies no component points into any
// more are dropped as the surface is updated, once they outnumber its
// components (a data model value, the theme or v0.8 styles keep the copy
// they arrived in alive while the surface holds them), so a surface holds
// its live text and at most about as many stale copies as it has
// components (16 at least).
package processor
