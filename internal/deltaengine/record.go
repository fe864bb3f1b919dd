package deltaengine

import (
	"bytes"
	"hash/maphash"
	"slices"
	"unsafe"
)

// The records of yielded data (the parser's dataYielded): per slot, a
// surface and a path, the hash of the value last yielded under each key.
// Progressive mode keeps them for the stream, as the reference does: a
// data model message still arriving yields only what differs from them,
// and a complete one whose members all equal them is not yielded again.
// Delta mode reduces a message against itself only.

// dataRecord is the record of yielded data of one slot: the hash of the
// value last yielded under each key (its token, quoted).
type dataRecord struct {
	slot string   // the surface's text, a NUL, the path's (see slotTok)
	msg  uint32   // delta mode: the message it is of (msgGen)
	vals hashVals // key token's hash (keyHash) -> value's
}

// of reports whether r is of surface sid (with path: and of path).
func (r *dataRecord) of(sid, path []byte, withPath bool) bool {
	n := len(sid)
	return len(r.slot) > n && r.slot[:n] == string(sid) && r.slot[n] == 0 && (!withPath || r.slot[n+1:] == string(path))
}

// unchanged reports whether r holds the value of hash h under the key of
// hash kh; an absent key counts as null (null: the value is).
func (r *dataRecord) unchanged(kh, h uint64, null bool) bool {
	old, ok := r.vals.get(kh)
	return ok && old == h || !ok && null
}

// recordAll is the parser's de-duplication of a complete message's entries
// kv (key tokens and values, canonical; of a key given twice, a later
// entry wins, as sorted): it records those that differ from rec and
// reports whether one did (changed) and whether one differs where an
// absent key counts as null (isNew: the message is new).
func (k *Engine) recordAll(rec *dataRecord, kv []keyVal) (isNew, changed bool) {
	for i, e := range kv {
		if i+1 < len(kv) && bytes.Equal(kv[i+1].key, e.key) {
			continue
		}
		h, kh := maphash.Bytes(k.seed, e.val), k.keyHash(e.key)
		if old, ok := rec.vals.get(kh); !ok || old != h {
			isNew = isNew || ok || string(e.val) != "null"
			changed = true
			rec.vals.set(kh, h)
		}
	}
	return isNew, changed
}

// hashVals maps hashes of keys to hashes of values: in a list while it
// holds a few (as a record of one surface's data does: a map costs more),
// in a map past fewVals.
type hashVals struct {
	few  []hashPair
	many map[uint64]uint64
}

// hashPair is a key's hash and its value's.
type hashPair struct{ key, val uint64 }

const fewVals = 16

func (v *hashVals) get(key uint64) (uint64, bool) {
	if v.many != nil {
		x, ok := v.many[key]
		return x, ok
	}
	for _, p := range v.few {
		if p.key == key {
			return p.val, true
		}
	}
	return 0, false
}

func (v *hashVals) set(key, val uint64) {
	if v.many != nil {
		v.many[key] = val
		return
	}
	for i := range v.few {
		if v.few[i].key == key {
			v.few[i].val = val
			return
		}
	}
	if len(v.few) < fewVals {
		v.few = append(v.few, hashPair{key, val})
		return
	}
	v.many = make(map[uint64]uint64, 2*fewVals)
	for _, p := range v.few {
		v.many[p.key] = p.val
	}
	v.many[key] = val
	v.few = nil
}

func (v *hashVals) len() int {
	if v.many != nil {
		return len(v.many)
	}
	return len(v.few)
}

// record returns the record of slot (sid, path): tokens as the canonical
// message holds them.
func (k *Engine) record(sid, path []byte) *dataRecord {
	// The records used last are at the end: the sniffs of a message find
	// theirs at once.
	for i := len(k.records) - 1; i >= 0; i-- {
		r := k.records[i]
		if !r.of(sid, path, true) {
			continue
		}
		if last := len(k.records) - 1; i < last {
			copy(k.records[i:], k.records[i+1:])
			k.records[last] = r
		}
		switch {
		case !k.progressive && r.msg != k.msgGen:
			// Delta mode reduces a message against itself only: the
			// record starts afresh with each message, as the parser's.
			r.vals, r.msg = hashVals{}, k.msgGen
		case k.maxComps > 0 && r.vals.len() > k.maxComps:
			r.vals = hashVals{} // past the bound: afresh
		}
		return r
	}
	n := 0
	for _, r := range k.records {
		if r.of(sid, nil, false) {
			n++
		}
	}
	if k.maxComps > 0 && n >= k.maxComps {
		k.forgetData(string(sid))
	}
	r := &dataRecord{slot: string(sid) + "\x00" + string(path), msg: k.msgGen}
	k.records = append(k.records, r)
	return r
}

// forgetData drops the records of surface sid (its token's text).
func (k *Engine) forgetData(sid string) {
	k.records = slices.DeleteFunc(k.records, func(r *dataRecord) bool {
		return r.of(unsafe.Slice(unsafe.StringData(sid), len(sid)), nil, false)
	})
}

// slotTok is the token at c[v] (-1: none) as a record's slot names it,
// without its quotes: the parser's slot holds a surface or path that is a
// string, and none (the empty string) for any other value; nil for none
// and for "".
func slotTok(c []byte, v int) []byte {
	if v < 0 || v >= len(c) || c[v] != '"' || c[v+1] == '"' {
		return nil
	}
	return c[v+1 : valueEnd(c, v)-1]
}

// keyHash is the hash a record keeps a key token under.
func (k *Engine) keyHash(tok []byte) uint64 { return maphash.Bytes(k.seed, tok) }

// sniff09 is dataEntries in progressive mode, while the message arrives:
// its members (from the first that is not final on, see dataFrom) whose
// value differs from the record of the message's slot go out together, as
// the value of one message at the message's path, and are recorded; so
// are, as the parser's de-duplication records a yield, the message's value
// (the members it yields) and its path, under the keys "value" and "path".
// A member named so is thus read again at each heal (see advance).
func (k *Engine) sniff09() {
	v, n := k.dataValue(k.dataFrom, false)
	ents := k.members(v, n)
	if len(ents) == 0 {
		return
	}
	// What it read is compared only when it changed since the last heal,
	// or its slot did (the parser's reader checks its entries then only:
	// a member named "value" or "path" that the record's own ones changed
	// under waits for that).
	// (openAt and openHash, of delta mode's open member, hold them.)
	h := maphash.Bytes(k.seed, v)
	if k.dataFrom == k.openAt && h == k.openHash {
		return
	}
	k.openAt, k.openHash = k.dataFrom, h
	base := k.dataFrom
	k.advance(v, base, ents)
	ents = k.byKey(v, ents)
	rec := k.record(k.sniffSlot())
	start := len(k.out)
	k.out = append(k.dataHead(k.out, nil), '{')
	first := len(k.out)
	valueNamed, pathNamed := false, false // (a member so named changed)
	for _, e := range ents {
		at := len(k.out)
		if at > first {
			k.out = append(k.out, ',')
		}
		kt := len(k.out)
		k.out = k.keyTok(k.out, v[e.keyA:e.keyB])
		kh := k.keyHash(k.out[kt:])
		k.out = append(k.out, ':')
		va := len(k.out)
		k.out, _ = k.cw.canonical(k.out, v[:e.valB], e.valA)
		h := maphash.Bytes(k.seed, k.out[va:])
		if rec.unchanged(kh, h, string(k.out[va:]) == "null") {
			k.out = k.out[:at]
			continue
		}
		rec.vals.set(kh, h)
		switch string(k.out[kt : va-1]) {
		case `"value"`:
			valueNamed = true
		case `"path"`:
			pathNamed = true
		}
	}
	if len(k.out) == first {
		k.out = k.out[:start]
		return
	}
	k.out = append(k.out, '}')
	// The message's value and path are recorded before its members: a
	// member so named wins.
	if !valueNamed {
		rec.vals.set(maphash.String(k.seed, `"value"`), maphash.Bytes(k.seed, k.out[first-1:]))
	}
	if k.pathA >= 0 && !pathNamed {
		rec.vals.set(maphash.String(k.seed, `"path"`), maphash.Bytes(k.seed, k.pathTok()))
	}
	k.out = k.dataTail(k.out, 0)
	k.dataSent = true
	k.dataOut(start)
}

// sniffSlot is the slot of the open v0.9 data model message while it
// arrives: the surface it is yielded under (see dataHead), its path.
func (k *Engine) sniffSlot() (sid, path []byte) {
	id := "default"
	if k.cur != nil {
		id = k.cur.id
	}
	if k.pathA >= 0 && k.pathB > k.pathA {
		t := k.pathTok()
		path = t[1 : len(t)-1]
	}
	return unsafe.Slice(unsafe.StringData(id), len(id)), path // (read only)
}

// pathTok is the open v0.9 data model message's path (pathA >= 0), its
// token in canonical form.
func (k *Engine) pathTok() []byte {
	t := k.buf[k.pathA-1 : k.pathB+1]
	if bytes.IndexByte(t, '\\') < 0 && !hasLineSep(t) {
		return t
	}
	r := k.rare()
	r.path = k.keyTok(r.path[:0], t)
	return r.path
}

// keyTok appends the key token tok (quoted) in canonical form.
func (k *Engine) keyTok(dst, tok []byte) []byte {
	if bytes.IndexByte(tok, '\\') < 0 && !hasLineSep(tok) {
		return append(dst, tok...)
	}
	dst, _ = k.cw.canonical(dst, tok, 0)
	return dst
}

// dedupe09 is the parser's de-duplication of the complete v0.9 data model
// message c (canonical), in progressive mode: it reports whether a member
// of its body but surfaceId and root differs from the record of its slot
// (an absent one counting as null), recording them.
func (k *Engine) dedupe09(c []byte) bool {
	r := k.rare()
	body := valueOf(c, 0, "updateDataModel")
	if body < 0 || c[body] != '{' {
		return true
	}
	sid, path := -1, -1
	kv := r.kv[:0]
	each(c, body, func(key []byte, v int) {
		switch string(key) {
		case "surfaceId":
			sid = v
			return
		case "root":
			return
		case "path":
			path = v
		}
		kv = append(kv, keyVal{c[v-3-len(key) : v-1], c[v:valueEnd(c, v)]})
	})
	r.kv = kv[:0]
	isNew, _ := k.recordAll(k.record(slotTok(c, sid), slotTok(c, path)), kv)
	return isNew
}
