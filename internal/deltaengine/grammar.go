package deltaengine

import "github.com/a2ui-stream/a2ui-stream/internal/jsonwire"

// What the JSON grammar takes next, in engine.expect.
const (
	eListOpen     uint8 = iota // in a block, before its list's '['
	eKeyOrClose                // after '{'
	eValueOrClose              // after '['
	eKey                       // after ',' in an object
	eValue                     // after ':', or ',' in an array
	eColon                     // after a key
	eCommaOrClose              // after a value
	eBlockDone                 // after the list's ']'
)

// escape checks the byte after a backslash in a string.
func (k *Engine) escape(c byte) {
	switch c {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
	case 'u':
		k.hexLeft = 4
	default:
		k.fail()
	}
}

// scalarEnd checks the number or literal that ends at the end of buf.
func (k *Engine) scalarEnd() {
	k.inScalar = false
	t := k.buf[k.strStart:]
	if jsonwire.LiteralLen(t, 0) == len(t) && len(t) > 0 {
		return
	}
	if !wholeNumber(t) {
		k.fail()
	}
}

// fail fails the block: what it yielded stands, the rest of it, up to its
// end, is skipped.
func (k *Engine) fail() { k.failWith(nil) }

// failWith is fail for a reason other than the grammar: err (nil: the
// grammar), which Err returns.
func (k *Engine) failWith(err error) {
	if !k.failed {
		k.failed, k.err = true, err
		k.errs++
	}
	k.stack, k.inStr, k.inScalar, k.esc, k.hexLeft = k.stack[:0], false, false, false, 0
	k.compStart, k.listA, k.valueA, k.msgKind, k.cur = -1, -1, -1, 0, nil
	k.expect = eBlockDone
}

// wholeNumber reports whether t, a scalar the chunk cut, is a whole
// number so far (one that may go on).
func wholeNumber(t []byte) bool {
	n, st := jsonwire.ScanNumber(t, 0, jsonwire.NumStart)
	return n == len(t) && st.Complete()
}

// scalarPrefix reports whether t can begin a number or a literal.
func scalarPrefix(t []byte) bool {
	if n, _ := jsonwire.ScanNumber(t, 0, jsonwire.NumStart); n == len(t) {
		return true
	}
	lit := jsonwire.Literal(t[0])
	return len(t) <= len(lit) && lit[:len(t)] == string(t)
}
