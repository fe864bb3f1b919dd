package parser

import "bytes"

// keyRecord is a record of data model values by key (the record of the
// data yielded for a surface and path, see dataState): what a
// map[string]string would hold, without a map entry for each key that the
// data model reader holds already. A large data model message has one
// entry per key, and the record of what a sniff yielded is then the
// reader's entries over again (see TestLargeDataBlockHeap).
//
// The record is a map m, plus a link to the first upto entries of a
// reader's data object (its contents id, see dataContents), or to the
// first upto elements of its v0.8 contents list (linkList): a key of the
// map holds the map's value (noValue: none, though the link has the
// key); a key the map lacks holds its entry's encoding when the entry is
// among the linked ones (a list: the comparison encoding of its last
// element with a value, when that is among them). Lookups are exact: a key is compared as the
// key index compares it, and a value is the encoding itself.
//
// The reader keeps the link true: before an entry a record links is
// replaced (a later member with its key; a list: a later element of its
// key with a value), the record's map takes its value; before the linked data is dropped (a new message, a new data
// member, the reader's release), the record takes every linked value
// into its map, or, when it holds more than limit keys (limit > 0), is
// emptied and marked dropped: its owner starts it afresh at its next use,
// as it would have for its size (dataState), and nothing consults it
// before that, since its data is gone (dataChecked needs the data's id).
//
// A record of one message (perMsg: delta mode's record of the message
// being reduced, see deltaState) is emptied instead when the reader
// starts on another message than msg or is released: nothing consults it
// before its owner starts it afresh for the next message.
type keyRecord struct {
	m       map[string]string
	n       int         // keys held
	r       *dataReader // the linked reader (nil: none)
	id      uint64      // the linked data
	upto    int         // entries linked
	limit   int         // see above (0: none)
	dropped bool        // emptied when its data was dropped
	perMsg  bool        // a record of message msg only
	msg     uint64
}

// noValue marks a key the record does not hold in its map (an encoding is
// never empty).
const noValue = ""

func newKeyRecord(limit int) *keyRecord { return &keyRecord{limit: limit} }

// len returns the number of keys held.
func (k *keyRecord) len() int { return k.n }

// linked returns the encoding of the linked entry of key.
func (k *keyRecord) linked(key string) (string, bool) {
	if k.r == nil {
		return "", false
	}
	c := k.r.contents(k.id)
	if c.list {
		if i, ok := c.valAt(key); ok && i < k.upto {
			return c.elem(i).cmp, true
		}
		return "", false
	}
	if i, ok := c.idx.get(key, c.entKey); ok && i < k.upto {
		return c.ent(i).enc, true
	}
	return "", false
}

// get returns the encoding held under key.
func (k *keyRecord) get(key string) (string, bool) {
	if v, ok := k.m[key]; ok {
		return v, v != noValue
	}
	return k.linked(key)
}

// getRaw is get for the canonical key token tok.
func (k *keyRecord) getRaw(tok []byte) (string, bool) {
	if bytes.IndexByte(tok, '\\') < 0 {
		return k.get(string(tok[1 : len(tok)-1]))
	}
	return k.get(keyString(tok))
}

// set holds v under key (copied when the reader's, see entArena).
func (k *keyRecord) set(key, v string) {
	mv, inMap := k.m[key]
	lv, linked := k.linked(key)
	if had := inMap && mv != noValue || !inMap && linked; !had {
		k.n++
	}
	if linked && lv == v {
		delete(k.m, key)
		return
	}
	if k.r != nil {
		c := k.r.contents(k.id)
		key, v = c.kept(key), c.kept(v)
	}
	k.setMap(key, v)
}

// setEnc is set(key, string(enc)) unless enc is held under key already
// (sparing the string).
func (k *keyRecord) setEnc(key string, enc []byte) {
	if prev, ok := k.get(key); !ok || prev != string(enc) {
		k.set(key, string(enc))
	}
}

// holds reports whether v is the encoding held under key.
func (k *keyRecord) holds(key, v string) bool {
	prev, ok := k.get(key)
	return ok && prev == v
}

// setMap holds v (noValue: nothing) under key in the map, as they are
// (not the reader's entries', see entArena).
func (k *keyRecord) setMap(key, v string) {
	if k.m == nil {
		k.m = map[string]string{}
	}
	k.m[key] = v
}

// differs reports whether cmp differs from the encoding held under key (an
// absent key counts as null).
func (k *keyRecord) differs(key, cmp string) bool {
	prev, ok := k.get(key)
	if !ok {
		prev = "null"
	}
	return prev != cmp
}

// link makes the record hold the encoding of each entry of c (of reader
// r) that its map does not hold, but those it did not hold whose
// encoding is null (absent counts as null, and stays absent) or whose
// key is openKey (when open: the entry arriving, compared apart): what
// recording every entry of c that differs from the record does. The
// entries linked already stay linked.
func (k *keyRecord) link(r *dataReader, c *dataContents, open bool, openKey string) {
	k.attach(r, c)
	for i := k.upto; i < len(c.ents); i++ {
		en := c.ent(i)
		if v, ok := k.m[en.key]; ok {
			if v == en.enc {
				delete(k.m, en.key)
			}
			continue
		}
		if en.enc == "null" || open && en.key == openKey {
			k.setMap(c.kept(en.key), noValue)
			continue
		}
		k.n++
	}
	k.upto = len(c.ents)
}

// linkList is link for the v0.8 contents list c: the record holds, for
// each key that the map does not hold, the comparison encoding of its
// last element with a value (what contentsToDict keeps), the first upto
// elements linked (the reader pins a linked one before a later element
// of its key takes its place, see member). The caller records every such
// value of c (sniffedReadV08): the map keeps only those that differ.
func (k *keyRecord) linkList(r *dataReader, c *dataContents) {
	k.attach(r, c)
	for i := k.upto; i < len(c.elems); i++ {
		el := c.elem(i)
		if !c.holdsValue(el, i) {
			continue
		}
		if v, ok := k.m[el.key]; ok {
			if v == el.cmp {
				delete(k.m, el.key)
			}
			continue
		}
		k.n++
	}
	k.upto = len(c.elems)
}

// attach links the record to the data c of reader r (none of its entries
// yet), unlinking the data it linked.
func (k *keyRecord) attach(r *dataReader, c *dataContents) {
	if k.r != r || k.id != c.id {
		k.unlink()
		k.r, k.id, k.upto = r, c.id, 0
		r.links = append(r.links, k)
	}
}

// record makes the record hold what a yield recorded of a sniff of the
// data c of reader r: the encodings of the entries of c at indices idx
// (ascending: the complete entries the sniff found changed,
// changedEntries), and open (nil: none), the entry arriving, which is not
// linked. The entries of c it did not link before and that are not at idx
// keep what the record held (noValue, when absent): this is what
// recording each of them by key would do (delta mode's record of the
// message, which a yield refused by the catalog does not reach, unlike
// the record of the yielded data: link does not do).
func (k *keyRecord) record(r *dataReader, c *dataContents, idx []int32, open *dataEntry) {
	k.attach(r, c)
	j := 0
	for ; j < len(idx) && int(idx[j]) < k.upto; j++ {
		// A linked entry replaced since (see pin): linked anew.
		key := c.entKey(int(idx[j]))
		if v, ok := k.m[key]; ok {
			if v == noValue {
				k.n++
			}
			delete(k.m, key)
		}
	}
	for i := k.upto; i < len(c.ents); i++ {
		en := c.ent(i)
		rec := j < len(idx) && int(idx[j]) == i
		if rec {
			j++
		}
		var v string
		ok := false
		if len(k.m) > 0 {
			v, ok = k.m[en.key]
		}
		switch {
		case ok && (rec || v == en.enc):
			if v == noValue {
				k.n++
			}
			delete(k.m, en.key)
		case ok:
		case rec:
			k.n++
		default:
			k.setMap(c.kept(en.key), noValue)
		}
	}
	k.upto = len(c.ents)
	if open != nil {
		if _, had := k.get(open.key); !had {
			k.n++
		}
		k.setMap(open.key, open.out)
	}
}

// appendAll appends the keys held, with their encodings.
func (k *keyRecord) appendAll(dst []dataEntry) []dataEntry {
	for key, v := range k.m {
		if v != noValue {
			dst = append(dst, dataEntry{key: key, out: v, cmp: v})
		}
	}
	if k.r != nil {
		c := k.r.contents(k.id)
		if c.list {
			for i := range k.upto {
				if el := c.elem(i); k.linkedElem(c, el, i) {
					dst = append(dst, dataEntry{key: el.key, out: el.cmp, cmp: el.cmp})
				}
			}
			return dst
		}
		for i := range k.upto {
			en := c.ent(i)
			if _, ok := k.m[en.key]; !ok {
				dst = append(dst, en.entry())
			}
		}
	}
	return dst
}

// pin keeps the value of entry i of the linked data, about to be replaced
// by enc.
func (k *keyRecord) pin(i int, key, old string) {
	if i >= k.upto {
		return
	}
	if _, ok := k.m[key]; !ok {
		k.setMap(key, k.r.contents(k.id).kept(old)) // (key is not the reader's)
	}
}

// unlink drops the link, the map taking the linked values, or the record
// emptied and dropped when larger than its limit.
func (k *keyRecord) unlink() {
	r := k.r
	if r == nil {
		return
	}
	if k.limit > 0 && k.n > k.limit {
		k.m, k.n, k.dropped = nil, 0, true
	} else if c := r.contents(k.id); c.list {
		for i := range k.upto {
			if el := c.elem(i); k.linkedElem(c, el, i) {
				k.setMap(el.key, el.cmp) // (the slab's strings stay)
			}
		}
	} else {
		for i := range k.upto {
			if _, ok := k.m[c.entKey(i)]; !ok {
				en := c.entKept(i)
				k.setMap(en.key, en.enc)
			}
		}
		for key, v := range k.m {
			if v == noValue {
				delete(k.m, key)
			}
		}
	}
	k.detach()
}

// linkedElem reports whether el, element i of the linked list c, is
// the one whose value the record holds by the link.
func (k *keyRecord) linkedElem(c *dataContents, el dataElem, i int) bool {
	if !c.holdsValue(el, i) {
		return false
	}
	_, inMap := k.m[el.key]
	return !inMap
}

// detach drops the link, the map left as it is.
func (k *keyRecord) detach() {
	r := k.r
	if r == nil {
		return
	}
	k.r, k.id, k.upto = nil, 0, 0
	for i, l := range r.links {
		if l == k {
			r.links = append(r.links[:i], r.links[i+1:]...)
			break
		}
	}
}

// reset empties the record, unlinked (a large map is dropped, a small
// one kept for reuse).
func (k *keyRecord) reset() {
	k.detach()
	if len(k.m) > keepScratch {
		k.m = nil
	} else {
		clear(k.m)
	}
	k.n = 0
}

// contents returns the reader's data of id (linked records keep it).
func (r *dataReader) contents(id uint64) *dataContents {
	switch id {
	case r.cont.id:
		return &r.cont
	case r.body.cont.id:
		return &r.body.cont
	}
	return &r.cbody.cont
}

// unlinkData unlinks the records linked to the data id, about to be
// dropped.
func (r *dataReader) unlinkData(id uint64) {
	for i := len(r.links) - 1; i >= 0; i-- {
		if id != 0 && i < len(r.links) && r.links[i].id == id {
			r.links[i].unlink()
		}
	}
}

// unlinkAll unlinks every record linked to the reader's data, about to be
// dropped, as the reader starts on message gen, or (ended) is released: a
// record of another message is emptied (see keyRecord).
func (r *dataReader) unlinkAll(gen uint64, ended bool) {
	for len(r.links) > 0 {
		k := r.links[len(r.links)-1]
		if k.perMsg && (ended || k.msg != gen) {
			k.reset()
		} else {
			k.unlink()
		}
	}
}

// pinEntry keeps, in the records linked to c, the value of its entry i
// (key) about to be replaced.
func (r *dataReader) pinEntry(c *dataContents, i int, key, old string) {
	for _, k := range r.links {
		if k.id == c.id {
			k.pin(i, key, old)
		}
	}
}
