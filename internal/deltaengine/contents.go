package deltaengine

import (
	"bytes"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// The entries of a v0.8 contents list ({"key": ..., "valueString": ...}),
// read as the reference reads them (see data08.go): their value as
// contentsToDict flattens it, and the entry as pruneEntries leaves it.

// plainEntry reads the entry c[v:end] in one pass when it is the usual
// one: in canonical form already (its keys sorted, none twice, no escape,
// no object or list in it), as models write them, or (canonical) known to
// be, and with no valueMap (which is flattened and pruned). It reports
// false for any other (read by the general path).
func plainEntry(c []byte, v, end int, canonical bool) (entry08, bool) {
	e := entry08{valA: -1, prunA: -1}
	var prev []byte
	vals := [4]int{-1, -1, -1, -1} // value, valueString, valueNumber, valueBoolean
	hasKey := false
	for j := v + 1; c[j] != '}'; {
		ka := j
		j = jsonwire.StringEnd(c, j+1) + 1
		kt := c[ka:j]
		x := j + 1
		xe := valueEnd(c, x)
		if !canonical && (bytes.IndexByte(kt, '\\') >= 0 || prev != nil && bytes.Compare(prev[1:len(prev)-1], kt[1:len(kt)-1]) >= 0 ||
			c[x] == '{' || c[x] == '[' || c[x] == '"' && (bytes.IndexByte(c[x:xe], '\\') >= 0 || hasLineSep(c[x:xe]))) {
			return e, false
		}
		prev = kt
		switch string(kt) {
		case `"key"`:
			hasKey = true
			if c[x] == '"' && xe > x+2 {
				e.keyA, e.keyB = int32(x), int32(xe)
			}
		case `"value"`:
			vals[0] = x
		case `"valueString"`:
			vals[1] = x
		case `"valueNumber"`:
			vals[2] = x
		case `"valueBoolean"`:
			vals[3] = x
		case `"valueMap"`:
			return e, false
		}
		if j = xe; c[j] == ',' {
			j++
		}
	}
	// The first of them present gives the value, unless null: then none
	// (contentsToDict); any of them makes the entry one pruneEntries keeps.
	hasVal := false
	for _, x := range vals {
		if x >= 0 && !hasVal {
			hasVal = true
			if bytes.HasPrefix(c[x:], []byte("null")) {
				e.valA, e.valB = -1, 0
			} else {
				e.valA, e.valB = int32(x), int32(valueEnd(c, x))
			}
		}
	}
	if hasKey && hasVal {
		e.prunA, e.prunB = int32(v), int32(end)
	}
	return e, true
}

// entryValue appends the value contentsToDict reads from the entry at c[el]
// (canonical): the first of value, valueString, valueNumber and
// valueBoolean it has (stopping at a null one), else its valueMap
// flattened. It reports false when there is none.
func (k *Engine) entryValue(dst, c []byte, el int) ([]byte, bool) {
	for _, name := range [...]string{"value", "valueString", "valueNumber", "valueBoolean"} {
		if v := valueOf(c, el, name); v >= 0 {
			if bytes.HasPrefix(c[v:], []byte("null")) {
				break
			}
			return append(dst, c[v:valueEnd(c, v)]...), true
		}
	}
	if vm := valueOf(c, el, "valueMap"); vm >= 0 {
		return k.flat(dst, c, vm), true
	}
	return dst, false
}

// flat appends the valueMap at c[vm] flattened as contentsToDict does: an
// object as it is; a list of entries as the object of each keyed entry's
// value (entryValue), the last of a key winning; anything else as an
// empty object.
func (k *Engine) flat(dst, c []byte, vm int) []byte {
	switch c[vm] {
	case '{':
		return append(dst, c[vm:valueEnd(c, vm)]...)
	case '[':
	default:
		return append(dst, "{}"...)
	}
	start := len(dst)
	dst = append(dst, '{')
	elements(c, vm, func(v int) {
		if c[v] != '{' {
			return
		}
		key := valueOf(c, v, "key")
		if key < 0 || c[key] != '"' || valueEnd(c, key) <= key+2 {
			return
		}
		pre := len(dst)
		if pre > start+1 {
			dst = append(dst, ',')
		}
		dst = append(append(dst, c[key:valueEnd(c, key)]...), ':')
		var ok bool
		if dst, ok = k.entryValue(dst, c, v); !ok {
			dst = dst[:pre]
		}
	})
	dst = append(dst, '}')
	// Sorted, the last of a key winning, as canonical writes an object.
	r := k.rare()
	r.flat, _ = k.cw.canonical(r.flat[:0], dst[start:], 0)
	return append(dst[:start], r.flat...)
}

// PrunedEntry appends the entry at c[el] (canonical) as pruneEntries
// leaves it: a valueMap list in it pruned (dropped when none of its
// elements stays), and reports false when the entry goes (it needs a key
// and a value, a valueMap that stays counting as one).
func PrunedEntry(dst, c []byte, el int) ([]byte, bool) {
	start := len(dst)
	hasKey, hasVal := false, false
	dst = append(dst, '{')
	each(c, el, func(key []byte, v int) {
		pre := len(dst)
		if pre > start+1 {
			dst = append(dst, ',')
		}
		dst = append(append(dst, c[v-3-len(key):v-1]...), ':')
		switch string(key) {
		case "key":
			hasKey = true
		case "value", "valueString", "valueNumber", "valueBoolean":
			hasVal = true
		case "valueMap":
			if c[v] != '[' {
				break
			}
			var n int
			if dst, n = PrunedList(dst, c, v); n == 0 && c[v+1] != ']' {
				dst = dst[:pre] // nothing stays: the valueMap goes
			} else {
				hasVal = true
			}
			return
		}
		dst = append(dst, c[v:valueEnd(c, v)]...)
	})
	if !hasKey || !hasVal {
		return dst[:start], false
	}
	return append(dst, '}'), true
}

// PrunedList appends the list of entries at c[l] pruned (PrunedEntry; an
// element that is no object stays as it is), and returns how many
// elements stay.
func PrunedList(dst, c []byte, l int) ([]byte, int) {
	dst = append(dst, '[')
	n := 0
	elements(c, l, func(v int) {
		pre := len(dst)
		if n > 0 {
			dst = append(dst, ',')
		}
		if c[v] != '{' {
			dst = append(dst, c[v:valueEnd(c, v)]...)
		} else {
			var ok bool
			if dst, ok = PrunedEntry(dst, c, v); !ok {
				dst = dst[:pre]
				return
			}
		}
		n++
	})
	return append(dst, ']'), n
}
