package deltaengine

import (
	"bytes"
	"hash/maphash"
	"slices"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// dataEntry is a member of the open data model message's value object:
// its key (quoted) and its value, in buf.
type dataEntry struct{ keyA, keyB, valA, valB int }

// dataEntries yields what the open data model message's value object
// holds that it did not yield yet, as the parser's delta mode does: the
// value as the reference reads it healed at the end of buf (complete: the
// message ended; see dataValue); nothing until it has a member; then the
// value, in canonical form; then each member new or changed since, at its
// own path, sorted by key.
func (k *Engine) dataEntries(complete bool) {
	if k.valueA < 0 {
		return
	}
	v := k.dataValue(complete)
	ents := k.dents[:0]
	for j := 1; j < len(v) && v[j] == '"'; {
		ka := j
		j = jsonwire.StringEnd(v, j+1) + 1
		ve := valueEnd(v, j+1)
		ents = append(ents, dataEntry{ka, j, j + 1, ve})
		if j = ve; v[j] == ',' {
			j++
		}
	}
	k.dents = ents
	if len(ents) == 0 {
		return
	}
	slices.SortFunc(ents, func(a, b dataEntry) int { return bytes.Compare(v[a.keyA:a.keyB], v[b.keyA:b.keyB]) })
	if !k.dataSent || k.progressive && complete {
		k.dataSent = true
		start := len(k.out)
		k.out = k.dataHead(k.out, nil)
		k.out = append(k.out, '{')
		for n, e := range ents {
			if n > 0 {
				k.out = append(k.out, ',')
			}
			k.out = append(k.out, v[e.keyA:e.keyB]...)
			k.out = append(k.out, ':')
			k.putValue(v, e) // (new or not, the whole value carries it)
		}
		k.out = k.dataTail(k.out, '}')
		if h := maphash.Bytes(k.seed, k.out[start:]); k.progressive && h == k.dataLast {
			k.out = k.out[:start] // the message last yielded, again
		} else {
			k.dataLast = h
			k.dataOut(start)
		}
		return
	}
	if k.progressive {
		k.dataChanges(v, ents)
		return
	}
	for _, e := range ents {
		start := len(k.out)
		k.out = k.dataHead(k.out, v[e.keyA+1:e.keyB-1])
		if !k.putValue(v, e) {
			k.out = k.out[:start]
			continue
		}
		k.out = k.dataTail(k.out, 0)
		k.dataOut(start)
	}
}

// dataValue returns the value object of the open v0.9 data model message,
// compact, as the reference reads it (healed at the end of buf, see
// healed, or complete: the message ended), or nil when the message holds
// no value object there.
func (k *Engine) dataValue(complete bool) []byte {
	const at = 3 // the value object's frame in the stack
	if complete || len(k.stack) <= at {
		if e := valueEnd(k.buf, k.valueA); e > 0 && k.valid(k.buf[k.valueA:e]) {
			return k.buf[k.valueA:e]
		}
		return nil
	}
	return k.healed(k.valueA, at)
}

// healed returns the open container at buf[start] (stack[at]), compact, as
// the reference reads it healed at the end of buf: an open string closed
// when it may be cut, open containers closed; where that is no JSON (a key
// or a string that may not be cut still arriving, a cut literal, a
// trailing ','), cut back at the block's last ',' and healed there. It is
// nil when that ',' is before start.
func (k *Engine) healed(start, at int) []byte {
	end, str, cut := k.healEnd()
	b, d := k.heald[:0], len(k.stack)
	if cut {
		if end, d = k.comma, k.commaD; end <= start {
			return nil
		}
	}
	if b = append(b, k.buf[start:end]...); str {
		b = append(b, '"')
	}
	if d <= len(k.stack) {
		for j := d - 1; j >= at; j-- {
			b = append(b, k.stack[j].open+2) // '[' + 2 is ']', '{' + 2 is '}'
		}
	} else {
		b = closeAll(b, k.buf[start:end]) // (containers closed after the ',')
	}
	k.heald = b
	if !k.valid(b) {
		return nil
	}
	return b
}

// closeAll appends to b the closers of the containers open at the end of
// v, compact JSON that starts a value.
func closeAll(b, v []byte) []byte {
	var opens []byte
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '"':
			i = jsonwire.StringEnd(v, i+1)
		case '{', '[':
			opens = append(opens, c)
		case '}', ']':
			opens = opens[:len(opens)-1]
		}
	}
	for j := len(opens) - 1; j >= 0; j-- {
		b = append(b, opens[j]+2)
	}
	return b
}

// putValue appends the value of member e of v in canonical form and
// reports whether it differs from the value last yielded for its key in
// this message, which it records.
func (k *Engine) putValue(v []byte, e dataEntry) bool {
	at := len(k.out)
	k.out, _ = k.cw.canonical(k.out, v[:e.valB], e.valA)
	h := maphash.Bytes(k.seed, k.out[at:])
	key := v[e.keyA:e.keyB]
	if old, ok := k.dataRec[string(key)]; ok && old == h {
		return false
	}
	k.dataRec[string(key)] = h
	return true
}

// dataChanges is the end of dataEntries in progressive mode: the members
// new or changed go out together, as the value of one message at the
// message's path.
func (k *Engine) dataChanges(v []byte, ents []dataEntry) {
	start := len(k.out)
	k.out = k.dataHead(k.out, nil)
	k.out = append(k.out, '{')
	first := len(k.out)
	for _, e := range ents {
		at := len(k.out)
		if at > first {
			k.out = append(k.out, ',')
		}
		k.out = append(k.out, v[e.keyA:e.keyB]...)
		k.out = append(k.out, ':')
		if !k.putValue(v, e) {
			k.out = k.out[:at]
		}
	}
	if len(k.out) == first {
		k.out = k.out[:start]
		return
	}
	k.out = k.dataTail(k.out, '}')
	k.dataLast = maphash.Bytes(k.seed, k.out[start:])
	k.dataOut(start)
}

// dataHead appends the start of an updateDataModel message at the open
// message's path (and at key, a member of its value, when not nil), up to
// its value. With no path, the message has none, and a member's is /key.
func (k *Engine) dataHead(out, key []byte) []byte {
	out = append(out, `{"updateDataModel":{`...)
	var path []byte
	if k.pathA >= 0 {
		path = k.buf[k.pathA:k.pathB]
	}
	if k.pathA >= 0 || key != nil {
		out = append(out, `"path":"`...)
		out = append(out, path...)
		if key != nil {
			if len(path) == 0 || path[len(path)-1] != '/' {
				out = append(out, '/')
			}
			out = append(out, key...)
		}
		out = append(out, `",`...)
	}
	out = append(out, `"surfaceId":"`...)
	out = append(out, k.cur.id...)
	return append(out, `","value":`...)
}

// dataTail appends the end of an updateDataModel message (after c, when
// not 0).
func (k *Engine) dataTail(out []byte, c byte) []byte {
	if c != 0 {
		out = append(out, c)
	}
	out = append(out, `},"version":"`...)
	if k.verA >= 0 {
		out = append(out, k.buf[k.verA:k.verB]...)
	} else {
		out = append(out, k.cur.version...)
	}
	return append(out, `"}`...)
}

// valueEnd is the end of the complete value at src[i] of compact JSON, or
// -1 when src ends in it (a number or literal ends only at what follows
// it).
func valueEnd(src []byte, i int) int {
	depth := 0
	for j := i; j < len(src); j++ {
		switch c := src[j]; c {
		case '"':
			if j = jsonwire.StringEnd(src, j+1); j == len(src) {
				return -1
			}
			if depth == 0 {
				return j + 1
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return j + 1
			}
			if depth < 0 {
				return j
			}
		case ',':
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// data08 yields the open v0.8 data model message (complete: it ended) as
// the reference reads it (healed at the end of buf as healed reads it),
// in canonical form, its data entries pruned (see prune), when it has one
// and differs from what the message last yielded.
func (k *Engine) data08(complete bool) {
	msg := k.buf[k.msgStart:]
	if !complete {
		if msg = k.healed(k.msgStart, 1); msg == nil {
			return
		}
	}
	start := len(k.out)
	k.canon, _ = k.cw.canonical(k.canon[:0], msg, 0)
	k.out = prune(k.out, k.canon, 0, false)
	if !bytes.Contains(k.out[start:], []byte(`"contents":[{`)) {
		k.out = k.out[:start] // no entry yet
		return
	}
	if h := maphash.Bytes(k.seed, k.out[start:]); h != k.dataLast {
		k.dataLast = h
		k.dataOut(start)
	} else {
		k.out = k.out[:start]
	}
}

// prune appends to dst the value at c[i] (compact) without the data
// entries that are not ones yet, as the reference prunes a v0.8 data model
// message it heals: in a list of entries (entries: the value of
// "contents" or "valueMap"), an element that is not an object with a
// "key" and another member.
func prune(dst, c []byte, i int, entries bool) []byte {
	switch c[i] {
	case '{':
		dst = append(dst, '{')
		j, n := i+1, 0
		for c[j] != '}' {
			ka := j
			j = jsonwire.StringEnd(c, j+1) + 1
			if n++; n > 1 {
				dst = append(dst, ',')
			}
			dst = append(dst, c[ka:j+1]...)
			key := string(c[ka+1 : j-1])
			dst = prune(dst, c, j+1, key == "contents" || key == "valueMap")
			if j = valueEnd(c, j+1); c[j] == ',' {
				j++
			}
		}
		return append(dst, '}')
	case '[':
		dst = append(dst, '[')
		j, n := i+1, 0
		for c[j] != ']' {
			e := valueEnd(c, j)
			if !entries || isEntry(c[j:e]) {
				if n++; n > 1 {
					dst = append(dst, ',')
				}
				dst = prune(dst, c, j, false)
			}
			if j = e; c[j] == ',' {
				j++
			}
		}
		return append(dst, ']')
	}
	return append(dst, c[i:valueEnd(c, i)]...)
}

// isEntry reports whether v (compact, canonical) is a data entry: an
// object with a "key" and another member.
func isEntry(v []byte) bool {
	if v[0] != '{' {
		return false
	}
	key, n := false, 0
	each(v, 0, func(k []byte, _ int) {
		key, n = key || string(k) == "key", n+1
	})
	return key && n > 1
}

// dataOut yields the data model message at out[start:], unless it does not
// pass the catalog (then it is dropped, as the parser drops it).
func (k *Engine) dataOut(start int) {
	if k.cat != nil && !k.verdict(k.out[start:]) {
		k.out = k.out[:start]
		return
	}
	k.offs = append(k.offs, start, len(k.out))
}
