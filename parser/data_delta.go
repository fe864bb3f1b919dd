package parser

import (
	"maps"
	"slices"
	"strings"

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
// yields them (pruneEntries), so that an entry sniffing never yields (one
// whose valueMap is not a list, which the v0.8 schema does not allow) is
// not yielded by delta mode either.
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
		keys  map[string]string // entry key -> encoding last yielded
		whole []byte            // the last yield, encoded (when not reduced by entry)
	}
	enc  []byte           // scratch for encodings
	out  []map[string]any // scratch for reduce
	keys []string         // scratch for reduce
}

func newDeltaState() *deltaState {
	d := &deltaState{}
	d.cur.keys = map[string]string{}
	return d
}

// begin reports whether a yield of message gen at slot is the message's
// first, making it the current message if so.
func (d *deltaState) begin(slot dataSlot, gen uint64) bool {
	if d.cur.set && d.cur.slot == slot && d.cur.gen == gen {
		return false
	}
	d.cur.set, d.cur.slot, d.cur.gen, d.cur.whole = true, slot, gen, d.cur.whole[:0]
	clear(d.cur.keys)
	return true
}

// release drops the record of a message that ended: a data message of a
// later block has a later generation, so begin would start afresh.
func (d *deltaState) release() {
	d.cur.set, d.cur.whole = false, nil
	if len(d.cur.keys) > keepScratch {
		d.cur.keys = map[string]string{}
	} else {
		clear(d.cur.keys)
	}
	d.enc, d.out, d.keys = shrink(d.enc, 4*keepScratch), shrink(d.out, keepScratch), shrink(d.keys, keepScratch)
}

// forget drops the record when it is of surface.
func (d *deltaState) forget(surface string) {
	if d.cur.set && d.cur.slot.surface == surface {
		d.cur.set = false
		clear(d.cur.keys)
	}
}

// changed reports whether v differs from the value last yielded under key
// (compared by their canonical encodings), recording it if so.
func (d *deltaState) changed(key string, v any) bool {
	if ev, ok := v.(*encodedValue); ok {
		return d.changedEnc(key, ev.out)
	}
	prev, had := d.cur.keys[key]
	d.enc = appendJSON(d.enc[:0], v)
	if had && prev == string(d.enc) {
		return false
	}
	d.cur.keys[key] = string(d.enc)
	return true
}

// changedEnc is changed for a value already encoded as out: it compares
// and keeps out as it is.
func (d *deltaState) changedEnc(key, out string) bool {
	if prev, had := d.cur.keys[key]; had && prev == out {
		return false
	}
	d.cur.keys[key] = out
	return true
}

// entries appends the entries the current message yielded so far, in key
// order, as encoded values.
func (d *deltaState) entries(dst []dataEntry) []dataEntry {
	for k, enc := range d.cur.keys {
		dst = append(dst, dataEntry{key: k, out: enc, cmp: enc})
	}
	slices.SortFunc(dst, func(a, b dataEntry) int { return strings.Compare(a.key, b.key) })
	return dst
}

// sameWhole reports whether msg encodes as the last yield did, recording
// its encoding if not.
func (d *deltaState) sameWhole(msg map[string]any) bool {
	d.enc = appendJSON(d.enc[:0], msg)
	if string(d.cur.whole) == string(d.enc) {
		return true
	}
	d.cur.whole = append(d.cur.whole[:0], d.enc...)
	return false
}

// reduce returns what to yield of msg (gen: the scanner's generation of the
// message it comes from): nothing, msg itself, or one update per changed
// entry. The slice is scratch, valid until the next call.
func (d *deltaState) reduce(msg map[string]any, gen uint64) []map[string]any {
	out := d.out[:0]
	defer func() { d.out = out[:0] }()
	kind := kUpdateDataModel
	body, ok := msg[kind].(map[string]any)
	if !ok {
		kind = kDataModelUpdate
		body, ok = msg[kind].(map[string]any)
	}
	if !ok {
		if v, ok := msg[kDeleteSurface]; ok {
			if s, ok := v.(string); ok {
				d.forget(s)
			} else if s, ok := bodySurface(v); ok {
				d.forget(s)
			}
		}
		return append(out, msg)
	}
	sid, _ := body["surfaceId"].(string)
	path, _ := body["path"].(string)
	first := d.begin(dataSlot{sid, path}, gen)
	if contents, ok := body["contents"].(map[string]any); ok && kind == kDataModelUpdate {
		// v0.8 contents given as an object (as the reference accepts):
		// its sniffed yields carry the entries new since the last; pass
		// all of the message's entries so far, when one changed.
		anyChanged := false
		for k, v := range contents {
			if d.changed(k, v) {
				anyChanged = true
			}
		}
		if first {
			return append(out, msg)
		}
		if !anyChanged {
			return out
		}
		return append(out, d.soFar(msg, kind, body, "contents"))
	}
	value, isObj := body["value"].(map[string]any)
	if kind != kUpdateDataModel || !isObj {
		if d.sameWhole(msg) && !first {
			return out
		}
		return append(out, msg)
	}
	if first {
		for k, v := range value {
			d.changed(k, v)
		}
		return append(out, msg)
	}
	keys := d.keys[:0]
	for k, v := range value {
		if d.changed(k, v) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	if len(keys) > 0 && keys[0] == "" {
		// The empty key has no path of its own ("/" is the whole data
		// model): all of the message's entries so far, at the path.
		clear(keys)
		d.keys = keys[:0]
		return append(out, d.soFar(msg, kind, body, "value"))
	}
	for _, k := range keys {
		m := withField(msg, kind, body, "value", value[k])
		m[kind].(map[string]any)["path"] = entryPath(path, k)
		out = append(out, m)
	}
	clear(keys)
	d.keys = keys[:0]
	return out
}

// soFar returns msg with its body's field (its value or its contents) set
// to the object of every entry the current message yielded so far.
func (d *deltaState) soFar(msg map[string]any, kind string, body map[string]any, field string) map[string]any {
	acc := make(map[string]any, len(d.cur.keys))
	for k, enc := range d.cur.keys {
		acc[k] = &encodedValue{out: enc, cmp: enc}
	}
	return withField(msg, kind, body, field, acc)
}

// withField returns a copy of msg whose body (under kind) has field set to
// v.
func withField(msg map[string]any, kind string, body map[string]any, field string, v any) map[string]any {
	nb := maps.Clone(body)
	nb[field] = v
	m := maps.Clone(msg)
	m[kind] = nb
	return m
}

// sniffedContents returns msg, when it is a v0.8 dataModelUpdate with a
// list of contents, with its contents as sniffing yields them: the entries
// pruneEntries keeps, msg itself left as it is. Other messages are
// returned as they are.
func sniffedContents(msg map[string]any) map[string]any {
	body, ok := msg[kDataModelUpdate].(map[string]any)
	if !ok {
		return msg
	}
	list, ok := body["contents"].([]any)
	if !ok {
		return msg
	}
	return withField(msg, kDataModelUpdate, body, "contents", pruneEntries(cloneEntries(list)))
}

// cloneEntries copies the entry objects of a v0.8 contents list, and of
// the valueMap lists in them, which pruneEntries modifies.
func cloneEntries(list []any) []any {
	out := make([]any, len(list))
	for i, it := range list {
		entry, ok := it.(map[string]any)
		if !ok {
			out[i] = it
			continue
		}
		entry = maps.Clone(entry)
		if vm, ok := entry["valueMap"].([]any); ok {
			entry["valueMap"] = cloneEntries(vm)
		}
		out[i] = entry
	}
	return out
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
