package main

import (
	"bytes"
	"slices"
)

// canonical appends to dst the value at src[i] of compact JSON (no space
// outside strings) with the members of every object sorted by key, as
// the parser encodes a message it rebuilt, and returns the end of the
// value in src.
func canonical(dst, src []byte, i int) ([]byte, int) {
	switch src[i] {
	case '{':
		type member struct{ k, v, end int }
		var ms []member
		j := i + 1
		for src[j] != '}' {
			k := j
			j = stringEnd(src, j)
			v := j + 1 // after the colon
			_, e := canonical(nil, src, v)
			ms = append(ms, member{k, v, e})
			if j = e; src[j] == ',' {
				j++
			}
		}
		slices.SortFunc(ms, func(a, b member) int {
			return bytes.Compare(src[a.k:a.v-1], src[b.k:b.v-1])
		})
		dst = append(dst, '{')
		for n, m := range ms {
			if n > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, src[m.k:m.v]...)
			dst, _ = canonical(dst, src, m.v)
		}
		return append(dst, '}'), j + 1
	case '[':
		dst = append(dst, '[')
		j := i + 1
		for src[j] != ']' {
			if j > i+1 {
				dst = append(dst, ',')
			}
			dst, j = canonical(dst, src, j)
			if src[j] == ',' {
				j++
			}
		}
		return append(dst, ']'), j + 1
	case '"':
		e := stringEnd(src, i)
		return append(dst, src[i:e]...), e
	}
	e := i
	for e < len(src) && src[e] != ',' && src[e] != '}' && src[e] != ']' {
		e++
	}
	return append(dst, src[i:e]...), e
}

// stringEnd is the end of the string at src[i].
func stringEnd(src []byte, i int) int {
	for j := i + 1; ; j++ {
		switch src[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
}
