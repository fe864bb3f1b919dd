package parser

import "encoding/json"

// completeEngine yields each top-level message once, as the exact bytes the
// model produced, the moment its closing brace arrives.
type completeEngine struct {
	sc scanner
}

func newCompleteEngine(maxDepth int) *completeEngine {
	return &completeEngine{sc: newScanner(maxDepth)}
}

func (e *completeEngine) blockStart(*emitter) error {
	e.sc.reset()
	return nil
}

func (e *completeEngine) blockData(seg []byte, off int64, out *emitter) error {
	for len(seg) > 0 {
		n, msg, err := e.sc.next(seg, off)
		if err != nil {
			return err
		}
		if msg != nil {
			out.message(json.RawMessage(out.store.keep(append(out.store.alloc(len(msg)), msg...))))
		}
		seg, off = seg[n:], off+int64(n)
	}
	return nil
}

func (e *completeEngine) blockEnd(*emitter) error { return e.sc.endErr() }

func (e *completeEngine) feedEnd(*emitter) error { return nil }

func (e *completeEngine) blockFailed(*emitter) { e.sc.reset() }
