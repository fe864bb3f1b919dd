package processor

import (
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// Batch is the outcome of one list of messages: what each message did and
// the net change to the surfaces. It is self-contained (it holds no
// reference into the processor) and JSON-serialisable; it is the value
// that flows from the processor to sinks.
type Batch struct {
	// Seq numbers the lists a processor has applied, from 1.
	Seq uint64 `json:"seq"`
	// Agent is the agent the list came from (see ProcessListFrom), or "".
	Agent string `json:"agent,omitempty"`
	// Applied and Failed count the list's messages by outcome.
	Applied int `json:"applied"`
	Failed  int `json:"failed"`
	// Results holds one entry per message, in list order.
	Results []Result `json:"results"`
	// Changes is the net effect of the whole list.
	Changes Changes `json:"changes"`
}

// Result is the outcome of one message.
type Result struct {
	// Index is the message's 0-based position in the list.
	Index int `json:"index"`
	// Type is the message kind ("" when it could not be determined).
	Type protocol.Kind `json:"type,omitempty"`
	// SurfaceID is the surface the message addresses ("" if unknown).
	SurfaceID string `json:"surfaceId,omitempty"`
	// OK reports whether the message was applied.
	OK bool `json:"ok"`
	// Error is the failure in the protocol's agent-facing form; nil when OK.
	Error *protocol.ErrorReport `json:"error,omitempty"`
	// Err is the typed failure (a *MessageError); nil when OK. It is not
	// serialised: Error carries its text.
	Err error `json:"-"`
}

// Changes is the net effect of a list. A surface both created and deleted
// within the list, that did not exist before it, appears nowhere; one that
// existed before, was deleted and created again appears in both
// SurfacesDeleted and SurfacesCreated (a renderer tears the old one down
// and builds the new one).
type Changes struct {
	// SurfacesCreated lists, sorted, surfaces created by the list that
	// still exist at its end.
	SurfacesCreated []string `json:"surfacesCreated,omitempty"`
	// SurfacesDeleted lists, sorted, surfaces that existed before the list
	// and were deleted by it.
	SurfacesDeleted []string `json:"surfacesDeleted,omitempty"`
	// Surfaces holds, for each surface that exists at the end of the list
	// and was changed by it, what changed (never nil for a listed surface).
	Surfaces map[string]*SurfaceChanges `json:"surfaces,omitempty"`
}

// SurfaceChanges is what a list changed in one surface.
type SurfaceChanges struct {
	// ComponentsUpserted lists the ids of components created or updated,
	// each once, in the order they first arrived in the list.
	ComponentsUpserted []string `json:"componentsUpserted,omitempty"`
	// ComponentsRecreated lists, sorted, the ids (also in
	// ComponentsUpserted) whose type changed: a renderer must drop the old
	// component and build a fresh one.
	ComponentsRecreated []string `json:"componentsRecreated,omitempty"`
	// DataPaths lists, sorted, the data-model paths written or removed, as
	// JSON Pointers ("/" is the whole model). A path below another listed
	// path is left out.
	DataPaths []string `json:"dataPaths,omitempty"`
	// Root is the surface's new root component id, when the list gave it
	// one: a v0.8 beginRendering, or a v0.9 "root" component created or
	// recreated.
	Root string `json:"root,omitempty"`
	// CatalogID, Theme and Styles changes are implied by creation; a v0.8
	// beginRendering that sets styles sets StylesChanged.
	StylesChanged bool `json:"stylesChanged,omitempty"`
}

// Errors returns the failures of the list, in order.
func (b Batch) Errors() []*MessageError {
	var out []*MessageError
	for _, r := range b.Results {
		if me, ok := r.Err.(*MessageError); ok {
			out = append(out, me)
		}
	}
	return out
}
