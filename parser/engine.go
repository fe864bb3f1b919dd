package parser

import "encoding/json"

// emitter collects the parts completed during one Feed or Close call.
type emitter struct {
	parts []Part
}

// text appends a text-only part.
func (e *emitter) text(s string) {
	if s == "" {
		return
	}
	e.parts = append(e.parts, Part{Text: s})
}

// message attaches m to the last part of this call when there is one (a text
// part followed by messages becomes one part, as the conformance suites
// expect); otherwise it starts a new part.
func (e *emitter) message(m json.RawMessage) {
	if n := len(e.parts); n > 0 {
		last := &e.parts[n-1]
		if last.Messages == nil {
			last.Messages = make([]json.RawMessage, 0, 4)
		}
		last.Messages = append(last.Messages, m)
		return
	}
	e.parts = append(e.parts, Part{Messages: []json.RawMessage{m}})
}

// take returns the collected parts and resets the emitter.
func (e *emitter) take() []Part {
	p := e.parts
	e.parts = nil
	return p
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
	// feedEnd is called once at the end of every Feed and Close call.
	feedEnd(out *emitter) error
	// reset drops all per-block state after an error.
	reset()
}

// newEngine returns the engine of the configured mode.
func newEngine(cfg *config) (engine, error) {
	if cfg.mode == ModeComplete {
		return newCompleteEngine(cfg.maxDepth), nil
	}
	return newProgressiveEngine(cfg)
}
