package parser

import "sync/atomic"

// This file makes compScanner resumable. While a component arrives, it is
// healed and read again at every sniff (see sniffComponents): without a
// checkpoint each read starts from the component's first byte, so a
// component is read about size/chunk times. With one, a read starts at the
// last member or element boundary the previous read passed.
//
// Why a checkpoint is safe: it is taken right after a ',' was read between
// two members of the component object, two elements of a child-id list, or
// two properties of a v0.8 definition. Healing (healOpen) only strips
// trailing whitespace and one trailing comma and appends a quote and
// closers, and never adds a comma: every byte up to and including a ','
// the scanner read is a byte of the scanner's buffer at the same offset
// from the object's start. While the scanner's message generation (msgGen)
// stays the same the buffer only grows, so those bytes are the same in
// every later healed version of the object, and in the complete object
// when it closes. The reader never looks past the ',' before taking the
// checkpoint, so its state there (the compact bytes written so far, the
// child slots, the keys of the open objects, what the component has so
// far) depends on those bytes alone, and is what a full read of any later
// version reaches at the same point: reading on from it gives the same
// result, byte for byte.
//
// The state is restored by truncating out, slots, keys, the path edits
// and the empty lists to their lengths at the checkpoint. Between reads
// nothing else writes to them (the results are copied out), and within a
// read out and slots only grow (a read that ends in a rewrite, see
// canonical, drops the checkpoint of the bytes it rewrote); the edits lose
// only those inside an object a path clears (entry_paths.go), a value,
// in which no checkpoint is taken. keys shrinks when an object closes (its keys
// stop counting for duplicates); the only object that can close after a
// checkpoint taken inside it is a v0.8 definition's properties, and the
// component object reads a ',' (taking a new checkpoint) before it records
// another key.

// resumePoint is where a checkpoint was taken.
type resumePoint uint8

const (
	atNone       resumePoint = iota // no checkpoint
	atTopMember                     // before a member of the component object
	atTopList                       // before an element of a top-level child list
	atProp                          // before a property of a v0.8 definition
	atPropList                      // before an element of a child list property
	atNestedList                    // before an element of a v0.8 {"explicitList": [...]}
)

// scanMark is a checkpoint: the position in the read object and the
// reader's state there.
type scanMark struct {
	at       resumePoint
	field    uint8 // the list's child field (atTopList, atPropList)
	seen     uint8
	propSeen uint8
	compOK   bool
	emptyObj bool
	sorted   bool
	nested   bool
	nEmpty   int // len(compScanner.empty) (the lists before it stay as read)
	off      int // offset in the object of the next byte to read
	out      int // len(out)
	slots    int // len(slots)
	edits    int // len(edits)
	keys     int // len(keys)
	idA, idB int
	propBase int
}

// mark records a checkpoint at b[i], right after a ',' of a container at
// resume point at.
func (c *compScanner) mark(at resumePoint, i int, field uint8) {
	c.mk = scanMark{
		at: at, field: field, seen: c.seen, propSeen: c.propSeen,
		compOK: c.compOK, emptyObj: c.emptyObj, sorted: c.sorted, nested: c.nested, nEmpty: len(c.empty),
		off: i, out: len(c.out), slots: len(c.slots), keys: len(c.keys), edits: len(c.edits),
		idA: c.idA, idB: c.idB, propBase: c.propBase,
	}
}

// scanAt is scan for the object starting at offset start of the scanner's
// buffer in message generation gen, b being that object so far (healed)
// or complete. It reads on from the checkpoint of the previous read when
// that read was of the same object: every read goes through scanAt, and
// one of another object replaces the checkpoint.
func (c *compScanner) scanAt(b []byte, v08 bool, gen uint64, start int) int {
	var r int
	c.rewrote, c.rules = false, false
	if c.mk.at != atNone && c.gen == gen && c.start == start && c.v08 == v08 && c.mk.off <= len(b) {
		r = c.resume(b)
	} else {
		c.gen, c.start = gen, start
		r = c.scan(b, v08)
	}
	return c.settle(b, r)
}

// settle completes a read of b with outcome r: the read again in canonical
// encoding when the component needs it, the catalog's reference fields,
// and the orders of a nested component.
func (c *compScanner) settle(b []byte, r int) int {
	if (r == compFast && (len(c.empty) > 0 || c.sorted)) || (r == compUnread && c.recanon) {
		r = c.canonical(b)
	}
	if r == compFast && c.cat != nil {
		r = c.catalogRead()
	}
	if r == compFast && c.nested && !c.order() {
		r = compUnread
	}
	if r == compUnread {
		unreadReads.Add(1)
	}
	return r
}

// unreadReads counts the reads that ended compUnread, in every engine of
// the process: such a component is not recorded, and none is known. The
// parser's tests fail when a read ends so (the rare path: no cost to the
// others).
var unreadReads atomic.Int64

// resume restores the checkpoint's state and reads b from there.
func (c *compScanner) resume(b []byte) int {
	m := c.mk
	c.out, c.slots, c.keys, c.edits = c.out[:m.out], c.slots[:m.slots], c.keys[:m.keys], c.edits[:m.edits]
	c.idA, c.idB, c.idEsc, c.compOK, c.emptyObj, c.seen, c.stopped, c.skip = m.idA, m.idB, false, m.compOK, m.emptyObj, m.seen, false, false
	c.propSeen, c.propBase = m.propSeen, m.propBase
	if x := c.side; x != nil {
		x.defPath.va, x.propPath.va, x.listPath.va = -1, -1, -1 // (a path there is read in canonical encoding: no checkpoint)
	}
	c.empty, c.sorted, c.nested, c.recanon = c.empty[:m.nEmpty], m.sorted, m.nested, false
	i, ok := c.readFrom(b, &m)
	return c.outcome(b, i, ok)
}

// readFrom reads the rest of the component object from checkpoint m: the
// rest of the container m is in, then of each enclosing one.
func (c *compScanner) readFrom(b []byte, m *scanMark) (int, bool) {
	i, ok := m.off, false
	switch m.at {
	case atTopMember:
		if i, ok = c.topMember(b, i); !ok {
			return i, false
		}
		return c.topRest(b, i)
	case atTopList:
		if i, ok = c.elements(b, i, int(m.field), atTopList, 1); !ok {
			return i, false
		}
		return c.topRest(b, i)
	case atNestedList:
		if i, ok = c.elements(b, i, cfNestedList, atNestedList, 3); ok {
			i, ok = c.listObjRest(b, i)
		}
	case atPropList:
		i, ok = c.elements(b, i, int(m.field), atPropList, 2)
	case atProp:
		i, ok = c.propMember(b, i)
	}
	// Inside a v0.8 definition: the rest of its properties, its end, then
	// the rest of the component object.
	if !ok {
		return i, false
	}
	if i, ok = c.propRest(b, i); !ok {
		return i, false
	}
	if i, ok = c.defRest(b, i); !ok {
		return i, false
	}
	c.compOK = true
	return c.topRest(b, i)
}
