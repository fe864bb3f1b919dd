package parser

import (
	"bytes"
	"slices"
	"strings"

	"github.com/a2ui-stream/a2ui-stream/internal/deltaengine"
	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// Delta mode's data model messages
//
// A data model message replaces the value at its path (v0.9:
// updateDataModel; v0.8: dataModelUpdate, whose contents become the map at
// the path). Progressive mode yields one as it arrives, and its whole self
// once complete (unless the reference's de-duplication skips it). Delta
// mode reduces the yields of each message to what changed since that
// message's previous yield, so that a renderer applying them in order ends
// with the same data as from the complete messages:
//
//   - a message's first yield passes whole: it replaces the value at the
//     path, as the message will once complete, dropping whatever an
//     earlier message left there;
//   - a later yield of the same message (a v0.9 update whose value is an
//     object) becomes one update per entry new or changed since the
//     message's previous yield, each at the entry's own path (path/key):
//     an upsert of that entry (the empty key, which has no path of its
//     own, takes all of the message's entries so far, at the path);
//   - a later yield of any other data message passes whole if it changed,
//     since its contents cannot address one entry (v0.8; contents given
//     as an object, whose sniffed yields carry only the entries new since
//     the last, pass all of the message's entries so far) or it holds no
//     entries (a scalar, a list, a removal);
//   - a yield identical to the message's previous one is dropped.
//
// As in progressive mode (and the reference), a message sniffed before its
// path arrived is yielded at the root, and one sniffed before its surfaceId
// arrived is yielded for the current surface (or "default"): a model that
// writes "value" first has its partial value replace a whole data model
// for a while. The complete message then sets its path's value, but what
// the partial yields replaced stays replaced. So does what a block that
// fails later yielded.
//
// The complete message always reaches the reduction in delta mode (the
// reference's de-duplication, which can skip it, is progressive mode's
// alone), so the last yield of each message leaves its exact value. One
// exception keeps the two modes' data the same: a v0.8 message with a list
// of contents that progressive mode skips (every entry it compares was
// yielded by sniffing) reaches the reduction with its contents as sniffing
// yields them (pruneEntries, see prunedContents), so that an entry
// sniffing never yields (one whose valueMap is not a list, which the v0.8
// schema does not allow) is not yielded by delta mode either. Data model
// messages are reduced in their canonical encoding (reduceEncoded).
// Component messages are reduced when they are built (see emitDelta):
// component updates are upserts by id.

// deltaState is the record of the data model message being yielded: the
// message (its slot and the scanner's message generation) and what its
// last yield held.
type deltaState struct {
	cur struct {
		set   bool
		slot  dataSlot
		gen   uint64
		keys  keyRecord // entry key -> encoding last yielded (linking the reader's entries)
		whole []byte    // the last yield, encoded (when not reduced by entry; listed: what follows its list)
		// The last yield when a sniffed v0.8 list (listed): the pruned
		// elements it lists (the reader's strings, which stay what they
		// are, see slab), and in whole what follows the list, instead
		// of a copy of its bytes (a large data model message has one
		// element per key, see TestLargeDataBlockHeap).
		listed bool
		parts  []string
	}
	enc     []byte      // scratch for encodings
	changed []dataEntry // scratch: the entries that changed (reduceEncoded)
	acc     []dataEntry // scratch: the entries yielded so far (emitSoFar)
}

func newDeltaState() *deltaState {
	d := &deltaState{}
	d.cur.keys.perMsg = true
	return d
}

// begin reports whether a yield of message gen at slot is the message's
// first, making it the current message if so.
func (d *deltaState) begin(slot dataSlot, gen uint64) bool {
	if d.cur.set && d.cur.slot == slot && d.cur.gen == gen {
		return false
	}
	d.cur.set, d.cur.slot, d.cur.gen, d.cur.whole = true, slot, gen, d.cur.whole[:0]
	d.cur.listed = false
	clear(d.cur.parts)
	d.cur.parts = dropLarge(d.cur.parts, keepScratch)
	d.cur.keys.reset()
	d.cur.keys.msg = gen
	return true
}

// release drops the record of a message that ended: a data message of a
// later block has a later generation, so begin would start afresh.
func (d *deltaState) release() {
	d.cur.set, d.cur.whole = false, nil
	d.cur.listed, d.cur.parts = false, nil
	d.cur.keys.reset()
	d.enc, d.changed, d.acc = shrink(d.enc, 4*keepScratch), shrink(d.changed, keepScratch), shrink(d.acc, keepScratch)
}

// forget drops the record when it is of surface.
func (d *deltaState) forget(surface string) {
	if d.cur.set && d.cur.slot.surface == surface {
		d.cur.set = false
		d.cur.keys.reset()
	}
}

// recordSniff records the changed entries of a sniff read by the data
// model reader (changedEntries), their output encodings, appending to
// kept those that differ from what the message's record held; emptyKey
// reports whether one of those has the empty key. The complete entries
// are linked (keyRecord.record), the one arriving held by key.
func (d *deltaState) recordSniff(r *dataReader, changed, kept []dataEntry) (_ []dataEntry, emptyKey bool) {
	var open *dataEntry
	k := &r.checked
	for i := range changed {
		en := &changed[i]
		if !d.cur.keys.holds(en.key, en.out) {
			kept = append(kept, *en)
			emptyKey = emptyKey || en.key == ""
		}
		if k.open && en.key == k.openKey {
			open = en
		}
	}
	d.cur.keys.record(r, r.contents(k.id), r.recIdx, open)
	return kept, emptyKey
}

// changedRaw reports whether the value v under the canonical key token
// tok differs from the one last yielded, returning the key and value
// (recorded when record).
func (d *deltaState) changedRaw(tok, v []byte, record bool) (key, val string, changed bool) {
	if prev, had := d.cur.keys.getRaw(tok); had && prev == string(v) {
		return "", "", false
	}
	key, val = keyString(tok), string(v)
	if record {
		d.cur.keys.set(key, val)
	}
	return key, val, true
}

// entries appends the entries the current message yielded so far, in key
// order, as encoded values.
func (d *deltaState) entries(dst []dataEntry) []dataEntry {
	dst = d.cur.keys.appendAll(dst)
	slices.SortFunc(dst, func(a, b dataEntry) int { return strings.Compare(a.key, b.key) })
	return dst
}

// sameWhole reports whether msg (encoded) is the last yield, recording
// it if not.
func (d *deltaState) sameWhole(msg []byte) bool {
	if d.isLast(msg) {
		return true
	}
	d.cur.whole = append(d.cur.whole[:0], msg...)
	d.cur.listed = false
	return false
}

// listPrefix is how appendDataModelUpdate starts a message whose contents
// are a list.
const listPrefix = `{"dataModelUpdate":{"contents":[`

// isLast reports whether msg (encoded) is the last yield.
func (d *deltaState) isLast(msg []byte) bool {
	if !d.cur.listed {
		return string(d.cur.whole) == string(msg)
	}
	rest, ok := bytes.CutPrefix(msg, []byte(listPrefix))
	for i, p := range d.cur.parts {
		if i > 0 {
			if rest, ok = bytes.CutPrefix(rest, []byte{','}); !ok {
				return false
			}
		}
		if len(rest) < len(p) || string(rest[:len(p)]) != p {
			return false
		}
		rest = rest[len(p):]
	}
	return ok && len(rest) > 0 && rest[0] == ']' && string(rest[1:]) == string(d.cur.whole)
}

// recordList records msg, the yield appendDataModelUpdate built of the
// list parts (their strings kept as they are), as the last yield.
func (d *deltaState) recordList(parts []string, msg []byte) {
	end := len(listPrefix) + max(len(parts)-1, 0)
	for _, p := range parts {
		end += len(p)
	}
	d.cur.parts = append(d.cur.parts[:0], parts...)
	d.cur.whole = append(d.cur.whole[:0], msg[end+1:]...)
	d.cur.listed = true
}

// changedMembers compares the members of the canonical object obj with
// changedRaw (recording them when record), appending to dst those that
// changed when collect; any reports whether one did.
func (d *deltaState) changedMembers(obj []byte, dst []dataEntry, collect, record bool) (out []dataEntry, any bool) {
	for i := 1; ; {
		k, vb, ok := nextMember(obj, i)
		if !ok {
			return dst, any
		}
		if key, v, ok := d.changedRaw(obj[i:k], obj[k+1:vb], record); ok {
			any = true
			if collect {
				dst = append(dst, dataEntry{key: key, out: v, cmp: v})
			}
		}
		if i = vb; obj[i] == ',' {
			i++
		}
	}
}

// reduceEncoded places what to yield of the message e.lay holds
// (canonical; gen: the scanner's generation of the message it comes
// from): nothing, the message itself, or one update per changed entry.
func (e *progressiveEngine) reduceEncoded(gen uint64) {
	d, l := e.dstate, &e.lay
	msg := l.msg
	kind := kUpdateDataModel
	ok := l.bodyOf(kind)
	if !ok {
		kind = kDataModelUpdate
		ok = l.bodyOf(kind)
	}
	if !ok {
		if v, ok := l.get(kDeleteSurface); ok {
			if s, ok := canonString(v, true); ok {
				d.forget(s)
			} else if s, ok := canonString(canonGet(v, "surfaceId")); ok && s != "" {
				d.forget(s)
			}
		}
		e.emitCopy(msg)
		return
	}
	slot := l.slot()
	first := d.begin(slot, gen)
	if c, ok := l.bodyGet("contents"); ok && isObject(c) && kind == kDataModelUpdate {
		// v0.8 contents given as an object (as the reference accepts):
		// its sniffed yields carry the entries new since the last; pass
		// all of the message's entries so far, when one changed.
		_, anyChanged := d.changedMembers(c, nil, false, true)
		switch {
		case first:
			e.emitCopy(msg)
		case anyChanged:
			e.emitSoFar("contents")
		}
		return
	}
	value, ok := l.bodyGet("value")
	if kind != kUpdateDataModel || !ok || !isObject(value) {
		if !d.sameWhole(msg) || first {
			e.emitCopy(msg)
		}
		return
	}
	// A top-level message's complete yield is the last its record
	// serves: the scanner starts a new message generation after it (see
	// progScan.resetMsg), so that the next yield begins a new record.
	// Recording its entries (as many as the message's, when it is large)
	// is then needed only for emitSoFar.
	s := &e.sc
	last := len(s.stack) == 0 || s.inList && len(s.stack) == 1 && s.stack[0].open == '['
	if first {
		if !last {
			d.changedMembers(value, nil, false, true)
		}
		e.emitCopy(msg)
		return
	}
	changed, _ := d.changedMembers(value, d.changed[:0], true, !last)
	defer func() { clear(changed); d.changed = dropLarge(changed, keepScratch) }()
	slices.SortFunc(changed, func(a, b dataEntry) int { return strings.Compare(a.key, b.key) })
	if len(changed) > 0 && changed[0].key == "" {
		// The empty key has no path of its own ("/" is the whole data
		// model): all of the message's entries so far, at the path.
		if last {
			for _, en := range changed {
				d.cur.keys.set(en.key, en.out)
			}
		}
		e.emitSoFar("value")
		return
	}
	for _, en := range changed {
		p := entryPath(slot.path, en.key)
		out := e.out.store.alloc(len(msg) - len(value) + len(en.out) + len(p) + 16)
		e.emitRaw(l.appendReplaced(out, "value", []byte(en.out), p, true), false, "")
	}
}

// emitSoFar places the message e.lay holds with its body's field (its
// value or its contents) the object of every entry the current message
// yielded so far.
func (e *progressiveEngine) emitSoFar(field string) {
	d, l := e.dstate, &e.lay
	d.acc = d.entries(d.acc[:0])
	d.enc = appendEntries(d.enc[:0], d.acc)
	clear(d.acc)
	out := e.out.store.alloc(len(l.msg) + len(d.enc) + 16)
	e.emitRaw(l.appendReplaced(out, field, d.enc, "", false), false, "")
}

// prunedContents makes e.lay hold, when it holds a v0.8 dataModelUpdate
// with a list of contents, the message with its contents as sniffing
// yields them (the entries pruneEntries keeps), and reports whether it
// did.
func (e *progressiveEngine) prunedContents() bool {
	l := &e.lay
	if !l.bodyOf(kDataModelUpdate) {
		return false
	}
	list, ok := l.bodyGet("contents")
	if !ok || !isList(list) {
		return false
	}
	r := e.reader()
	r.canon, _ = deltaengine.PrunedList(r.canon[:0], list, 0)
	r.pruned = l.appendReplaced(r.pruned[:0], "contents", r.canon, "", false)
	l.read(r.pruned)
	return true
}

// entryPath is the JSON Pointer of entry key of the object at path.
func entryPath(path, key string) string {
	if path == "/" {
		path = ""
	}
	return path + "/" + jsonwire.EscapePointerToken(key)
}

// dataSlot names the data model a message addresses: a surface and a path.
type dataSlot struct{ surface, path string }
