package parser

import "encoding/json"

// completeEngine yields each top-level message once, as the exact bytes the
// model produced, the moment its closing brace arrives.
type completeEngine struct {
	sc  scanner
	out *emitter
}

func newCompleteEngine(maxDepth int) *completeEngine {
	e := &completeEngine{sc: newScanner(maxDepth)}
	return e
}

func (e *completeEngine) emit(msg []byte) error {
	e.out.message(json.RawMessage(append([]byte(nil), msg...)))
	return nil
}

func (e *completeEngine) blockStart(*emitter) error {
	e.sc.reset()
	return nil
}

func (e *completeEngine) blockData(seg []byte, off int64, out *emitter) error {
	e.out = out
	return e.sc.scan(seg, off, e.emit)
}

func (e *completeEngine) blockEnd(*emitter) error {
	if e.sc.pending() {
		return &SyntaxError{Offset: e.sc.msgOff, Msg: "block ended inside an unfinished message", Err: ErrUnterminated}
	}
	return nil
}

func (e *completeEngine) feedEnd(*emitter) error { return nil }

func (e *completeEngine) reset() { e.sc.reset() }
