package parser

// Comparison encodings of data model values, and the records of yielded
// data.

import (
	"slices"
	"strings"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// Yielded data model values are remembered, and compared, as comparison
// encodings: the canonical encoding appendJSON writes, except that a byte
// of invalid UTF-8 in a string (a character cut by a chunk boundary and
// closed by healing) is written as \xHH instead of \ufffd. appendJSON is
// injective on everything else, so two decoded values have the same
// comparison encoding exactly when they are deeply equal, and for the
// usual, valid text the two encodings are the same bytes.

// encodedValue is a JSON value held as its encodings, in messages built
// from the data model reader instead of decoded values: appendJSON writes
// out, appendCmp writes cmp. key is the "key" of a v0.8 data entry (keyed:
// it has a string "key"), for the delta reduction.
type encodedValue struct {
	out, cmp string
	key      string
	keyed    bool
}

// appendCmpString is appendJSONString writing each byte of invalid UTF-8 as
// \xHH (an escape appendJSONString never writes) instead of \ufffd.
func appendCmpString(dst []byte, s string) []byte {
	return appendQuoted(dst, s, true)
}

// differs reports whether the comparison encoding cmp differs from the one
// recorded under key in d (an absent key counts as null).
func differs(d map[string]string, key string, cmp string) bool {
	prev, ok := d[key]
	if !ok {
		prev = "null"
	}
	return prev != cmp
}

// differsBytes is differs for an encoding in a scratch buffer.
func differsBytes(d map[string]string, key string, cmp []byte) bool {
	prev, ok := d[key]
	if !ok {
		prev = "null"
	}
	return prev != string(cmp)
}

// recordData records v as the value last yielded under key in d.
func (e *progressiveEngine) recordData(d map[string]string, key string, v any) {
	r := e.reader()
	r.enc = appendCmp(r.enc[:0], v)
	if prev, ok := d[key]; !ok || prev != string(r.enc) {
		d[key] = string(r.enc)
	}
}

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
func (e *progressiveEngine) dedupeEncoded(msg []byte) bool {
	e.dataGen++
	r := e.reader()
	encs := r.encs[:0]
	defer func() { clear(encs); r.encs = encs[:0] }()
	var body []byte
	switch e.fam {
	case protocol.FamilyV08:
		b, ok := canonGet(msg, kDataModelUpdate)
		if !ok || !isObject(b) {
			return true
		}
		body = b
		switch c, _ := canonGet(body, "contents"); {
		case isList(c):
			encs = appendListValues(encs, c)
		case isObject(c):
			encs = appendMembers(encs, c, false)
		}
		if len(encs) == 0 {
			return true
		}
	case protocol.FamilyV09:
		b, ok := canonGet(msg, kUpdateDataModel)
		if !ok || !isObject(b) {
			return true
		}
		body = b
		encs = appendMembers(encs, body, true)
	default:
		return true
	}
	d := e.dataState(dataSlotOf(body))
	isNew := false
	for j, ke := range encs {
		if j+1 < len(encs) && encs[j+1].key == ke.key {
			continue // a later entry of the key wins
		}
		isNew = isNew || differsBytes(d, ke.key, ke.enc)
	}
	if !isNew {
		return false
	}
	for j, ke := range encs {
		if j+1 < len(encs) && encs[j+1].key == ke.key {
			continue
		}
		if prev, ok := d[ke.key]; !ok || prev != string(ke.enc) {
			d[ke.key] = string(ke.enc)
		}
	}
	return true
}

// dataSlotOf is the surface and path a data model message addresses (its
// canonical body), for the record of yielded data.
func dataSlotOf(body []byte) dataSlot {
	s, _ := canonString(canonGet(body, "surfaceId"))
	p, _ := canonString(canonGet(body, "path"))
	return dataSlot{s, p}
}

// appendMembers appends the members of the canonical object obj (but
// surfaceId and root, when body).
func appendMembers(dst []keyedEnc, obj []byte, body bool) []keyedEnc {
	for i := 1; ; {
		k, vb, ok := nextMember(obj, i)
		if !ok {
			return dst
		}
		if tok := string(obj[i:k]); !body || tok != `"surfaceId"` && tok != `"root"` {
			dst = append(dst, keyedEnc{keyString(obj[i:k]), obj[k+1 : vb]})
		}
		if i = vb; obj[i] == ',' {
			i++
		}
	}
}

// appendListValues appends the value of each keyed entry of the v0.8
// contents list (canonical) that has one, as dedupeEncoded reads it,
// sorted by key (the entries of a key in list order).
func appendListValues(dst []keyedEnc, list []byte) []keyedEnc {
	for i := 1; ; {
		end, ok := nextElem(list, i)
		if !ok {
			break
		}
		el := list[i:end]
		if i = end; list[i] == ',' {
			i++
		}
		key, ok := canonString(canonGet(el, "key"))
		if !isObject(el) || !ok || key == "" {
			continue
		}
		var val []byte
		for _, vk := range [...]string{"valueString", "valueNumber", "valueBoolean", "valueMap"} {
			if v, ok := canonGet(el, vk); ok && string(v) != "null" {
				val = v
				break
			}
		}
		if val != nil {
			dst = append(dst, keyedEnc{key, val})
		}
	}
	slices.SortStableFunc(dst, func(a, b keyedEnc) int { return strings.Compare(a.key, b.key) })
	return dst
}

// keyedEnc is the encoding enc of the value under key.
type keyedEnc struct {
	key string
	enc []byte
}
