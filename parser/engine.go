package parser

import (
	"encoding/json"
	"weak"
)

// emitter collects the parts completed during one Feed or Close call. The
// messages of its parts live in msgs, a scratch array reused from call to
// call: take copies them out.
type emitter struct {
	parts []Part
	msgs  []json.RawMessage
	from  int // index in msgs of the last part's first message
	// store provides the bytes of the messages (see WithBorrowedOutput).
	store outputStore
	// lent is, with borrowed output, the array of parts returned by the
	// previous call, reused by the next.
	lent []Part
	// list is the index of the current block; listYielded reports that
	// it yielded a message.
	list        int
	listYielded bool
}

// startList starts block n: its messages go to parts of their own.
func (e *emitter) startList(n int) { e.list, e.listYielded = n, false }

// endList marks the end of the current block, which ended without error:
// on the part holding its last messages when that part is this call's
// last, else, with marker, by a list-end marker part when the block
// yielded messages in an earlier call.
func (e *emitter) endList(marker bool) {
	if n := len(e.parts); n > 0 && e.parts[n-1].Messages != nil && e.parts[n-1].List == e.list {
		e.parts[n-1].ListEnd = true
		return
	}
	if marker && e.listYielded {
		e.parts = append(e.parts, Part{List: e.list, ListEnd: true})
	}
}

// text appends a text-only part.
func (e *emitter) text(s string) {
	if s == "" {
		return
	}
	e.parts = append(e.parts, Part{Text: s})
}

// message attaches m to the last part of this call when there is one and
// it holds text or the current block's messages (a text part followed by
// messages becomes one part, as the conformance suites expect); otherwise
// it starts a new part. The last part's Messages is
// capped at its end, so that nothing written through it reaches another
// part's messages.
func (e *emitter) message(m json.RawMessage) {
	n := len(e.parts)
	if n == 0 {
		e.parts = append(e.parts, Part{})
		n = 1
	}
	last := &e.parts[n-1]
	if (last.Messages != nil && last.List != e.list) || last.ListEnd {
		e.parts = append(e.parts, Part{})
		n++
		last = &e.parts[n-1]
	}
	if last.Messages == nil {
		e.from = len(e.msgs)
		last.List = e.list
	}
	e.listYielded = true
	e.msgs = append(e.msgs, m)
	last.Messages = e.msgs[e.from:len(e.msgs):len(e.msgs)]
}

// take returns the collected parts and resets the emitter. When they carry
// messages, the parts and their messages are copied into storage of their
// own, allocated together where there is one part with one message (the
// common case of a streamed yield), and the parts' slots in the emitter's
// array are cleared; otherwise the array itself is returned. With borrowed
// output the array is returned as it is, lent until the next call.
func (e *emitter) take() []Part {
	p := e.parts
	e.parts = nil
	if e.store.borrow {
		e.lent = p // cleared by the next call's startBorrowed
		return p[:len(p):len(p)]
	}
	defer e.resetMessages()
	nm := 0
	for i := range p {
		nm += len(p[i].Messages)
	}
	if nm == 0 {
		return p
	}
	var own []Part
	if len(p) == 1 && nm == 1 {
		one := &struct {
			part [1]Part
			msg  [1]json.RawMessage
		}{}
		one.part[0], one.msg[0] = p[0], p[0].Messages[0]
		one.part[0].Messages = one.msg[:]
		own = one.part[:]
	} else {
		own = make([]Part, len(p))
		msgs := make([]json.RawMessage, 0, nm)
		for i := range p {
			own[i] = p[i]
			if p[i].Messages != nil {
				a := len(msgs)
				msgs = append(msgs, p[i].Messages...)
				own[i].Messages = msgs[a:len(msgs):len(msgs)]
			}
		}
	}
	clear(p)
	return own
}

// lentAny reports whether the previous call with borrowed output lent
// anything (parts, messages, bytes, a released block): else
// startBorrowed has nothing to do.
func (e *emitter) lentAny() bool {
	return len(e.lent) != 0 || len(e.msgs) != 0 || len(e.store.buf) != 0 || e.store.lent != (weak.Pointer[[minBorrowBlock]byte]{})
}

// startBorrowed starts a call with borrowed output: the previous call's
// parts, messages and bytes are reused. The previous parts are cleared, so
// that they keep nothing alive, and an array grown past maxKeptSlots by a
// call that yielded that much is not kept.
func (e *emitter) startBorrowed() {
	e.store.reset()
	if len(e.lent) == 1 {
		e.lent[0] = Part{} // (the usual call: cheaper than clear's call)
	} else if len(e.lent) > 0 {
		clear(e.lent)
	}
	if cap(e.lent) > maxKeptSlots {
		e.lent = nil
	}
	// Cleared, the array is lent no more: a call that completes nothing
	// leaves lentAny false, and the next call need not come here.
	e.lent = e.lent[:0]
	e.parts = e.lent
	e.resetMessages()
}

// maxKeptSlots bounds the parts and messages slots the emitter keeps from
// one call to the next.
const maxKeptSlots = 1024

// resetMessages empties the scratch array of messages (dropping its
// references, so that it keeps nothing alive).
func (e *emitter) resetMessages() {
	if len(e.msgs) == 1 {
		e.msgs[0] = nil
	} else if len(e.msgs) > 0 {
		clear(e.msgs)
	}
	if cap(e.msgs) > maxKeptSlots {
		e.msgs = nil
		return
	}
	e.msgs = e.msgs[:0]
}

// engine is the mode-specific stage that turns block content into messages.
// The framer calls it in stream order; any error it returns fails the
// current block (see BlockError), after which reset is called.
type engine interface {
	// blockStart is called when a block opens.
	blockStart(out *emitter) error
	// blockData is called with the next bytes of the current block's content,
	// markers removed, in order. off is the stream offset of seg[0]. seg is
	// valid only during the call.
	blockData(seg []byte, off int64, out *emitter) error
	// blockEnd is called when the block closes.
	blockEnd(out *emitter) error
	// feedEnd is called once at the end of every Feed and Close call,
	// but a Feed call whose chunk was all content of a block that is still
	// open and did not fail (Feed's fast path): it must have nothing to do
	// then.
	feedEnd(out *emitter) error
	// blockFailed is called when the block fails (an error of the engine's
	// or one of the parser's limits), before the failure is recorded: it
	// yields what the bytes before the failure still owe (the progressive
	// modes' held-back snapshots and components), then drops all per-block
	// state.
	blockFailed(out *emitter)
}

// newEngine returns the engine of the configured mode.
func newEngine(cfg *config) (engine, error) {
	if cfg.mode == ModeComplete {
		return newCompleteEngine(cfg.maxDepth), nil
	}
	return newIncremental(cfg), nil
}
