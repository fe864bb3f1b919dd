package parser

// Sniffing a data model message with the data model reader, part two:
// what the reference yields for what the reader resolved, as encoded
// messages.

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// openEncoded encodes the entry arriving, leaving its comparison encoding
// in r.enc and returning its encoding when the two differ ("" when they do
// not): the healed text is not valid UTF-8 when a character was cut at the
// end of the buffer. It reports false when the entry does not decode.
func (r *dataReader) openEncoded(v *dataView) (out string, ok bool) {
	valid := utf8.Valid(v.openHB)
	if valid && canonicalScalar(v.openHB) {
		r.enc = append(r.enc[:0], v.openHB...)
		return "", true
	}
	if valid {
		r.enc, ok = r.cw.canonical(r.enc[:0], v.openHB)
		return "", ok
	}
	// A character cut by the end of the buffer: the encodings differ
	// (appendJSON writes \ufffd, appendCmp \xHH), from the decoding.
	val, ok := decodeValue(v.openHB)
	if !ok {
		return "", false
	}
	out = string(appendJSON(r.enc[:0], val))
	r.enc = appendCmp(r.enc[:0], val)
	return out, true
}

// sniffedReadV09 yields the changed entries of a sniffed updateDataModel
// (its value an object), as the reader resolved it.
func (e *progressiveEngine) sniffedReadV09(v *dataView) {
	if !v.body || v.cont == nil {
		return
	}
	sid, _ := v.sid.v.(string)
	sid = e.surfaceOr(sid)
	path, hasPath := v.path.v.(string)
	d, changed, ok := e.changedEntries(v, dataSlot{sid, path})
	if !ok || len(changed) == 0 {
		return
	}
	e.yieldReadV09(d, sid, path, hasPath, changed)
	e.reader().checked.gen = e.dataGen
	clear(changed)
}

// changedEntries returns the record d of slot and the entries of the
// data object v.cont (and the one arriving) whose value differs from what
// d records. Only the entries the last sniff did not leave equal to d are
// compared (see dataChecked). It reports false when the entry arriving
// does not decode.
func (e *progressiveEngine) changedEntries(v *dataView, slot dataSlot) (*keyRecord, []dataEntry, bool) {
	r := e.reader()
	c := v.cont
	from, d := r.checked.from(c, e.dataGen, slot)
	if d == nil {
		d = e.dataState(slot)
	}
	changed, recIdx := r.changed[:0], r.recIdx[:0]
	if v.open {
		en, differs, ok := r.openEntry(v, d)
		if !ok {
			return nil, nil, false
		}
		if differs {
			changed = append(changed, en)
		}
	}
	k := &r.checked
	for i := range c.ents {
		en := c.ent(i)
		// Yielding a v0.9 sniff records the message's "value" and "path"
		// under those keys (dedupeEncoded): entries of these names are
		// always compared.
		skip := i < from && (!k.open || en.key != k.openKey) && en.key != "value" && en.key != "path"
		if skip || v.open && en.key == v.openKey || !d.differs(en.key, en.enc) {
			continue
		}
		changed = append(changed, en.entry())
		recIdx = append(recIdx, int32(i))
	}
	r.changed, r.recIdx = changed, recIdx
	// Once the changed entries are recorded, d holds every entry's value
	// (the one arriving for its key): d links them (keyRecord), the
	// caller records the changed ones.
	d.link(r, c, v.open, v.openKey)
	*k = dataChecked{gen: e.dataGen, slot: slot, d: d, id: c.id, repl: c.repl, n: len(c.ents), open: v.open, openKey: v.openKey}
	return d, changed, true
}

// openEntry is the entry arriving, encoded, and whether it differs from
// what d records under its key. It reports false when the entry does not
// decode.
func (r *dataReader) openEntry(v *dataView, d *keyRecord) (en dataEntry, differs, ok bool) {
	out, ok := r.openEncoded(v)
	if !ok || !d.differs(v.openKey, string(r.enc)) {
		return dataEntry{}, false, ok
	}
	en = dataEntry{key: v.openKey, cmp: string(r.enc), out: out}
	if out == "" {
		en.out = en.cmp
	}
	return en, true, true
}

// yieldReadV09 yields the changed entries of a sniffed updateDataModel
// read by the data model reader: what yieldMessage does (dedupeEncoded, the
// catalog's loose verdict, then emit; in delta mode, emit's reduction),
// without building the message as maps.
func (e *progressiveEngine) yieldReadV09(d *keyRecord, sid, path string, hasPath bool, changed []dataEntry) {
	slices.SortFunc(changed, func(a, b dataEntry) int { return strings.Compare(a.key, b.key) })
	r := e.reader()
	// dedupeEncoded: it records the message's value and path.
	e.dataGen++
	r.enc = append(r.enc[:0], '{')
	for i, en := range changed {
		if i > 0 {
			r.enc = append(r.enc, ',')
		}
		r.enc = append(jsonwire.AppendQuoted(r.enc, en.key, true), ':') // (comparison encoding)
		r.enc = append(r.enc, en.cmp...)
	}
	r.enc = append(r.enc, '}')
	d.setEnc("value", r.enc)
	if hasPath {
		r.enc = jsonwire.AppendQuoted(r.enc[:0], path, true)
		d.setEnc("path", r.enc)
	}
	if e.cat != nil {
		// yieldMessage's loose validation, before the reduction.
		cs := e.catScratch()
		cs.buf = appendUpdateDataModel(cs.buf[:0], sid, path, hasPath, changed, "", e.versionFor(sid))
		if !e.validEncoded(cs.buf) {
			for _, en := range changed {
				d.set(en.key, en.cmp)
			}
			return
		}
	}
	kept, perEntry := changed, false
	if e.dstate != nil {
		// deltaState.reduce: the message's first yield whole, then its
		// changed entries, each at its own path.
		d := e.dstate
		first := d.begin(dataSlot{sid, path}, e.sc.msgGen)
		var emptyKey bool
		kept, emptyKey = d.recordSniff(r, changed, r.kept[:0])
		if !first {
			perEntry = true
			if emptyKey && len(kept) > 0 {
				// The empty key has no path of its own ("/" is the whole
				// data model): all of the message's entries so far.
				kept, perEntry = d.entries(kept[:0]), false
			}
		}
		r.kept = kept
	}
	switch {
	case perEntry:
		for _, en := range kept {
			e.emitRaw(e.updateDataModelMsg(sid, entryPath(path, en.key), true, kept[:0], en.out), false, "")
		}
	case len(kept) > 0:
		e.emitRaw(e.updateDataModelMsg(sid, path, hasPath, kept, ""), false, "")
	}
	clear(r.kept)
	for _, en := range changed {
		d.set(en.key, en.cmp)
	}
}

// updateDataModelMsg encodes an updateDataModel of surface sid whose value
// is the object of entries, or (entries empty) the encoded value.
func (e *progressiveEngine) updateDataModelMsg(sid, path string, hasPath bool, entries []dataEntry, value string) []byte {
	ver := e.versionFor(sid)
	size := 72 + len(sid) + len(path) + len(ver) + len(value)
	for _, en := range entries {
		size += len(en.key) + len(en.out) + 4
	}
	return appendUpdateDataModel(e.out.store.alloc(size), sid, path, hasPath, entries, value, ver)
}

// appendUpdateDataModel appends the encoding updateDataModelMsg describes,
// of version ver, to msg.
func appendUpdateDataModel(msg []byte, sid, path string, hasPath bool, entries []dataEntry, value, ver string) []byte {
	msg = append(msg, `{"updateDataModel":{`...)
	if hasPath {
		msg = append(appendJSONString(append(msg, `"path":`...), path), ',')
	}
	msg = appendJSONString(append(msg, `"surfaceId":`...), sid)
	msg = append(msg, `,"value":`...)
	if len(entries) == 0 {
		msg = append(msg, value...)
	} else {
		msg = appendEntries(msg, entries)
	}
	msg = appendJSONString(append(msg, `},"version":`...), ver)
	return append(msg, '}')
}

// sniffedReadV08 yields a sniffed dataModelUpdate, as the reader resolved
// it: its contents flattened (contentsToDict), compared with the record,
// and when one differs, the latest entry of each key (pruneEntries).
func (e *progressiveEngine) sniffedReadV08(v *dataView) {
	if !v.body || v.cont == nil {
		return
	}
	r := e.reader()
	sid, _ := v.sid.v.(string)
	sid = e.surfaceOr(sid)
	path, _ := v.path.v.(string)
	c := v.cont
	if !c.list {
		e.sniffedReadV08Object(v, sid, path)
		return
	}
	var open dataElem
	if v.open {
		var ok bool
		if open, ok = r.readElement(v.openHB); !ok {
			return
		}
		open = open.clone() // (recorded: see below)
	}
	openVal := v.open && open.key != "" && open.hasVal
	if c.valIdx.len() == 0 && !openVal {
		return
	}
	slot := dataSlot{sid, path}
	from, d := r.checked.from(c, e.dataGen, slot)
	if d == nil {
		d = e.dataState(slot)
	}
	// The values contentsToDict keeps that the last sniff did not leave
	// equal to d (see dataChecked): each key's last element with a value
	// (the one arriving, if it has one) among the new elements, and the
	// one of the key the element arriving then had.
	check := r.check[:0]
	if openVal {
		check = append(check, open)
	}
	n := len(c.elems)
	for i := from; i < n; i++ {
		if el := c.elem(i); c.holdsValue(el, i) && !(openVal && el.key == open.key) {
			check = append(check, el)
		}
	}
	if k := &r.checked; from > 0 && k.open && !(openVal && k.openKey == open.key) {
		if i, ok := c.valAt(k.openKey); ok && i < from {
			check = append(check, c.elem(i))
		}
	}
	r.check = check
	changed := false
	for _, el := range check {
		if d.differs(el.key, el.cmp) {
			changed = true
			break
		}
	}
	r.checked = dataChecked{gen: e.dataGen, slot: slot, d: d, id: c.id, n: n, open: openVal, openKey: open.key}
	// Once the values compared are recorded (or, none changed, equal to
	// d's), d holds every element's value: d links them (keyRecord), the
	// values recorded below taking no map entry when linked.
	d.linkList(r, c)
	if !changed {
		clear(check)
		return
	}
	// latestEntries and pruneEntries: the last element of each key that
	// has a value, in list order; the element arriving supersedes the
	// last complete one of its key.
	out := r.list[:0]
	for _, i := range r.latest(c) {
		if el := c.elem(i); !v.open || el.key != open.key {
			out = append(out, el.pruned)
		}
	}
	if v.open && open.key != "" && open.pruned != "" {
		if _, val := c.valAt(open.key); val || openVal {
			out = append(out, open.pruned)
		}
	}
	r.list = out
	e.yieldReadV08(sid, path, v.path, true, out, nil)
	clear(out)
	// Recording the values compared leaves d holding every value.
	for _, el := range check {
		d.set(el.key, el.cmp)
	}
	clear(check)
	r.checked.gen = e.dataGen
}

// yieldReadV08 yields a sniffed dataModelUpdate read by the data model
// reader, its contents the entries of list or (contents given as an
// object, isList false) the changed entries: what the reference does with
// yieldMessage (dedupeEncoded, whose records sniffing replaces, the catalog's
// loose verdict, then emit; in delta mode, emit's reduction), without
// building the message as maps.
func (e *progressiveEngine) yieldReadV08(sid, path string, pathVal memberValue, isList bool, list []string, changed []dataEntry) {
	e.dataGen++
	if !isList {
		slices.SortFunc(changed, func(a, b dataEntry) int { return strings.Compare(a.key, b.key) })
	}
	if e.cat != nil {
		// yieldMessage's loose validation, before the reduction.
		cs := e.catScratch()
		cs.buf = appendDataModelUpdate(cs.buf[:0], sid, pathVal, isList, list, changed)
		if !e.validEncoded(cs.buf) {
			return
		}
	}
	kept := list
	if d := e.dstate; d != nil && !isList {
		// deltaState.reduce: the message's first yield whole, then (its
		// entries cannot be addressed one by one) all of its entries
		// yielded so far, when one changed.
		first := d.begin(dataSlot{sid, path}, e.sc.msgGen)
		r := e.reader()
		kept, _ := d.recordSniff(r, changed, r.kept[:0])
		anyChanged := len(kept) > 0
		clear(kept)
		r.kept = kept[:0]
		if !first {
			if !anyChanged {
				return
			}
			r.acc = d.entries(r.acc[:0])
			changed = r.acc
			slices.SortFunc(changed, func(a, b dataEntry) int { return strings.Compare(a.key, b.key) })
		}
	}
	msg := appendDataModelUpdate(e.out.store.alloc(dataModelUpdateSize(sid, pathVal, isList, kept, changed)), sid, pathVal, isList, kept, changed)
	if d := e.dstate; d != nil && isList {
		// deltaState.reduce: whole, unless the message's last yield was
		// the same.
		first := d.begin(dataSlot{sid, path}, e.sc.msgGen)
		if !first && d.isLast(msg) {
			clear(kept)
			return
		}
		d.recordList(kept, msg)
	}
	if isList {
		clear(kept)
	}
	e.emitRaw(msg, false, "")
}

// latest returns the indices, in order, of the complete elements of c
// that latestEntries and pruneEntries keep: the last element of each key
// with a value, unless pruned. Elements are only appended to c (its id
// names its data), so the answer is brought up to date from the last one:
// an element that stopped being its key's last leaves it (only a later
// element of its key changes whether a key's last element is kept), and
// the elements added since are looked at (an element is at least three
// bytes of the list: the work is linear in it, not quadratic as the list
// arrives in small chunks).
func (r *dataReader) latest(c *dataContents) []int {
	n := len(c.elems)
	if c.id == 0 || r.latestID != c.id || r.latestN > n || r.latestSup > len(c.superseded) {
		r.latestIdx, r.latestN, r.latestSup = r.latestIdx[:0], 0, 0
	}
	idx := r.latestIdx
	if sup := c.superseded[r.latestSup:]; len(sup) > 0 {
		// One pass over idx for all of them (deleting one at a time would
		// move idx's tail once each: quadratic for a long list whose keys
		// repeat).
		slices.Sort(sup)
		w, k := 0, 0
		for _, i := range idx {
			for k < len(sup) && int(sup[k]) < i {
				k++
			}
			if k < len(sup) && int(sup[k]) == i {
				continue
			}
			idx[w] = i
			w++
		}
		idx = idx[:w]
	}
	for i := r.latestN; i < n; i++ {
		el := c.elem(i)
		if el.key == "" || el.pruned == "" || !c.lastIs(el.key, i) {
			continue
		}
		if _, val := c.valAt(el.key); val {
			idx = append(idx, i)
		}
	}
	r.latestIdx, r.latestID, r.latestN, r.latestSup = idx, c.id, n, len(c.superseded)
	return idx
}

// sniffedReadV08Object is sniffedReadV08 for contents given as an object
// (contentsToDict keeps it as it is).
func (e *progressiveEngine) sniffedReadV08Object(v *dataView, sid, path string) {
	if len(v.cont.ents) == 0 && !v.open {
		return
	}
	d, changed, ok := e.changedEntries(v, dataSlot{sid, path})
	if !ok || len(changed) == 0 {
		return
	}
	e.yieldReadV08(sid, path, v.path, false, nil, changed)
	// Recording the changed values leaves d holding every value.
	for _, en := range changed {
		d.set(en.key, en.cmp)
	}
	e.reader().checked.gen = e.dataGen
	clear(changed)
}

// appendDataModelUpdate appends a v0.8 dataModelUpdate of surface sid to
// msg: its contents the entries of list (isList) or the entries changed,
// sorted by key.
func appendDataModelUpdate(msg []byte, sid string, pathVal memberValue, isList bool, list []string, changed []dataEntry) []byte {
	msg = append(msg, `{"dataModelUpdate":{"contents":`...)
	if isList {
		msg = append(msg, '[')
		for i, it := range list {
			if i > 0 {
				msg = append(msg, ',')
			}
			msg = append(msg, it...)
		}
		msg = append(msg, ']')
	} else {
		msg = appendEntries(msg, changed)
	}
	if pathVal.set {
		msg = appendJSON(append(msg, `,"path":`...), pathVal.v)
	}
	msg = appendJSONString(append(msg, `,"surfaceId":`...), sid)
	return append(msg, "}}"...)
}

// dataModelUpdateSize is the size of the encoding appendDataModelUpdate
// appends, or about (a key or path to escape takes more), so that the
// message is built in one allocation.
func dataModelUpdateSize(sid string, pathVal memberValue, isList bool, list []string, changed []dataEntry) int {
	size := 56 + len(sid) // {"dataModelUpdate":{"contents":[],"surfaceId":""}}
	if isList {
		for _, it := range list {
			size += len(it) + 1
		}
	} else {
		for _, en := range changed {
			size += len(en.key) + len(en.out) + 4
		}
	}
	if pathVal.set {
		size += 10 // ,"path":""
		if p, ok := pathVal.v.(string); ok {
			size += len(p)
		} else {
			size += 32
		}
	}
	return size
}

// appendEntries appends entries as a JSON object of their output encodings.
func appendEntries(msg []byte, entries []dataEntry) []byte {
	msg = append(msg, '{')
	for i, en := range entries {
		if i > 0 {
			msg = append(msg, ',')
		}
		msg = append(appendJSONString(msg, en.key), ':')
		msg = append(msg, en.out...)
	}
	return append(msg, '}')
}
