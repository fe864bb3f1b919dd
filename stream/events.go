package stream

import (
	"slices"
	"strconv"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
	"github.com/a2ui-stream/a2ui-stream/processor"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// The encoding of event lines (see event.schema.json). Lines are built by
// appending bytes, never by reflection, and depend only on their input:
// no times, no instance names. Members come in a fixed order.

// appendHead appends the members every event starts with.
func appendHead(dst []byte, kind, session string) []byte {
	dst = append(dst, `{"event":"`...)
	dst = append(dst, kind...)
	dst = append(dst, `","session":`...)
	return jsonwire.AppendString(dst, session)
}

func appendInt(dst []byte, name string, v int64) []byte {
	dst = append(dst, ',', '"')
	dst = append(dst, name...)
	dst = append(dst, '"', ':')
	return strconv.AppendInt(dst, v, 10)
}

func appendStr(dst []byte, name, v string) []byte {
	dst = append(dst, ',', '"')
	dst = append(dst, name...)
	dst = append(dst, '"', ':')
	return jsonwire.AppendString(dst, v)
}

// appendTextEvent encodes a text event.
func appendTextEvent(dst []byte, session, text string) []byte {
	dst = appendHead(dst, "text", session)
	return append(appendStr(dst, "text", text), '}')
}

// errorInfo is a failure reported in an error event, or in the batch of
// a list cut short by it.
type errorInfo struct {
	reason string // ReasonBlock, ReasonChunk, ReasonUnknownSession, ReasonSink
	list   int    // the block, for ReasonBlock; -1 otherwise
	offset int64  // the block's stream offset, for ReasonBlock; -1 otherwise
	msg    string
}

// The reasons of error events.
const (
	// ReasonBlock: the parser dropped a block.
	ReasonBlock = "block"
	// ReasonChunk: a chunk was larger than WithMaxChunk and was not parsed.
	ReasonChunk = "chunk"
	// ReasonUnknownSession: End named a session that is not open.
	ReasonUnknownSession = "unknown_session"
	// ReasonSink: a sink failed to take an event after its retries.
	ReasonSink = "sink"
	// ReasonInput: a consumer could not read a message as a chunk (see
	// Pipeline.ReportError).
	ReasonInput = "input"
)

// appendErrorEvent encodes an error event.
func appendErrorEvent(dst []byte, session string, e errorInfo) []byte {
	dst = appendHead(dst, "error", session)
	dst = appendStr(dst, "reason", e.reason)
	if e.list >= 0 {
		dst = appendInt(dst, "list", int64(e.list))
	}
	if e.offset >= 0 {
		dst = appendInt(dst, "offset", e.offset)
	}
	return append(appendStr(dst, "error", e.msg), '}')
}

// endCounts are the counts of an end event.
type endCounts struct {
	bytes    int64 // input bytes fed
	lists    int   // lists (blocks) that produced a batch or failed
	batches  int
	messages int // messages applied or failed
	failed   int // messages that failed
	errors   int // error events
}

// appendEndEvent encodes an end event.
func appendEndEvent(dst []byte, session, reason string, c endCounts) []byte {
	dst = appendHead(dst, "end", session)
	dst = appendStr(dst, "reason", reason)
	dst = appendInt(dst, "bytes", c.bytes)
	dst = appendInt(dst, "lists", int64(c.lists))
	dst = appendInt(dst, "batches", int64(c.batches))
	dst = appendInt(dst, "messages", int64(c.messages))
	dst = appendInt(dst, "failed", int64(c.failed))
	dst = appendInt(dst, "errors", int64(c.errors))
	return append(dst, '}')
}

// rejectedMsg is a message of a batch that failed, on one line, with its
// result's index.
type rejectedMsg struct {
	index int
	msg   []byte
}

// appendBatchEvent encodes a batch event: msgs holds the applied messages,
// each on one line, joined by commas; rejected the failed ones, shown in
// their results; cut, when set, is the failure that cut the list short.
func appendBatchEvent(dst []byte, session string, n, list int, listEnd bool, b *processor.Batch, msgs []byte, rejected []rejectedMsg, cut *errorInfo) []byte {
	dst = appendHead(dst, "batch", session)
	dst = appendInt(dst, "batch", int64(n))
	dst = appendInt(dst, "list", int64(list))
	dst = append(dst, `,"listEnd":`...)
	dst = strconv.AppendBool(dst, listEnd)
	dst = appendInt(dst, "applied", int64(b.Applied))
	dst = appendInt(dst, "failed", int64(b.Failed))
	dst = append(dst, `,"messages":[`...)
	dst = append(dst, msgs...)
	dst = append(dst, `],"results":[`...)
	for i := range b.Results {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendResult(dst, &b.Results[i])
		if len(rejected) > 0 && rejected[0].index == b.Results[i].Index {
			// The failed message itself, in its result.
			dst = append(dst[:len(dst)-1], `,"message":`...)
			dst = append(append(dst, rejected[0].msg...), '}')
			rejected = rejected[1:]
		}
	}
	dst = append(dst, `],"changes":`...)
	dst = appendChanges(dst, &b.Changes)
	if cut != nil {
		dst = append(dst, `,"error":{"offset":`...)
		dst = strconv.AppendInt(dst, cut.offset, 10)
		dst = appendStr(dst, "message", cut.msg)
		dst = append(dst, '}')
	}
	return append(dst, '}')
}

// appendResult encodes a processor.Result as encoding/json would (its
// json tags), without HTML escaping.
func appendResult(dst []byte, r *processor.Result) []byte {
	dst = append(dst, `{"index":`...)
	dst = strconv.AppendInt(dst, int64(r.Index), 10)
	if r.Type != "" {
		dst = appendStr(dst, "type", string(r.Type))
	}
	if r.SurfaceID != "" {
		dst = appendStr(dst, "surfaceId", r.SurfaceID)
	}
	dst = append(dst, `,"ok":`...)
	dst = strconv.AppendBool(dst, r.OK)
	if r.Error != nil {
		dst = append(dst, `,"error":`...)
		dst = appendReport(dst, r.Error)
	}
	return append(dst, '}')
}

// appendReport encodes the protocol's agent-facing error report.
func appendReport(dst []byte, e *protocol.ErrorReport) []byte {
	dst = append(dst, `{"code":`...)
	dst = jsonwire.AppendString(dst, e.Code)
	dst = appendStr(dst, "surfaceId", e.SurfaceID)
	dst = appendStr(dst, "path", e.Path)
	dst = appendStr(dst, "message", e.Message)
	return append(dst, '}')
}

// appendChanges encodes processor.Changes as encoding/json would.
func appendChanges(dst []byte, c *processor.Changes) []byte {
	dst = append(dst, '{')
	n := len(dst)
	if len(c.SurfacesCreated) > 0 {
		dst = appendStrings(dst, "surfacesCreated", c.SurfacesCreated)
	}
	if len(c.SurfacesDeleted) > 0 {
		dst = appendStrings(comma(dst, n), "surfacesDeleted", c.SurfacesDeleted)
	}
	if len(c.Surfaces) > 0 {
		dst = append(comma(dst, n), `"surfaces":{`...)
		ids := make([]string, 0, len(c.Surfaces))
		for id := range c.Surfaces {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for i, id := range ids {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonwire.AppendString(dst, id)
			dst = append(dst, ':')
			dst = appendSurfaceChanges(dst, c.Surfaces[id])
		}
		dst = append(dst, '}')
	}
	return append(dst, '}')
}

func appendSurfaceChanges(dst []byte, s *processor.SurfaceChanges) []byte {
	if s == nil {
		return append(dst, "{}"...) // the schema's object; the processor never leaves one nil
	}
	dst = append(dst, '{')
	n := len(dst)
	if len(s.ComponentsUpserted) > 0 {
		dst = appendStrings(dst, "componentsUpserted", s.ComponentsUpserted)
	}
	if len(s.ComponentsRecreated) > 0 {
		dst = appendStrings(comma(dst, n), "componentsRecreated", s.ComponentsRecreated)
	}
	if len(s.DataPaths) > 0 {
		dst = appendStrings(comma(dst, n), "dataPaths", s.DataPaths)
	}
	if s.Root != "" {
		dst = comma(dst, n)
		dst = append(dst, `"root":`...)
		dst = jsonwire.AppendString(dst, s.Root)
	}
	if s.StylesChanged {
		dst = append(comma(dst, n), `"stylesChanged":true`...)
	}
	return append(dst, '}')
}

// comma appends a comma unless dst has nothing past n, the position after
// an object's opening brace.
func comma(dst []byte, n int) []byte {
	if len(dst) > n {
		return append(dst, ',')
	}
	return dst
}

func appendStrings(dst []byte, name string, list []string) []byte {
	dst = append(dst, '"')
	dst = append(dst, name...)
	dst = append(dst, `":[`...)
	for i, s := range list {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonwire.AppendString(dst, s)
	}
	return append(dst, ']')
}
