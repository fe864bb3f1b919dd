package deltaengine

import (
	"bytes"
	"hash/maphash"
	"slices"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// dataEntry is a member of the open data model message's value object:
// its key (quoted) and its value, in the text it was read from; final: a
// ',' follows it in buf (it changes no more).
type dataEntry struct {
	keyA, keyB, valA, valB int
	final                  bool
}

// opened is the open member a round of dataEntries began with: where it
// starts in buf (-1: none) and the hash of its value last yielded.
type opened struct {
	at   int
	hash uint64
}

// dataEntries yields what the open v0.9 data model message's value object
// holds that it did not yield yet, as the parser's delta mode does, read
// as the reference reads it healed at the end of buf (or complete: the
// message ended; see dataValue): nothing until it has a member; then the
// whole value, in canonical form; then each member new or changed since,
// at its own path, sorted by key. Progressive mode reads the message
// against the record of yielded data instead (sniff09, record.go).
//
// Only the members from the first that is not final on are read again
// (dataFrom): a final member was yielded when it arrived, and only the
// last member, open, is compared with what it last yielded (openAt,
// openHash). Healing a large value thus reads what arrived since, and
// holds no record per key.
func (k *Engine) dataEntries(complete bool) {
	if k.valueA < 0 {
		return
	}
	if k.progressive && !complete {
		k.sniff09()
		return
	}
	if !k.dataSent {
		k.dataWhole(complete)
		return
	}
	v, n := k.dataValue(k.dataFrom, complete)
	ents := k.members(v, n)
	if len(ents) == 0 {
		if complete {
			k.yieldNulls()
		}
		return
	}
	base, prev := k.dataFrom, opened{k.openAt, k.openHash}
	k.advance(v, base, ents)
	ents = k.byKey(v, ents)
	first, offs := len(k.out), len(k.offs)
	var judged []memberSpan
	if k.cat != nil {
		judged = k.rare().spans[:0]
	}
	var keys []nullKey // complete: the key of each yield, in buf
	for _, e := range ents {
		start := len(k.out)
		k.out = k.dataHead(k.out, v[e.keyA+1:e.keyB-1])
		at := len(k.out)
		if !k.putValue(v, base, e, prev) {
			k.out = k.out[:start]
			continue
		}
		if e.keyB-e.keyA == 2 {
			// The empty key has no path of its own ("/" is the whole
			// data model): the whole value so far, at the message's
			// path, as the parser yields it.
			k.out, k.offs, k.dataSent = k.out[:first], k.offs[:offs], false
			k.dataWhole(complete)
			return
		}
		if k.cat != nil {
			judged = append(judged, memberSpan{e.keyA, e.keyB, at, len(k.out)})
		}
		k.out = k.dataTail(k.out, 0)
		k.offs = append(k.offs, start, len(k.out))
		k.dropNull(v[e.keyA:e.keyB])
		if complete {
			keys = append(keys, nullKey{base + e.keyA, base + e.keyB})
		}
	}
	if complete && k.rx != nil && len(k.rx.nulls) > 0 {
		// The members null from the start go out with the changes, all
		// in key order, as the parser yields a message's changes.
		keys = append(keys, k.rx.nulls...)
		k.yieldNulls()
		k.sortYields(offs, keys)
	}
	if k.cat != nil {
		k.rare().spans = judged
		if len(judged) > 0 && !k.changesPass(v, judged) {
			k.out, k.offs = k.out[:first], k.offs[:offs]
		}
	}
}

// dataSlotNamed is called when the open v0.9 data model message names its
// surface or its path: when its value was yielded already, under the
// surface and path read so far, it is yielded whole again under the new
// ones, as the parser yields it (its record of the new slot is empty).
func (k *Engine) dataSlotNamed() {
	switch {
	case k.msgKind != kData:
	case k.progressive && k.valueA >= 0:
		k.dataFrom, k.openAt = k.valueA+1, -1 // (its members compared with the new slot's record)
	case k.dataSent:
		k.dataSent, k.openAt = false, -1
	}
}

// byKey sorts the members ents of v by key, a key given twice keeping its
// last member only (as decoding the value does).
func (k *Engine) byKey(v []byte, ents []dataEntry) []dataEntry {
	slices.SortStableFunc(ents, func(a, b dataEntry) int { return k.cw.compareKeys(v[a.keyA:a.keyB], v[b.keyA:b.keyB]) })
	n := 0
	for i, e := range ents {
		if i+1 < len(ents) && k.cw.compareKeys(v[e.keyA:e.keyB], v[ents[i+1].keyA:ents[i+1].keyB]) == 0 {
			continue
		}
		ents[n], n = e, n+1
	}
	return ents[:n]
}

// nullKey is a member of the open v0.9 data model message null from the
// start: its key (quoted) at buf[a:b], yielded in delta mode when the
// message ends (see putValue). The list is emptied when a message opens.
type nullKey struct{ a, b int }

// addNull records the member whose key is at buf[a:b] as null from the
// start.
func (k *Engine) addNull(a, b int) {
	r := k.rare()
	for _, x := range r.nulls {
		if x.a == a {
			return // (read again: the last member, open)
		}
	}
	r.nulls = append(r.nulls, nullKey{a, b})
}

// yieldNulls yields the members null from the start of the message that
// ended, as the parser yields them then in delta mode (see putValue).
func (k *Engine) yieldNulls() {
	if k.rx == nil {
		return
	}
	for _, nk := range k.rx.nulls {
		start := len(k.out)
		k.out = k.dataHead(k.out, k.buf[nk.a+1:nk.b-1])
		k.out = k.dataTail(append(k.out, "null"...), 0)
		k.offs = append(k.offs, start, len(k.out))
	}
	k.rx.nulls = k.rx.nulls[:0]
}

// sortYields sorts the yields of out from offs[from] on by their keys
// (in buf, one per yield).
func (k *Engine) sortYields(from int, keys []nullKey) {
	type yield struct {
		key  nullKey
		a, b int
	}
	ys := make([]yield, len(keys))
	for i := range ys {
		ys[i] = yield{keys[i], k.offs[from+2*i], k.offs[from+2*i+1]}
	}
	slices.SortStableFunc(ys, func(x, y yield) int {
		return k.cw.compareKeys(k.buf[x.key.a:x.key.b], k.buf[y.key.a:y.key.b])
	})
	for i, y := range ys {
		k.offs[from+2*i], k.offs[from+2*i+1] = y.a, y.b
	}
}

// dropNull forgets a member null from the start whose key (quoted) is key:
// a later member of its key was yielded.
func (k *Engine) dropNull(key []byte) {
	if k.rx == nil || len(k.rx.nulls) == 0 {
		return
	}
	k.rx.nulls = slices.DeleteFunc(k.rx.nulls, func(x nullKey) bool { return k.cw.compareKeys(k.buf[x.a:x.b], key) == 0 })
}

// memberSpan is a member delta mode yields: its key (quoted) in the text
// it was read from, its value in out.
type memberSpan struct{ keyA, keyB, valA, valB int }

// changesPass reports whether the members delta mode yields (ms: their
// keys in v, their values in out) pass the catalog as the parser judges
// them before it splits them: together, as the value of one message at
// the message's path.
func (k *Engine) changesPass(v []byte, ms []memberSpan) bool {
	r := k.rare()
	b := k.dataHead(r.cbuf[:0], nil)
	b = append(b, '{')
	for i, m := range ms {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, v[m.keyA:m.keyB]...)
		b = append(b, ':')
		b = append(b, k.out[m.valA:m.valB]...)
	}
	r.cbuf = k.dataTail(b, '}')
	return k.verdict(r.cbuf)
}

// dataWhole yields the whole value of the open v0.9 data model message
// (see dataEntries), once it has a member: its first yield in delta mode.
func (k *Engine) dataWhole(complete bool) {
	v, n := k.dataValue(k.valueA+1, complete)
	ents := k.members(v, n)
	if len(ents) == 0 {
		if complete && v != nil {
			// An empty value, complete: yielded as it is.
			k.dataSent = true
			start := len(k.out)
			k.out = k.dataTail(append(k.dataHead(k.out, nil), '{'), '}')
			k.dataOut(start)
		}
		return
	}
	base := k.valueA + 1
	k.openAt = -1
	k.advance(v, base, ents)
	ents = k.byKey(v, ents)
	if start := k.valueMessage(v, base, ents, complete); start >= 0 {
		k.dataSent = true // (not while its members are null from the start: the first yield is whole)
		k.dataOut(start)
	}
}

// members lists the members of v, the members of a value object from one
// on (then its closing brace): the ones followed by a ',' in v[:n] (buf's
// bytes) are final.
func (k *Engine) members(v []byte, n int) []dataEntry {
	ents := k.dents[:0]
	for j := 0; j < len(v) && v[j] == '"'; {
		ka := j
		j = jsonwire.StringEnd(v, j+1) + 1
		ve := valueEnd(v, j+1)
		e := dataEntry{ka, j, j + 1, ve, ve < n && v[ve] == ','}
		ents = append(ents, e)
		if j = ve; v[j] == ',' {
			j++
		}
	}
	k.dents = ents
	return ents
}

// advance moves dataFrom past the final members of ents (read from v,
// which starts at buf[base]), in stream order.
func (k *Engine) advance(v []byte, base int, ents []dataEntry) {
	for _, e := range ents {
		if k.progressive && (string(v[e.keyA:e.keyB]) == `"value"` || string(v[e.keyA:e.keyB]) == `"path"`) {
			return // (compared at every heal: see sniff09)
		}
		if e.final {
			k.dataFrom = base + e.valB + 1
		}
	}
}

// dataValue returns the members of the open v0.9 data model message's
// value object from buf[from] on, then its closing brace, as the reference
// reads them (healed at the end of buf, see healed, or complete: the
// message ended), and how many of its bytes are buf's. It is nil when
// there are none.
func (k *Engine) dataValue(from int, complete bool) ([]byte, int) {
	const at = 3 // the value object's frame in the stack
	if complete || len(k.stack) <= at {
		if e := valueEnd(k.buf, k.valueA); e > 0 && from < e && k.valid(k.buf[k.valueA:e]) {
			return k.buf[from:e], e - from
		}
		return nil, 0
	}
	v, n := k.healed(from, at)
	if k.lost && v != nil {
		k.scratch = append(append(k.scratch[:0], '{'), v...)
		if !k.valid(k.scratch) {
			return nil, 0
		}
	}
	return v, n
}

// healed returns what follows buf[start] in the open container at
// stack[at], compact, as the reference reads it healed at the end of buf:
// an open string closed when it may be cut, open containers closed; where
// that is no JSON (a key or a string that may not be cut still arriving, a
// cut literal, a trailing ','), cut back at the block's last ',' and
// healed there. It returns nil when that ',' is before start, and how many
// of the bytes are buf's.
func (k *Engine) healed(start, at int) ([]byte, int) {
	end, str, cut := k.healEnd()
	r := k.rare()
	b, d := r.heald[:0], len(k.stack)
	if c := k.escapeCut(); cut && c > start {
		// Cut inside an escape of a string that may be cut: at its last
		// comma, as the reference's text-based cut does, the string closed
		// there.
		end, str, cut = c, true, false
	}
	if cut {
		if end, d = k.comma, int(k.commaD); end < start {
			return nil, 0
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
		b = closeAll(b, k.buf[k.stack[at].start:end]) // (containers closed after the ',')
	}
	r.heald = b
	return b, end - start
}

// escapeCut is where a data value's open string, cut inside an escape,
// is cut: at its last ',' (trailing whitespace dropped, as healEnd drops
// it), when the string may be cut (see healEnd); -1 otherwise.
func (k *Engine) escapeCut() int {
	if !k.inStr || k.isKey || !k.esc && k.hexLeft == 0 {
		return -1
	}
	if top := &k.stack[len(k.stack)-1]; top.open == '{' && (!CuttableKey(k.buf[top.keyA:top.keyB]) || k.urlValue(top)) {
		return -1
	}
	i := bytes.LastIndexByte(k.buf[k.strStart+1:], ',')
	if i < 0 {
		return -1
	}
	return k.strStart + 1 + len(RStripSpace(k.buf[k.strStart+1:k.strStart+1+i]))
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

// putValue appends the value of member e of v (which starts at
// buf[base]) in canonical form and reports whether it is to be yielded:
// a final member is, unless it was yielded while open with the same
// value; the open one is when its value changed since it last was (prev:
// the open member of the last round), which it records.
func (k *Engine) putValue(v []byte, base int, e dataEntry, prev opened) bool {
	at := len(k.out)
	k.out, _ = k.cw.canonical(k.out, v[:e.valB], e.valA)
	if string(k.out[at:]) == "null" {
		// The parser's record counts an absent key as null: a member
		// null from the start is nothing new until its message ends
		// (yielded then, see dataEntries). A value arriving only grows:
		// a member yielded before is never null after.
		k.addNull(base+e.keyA, base+e.keyB)
		return false
	}
	if e.final && base+e.keyA != prev.at {
		return true
	}
	h := maphash.Bytes(k.seed, k.out[at:])
	if base+e.keyA == prev.at && h == prev.hash {
		if !e.final {
			k.openAt, k.openHash = prev.at, h
		}
		return false
	}
	if !e.final {
		k.openAt, k.openHash = base+e.keyA, h
	}
	return true
}

// valueMessage appends the message whose value is an object of members
// ents of v (read from buf[base]), but for one null from the start while
// the message arrives. It returns where the message starts in out, or -1
// (nothing appended) when no member stays.
func (k *Engine) valueMessage(v []byte, base int, ents []dataEntry, complete bool) int {
	start := len(k.out)
	k.out = append(k.dataHead(k.out, nil), '{')
	first := len(k.out)
	for _, e := range ents {
		at := len(k.out)
		if at > first {
			k.out = append(k.out, ',')
		}
		k.out = append(k.keyTok(k.out, v[e.keyA:e.keyB]), ':')
		if !k.putValue(v, base, e, opened{-1, 0}) && !complete && string(k.out[len(k.out)-4:]) == "null" {
			k.out = k.out[:at]
		}
	}
	if len(k.out) == first {
		k.out = k.out[:start]
		return -1
	}
	k.out = k.dataTail(k.out, '}')
	return start
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
	switch {
	case key != nil && (bytes.ContainsAny(key, `\~/`) || hasLineSep(key) || bytes.IndexByte(path, '\\') >= 0):
		out = k.entryPath(out, path, key)
	case k.pathA >= 0 || key != nil:
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
	if k.cur != nil {
		out = append(out, k.cur.id...)
	} else {
		out = append(out, "default"...) // (none named yet: as the parser's current surface)
	}
	return append(out, `","value":`...)
}

// entryPath appends the "path" member of a member's update: the message's
// path (decoded) and the member's key (decoded), escaped as a JSON pointer
// token (RFC 6901: "~" as "~0", "/" as "~1"), as the parser writes it.
func (k *Engine) entryPath(out, path, key []byte) []byte {
	r := k.rare()
	p, _, _ := jsonwire.AppendUnescaped(r.ptr[:0], path)
	if string(p) == "/" {
		p = p[:0]
	}
	r.dkey, _, _ = jsonwire.AppendUnescaped(r.dkey[:0], key)
	p = append(append(p, '/'), jsonwire.EscapePointerToken(string(r.dkey))...)
	r.ptr = p
	out = append(out, `"path":`...)
	out = jsonwire.AppendQuoted(out, string(p), false)
	return append(out, ',')
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
	} else if s := k.cur; s != nil {
		out = k.versionOf(out, s)
	} else {
		out = k.versionOf(out, k.surfaces["default"])
	}
	return append(out, `"}`...)
}

// versionOf appends the version of surface s (nil: none known), else the
// parser's default: the v0.9 catalog's version, else v0.9.
func (k *Engine) versionOf(out []byte, s *surface) []byte {
	switch {
	case s != nil && s.version != "":
		return append(out, s.version...)
	case k.cat != nil && k.cat.Family() == protocol.FamilyV09:
		return append(append(out, 'v'), k.cat.Version()...)
	}
	return append(out, "v0.9"...)
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

// dataOut yields the data model message at out[start:], unless it does not
// pass the catalog (then it is dropped, as the parser drops it).
func (k *Engine) dataOut(start int) {
	if k.cat != nil && !k.verdict(k.out[start:]) {
		k.out = k.out[:start]
		return
	}
	k.offs = append(k.offs, start, len(k.out))
}
