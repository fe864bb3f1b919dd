package protocol

import "sync"

// fastTapes recycles token tapes between ValidMessageJSON calls.
var fastTapes = sync.Pool{New: func() any { return new(fastTape) }}

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
// Safe for concurrent use.
func (c *Catalog) ValidMessageJSON(msg string) bool {
	valid, decided := c.fastVerdict(msg)
	return valid && decided
}

// fastVerdict is the fast path's verdict on one message; decided is false
// when the fast path cannot tell (then valid means nothing).
func (c *Catalog) fastVerdict(msg string) (valid, decided bool) {
	if c != nil && c.schema != nil && c.fast == nil {
		return false, false
	}
	tp := fastTapes.Get().(*fastTape)
	defer fastTapes.Put(tp)
	if !tp.parse(msg) {
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
func fastLimitsOK(tp *fastTape) bool {
	// The open containers: where each ends, its functionCall depth.
	type frame struct {
		end     int
		fnDepth int
		args    int // value token of the object's "args" when it is a function call
	}
	var stackBuf [16]frame
	stack := stackBuf[:0]
	for t := 0; t < len(tp.toks); t++ {
		for len(stack) > 0 && t >= stack[len(stack)-1].end {
			stack = stack[:len(stack)-1]
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
		tok := tp.toks[t]
		if tok.kind != fkObject && tok.kind != fkArray {
			continue
		}
		args := -1
		if tok.kind == fkObject {
			hasCall := false
			for j := t + 1; j < int(tok.next); j = int(tp.toks[j+1].next) {
				switch tp.key(j) {
				case "path":
					if tp.toks[j+1].kind == fkString && !ValidPath(tp.str(j+1)) {
						return false
					}
				case "call":
					hasCall = true
				case "args":
					args = j + 1
				}
			}
			if hasCall && args >= 0 {
				if fn >= MaxFunctionCallDepth {
					return false
				}
			} else {
				args = -1
			}
		}
		stack = append(stack, frame{end: int(tok.next), fnDepth: fn, args: args})
	}
	return true
}
