package parser

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// appendJSON encodes a decoded JSON value (map[string]any, []any, string,
// json.Number, bool, nil, float64) with object keys sorted, as
// encoding/json does, but without HTML escaping and without reflection.
func appendJSON(dst []byte, v any) []byte { return appendValue(dst, v, false) }

// appendCmp appends the comparison encoding of a decoded value (see
// data_record.go).
func appendCmp(dst []byte, v any) []byte { return appendValue(dst, v, true) }

// appendValue is appendJSON, or with cmp appendCmp: strings written by
// jsonwire.AppendQuoted with rawInvalid = cmp.
func appendValue(dst []byte, v any, cmp bool) []byte {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...)
	case bool:
		if x {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case string:
		return jsonwire.AppendQuoted(dst, x, cmp)
	case json.Number:
		if x == "" {
			return append(dst, '0')
		}
		return append(dst, x...)
	case float64:
		return strconv.AppendFloat(dst, x, 'g', -1, 64)
	case int:
		return strconv.AppendInt(dst, int64(x), 10)
	case map[string]any:
		dst = append(dst, '{')
		var small [16]string
		keys := small[:0]
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonwire.AppendQuoted(dst, k, cmp)
			dst = append(dst, ':')
			dst = appendValue(dst, x[k], cmp)
		}
		return append(dst, '}')
	case []any:
		dst = append(dst, '[')
		for i, item := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendValue(dst, item, cmp)
		}
		return append(dst, ']')
	case *fastComp: // a component read at byte level: its compact bytes
		return append(dst, x.src...)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return append(dst, "null"...)
	}
	return append(dst, b...)
}

// appendJSONString appends s as a JSON string literal.
func appendJSONString(dst []byte, s string) []byte {
	return jsonwire.AppendQuoted(dst, s, false)
}
