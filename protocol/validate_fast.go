package protocol

import (
	"sync"

	"github.com/a2ui-stream/a2ui-stream/internal/jsontape"
)

// fastTapes recycles token tapes between ValidMessageJSON calls.
var fastTapes = sync.Pool{New: func() any { return new(jsontape.Tape) }}

// ValidMessageJSON reports whether msg (the JSON text of one message) is
// certainly valid: it passes ValidateSchema (as a one-message list) and
// CheckLimits. It reads the text directly, without decoding it into maps
// or building error reports, and is many times faster than those two
// calls; a catalog's valid messages, the common case, need nothing else.
//
// false means "invalid, or not decided here" (a schema or message the
// fast path does not handle): the caller then runs ValidateSchema and
// CheckLimits on the decoded message, which give the verdict and the
// error report. A nil *Catalog, like ValidateSchema, checks no schema.
// Safe for concurrent use. (The module's processor, which already holds
// the message on a token tape, runs the same check on that tape without
// parsing it again.)
func (c *Catalog) ValidMessageJSON(msg string) bool {
	valid, decided := c.fastVerdict(msg)
	return valid && decided
}

// validTape is ValidMessageJSON on a message already parsed onto tp: true
// means certainly valid, false invalid or not decided here (always false
// when tp's last Parse failed or there was none). It reads tp without
// changing it; safe for concurrent use of the Catalog (tp itself belongs
// to the caller). It is not API: the processor reaches it through
// protocoltape.ValidTape (see tape_bridge.go).
func (c *Catalog) validTape(tp *jsontape.Tape) bool {
	valid, decided := c.tapeVerdict(tp)
	return valid && decided
}

// fastVerdict is the fast path's verdict on one message; decided is false
// when the fast path cannot tell (then valid means nothing).
func (c *Catalog) fastVerdict(msg string) (valid, decided bool) {
	if c != nil && c.schema != nil && c.fast == nil {
		return false, false
	}
	tp := fastTapes.Get().(*jsontape.Tape)
	defer func() {
		tp.Forget() // the pool keeps no reference to msg
		fastTapes.Put(tp)
	}()
	if tp.Parse(msg) != nil {
		return false, false
	}
	return c.tapeVerdict(tp)
}

// tapeVerdict is fastVerdict on a parsed message.
func (c *Catalog) tapeVerdict(tp *jsontape.Tape) (valid, decided bool) {
	if c != nil && c.schema != nil && c.fast == nil {
		return false, false
	}
	if !tp.PlainKeys() {
		return false, false
	}
	if c != nil && c.schema != nil {
		r := fastRun{tp: tp}
		ok, _ := r.valid(c.fast.root, 0, false)
		if r.bail {
			return false, false
		}
		if !ok {
			return false, true
		}
	}
	return fastLimitsOK(tp), true
}

// fastLimitsOK is CheckLimits on a tape (whose parse already bounded the
// nesting depth): every string "path" member a valid path, functionCall
// nesting at most MaxFunctionCallDepth.
func fastLimitsOK(tp *jsontape.Tape) bool {
	ok, _ := fastLimits(tp, jsontape.MaxDepth)
	return ok
}

// fastLimits is fastLimitsOK, and deep when a value is more than room
// containers deep (then ok means nothing; with room below MaxDepth, a
// failed limit does not end the walk, so that deep is known).
func fastLimits(tp *jsontape.Tape, room int) (ok, deep bool) {
	ok = true
	// The open containers: where each ends, its functionCall depth.
	type frame struct {
		end     int
		fnDepth int
		args    int // value token of the object's "args" when it is a function call
	}
	var stackBuf [16]frame
	stack := stackBuf[:0]
	for t := 0; t < tp.Len(); t++ {
		for len(stack) > 0 && t >= stack[len(stack)-1].end {
			stack = stack[:len(stack)-1]
		}
		if len(stack) > room {
			return false, true
		}
		// A value directly under a function call's "args" is one level
		// deeper; what it contains inherits its level.
		fn := 0
		if len(stack) > 0 {
			top := stack[len(stack)-1]
			fn = top.fnDepth
			if top.args == t {
				fn++
			}
		}
		kind := tp.Kind(t)
		if kind != jsontape.Object && kind != jsontape.Array {
			continue
		}
		args := -1
		if kind == jsontape.Object {
			hasCall := false
			for j, end := t+1, tp.Next(t); j < end; j = tp.Next(j + 1) {
				switch tp.Key(j) {
				case "path":
					if tp.Kind(j+1) == jsontape.String && !ValidPath(tp.Str(j+1)) {
						if ok = false; room >= jsontape.MaxDepth {
							return false, false
						}
					}
				case "call":
					hasCall = true
				case "args":
					args = j + 1
				}
			}
			if hasCall && args >= 0 {
				if fn >= MaxFunctionCallDepth {
					if ok = false; room >= jsontape.MaxDepth {
						return false, false
					}
				}
			} else {
				args = -1
			}
		}
		stack = append(stack, frame{end: tp.Next(t), fnDepth: fn, args: args})
	}
	return ok, false
}
