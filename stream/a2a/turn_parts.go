package a2a

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/a2ui-stream/a2ui-stream/protocol"
	"github.com/a2ui-stream/a2ui-stream/sinks"
	"github.com/a2ui-stream/a2ui-stream/stream"
)

// turnOut collects the pipeline events of one turn (one answer) as A2A
// parts: a text event becomes a text part, a batch event's messages become
// A2UI data parts (one per message, or one per batch holding their list,
// see PartOptions.GroupMessages), and a dropped block is counted (the
// pipeline logs it). A message the session's processor rejected is
// forwarded all the same, in its place, as the reference agent SDK
// forwards what its model wrote (the A2A conformance suite requires it:
// test_handler_replaces_smart_quotes forwards a v0.8 beginRendering
// without the root its schema requires); the rejection is logged and
// counted by the pipeline, and the renderer validates what it receives. Events arrive on the goroutine that feeds
// the session and, when the session is evicted mid-turn, on another one:
// the methods are safe for concurrent use.
type turnOut struct {
	o PartOptions

	mu    sync.Mutex
	items []turnItem
	// dropped counts the blocks the parser dropped; parsed the messages
	// that reached the processor (applied or not); lists reports whether
	// the answer had any block at all.
	dropped, parsed int
	lists           bool
}

// turnItem is one text event's prose, or a block's end or part of it: one
// batch event's data parts (none when the processor applied none of its
// messages), or a dropped block. A block separates the prose around it.
type turnItem struct {
	text  string
	block bool
	data  []Part
}

func newTurnOut(o PartOptions) *turnOut { return &turnOut{o: o} }

// add records an event. The event is lent: what is kept is copied.
func (t *turnOut) add(ev sinks.Event) {
	var it turnItem
	switch ev.Kind {
	case sinks.KindText:
		it.text = gjson.GetBytes(ev.Line, "text").String()
		if it.text == "" {
			return
		}
	case sinks.KindBatch:
		it.block = true
		it.data = batchParts(ev, t.o)
	case sinks.KindError:
		if gjson.GetBytes(ev.Line, "reason").String() != stream.ReasonBlock {
			return
		}
		it.block = true
	default:
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case ev.Kind == sinks.KindError:
		t.dropped++
	case ev.Batch != nil:
		t.parsed += len(ev.Batch.Results)
	}
	t.lists = t.lists || it.block
	t.items = append(t.items, it)
}

// batchParts returns the data parts of a batch event's messages, applied
// or not, in list order (the Batch's results say which: an applied message
// is the next of the line's "messages", a rejected one is shown in its
// result), copied out of the event.
func batchParts(ev sinks.Event, o PartOptions) []Part {
	if ev.Batch == nil {
		return nil
	}
	applied := gjson.GetBytes(ev.Line, "messages").Array()
	var rejected []gjson.Result // the failed results' messages, in order
	if ev.Batch.Failed > 0 {
		rejected = gjson.GetBytes(ev.Line, "results.#(ok==false)#.message").Array()
	}
	list := make([]json.RawMessage, 0, len(ev.Batch.Results))
	for _, r := range ev.Batch.Results {
		src := &applied
		if !r.OK {
			src = &rejected
		}
		if len(*src) == 0 {
			continue
		}
		list = append(list, json.RawMessage((*src)[0].Raw))
		*src = (*src)[1:]
	}
	if len(list) == 0 {
		return nil
	}
	if o.GroupMessages && o.Version.Family() != protocol.FamilyV08 {
		return []Part{NewDataPart(joinList(list), o.Version, o.Shape)}
	}
	out := make([]Part, len(list))
	for i, m := range list {
		out[i] = NewDataPart(append(json.RawMessage(nil), m...), o.Version, o.Shape)
	}
	return out
}

// take returns the parts collected since the last call, in order: what a
// streamed reply sends after each chunk.
func (t *turnOut) take() []Part {
	t.mu.Lock()
	items := t.items
	t.items = nil
	t.mu.Unlock()
	var out []Part
	for _, it := range items {
		if it.block {
			out = append(out, it.data...)
		} else {
			out = append(out, NewTextPart(it.text, t.o.Shape))
		}
	}
	return out
}

// whole returns the parts of a whole reply to answer, once its turn has
// ended. They are the streamed parts, with the prose between two blocks
// (or a block and the answer's ends) joined into one text part and
// trimmed of surrounding whitespace (one that is all whitespace is left
// out), as parser.ParseResponse does. An answer with no A2UI block is one text part
// holding the prose unchanged (none when it is all whitespace). An answer
// none of whose blocks parsed (one was dropped and no message reached the
// processor) is answered with the fallback text (the answer itself, see
// PartOptions.Fallback), as the conformance suite's invalid-JSON case
// requires; the second return reports it.
func (t *turnOut) whole(answer []byte) (parts []Part, fellBack bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.dropped > 0 && t.parsed == 0 {
		fb := string(answer)
		if t.o.Fallback != nil {
			fb = *t.o.Fallback
		}
		if fb == "" {
			return nil, true
		}
		return []Part{NewTextPart(fb, t.o.Shape)}, true
	}
	var prose strings.Builder
	flush := func() {
		text := prose.String()
		prose.Reset()
		if t.lists {
			text = strings.TrimSpace(text)
		} else if strings.TrimSpace(text) == "" {
			text = ""
		}
		if text != "" {
			parts = append(parts, NewTextPart(text, t.o.Shape))
		}
	}
	for _, it := range t.items {
		if !it.block {
			prose.WriteString(it.text)
			continue
		}
		flush()
		parts = append(parts, it.data...)
	}
	flush()
	return parts, false
}
