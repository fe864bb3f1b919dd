package parser

// Comparison encodings of data model values, and the records of yielded
// data.

import (
	"slices"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// Yielded data model values are remembered, and compared, as comparison
// encodings: the canonical encoding appendJSON writes, except that a byte
// of invalid UTF-8 in a string (a character cut by a chunk boundary and
// closed by healing) is written as \xHH instead of \ufffd. appendJSON is
// injective on everything else, so two decoded values have the same
// comparison encoding exactly when they are deeply equal, and for the
// usual, valid text the two encodings are the same bytes.

// dedupeEncoded is the reference's data model de-duplication, on msg in
// its canonical encoding: a complete data model update whose entries were
// all yielded already (by sniffing) is skipped (false); every data model
// message records what it yields. The entries are a v0.8 body's contents
// (of a list, each keyed entry's first non-null valueString, valueNumber
// or valueBoolean, else its valueMap as it is, the last of a key
// winning; the reference looks only at truthy values, so that a complete
// message adding {"valueBoolean": false} to entries already sniffed
// looked like nothing new and was skipped; the first value present counts
// here, falsy or not), or a v0.9 body's members but surfaceId and root.
func (e *progressiveEngine) dedupeEncoded() bool {
	l := &e.lay
	e.dataGen++
	var encs []keyedEnc
	switch e.fam {
	case protocol.FamilyV08:
		if !l.bodyOf(kDataModelUpdate) {
			return true
		}
		r := e.reader()
		encs = r.encs[:0]
		defer func() { clear(encs); r.encs = encs[:0] }()
		switch c, _ := l.bodyGet("contents"); {
		case isList(c):
			encs = appendListValues(encs, c)
		case isObject(c):
			encs = appendMembers(encs, c)
		}
		if len(encs) == 0 {
			return true
		}
	case protocol.FamilyV09:
		if !l.bodyOf(kUpdateDataModel) {
			return true
		}
		r := e.reader()
		encs = r.encs[:0]
		for _, m := range l.body {
			if tok := l.msg[m.a:m.k]; string(tok) != `"surfaceId"` && string(tok) != `"root"` {
				encs = append(encs, keyedEnc{tok, l.msg[m.k+1 : m.b]})
			}
		}
		defer func() { clear(encs); r.encs = encs[:0] }()
	default:
		return true
	}
	d := e.dataState(l.slot())
	isNew := false
	for j, ke := range encs {
		if j+1 < len(encs) && string(encs[j+1].tok) == string(ke.tok) {
			continue // a later entry of the key wins
		}
		if prev, ok := d.getRaw(ke.tok); !ok || prev != string(ke.enc) {
			isNew = isNew || ok || string(ke.enc) != "null" // absent counts as null
		}
	}
	if !isNew {
		return false
	}
	for j, ke := range encs {
		if j+1 < len(encs) && string(encs[j+1].tok) == string(ke.tok) {
			continue
		}
		if prev, ok := d.getRaw(ke.tok); !ok || prev != string(ke.enc) {
			d.set(keyString(ke.tok), string(ke.enc))
		}
	}
	return true
}

// appendMembers appends the members of the canonical object obj.
func appendMembers(dst []keyedEnc, obj []byte) []keyedEnc {
	for i := 1; ; {
		k, vb, ok := nextMember(obj, i)
		if !ok {
			return dst
		}
		dst = append(dst, keyedEnc{obj[i:k], obj[k+1 : vb]})
		if i = vb; obj[i] == ',' {
			i++
		}
	}
}

// appendListValues appends the value of each keyed entry of the v0.8
// contents list (canonical) that has one, as dedupeEncoded reads it,
// sorted by key (the entries of a key in list order).
func appendListValues(dst []keyedEnc, list []byte) []keyedEnc {
	for el, tok := range keyedEntries(list) {
		var val []byte
		for _, vk := range [...]string{"valueString", "valueNumber", "valueBoolean", "valueMap"} {
			if v, ok := canonGet(el, vk); ok && string(v) != "null" {
				val = v
				break
			}
		}
		if val != nil {
			dst = append(dst, keyedEnc{tok, val})
		}
	}
	slices.SortStableFunc(dst, func(a, b keyedEnc) int { return compareKeys(a.tok, b.tok) })
	return dst
}

// keyedEnc is the encoding enc of the value under the key of the
// canonical key token tok.
type keyedEnc struct{ tok, enc []byte }
