package parser

// One grammar for every mode
//
// The progressive scanner (scan.go) follows, as the reference
// does, only strings and brackets. What a block may hold is decided by
// complete mode's validating scanner (scanner.go, scanner_validate.go),
// which the progressive modes run over each segment first, in e.val:
//
//   - the progressive scanner reads only the bytes before the first byte
//     the grammar rejects, so a block with bad bytes yields what the bytes
//     before them yield, in every mode;
//   - the block then fails with complete mode's error, at complete mode's
//     offset, when complete mode's fails: at once for a byte outside a
//     message, when the message ends for one inside it (the error names
//     the first bad byte, as encoding/json does), or, for a message that
//     never ends, at the block's end (ErrUnterminated).
//
// A block that ends inside a message that broke no rule keeps the
// progressive modes' reading (see the package doc): what was healed of the
// message stands, without error. One that ends inside a character (a
// truncated UTF-8 sequence) fails as in complete mode.
//
// One exception, which the streaming conformance suite requires (its own
// inputs have these faults, and expect the reference's reading of them):
// a block whose first fault is a lost count of brackets (see lostCount) is
// read to its end as the reference reads it, by the progressive scanner
// alone; complete mode fails it.

// grammar runs the grammar over seg, whose first byte is at stream offset
// off. It returns the length of the prefix of seg the progressive scanner
// reads, and the error that fails the block, if the grammar found one in
// seg.
func (e *progressiveEngine) grammar(seg []byte, off int64) (int, error) {
	if e.countLost {
		return len(seg), nil
	}
	v := &e.val
	good := len(seg)
	if e.grammarBroken {
		good = 0
	}
	for i := 0; i < len(seg); {
		loose := v.looseMsgs
		n, _, err := v.next(seg[i:], off+int64(i))
		if !e.grammarBroken && (v.loose || v.looseMsgs != loose) {
			// A message broke the grammar at v.looseAt, in this call.
			at := int(v.looseAt - off)
			if lostCount(seg[at], v.looseVs, true, true) {
				e.countLost = true
				e.lost++
				return len(seg), nil
			}
			e.grammarBroken, good = true, at
		}
		if err == nil && v.looseMsgs != loose {
			// A message the grammar rejected ended without an error: the
			// grammar and encoding/json (see messageError) disagree, which
			// the scanner's tests rule out. Fail the block rather than
			// drop its rest without a word.
			return min(good, i+n), &SyntaxError{Offset: v.looseAt, Msg: "byte rejected by the grammar but not by the JSON decoder"}
		}
		if err != nil {
			if at := i + n; !e.grammarBroken && !v.inMsg && lostCount(seg[at], 0, false, v.opened) {
				e.countLost = true
				e.lost++
				return len(seg), nil
			}
			return min(good, i+n), err
		}
		i += n
	}
	return good, nil
}

// lostCount reports whether byte c, which the grammar rejected in state vs
// inside a message (inMsg) or outside one after a message or a list opened
// (opened), is a fault of the brackets' count that the reference reads
// through: inside a message, a closing bracket of the wrong kind after a
// value, or an object where a ',', a closing bracket or a key was due (a
// message or member left unclosed); outside, an extra '}'. A misplaced ',',
// a closing bracket where a value or key is due, a stray ']' outside a
// message and any other byte are not.
func lostCount(c byte, vs uint8, inMsg, opened bool) bool {
	if !inMsg {
		return opened && c == '}'
	}
	switch c {
	case '}', ']':
		return vs == vsAfter
	case '{':
		return vs == vsAfter || vs == vsKey
	}
	return false
}

// grammarEnd returns complete mode's error for the end of the block when
// the progressive modes take it too: always outside a message, and inside
// one that broke the grammar or ends inside a character.
func (e *progressiveEngine) grammarEnd() error {
	v := &e.val
	if e.countLost || (v.pending() && !e.grammarBroken && v.vs != vsUTF8) {
		return nil
	}
	return v.endErr()
}

// resetGrammar starts the grammar afresh, for a new block.
func (e *progressiveEngine) resetGrammar() {
	e.val.reset()
	e.grammarBroken, e.countLost = false, false
}
