package protocol

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// pyRepr renders a JSON value the way Python's repr() renders the
// equivalent object, so that schema error texts match those of the
// reference validator (Python jsonschema): 'text', 123, True, None,
// ['a', 1], {'k': 'v'}. Object keys are sorted (Python keeps insertion
// order, which decoded Go maps do not have). Output is capped at limit bytes
// with "..." to keep error texts short.
func pyRepr(v any) string {
	var b strings.Builder
	writePyRepr(&b, v, 0)
	return b.String()
}

const pyReprLimit = 200

func writePyRepr(b *strings.Builder, v any, depth int) {
	if b.Len() > pyReprLimit || depth > 16 {
		b.WriteString("...")
		return
	}
	switch x := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		if x {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case string:
		b.WriteString(pyStr(x))
	case json.Number:
		b.WriteString(pyNumber(string(x)))
	case float64:
		// encoding/json decodes every number to float64; integral values
		// most likely were JSON integers, which Python keeps as int.
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			b.WriteString(strconv.FormatInt(int64(x), 10))
		} else {
			b.WriteString(pyFloat(x))
		}
	case float32:
		b.WriteString(pyFloat(float64(x)))
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case uint64:
		b.WriteString(strconv.FormatUint(x, 10))
	case []any:
		b.WriteByte('[')
		for i, item := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			if b.Len() > pyReprLimit {
				b.WriteString("...")
				break
			}
			writePyRepr(b, item, depth+1)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			if b.Len() > pyReprLimit {
				b.WriteString("...")
				break
			}
			b.WriteString(pyStr(k))
			b.WriteString(": ")
			writePyRepr(b, x[k], depth+1)
		}
		b.WriteByte('}')
	default:
		fmt.Fprintf(b, "%v", x)
	}
}

// pyNumber renders a JSON number literal as Python would after json.loads:
// integers stay as written, other numbers become floats ("1e2" -> 100.0).
func pyNumber(s string) string {
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		return s
	}
	if !strings.ContainsAny(s, ".eE") {
		return s // big integer: Python keeps it exact
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(f, 0) {
		return s
	}
	return pyFloat(f) // beyond float64 it is inf, as in Python
}

func pyFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if strings.ContainsAny(s, "e") {
		// Python: 1e+20 -> 1e+20, 1e-05 -> 1e-05 (two-digit exponent).
		mant, exp, _ := strings.Cut(s, "e")
		sign := exp[0]
		digits := exp[1:]
		if len(digits) < 2 {
			digits = "0" + digits
		}
		e, _ := strconv.Atoi(digits)
		if sign == '+' && e < 16 {
			s = strconv.FormatFloat(f, 'f', -1, 64)
			if !strings.Contains(s, ".") {
				s += ".0"
			}
			return s
		}
		return mant + "e" + string(sign) + digits
	}
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// pyStr renders a string as Python's repr does: single quotes unless the
// string contains a single quote and no double quote.
func pyStr(s string) string {
	q := byte('\'')
	if strings.Contains(s, "'") && !strings.Contains(s, "\"") {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == rune(q) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r > 0x7f && !unicode.IsPrint(r):
			if r <= 0xff {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else if r <= 0xffff {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				fmt.Fprintf(&b, `\U%08x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// pyStrValue renders a JSON value as Python's str() does: a string as is
// (capped like pyRepr), anything else as its repr.
func pyStrValue(v any) string {
	if s, ok := v.(string); ok {
		if len(s) > pyReprLimit {
			cut := pyReprLimit
			for cut > 0 && !utf8.RuneStart(s[cut]) {
				cut--
			}
			return s[:cut] + "..."
		}
		return s
	}
	return pyRepr(v)
}
