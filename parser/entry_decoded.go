package parser

import "github.com/a2ui-stream/a2ui-stream/protocol"

// A component that reaches the engine decoded (closed outside the
// byte-level case: a lost bracket count, a message with two kinds or a
// body holding a message kind, then decoded whole; healed while its
// object was not one the scanner reads) is read at byte level too: its
// canonical encoding, which appendJSON writes for the map, is read by the
// component scanner like the canonical encoding of a rewritten component
// (entry_canon.go), and its entry compares by value (see putFastEnt). One
// the scanner skips (compSkip) is not recorded (putDecoded).

// fastDecoded returns the byte-level form of the decoded component comp,
// or nil when the scanner does not read its shape. The family is known
// (its callers handle messages under a family's rules).
func (e *progressiveEngine) fastDecoded(comp map[string]any) *fastComp {
	c := &e.cs
	c.x().decoded = appendJSON(c.x().decoded[:0], comp)
	c.rewrote, c.rules, c.canonIn = false, false, true
	r := c.scan(c.x().decoded, e.fam == protocol.FamilyV08)
	c.canonIn = false
	r = c.settle(c.x().decoded, r) // (the catalog's fields, a nested component's orders)
	c.mk.at = atNone               // (its checkpoints are not offsets of the object sniffed)
	if r != compFast {
		return nil
	}
	fc := c.result(&e.names)
	fc.rewrote = true
	return fc
}
