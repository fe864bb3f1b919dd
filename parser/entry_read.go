package parser

import (
	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// This file is the byte-level path for the common component shapes: a
// v0.9-family component (string "component") whose only
// component references are top-level "child"-like strings,
// "children"-like lists of strings, a template ("children":
// {"componentId": ...}), the reference-only fields detail, summary, root
// and template and its own "componentId" (entry_refs.go), and a v0.8
// component ("component": {Type:
// props}) whose references are such properties (or "children":
// {"explicitList": [...]} or {"template": {"componentId": ...}}); its
// data-binding paths are normalised by edits of its bytes
// (entry_paths.go). Such a
// component is kept as its compact JSON bytes, never decoded into maps:
// its references and the positions of its child ids are read in one pass,
// and its processed form (placeholders for missing children) is the bytes
// with those ids rewritten. An empty
// child list is recorded where it closes: while the stream may still be
// filling it, the processed form puts the reference's loading_children_<id>
// placeholder there (see processFast). A component whose stream order
// the reader does not take (a key twice, more than maxFastKeys keys in an
// object, an escape in a key or an id) is read in its canonical encoding
// (entry_canon.go). Child fields below the top level (Tabs' "tabs":
// [{"child": ...}], "extra": {"child": ...}, child fields or a template in
// a template, a v0.8 definition's second type or an {"explicitList"}
// object's second member, "child": {"componentId": ...}) are slots too,
// whose walk and reference orders are read from the component's bytes
// (entry_nested.go); so are the reference-only fields detail, summary,
// root and template (entry_refs.go), and, with a catalog, its reference
// fields of a component's type (a Modal's "trigger"), read again in
// canonical encoding once the type is known (compScanner.catalogRead).
// An element of a child list that is not a string is no child id (child
// ids are strings): a value, kept as it is and walked (see elements). A
// component's own id that keeps an escape in its canonical encoding is
// read in that encoding, its decoding the id (ownID). Any number of empty
// child lists is recorded. v0.8 data-binding paths of every kind are
// edits (entry_paths.go): one that is an object or a list, one in the
// definition, its properties or a "children" object (objPath), and one
// that clears an object holding child fields, whose ids become references
// the processing leaves alone (cfRef, see unwalkFrom); a v0.8 "children"
// object that is no {"explicitList"} is read as a template, and a
// template that is no object as a value. A child field of a shape the
// schema rejects ("children" a string, "child" a list) is read as the
// reference's walk treats it (childValue: a string in it gets a
// placeholder) and its references as protocol.ComponentRefs reads them
// (none in a "children" string); so are v0.8 definitions of other shapes
// (defType), "id" and "component" properties, a type that keeps an escape
// (typeName), and a type whose catalog names a child list, componentId,
// id or component among its reference fields (ruleKinds' odd). A
// component with no usable id or type (none, an empty one, an id that is
// no string, a v0.9 type that is no string, a v0.8 one that is no object)
// is skipped (compSkip), as the processor rejects its message. There is
// no other path: a component the reader does not take (compUnread: none
// is known; the suite's reads never end so) is not recorded. With a
// catalog, a component's verdict is taken on its bytes (catalog.go).

// Outcomes of compScanner.scan.
const (
	compInvalid = iota // not exactly one JSON object
	// compUnread: the read stopped on bytes it does not take as they are:
	// read again in their canonical encoding (recanon, see settle), else
	// not recorded.
	compUnread
	compFast // read at byte level
	compSkip // no usable id or type: never recorded nor yielded, no error
)

// Child field indexes in childFields.
const (
	cfChildren = iota
	cfExplicitList
	cfChild
	cfContentChild
	cfEntryPointChild
	cfOwnID       // "componentId" of the component (v0.9) or its properties (v0.8): processed, no reference
	cfComponentID // a template's, in "children" (entry_template.go)
	cfNestedList  // v0.8 "children": {"explicitList": [...]}, met after the others
	// cfRef: an id in a reference field that is no child field (detail,
	// summary, root, template; entry_refs.go): a reference the processing
	// leaves as it is.
	cfRef
)

// childSlot is one child id in a fast component's bytes.
type childSlot struct {
	field uint8 // its field (cfChildren...)
	// esc: the id has escapes its canonical encoding keeps (a '"', a '\\'
	// or a control character): src[a:b] is its quoted form, which slotID
	// decodes.
	esc  bool
	a, b int32 // bounds of the id (inside the quotes) in src
}

// emptyList is an empty list of child ids in a fast component's bytes.
type emptyList struct {
	field uint8 // child field (cfNestedList: an "explicitList")
	at    int32 // offset of its ']' in src
}

// listField is the key listStillOpen looks for of an empty list.
func (l emptyList) listField() string {
	if l.field == cfChildren {
		return "children"
	}
	return "explicitList"
}

// fastComp is a component read at byte level. Its bytes are immutable once
// built, except while owned; pns is a cache filled when it is processed.
type fastComp struct {
	id     string
	src    []byte      // compact JSON of the component
	slots  []childSlot // child ids, in byte order
	inline [2]childSlot
	empty  []emptyList // its empty child lists
	pns    []*phName   // placeholders of the slots, once looked up
	// arrived caches, for the surface arrivedIn, which of the first 64
	// slots name a component that arrived (a component never leaves its
	// surface's table, so a set bit stays true).
	arrivedIn *surfaceState
	arrived   uint64
	// missing: which of the first 64 slots named a component that had not
	// arrived when it was last processed in arrivedIn (still missing
	// unless an arrival woke its entry since).
	missing uint64
	// emptyObj: an empty object in it (v0.8: in its definition). (The
	// bools are together: the struct stays in the 176-byte size class.)
	emptyObj bool
	// owned: a healed partial component that only its entry holds, which
	// may be updated in place as it grows (see growFast).
	owned bool
	// pnsOwn: pns is an array growFast made for fc, which no other
	// component shares (see putFastEnt): growFast may reuse it.
	pnsOwn bool
	// rewrote: read in its canonical encoding (compScanner.rewrote): its
	// entries compare by value (see putFastEnt).
	rewrote bool
	// nested: it has child fields below the top level (entry_nested.go):
	// more holds the order of its slots in the walk and of its references.
	nested bool
	// procN: the slots its entry's last processing covered (the entry's
	// slotsKept; see processGrown).
	procN uint8
	// more: what rare components have (nil: none of it).
	more *compMore
}

// compMore is what a rare component has besides its bytes and slots.
type compMore struct {
	// edits: the normalisation of its v0.8 data-binding paths, which the
	// processing applies (entry_paths.go).
	edits []pathEdit
	// ids: the decoded ids of its slots with escapes (childSlot.esc), by
	// slot index.
	ids [][]byte
	// walk and refs (fastComp.nested): its slots (i) and empty lists
	// (-1-j) in the order the processing meets them, and the slots of its
	// references in their order (see nestedOrder).
	walk, refs []int32
	// catRefs: its reference order follows its catalog's reference fields
	// (catalogRead), which nestedOrder does not know: it is not frozen.
	catRefs bool
}

// slotID returns the id of slot i.
func (fc *fastComp) slotID(i int) []byte {
	sl := fc.slots[i]
	if sl.esc {
		return fc.more.ids[i]
	}
	return fc.src[sl.a:sl.b]
}

// decodeIDs records the decoded ids of fc's slots with escapes (see
// slotID).
func (fc *fastComp) decodeIDs() {
	for i, sl := range fc.slots {
		if !sl.esc {
			continue
		}
		if fc.more == nil {
			fc.more = &compMore{}
		}
		if fc.more.ids == nil {
			fc.more.ids = make([][]byte, len(fc.slots))
		}
		id, _ := jsonwire.Unescape(fc.src[sl.a:sl.b])
		fc.more.ids[i] = []byte(id)
	}
}

// refs lists the distinct ids the component references, in the order
// protocol.ComponentRefs gives them (property names sorted, then list
// order), and whether it references itself.
func (fc *fastComp) refs(names *idNames) ([]string, bool) {
	if len(fc.slots) == 0 {
		return nil, false
	}
	out := make([]string, 0, len(fc.slots))
	self := false
	var set map[string]struct{}
	add := func(i int) {
		id := fc.slotID(i)
		if string(id) == fc.id {
			self = true
		}
		if set == nil && len(out) >= 16 {
			set = make(map[string]struct{}, len(fc.slots))
			for _, x := range out {
				set[x] = struct{}{}
			}
		}
		if set != nil {
			if _, dup := set[string(id)]; dup {
				return
			}
		} else if containsBytes(out, id) {
			return
		}
		s := names.id(id)
		if set != nil {
			set[s] = struct{}{}
		}
		out = append(out, s)
	}
	if fc.nested {
		fc.walkOrder()
		for _, i := range fc.more.refs {
			add(int(i))
		}
		return out, self
	}
	var present uint16 // the fields of the slots, as bits
	for _, sl := range fc.slots {
		present |= 1 << sl.field
	}
	present |= (present >> cfNestedList & 1) | (present >> cfComponentID & 1) // (read as "children")
	if present&(1<<cfRef) != 0 {
		// A component with a reference-only field is in its canonical
		// encoding (entry_refs.go): its slots are in sorted property order.
		for i, sl := range fc.slots {
			if sl.field != cfOwnID {
				add(i)
			}
		}
		return out, self
	}
	// Sorted property order: child, children, contentChild,
	// entryPointChild, explicitList (a componentId of the component is no
	// reference).
	for _, f := range [...]uint8{cfChild, cfChildren, cfContentChild, cfEntryPointChild, cfExplicitList} {
		if present&(1<<f) == 0 {
			continue
		}
		for i, sl := range fc.slots {
			if sl.field == f || (f == cfChildren && (sl.field == cfNestedList || sl.field == cfComponentID)) {
				add(i)
			}
		}
	}
	return out, self
}

// eachRef calls f with the id of each reference of the component: the
// ids refs lists, in slot order and with their repeats.
func (fc *fastComp) eachRef(f func(id []byte)) {
	if fc.nested {
		fc.walkOrder()
		for _, i := range fc.more.refs {
			f(fc.slotID(int(i)))
		}
		return
	}
	for i, sl := range fc.slots {
		if sl.field != cfOwnID { // (every other field is a reference's: see refs)
			f(fc.slotID(i))
		}
	}
}

func containsBytes(list []string, b []byte) bool {
	for _, x := range list {
		if x == string(b) {
			return true
		}
	}
	return false
}

// compScanner validates a component's JSON (as strictly as the
// message decoder, decode.go) and reads it at byte level, writing its compact form to out.
// Its buffers are reused between calls.
type compScanner struct {
	out      []byte
	slots    []childSlot
	idA, idB int
	// idEsc: the id, out[idA:idB], keeps an escape of its canonical
	// encoding (see ownID).
	idEsc        bool
	idDec        []byte
	compOK, skip bool // skip: compSkip
	emptyObj     bool
	seen         uint8 // top-level special keys seen
	stopped      bool  // the read stopped: compUnread
	// nested: a child field below the top level was read (entry_nested.go);
	// walk and refOrder are then its order (see order).
	nested         bool
	walk, refOrder []int32
	// recanon: what stopped the read (a key twice, more than maxFastKeys
	// keys, an escape in a key or an id) is not in its canonical
	// encoding, which is read instead (see canonical).
	recanon bool
	// canonIn: the bytes being read are a canonical encoding (no key
	// twice, escapes only where a character needs one).
	canonIn bool
	// rewrote: the component read is the canonical encoding of one that
	// needed it (recanon), or was read with its type's reference fields
	// (catalogRead: its references may have escapes, see slot).
	rewrote bool
	// sorted: a template, a path to normalise, a v0.8 empty definition or
	// {} child list, or a child named children_<id> (see emptyClash) was
	// read, so the component is kept in its canonical encoding (see
	// canonical).
	sorted bool
	// edits: the normalisation of its v0.8 data-binding paths
	// (entry_paths.go); noWalk: reading a value the processing does not
	// walk (a v0.8 component's member other than its definition).
	edits  []pathEdit
	noWalk bool
	// The empty child lists read so far.
	empty []emptyList
	v08   bool // reading a v0.8 component
	vctx  resumePoint
	// cat: the catalog whose reference fields of a component's type the
	// reader takes (nil: none); rules: this read takes them (catalogRead),
	// single and lists being those of the type being read.
	cat           *protocol.Catalog
	rules         bool
	single, lists []string
	// keys holds the bounds (in out) of the keys read so far in the
	// objects being read, innermost last: a duplicate key needs the
	// canonical encoding (which keeps the last value).
	keys []keySpan
	// The properties of the v0.8 definition being read: their special
	// keys seen, and where their keys start in keys.
	propSeen uint8
	propBase int
	// What only some reads need (see compSide), once one did.
	side *compSide
	// The checkpoint of the last read (see scanAt), of the object starting
	// at offset start of the scanner's buffer in message generation gen.
	mk    scanMark
	gen   uint64
	start int
	// real: the bytes b[:real] of the object being read are the scanner's
	// (the rest is what healing appended); vs: the open containers of the
	// value being read; vctx: the value's place when checkpoints are taken
	// in it (atNone: none is; declared with v08, for the engine's size).
	real int
	vs   []vframe
}

// keySpan is the bounds of a key in compScanner.out.
type keySpan struct{ a, b int }

// maxFastKeys bounds the keys of one object read in the stream's order,
// so that looking for a duplicate stays cheap; an object with more is read
// in its canonical encoding, which has no key twice.
const maxFastKeys = 32

// newKey records the key out[a:b] of the object whose keys start at
// keys[base], and reports false (the component is read again in its
// canonical encoding) when the object already has it, or has maxFastKeys
// keys already.
func (c *compScanner) newKey(base, a, b int) bool {
	if c.canonIn {
		return true
	}
	if len(c.keys)-base >= maxFastKeys {
		c.needCanon()
		return false
	}
	key := c.out[a:b]
	for _, k := range c.keys[base:] {
		if string(c.out[k.a:k.b]) == string(key) {
			c.needCanon()
			return false
		}
	}
	c.keys = append(c.keys, keySpan{a, b})
	return true
}

// needCanon stops a read that its canonical encoding may take further (a
// read of those bytes, canonIn, is compUnread).
func (c *compScanner) needCanon() {
	c.stopped, c.recanon = true, !c.canonIn
}

// Top-level special keys (bits of compScanner.seen).
const (
	seenID = 1 << iota
	seenComponent
	seenChildren
	seenExplicitList
	seenChild
	seenContentChild
	seenEntryPointChild
)

// scan reads b, which must hold exactly one JSON object, as a component of
// the v0.9 family or (v08) of v0.8, from its start, taking checkpoints as
// it reads. The engine calls scanAt, which records which object the
// checkpoints belong to: a direct call would leave checkpoints of b under
// the identity of the object read before.
func (c *compScanner) scan(b []byte, v08 bool) int {
	c.out, c.slots, c.keys, c.edits = c.out[:0], c.slots[:0], c.keys[:0], c.edits[:0]
	c.idA, c.idB, c.idEsc, c.compOK, c.emptyObj, c.seen, c.stopped, c.skip = -1, -1, false, false, false, 0, false, false
	c.empty, c.sorted, c.recanon, c.nested, c.v08 = c.empty[:0], false, false, false, v08
	c.mk.at, c.vctx = atNone, atNone
	i := jsonwire.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return compInvalid
	}
	i, ok := c.topObject(b, i)
	return c.outcome(b, i, ok)
}

// outcome is the result of a read of b that ended at b[i], successfully
// or not (ok).
func (c *compScanner) outcome(b []byte, i int, ok bool) int {
	switch {
	case c.skip: // (whatever follows)
		return compSkip
	case c.stopped:
		return compUnread
	case !ok || jsonwire.SkipSpace(b, i) != len(b):
		return compInvalid
	case c.idA < 0 || !c.compOK:
		return compSkip
	}
	if c.emptyClash() {
		c.sorted = true
	}
	return compFast
}

// emptyClash reports whether a component names the child children_<id>:
// that child's placeholder is also the one of an empty list of the
// component while it is open, now or in an earlier version of it, which
// was kept in canonical encoding: so is this one (see canonical), so that
// the versions read the same, and processFast puts that placeholder once.
func (c *compScanner) emptyClash() bool {
	// (Both in canonical encoding when either has an escape: equal bytes
	// are equal ids.)
	id := c.out[c.idA:c.idB]
	for _, sl := range c.slots {
		if k := c.out[sl.a:sl.b]; len(k) == len("children_")+len(id) && string(k[:len("children_")]) == "children_" && string(k[len("children_"):]) == string(id) {
			return true
		}
	}
	return false
}

// ownID returns the id of the component just read, decoded.
func (c *compScanner) ownID() []byte {
	if !c.idEsc {
		return c.out[c.idA:c.idB]
	}
	c.idDec, _, _ = jsonwire.AppendUnescaped(c.idDec[:0], c.out[c.idA:c.idB])
	return c.idDec
}

// result copies the scanned component into a new fastComp.
func (c *compScanner) result(names *idNames) *fastComp {
	return c.resultIn(names, ownCopy(c.out))
}

// resultIn is result with src, a copy of c.out, as the component's bytes.
func (c *compScanner) resultIn(names *idNames, src []byte) *fastComp {
	fc := &fastComp{id: names.id(c.ownID()), src: src, emptyObj: c.emptyObj, empty: append([]emptyList(nil), c.empty...), rewrote: c.rewrote}
	if n := len(c.slots); n <= len(fc.inline) {
		fc.slots = fc.inline[:n:n]
		copy(fc.slots, c.slots)
	} else {
		fc.slots = make([]childSlot, n)
		copy(fc.slots, c.slots)
	}
	if len(c.edits) > 0 || c.nested {
		fc.more = &compMore{edits: append([]pathEdit(nil), c.edits...)}
	}
	if c.nested {
		fc.nested = true
		fc.more.walk, fc.more.refs = ownCopy(c.walk), append([]int32(nil), c.refOrder...)
		fc.more.catRefs = c.rules
	}
	fc.decodeIDs()
	return fc
}

// topKey classifies a top-level key of a component.
func topKey(k []byte) (bit uint8, field int) {
	switch string(k) {
	case "id":
		return seenID, -1
	case "component":
		return seenComponent, -1
	case "children":
		return seenChildren, cfChildren
	case "explicitList":
		return seenExplicitList, cfExplicitList
	case "child":
		return seenChild, cfChild
	case "contentChild":
		return seenContentChild, cfContentChild
	case "entryPointChild":
		return seenEntryPointChild, cfEntryPointChild
	case "detail", "summary", "root":
		return 0, cfRef
	case "template":
		return 0, refList
	case "componentId":
		return 0, cfOwnID
	}
	return 0, -1
}

// isChildField reports whether k is one of childFields.
func isChildField(k []byte) bool {
	switch string(k) {
	case "children", "explicitList", "child", "contentChild", "entryPointChild", "componentId":
		return true
	}
	return false
}
