package parser

import (
	"sync/atomic"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// This file makes compScanner resumable. While a component arrives, it is
// healed and read again at every sniff (see sniffComponents): without a
// checkpoint each read starts from the component's first byte, so a
// component is read about size/chunk times. With one, a read starts where
// the previous read's last checkpoint is: after a ',' between two members
// of the component object, two elements of a child-id list or two
// properties of a v0.8 definition; before the first element of such a list
// or the first property; and inside the value of a member of the component
// object or of a property (entry_value.go): after a ',' or before the first
// member or element of any object or list in it, and inside a string that
// healing closed.
//
// Why a checkpoint is safe. The healed object b's bytes b[:real] are the
// scanner's buffer from the object's start (compScanner.real, set by
// scanOpen from healOpenAt: healing only strips trailing whitespace, one
// trailing comma or a cut child id, and appends a quote and closers). While
// the scanner's message generation (msgGen) stays the same the buffer only
// grows, so those bytes are the same in every later healed version of the
// object, and in the complete object when it closes. A checkpoint at
// offset off is taken only when everything the reader looked at before it
// is in b[:real]: off <= real after a ',' (healing adds no comma), off <
// real before a first member or element (b[off] was looked at to see the
// container is not empty), and off == real inside a string whose closing
// quote healing appended (the string goes on at off in every later version;
// the reader's sniffs wait while the buffer ends inside a multi-byte
// character, and a string cut inside an escape fails to read, so the
// string's bytes before off were read as they will be). The reader's
// state there (the compact bytes written so far, less the appended quote,
// the child slots, the keys of the open objects, the open containers of the
// value, vs, what the component has so far) depends on those bytes alone,
// and is what a full read of any later version reaches at the same point:
// reading on from it gives the same result, byte for byte.
//
// The state is restored by truncating out, slots, keys, the path edits
// and the empty lists to their lengths at the checkpoint, and copying the
// value's containers back. Between reads nothing else writes to them (the
// results are copied out), and within a read out and slots only grow (a
// read that ends in a rewrite, see canonical, drops the checkpoint of the
// bytes it rewrote); the edits lose only those inside an object a path
// clears (entry_paths.go), a value whose path member is read with no
// checkpoint inside. keys shrinks when an object closes (its keys stop
// counting for duplicates), after which the entries above are written
// again; but after a checkpoint the reader records another key only past a
// ',' or a '{' of a container that takes one (every container of the
// component object, a definition's properties and a checkpointed value
// does), which replaces the checkpoint first; what healing appended only
// closes containers. Values read by other readers (a child field, a path,
// a list's non-string element, a top-level array) take no checkpoint
// inside (compScanner.vctx).

// resumePoint is where a checkpoint was taken.
type resumePoint uint8

const (
	atNone       resumePoint = iota // no checkpoint
	atTopMember                     // before a member of the component object
	atTopList                       // before an element of a top-level child list
	atProp                          // before a property of a v0.8 definition
	atPropList                      // before an element of a child list property
	atNestedList                    // before an element of a v0.8 {"explicitList": [...]}
	atTopValue                      // in the value of a member of the component object (see scanMark.vs)
	atPropValue                     // in the value of a property of a v0.8 definition
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
	// inStr: (atTopValue, atPropValue) in a string, off being where
	// healing closed it; vs: the value's open containers.
	inStr bool
	vs    []vframe
	// (Offsets and lengths within one component: int32, as its slots.)
	nEmpty   int32 // len(compScanner.empty) (the lists before it stay as read)
	off      int32 // offset in the object of the next byte to read
	out      int32 // len(out)
	slots    int32 // len(slots)
	edits    int32 // len(edits)
	keys     int32 // len(keys)
	idA, idB int32
	propBase int32
}

// mark records a checkpoint at b[i], right after a ',' of a container at
// resume point at.
func (c *compScanner) mark(at resumePoint, i int, field uint8) {
	c.mk = scanMark{
		at: at, field: field, seen: c.seen, propSeen: c.propSeen,
		compOK: c.compOK, emptyObj: c.emptyObj, sorted: c.sorted, nested: c.nested, nEmpty: int32(len(c.empty)),
		off: int32(i), out: int32(len(c.out)), slots: int32(len(c.slots)), keys: int32(len(c.keys)), edits: int32(len(c.edits)),
		idA: int32(c.idA), idB: int32(c.idB), propBase: int32(c.propBase), vs: c.mk.vs[:0],
	}
}

// markValue records a checkpoint at b[i] in the value being read, when
// checkpoints are taken in it: right after a ',' or, before the first
// member or element of an object or list, at its first byte.
func (c *compScanner) markValue(i int) {
	if c.vctx != atNone {
		c.mark(c.vctx, i, 0)
		c.mk.vs = append(c.mk.vs, c.vs...)
	}
}

// markStr records a checkpoint in a string of the value being read whose
// closing quote, at b[end], healing appended: the string goes on there in
// every later version.
func (c *compScanner) markStr(end int) {
	if c.vctx != atNone {
		c.markValue(end)
		c.mk.out-- // (its quote)
		c.mk.inStr = true
	}
}

// scanAt is scan for the object starting at offset start of the scanner's
// buffer in message generation gen, b being that object so far (healed)
// or complete. It reads on from the checkpoint of the previous read when
// that read was of the same object: every read goes through scanAt, and
// one of another object replaces the checkpoint.
func (c *compScanner) scanAt(b []byte, v08 bool, gen uint64, start int) int {
	return c.scanOpen(b, len(b), v08, gen, start)
}

// scanOpen is scanAt for a healed object b whose bytes b[:real] are the
// scanner's.
func (c *compScanner) scanOpen(b []byte, real int, v08 bool, gen uint64, start int) int {
	var r int
	c.real = real
	c.rewrote, c.rules = false, false
	if c.mk.at != atNone && c.gen == gen && c.start == start && c.v08 == v08 && int(c.mk.off) <= len(b) {
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
	c.out, c.slots, c.keys, c.edits = c.out[:m.out], c.slots[:m.slots], c.keys[:m.keys], c.edits[:m.edits] // (int32 indexes)
	c.idA, c.idB, c.idEsc, c.compOK, c.emptyObj, c.seen, c.stopped, c.skip = int(m.idA), int(m.idB), false, m.compOK, m.emptyObj, m.seen, false, false
	c.propSeen, c.propBase = m.propSeen, int(m.propBase)
	if x := c.side; x != nil {
		x.defPath.va, x.propPath.va, x.listPath.va = -1, -1, -1 // (a path there is read in canonical encoding: no checkpoint)
	}
	c.empty, c.sorted, c.nested, c.recanon, c.vctx = c.empty[:m.nEmpty], m.sorted, m.nested, false, atNone
	i, ok := c.readFrom(b, &m)
	return c.outcome(b, i, ok)
}

// readFrom reads the rest of the component object from checkpoint m: the
// rest of the container m is in, then of each enclosing one.
func (c *compScanner) readFrom(b []byte, m *scanMark) (int, bool) {
	i, ok := int(m.off), false
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
	case atTopValue, atPropValue:
		if i, ok = c.valueFrom(b, m); !ok {
			return i, false
		}
		if m.at == atTopValue {
			return c.topRest(b, i)
		}
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

// valueFrom reads the rest of the value checkpoint m is in: the rest of
// its string (inStr), then of each open container, innermost first.
func (c *compScanner) valueFrom(b []byte, m *scanMark) (int, bool) {
	i, after := int(m.off), false
	c.vctx, c.vs = m.at, append(c.vs[:0], m.vs...)
	if m.inStr {
		end, _, ok := jsonwire.ScanString(b, i)
		if !ok {
			return end, false
		}
		c.out = append(c.out, b[i:end+1]...)
		if end == c.real {
			c.markStr(end)
		}
		i, after = end+1, true
	}
	for len(c.vs) > 0 {
		var ok bool
		if c.vs[len(c.vs)-1].arr {
			i, ok = c.arrFrom(b, i, after)
		} else {
			i, ok = c.objFrom(b, i, after)
		}
		if !ok {
			return i, false
		}
		after = true
	}
	c.vctx = atNone
	return i, true
}
