package parser

// The v0.8 data-binding paths of a component read at byte level. The
// processing (the reference's placeholder walk) normalises, in every object of a v0.8
// definition, a "path" that is a string starting with '/' to "/" + the
// path without its leading slashes, and clears the object's other keys
// (unless it has a componentId); any other non-null path becomes "/" +
// its text (Python's str() of it). The bytes the component is kept as
// stay the ones it arrived with (its messages and comparisons read them);
// the normalisation is a list of edits of those bytes, which the
// processing applies as it writes the placeholders (putEdits). A path the
// normalisation changes, or one in an object of other keys, makes the
// component one the pinned outputs have with sorted keys: it is read in
// its canonical encoding (compScanner.sorted), whose offsets
// the edits are.

import (
	"bytes"
	"encoding/json"
)

// pathEdit replaces src[a:b] of a component's bytes.
type pathEdit struct {
	op   uint8
	a, b int32
	x, y int32 // editClear: the path without its leading slashes, src[x:y]
}

// Ops of pathEdit.
const (
	editClear   = iota // the object src[a:b] becomes {"path":"/" + src[x:y]}
	editSlash          // "/" inserted at a (== b), after a string's quote
	editNumber         // the number src[a:b] becomes the string "/" + it
	editTrue           // true becomes "/True"
	editFalse          // false becomes "/False"
	editTrim           // the string src[a:b] becomes "/" + src[x:y]
	editMarshal        // the object or list src[a:b] becomes the string "/" + its JSON
)

// pathValue handles the value out[va:] of a "path" key just read in an
// object of a v0.8 component (walk: in its definition, where the
// processing normalises it): it reports whether the byte-level path takes
// it, and lead whether it is a string starting with '/' (which the
// object's end decides on, see pathObject).
func (c *compScanner) pathValue(va int, walk bool) (lead, ok bool) {
	v := c.out[va:]
	if !c.canonIn && bytes.IndexByte(v, '\\') >= 0 {
		// (In the canonical encoding, an escape is no '/'.)
		c.needCanon()
		return false, false
	}
	op := uint8(editNumber)
	switch v[0] {
	case '"':
		if len(v) > 2 && v[1] == '/' {
			return true, true
		}
		op = editSlash
		va++
	case 't':
		op = editTrue
	case 'f':
		op = editFalse
	case 'n':
		c.sorted = true // (unchanged)
		return false, true
	case '{', '[':
		// Python's str() of the value (see putEdits); what it holds is
		// not walked.
		c.sorted = true
		if walk {
			c.unwalkFrom(va)
			c.edits = append(c.edits, pathEdit{op: editMarshal, a: int32(va), b: int32(len(c.out))})
		}
		return false, true
	}
	c.sorted = true
	if walk {
		c.edits = append(c.edits, pathEdit{op: op, a: int32(va), b: int32(len(c.out))})
		if op == editSlash {
			c.edits[len(c.edits)-1].b = int32(va)
		}
	}
	return false, true
}

// pathObject handles the end of the object out[at:] whose "path" value,
// a string starting with '/', is out[va:vb]; keys is its number of keys
// and edits how many edits came before it. Unless the object is already
// {"path": "/x"} with x not starting with '/', the processing writes it
// as {"path": "/" + the path without its leading slashes} (the object's
// other keys, and the edits in them, go). keep: the object has a
// componentId (a v0.8 template), or the processing does not walk it (a
// v0.8 component's member other than its definition): only the path
// loses its extra leading slashes in the first case, nothing changes in
// the second.
func (c *compScanner) pathObject(at, va, vb, keys, edits int, keep bool) {
	x := va + 1
	for c.out[x] == '/' {
		x++
	}
	switch {
	case keys == 1 && x == va+2:
		return
	case !keep:
		c.unwalkFrom(at)
		c.edits = append(c.edits[:edits], pathEdit{op: editClear, a: int32(at), b: int32(len(c.out)), x: int32(x), y: int32(vb - 1)})
	case x > va+2 && !c.noWalk:
		c.edits = append(c.edits, pathEdit{op: editTrim, a: int32(va), b: int32(vb), x: int32(x), y: int32(vb - 1)})
	}
	c.sorted = true
}

// objPath is what pathObject needs of an object a "path" may be a member
// of: where it starts in out (at), the edits before it, its keys so far,
// whether one is a componentId, and its path string starting with '/'
// (out[va:vb]; va -1: none).
type objPath struct {
	at, edits, keys, va, vb int
	hasID                   bool
}

// start records the object starting at out[at].
func (o *objPath) start(c *compScanner, at int) {
	*o = objPath{at: at, edits: len(c.edits), va: -1}
}

// member reads, after the key k of a member of the object (its ':' next),
// a "path" with its value; other reports false for any other key, which
// the caller reads. A path outside a canonical encoding needs one.
func (o *objPath) member(c *compScanner, b []byte, i int, k []byte) (next int, path, ok bool) {
	o.keys++
	o.hasID = o.hasID || string(k) == "componentId"
	if string(k) != "path" {
		return i, false, true
	}
	if !c.canonIn {
		c.needCanon()
		return i, true, false
	}
	if i, ok = c.colon(b, i); !ok {
		return i, true, false
	}
	a := len(c.out)
	if i, ok = c.value(b, i, 2); !ok {
		return i, true, false
	}
	lead, ok := c.pathValue(a, true)
	if lead {
		o.va, o.vb = a, len(c.out)
	}
	return i, true, ok
}

// end applies the object's path, if any, at its end.
func (o *objPath) end(c *compScanner) {
	if o.va >= 0 {
		c.pathObject(o.at, o.va, o.vb, o.keys, o.edits, o.hasID)
	}
}

// unwalkFrom makes what was read from out[at] on a value the processing
// does not walk (an object it clears, a path it replaces): its slots are
// references it leaves as they are (cfRef: protocol.ComponentRefs may
// still read them, see orderReader.propRefs), its empty lists and edits
// go.
func (c *compScanner) unwalkFrom(at int) {
	for i := len(c.slots) - 1; i >= 0 && int(c.slots[i].a) > at; i-- {
		c.slots[i].field = cfRef
	}
	for len(c.empty) > 0 && int(c.empty[len(c.empty)-1].at) > at {
		c.empty = c.empty[:len(c.empty)-1]
	}
	for len(c.edits) > 0 && int(c.edits[len(c.edits)-1].a) >= at {
		c.edits = c.edits[:len(c.edits)-1]
	}
}

// putEdits writes, after out (which holds fc.src up to last), the bytes
// up to and with the edits from k on that start before upto, and returns
// the new out, last and k.
func (fc *fastComp) putEdits(out []byte, last, k, upto int) ([]byte, int, int) {
	if fc.more == nil {
		return out, last, k
	}
	for edits := fc.more.edits; k < len(edits) && int(edits[k].a) < upto; k++ {
		ed := edits[k]
		out = append(out, fc.src[last:ed.a]...)
		switch ed.op {
		case editClear:
			out = append(append(append(out, `{"path":"/`...), fc.src[ed.x:ed.y]...), `"}`...)
		case editSlash:
			out = append(out, '/')
		case editTrim:
			out = append(append(append(out, `"/`...), fc.src[ed.x:ed.y]...), '"')
		case editNumber:
			out = append(append(append(out, `"/`...), fc.src[ed.a:ed.b]...), '"')
		case editTrue:
			out = append(out, `"/True"`...)
		case editFalse:
			out = append(out, `"/False"`...)
		case editMarshal:
			// Python's str() of an object or list, close enough: its JSON.
			d := jsonDecoder{b: fc.src[ed.a:ed.b]}
			b, _ := json.Marshal(d.value(0))
			out = appendJSONString(out, "/"+string(b))
		}
		last = int(ed.b)
	}
	return out, last, k
}

// compSide is the state of the component reader that only some reads
// need: v0.8 ones and canonical rewrites. It is apart from compScanner so
// that an idle stream does not carry it (the engine is allocated per
// stream; see TestEngineFitsItsSizeClass): it is pooled with the block's
// scratch lists between blocks (release_scratch.go).
type compSide struct {
	// A "path" as a member of the v0.8 definition (def), of the
	// properties being read (prop) or of a "children" object (list), read
	// in canonical encoding only.
	defPath, propPath, listPath objPath
	// Buffers of canonical (entry_canon.go), and of a decoded component's
	// encoding (fastDecoded).
	canon, decoded []byte
	cw             canonWriter
	// open and openSlots hold the bytes and slots of holder, an owned
	// component still arriving (the entry holderEnt's), while it grows
	// (see holdSrc): buffers for the block instead of arrays per component
	// regrown as it arrives. openP holds the entry's processed form when
	// it is not open's (see procBuf).
	open, openP []byte
	openSlots   []childSlot
	holder      *fastComp
	holderEnt   *compEntry
	chunks      carveChunks // the bytes of the block's completed components (see carve)
}

// x returns the reader's side state, made on first use.
func (c *compScanner) x() *compSide {
	if c.side == nil {
		c.side = new(compSide)
		c.side.reset()
	}
	return c.side
}

// reset readies x for a stream's reads: no path read, buffers kept (at
// most keepScratch bytes).
func (x *compSide) reset() {
	x.defPath, x.propPath, x.listPath = objPath{va: -1}, objPath{va: -1}, objPath{va: -1}
	x.canon, x.decoded = shrink(x.canon, 4*keepScratch), shrink(x.decoded, 4*keepScratch)
	x.open, x.openP, x.openSlots = shrink(x.open, 4*keepScratch), shrink(x.openP, 4*keepScratch), shrink(x.openSlots, keepScratch)
	x.holder, x.holderEnt = nil, nil
}
