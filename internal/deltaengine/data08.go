package deltaengine

import (
	"bytes"
	"hash/maphash"
	"slices"
	"unsafe"
)

// A v0.8 data model message (dataModelUpdate), read as the reference
// reads it. Its contents are a list of entries ({"key": ..., "valueString":
// ...}); the reference flattens them into a map (contentsToDict: the last
// entry of a key with a value wins, a valueMap flattened in turn) and
// yields the message while it arrives only when a key's value differs from
// what the stream's record of yielded data holds for the message's slot
// (its surface and path). What it yields is rebuilt: the last entry of each
// key, pruned (pruneEntries: an entry needs a key and a value), its path
// and surface. A complete message is yielded whole unless every entry it
// holds was yielded already (dedupeEncoded; delta mode yields it reduced
// to what changed since the message's last yield).

// entry08 is an entry of a v0.8 contents list: its key token, its value
// as contentsToDict flattens it and the entry pruned, each a span of the
// message or (the flags) of the scratch e08buf (int32: a large list has
// many).
type entry08 struct {
	keyA, keyB, valA, valB, prunA, prunB int32 // (valA, prunA < 0: none)
	keyBuf, valBuf, prunBuf              bool
	win, emit                            bool // the entry its key's value is read from; the entry yielded for its key
}

// data08 yields the open v0.8 data model message (complete: it ended), as
// the reference does (see above).
func (k *Engine) data08(complete bool) {
	msg, real := k.buf[k.msgStart:], 0
	if !complete {
		if msg, real = k.healed(k.msgStart, 1); msg == nil || !k.valid(msg) {
			return
		}
	}
	r := k.rare()
	defer r.drop08()
	if complete {
		// Read where it is yielded from (a large message is not copied
		// once more).
		start := len(k.out)
		k.out, _ = k.cw.canonical(k.out, msg, 0)
		c := k.out[start:]
		body := valueOf(c, 0, "dataModelUpdate")
		if body < 0 || c[body] != '{' {
			k.offs = append(k.offs, start, len(k.out)) // (as the parser: whole)
			return
		}
		// (Its record is of the surface it names, none when it names
		// none, as the parser's.)
		b := readBody08(c, body)
		k.complete08(start, b, slotTok(c, b.sid))
		return
	}
	// Read as it is (compact; its members in any order): each entry, and
	// the path, in canonical form.
	c := msg
	body := valueOf(c, 0, "dataModelUpdate")
	if body < 0 || c[body] != '{' {
		return
	}
	b := k.openBody08(c, body, real)
	sid, path, contents := k.sid08(c, b.sid), b.path, b.contents
	if contents < 0 {
		return
	}
	var pathTok []byte // (nil: none)
	if path >= 0 {
		r.path, _ = k.cw.canonical(r.path[:0], c, path)
		pathTok = r.path
	}
	rec := k.record(sid[1:len(sid)-1], slotTok(pathTok, 0))
	start := len(k.out)
	k.out = append(k.out, `{"dataModelUpdate":{"contents":`...)
	switch c[contents] {
	case '[':
		if !k.sniffList(c, contents, real, rec) {
			k.out = k.out[:start]
			return
		}
	case '{':
		r.msg08, _ = k.cw.canonical(r.msg08[:0], c, contents)
		if !k.sniffObject(r.msg08, 0, rec) {
			k.out = k.out[:start]
			return
		}
		if !k.progressive && k.dataSent && k.dataRec == rec {
			// Delta mode: the entries cannot be addressed one by one;
			// all of the message's so far, when one changed (those its
			// record holds: not one null from the start).
			k.out = append(k.out[:start+len(`{"dataModelUpdate":{"contents":`)], '{')
			n, c := 0, r.msg08
			each(c, 0, func(key []byte, v int) {
				tok := c[v-3-len(key) : v-1]
				if _, ok := rec.vals.get(k.keyHash(tok)); !ok {
					return
				}
				if n++; n > 1 {
					k.out = append(k.out, ',')
				}
				k.out = append(append(append(k.out, tok...), ':'), c[v:valueEnd(c, v)]...)
			})
			k.out = append(k.out, '}')
		}
	default:
		k.out = k.out[:start]
		return
	}
	if pathTok != nil {
		k.out = append(k.out, `,"path":`...)
		k.out = append(k.out, pathTok...)
	}
	k.out = append(k.out, `,"surfaceId":`...)
	k.out = append(k.out, sid...)
	k.out = append(k.out, "}}"...)
	k.yield08(start, rec)
}

// drop08 lets go of the scratch of a large v0.8 data model message, which
// would otherwise stay as large as the message while the block goes on.
func (r *rareScratch) drop08() {
	const large = 64 << 10
	if cap(r.heald)+cap(r.msg08)+cap(r.e08buf)+cap(r.flat) > large || cap(r.els)*int(unsafe.Sizeof(entry08{}))+cap(r.order)*4+cap(r.kv)*48 > large {
		r.heald, r.msg08, r.e08buf, r.flat, r.els, r.order, r.kv = nil, nil, nil, nil, nil, nil, nil
		r.read08 = read08{}
	}
}

// body08 is where the members of a v0.8 data model message's body that it
// reads are (-1: not there), read in one pass (each search of a member
// would skip its contents, as large as the message).
type body08 struct{ sid, path, contents int }

func readBody08(c []byte, body int) body08 {
	b := body08{-1, -1, -1}
	each(c, body, func(key []byte, v int) {
		switch string(key) { // (a member given twice: the last wins, as decoding reads it)
		case "surfaceId":
			b.sid = v
		case "path":
			b.path = v
		case "contents":
			b.contents = v
		}
	})
	return b
}

// openBody08 is readBody08 for the open message's body at c[body] (c:
// from buf[msgStart], its first real bytes buf's, the rest healed): while
// the contents list of the last read is still open in the scanner
// (stack[3]), and c holds its '[' (a heal may cut back before it), no
// member has come after it, so that the members read then stand and the
// list is not skipped again.
func (k *Engine) openBody08(c []byte, body, real int) body08 {
	r := k.rare()
	if b := r.body08; r.body08Msg == k.msgGen && b.contents >= 0 && b.contents < real && len(k.stack) > 3 &&
		k.stack[2].start == k.msgStart+body && k.stack[3].open == '[' && k.stack[3].start == k.msgStart+b.contents {
		return b
	}
	b := readBody08(c, body)
	r.body08, r.body08Msg = b, k.msgGen
	return b
}

// sid08 is the surface of the v0.8 data model message c whose surfaceId
// is at c[v] (-1: none): its token in canonical form, else "default" (the
// parser's current surface is the one its message names; an empty id is
// none, as the reference's surfaceId or "default").
func (k *Engine) sid08(c []byte, v int) []byte {
	if v >= 0 && c[v] == '"' && c[v+1] != '"' {
		r := k.rare()
		r.sid, _ = k.cw.canonical(r.sid[:0], c, v)
		return r.sid
	}
	return []byte(`"default"`)
}

// yield08 yields the message at out[start:], of record rec (nil: the
// complete message): in delta mode, not when it is the message's last
// yield again.
func (k *Engine) yield08(start int, rec *dataRecord) {
	h := maphash.Bytes(k.seed, k.out[start:])
	if !k.progressive && k.dataSent && h == k.dataLast {
		k.out = k.out[:start]
		return
	}
	n := len(k.offs)
	k.dataOut(start)
	if len(k.offs) > n {
		k.dataSent, k.dataLast, k.dataRec = true, h, rec
	}
}

// read08 is what the last sniff of the open v0.8 data model message (msg,
// its msgGen) read of its contents list at l that its next sniff reads the
// same: its elements that ended in the block's bytes (not healed), up to
// next, read into els[:n] and e08buf[:b]. The message's healed bytes up to
// there stay as they are while it arrives (its block's bytes only grow),
// so that a sniff reads each element once, not once a chunk.
type read08 struct {
	msg           uint32
	l, next, n, b int
}

// sniffList appends the contents list at c[l] (compact JSON; its first
// real bytes are the block's, the rest healed) as the reference yields it
// while it arrives, and reports whether a key's value differs from rec
// (which then records them all): else nothing is to be yielded. Each entry
// is read in canonical form: in place when it is (as models write them),
// else in the scratch e08buf.
func (k *Engine) sniffList(c []byte, l, real int, rec *dataRecord) bool {
	r := k.rare()
	els, b, from := r.els[:0], r.e08buf[:0], l+1
	if rd := r.read08; rd.msg == k.msgGen && rd.l == l && rd.next <= real {
		// (A heal cut back at a ',' may leave out bytes it read: then
		// it reads them all again.)
		els, b, from = r.els[:rd.n], r.e08buf[:rd.b], rd.next
		for i := range els {
			els[i].win, els[i].emit = false, false
		}
	}
	r.read08 = read08{msg: k.msgGen, l: l, next: from, n: len(els), b: len(b)}
	elementsFrom(c, from, func(v, end int) {
		els, b = k.entry08At(c, v, end, els, b)
		if end < real && c[end] == ',' {
			// It and the ',' after it are the block's bytes: a later
			// sniff keeps what it read.
			r.read08.next, r.read08.n, r.read08.b = end+1, len(els), len(b)
		}
	})
	r.e08buf = b
	span := func(buf bool, a, z int32) []byte {
		if buf {
			return b[a:z]
		}
		return c[a:z]
	}
	// contentsToDict and latestEntries: by key, in list order.
	order := r.order[:0]
	for i := range els {
		order = append(order, int32(i))
	}
	key := func(i int32) []byte { return span(els[i].keyBuf, els[i].keyA, els[i].keyB) }
	slices.SortStableFunc(order, func(x, y int32) int { return bytes.Compare(key(x), key(y)) })
	changed := false
	for i := 0; i < len(order); {
		j := i
		for j < len(order) && bytes.Equal(key(order[j]), key(order[i])) {
			j++
		}
		if len(key(order[i])) > 0 {
			for w := j - 1; w >= i; w-- {
				if e := &els[order[w]]; e.valA >= 0 {
					e.win, els[order[j-1]].emit = true, true
					if h, ok := rec.vals.get(k.keyHash(key(order[w]))); !ok || h != maphash.Bytes(k.seed, span(e.valBuf, e.valA, e.valB)) {
						changed = true
					}
					break
				}
			}
		}
		i = j
	}
	r.order = order[:0]
	if changed {
		for i, e := range els {
			if e.win {
				rec.vals.set(k.keyHash(key(int32(i))), maphash.Bytes(k.seed, span(e.valBuf, e.valA, e.valB)))
			}
		}
		k.out = append(k.out, '[')
		n := 0
		for _, e := range els {
			if e.emit && e.prunA >= 0 {
				if n > 0 {
					k.out = append(k.out, ',')
				}
				k.out = append(k.out, span(e.prunBuf, e.prunA, e.prunB)...)
				n++
			}
		}
		k.out = append(k.out, ']')
	}
	r.els = els // (kept: see read08)
	return changed
}

// entry08At appends to els the entry of a v0.8 contents list at c[v:end]
// (skipping an element that is no object), read in canonical form: in
// place when it is, else in the scratch b (see sniffList).
func (k *Engine) entry08At(c []byte, v, end int, els []entry08, b []byte) ([]entry08, []byte) {
	if c[v] != '{' {
		return els, b
	}
	if e, ok := plainEntry(c, v, end, false); ok {
		els = append(els, e)
		return els, b
	}
	// el, its canonical form, at o in c or (inBuf) in b.
	a := len(b)
	b, _ = k.cw.canonical(b, c, v)
	el, o, inBuf := c[v:end], v, false
	if bytes.Equal(b[a:], el) {
		b = b[:a]
	} else {
		el, o, inBuf = b[a:], a, true
	}
	e, ok := plainEntry(el, 0, len(el), true)
	if ok {
		// Its spans shifted to where el is.
		e.keyA, e.keyB, e.keyBuf = e.keyA+int32(o), e.keyB+int32(o), inBuf
		if e.valA >= 0 {
			e.valA, e.valB, e.valBuf = e.valA+int32(o), e.valB+int32(o), inBuf
		}
		if e.prunA >= 0 {
			e.prunA, e.prunB, e.prunBuf = e.prunA+int32(o), e.prunB+int32(o), inBuf
		}
		els = append(els, e)
		return els, b
	}
	// A valueMap: its value flattened, the entry pruned, in b.
	e = entry08{valA: -1, prunA: -1}
	if kv := valueOf(el, 0, "key"); kv >= 0 && el[kv] == '"' && valueEnd(el, kv) > kv+2 {
		e.keyA, e.keyB, e.keyBuf = int32(o+kv), int32(o+valueEnd(el, kv)), inBuf
	}
	at := len(b)
	if b, ok = k.entryValue(b, el, 0); ok {
		e.valA, e.valB, e.valBuf = int32(at), int32(len(b)), true
	}
	at = len(b)
	if b, ok = PrunedEntry(b, el, 0); ok {
		e.prunA, e.prunB, e.prunBuf = int32(at), int32(len(b)), true
	}
	els = append(els, e)
	return els, b
}

// sniffObject appends the members of the contents object at c[o] whose
// value differs from rec (recording them), and reports whether one does.
func (k *Engine) sniffObject(c []byte, o int, rec *dataRecord) bool {
	k.out = append(k.out, '{')
	n := 0
	each(c, o, func(key []byte, v int) {
		tok := c[v-3-len(key) : v-1]
		val := c[v:valueEnd(c, v)]
		h, kh := maphash.Bytes(k.seed, val), k.keyHash(tok)
		if rec.unchanged(kh, h, string(val) == "null") {
			return
		}
		rec.vals.set(kh, h)
		if n > 0 {
			k.out = append(k.out, ',')
		}
		k.out = append(append(append(k.out, tok...), ':'), val...)
		n++
	})
	k.out = append(k.out, '}')
	return n > 0
}

// complete08 yields the complete v0.8 data model message out[start:]
// (canonical; its body read into b, the surfaceId it names) as the reference
// does: whole, unless every entry it holds was yielded already (then
// progressive mode skips it, and delta mode yields its contents pruned,
// when they differ from the message's last yield).
func (k *Engine) complete08(start int, b body08, sid []byte) {
	c := k.out[start:]
	if sid != nil && k.deleted.has(string(sid)) {
		k.out = k.out[:start]
		return // (a message of a v0.8 surface deleted and not begun again)
	}
	isNew, changed := k.dedupe08(c, b, sid)
	switch contents := b.contents; {
	case isNew:
	case k.progressive:
		k.out = k.out[:start]
		return
	case contents >= 0 && c[contents] == '{':
		// Delta mode: the message's entries were all yielded, and so
		// was the message at this slot (a sniff's slot is the surface
		// "default" when it names none).
		if !changed && k.dataSent && k.dataRec != nil && k.dataRec.of(sid, slotTok(c, b.path), true) {
			k.out = k.out[:start]
			return
		}
	case contents >= 0 && c[contents] == '[':
		r := k.rare()
		p := append(r.msg08[:0], c[:contents]...)
		p, _ = PrunedList(p, c, contents)
		r.msg08 = append(p, c[valueEnd(c, contents):]...)
		k.out = append(k.out[:start], r.msg08...)
	}
	if k.progressive {
		k.dataOut(start)
		return
	}
	k.yield08(start, nil)
}

// dedupe08 is the reference's de-duplication of the complete message c:
// it reports whether an entry's value differs from the record of the
// message's slot, recording them. A list's entries are read by their first
// non-null valueString, valueNumber, valueBoolean or valueMap (as it is),
// an object's members as they are; with none, the message is new. changed
// reports whether one differs where a null the record lacks counts too
// (delta mode's reading).
func (k *Engine) dedupe08(c []byte, b body08, sid []byte) (isNew, changed bool) {
	contents := b.contents
	if contents < 0 {
		return true, true
	}
	r := k.rare()
	kv := r.kv[:0]
	switch c[contents] {
	case '[':
		elements(c, contents, func(v int) {
			if c[v] != '{' {
				return
			}
			// (One pass over its members.)
			key, vals := -1, [4]int{-1, -1, -1, -1} // valueString, valueNumber, valueBoolean, valueMap
			each(c, v, func(name []byte, x int) {
				i := -1
				switch string(name) {
				case "key":
					if key < 0 {
						key = x
					}
				case "valueString":
					i = 0
				case "valueNumber":
					i = 1
				case "valueBoolean":
					i = 2
				case "valueMap":
					i = 3
				}
				if i >= 0 && vals[i] < 0 {
					vals[i] = x
				}
			})
			if key < 0 || c[key] != '"' || valueEnd(c, key) <= key+2 {
				return
			}
			for _, x := range vals {
				if x >= 0 && !bytes.HasPrefix(c[x:], []byte("null")) {
					kv = append(kv, keyVal{c[key:valueEnd(c, key)], c[x:valueEnd(c, x)]})
					return
				}
			}
		})
	case '{':
		each(c, contents, func(key []byte, v int) {
			kv = append(kv, keyVal{c[v-3-len(key) : v-1], c[v:valueEnd(c, v)]})
		})
	}
	r.kv = kv[:0]
	if len(kv) == 0 {
		return true, true
	}
	slices.SortStableFunc(kv, func(x, y keyVal) int { return bytes.Compare(x.key, y.key) })
	return k.recordAll(k.record(sid, slotTok(c, b.path)), kv)
}

// keyVal is a key token and its value, in a canonical message.
type keyVal struct{ key, val []byte }
