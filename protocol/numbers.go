package protocol

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// Number bounds
//
// The JSON Schema library reads a number by converting its text to an
// exact fraction (math/big.Rat). That costs time exponential in the length
// of the exponent ("1e999999" takes up to a tenth of a second, so a few hundred
// of them in one message take minutes) and quadratic in the number of
// digits, and a text it cannot convert ("1e10000000", beyond its exponent
// limit) makes its minimum, multipleOf and uniqueItems checks dereference
// nil. So before a payload reaches the library (ValidateSchema), and
// wherever the fast path compares numbers, a number whose text is longer
// than numberMaxText bytes or whose magnitude is 10^numberMaxMagnitude or
// more (or nonzero and below 10^-numberMaxMagnitude) is replaced by a short
// stand-in with the same verdicts: the same sign, integral exactly when it
// is, and ordered the same way against every number b of at most
// numberMaxDigits significant digits with 10^-numberMaxMagnitude <= |b| <
// 10^numberMaxMagnitude (which is what a realistic schema's minimum,
// maximum, const and enum hold). Verdicts can differ against schema
// numbers outside that range (e.g. maximum 1e400 with the value 1e400),
// for multipleOf (the stand-in keeps no divisibility; no A2UI catalog uses
// it, and the fast path leaves it to the library), and between two such
// numbers compared with each other (uniqueItems, or const 1e500 with the
// value 1e500). The fast path compares exactly as the library does after
// the replacement, so the two never disagree.

const (
	numberMaxText      = 100
	numberMaxDigits    = 40
	numberMaxMagnitude = 400
)

// decimal is a JSON number split as sign, significant digits (no leading
// or trailing zeros; "" for zero) and exponent: the value is
// digits * 10^exp.
type decimal struct {
	neg    bool
	digits string
	exp    int
}

// scanNumber splits a JSON number literal (RFC 8259 grammar, as
// jsonwire.ScanNumber reads it) without allocating; ok is false for
// anything else. Exponents beyond ±10^9 saturate there.
func scanNumber(s string) (neg bool, intPart, frac string, exp int, ok bool) {
	if end, st := jsonwire.ScanNumber(s, 0, jsonwire.NumStart); end != len(s) || !st.Complete() {
		return false, "", "", 0, false
	}
	if neg = s[0] == '-'; neg {
		s = s[1:]
	}
	intPart = s
	if i := strings.IndexAny(s, ".eE"); i >= 0 {
		intPart, s = s[:i], s[i:]
	} else {
		s = ""
	}
	if s != "" && s[0] == '.' {
		frac = s[1:]
		if i := strings.IndexAny(frac, "eE"); i >= 0 {
			frac, s = frac[:i], frac[i:]
		} else {
			s = ""
		}
	}
	if s == "" {
		return neg, intPart, frac, 0, true
	}
	s = s[1:] // 'e' or 'E'
	expNeg := s[0] == '-'
	if s[0] == '+' || s[0] == '-' {
		s = s[1:]
	}
	for i := 0; i < len(s); i++ {
		if exp < 1e9 {
			exp = exp*10 + int(s[i]-'0')
		}
	}
	if expNeg {
		exp = -exp
	}
	return neg, intPart, frac, exp, true
}

// parseDecimal splits a JSON number literal into a decimal; ok is false
// when s is not one.
func parseDecimal(s string) (decimal, bool) {
	neg, intPart, frac, exp, ok := scanNumber(s)
	if !ok {
		return decimal{}, false
	}
	frac = strings.TrimRight(frac, "0")
	d := decimal{neg: neg, exp: exp - len(frac)}
	var digits string
	switch {
	case frac == "":
		digits = strings.TrimLeft(intPart, "0")
		t := strings.TrimRight(digits, "0")
		d.exp += len(digits) - len(t)
		digits = t
	case intPart == "0":
		digits = strings.TrimLeft(frac, "0")
	default:
		digits = intPart + frac
	}
	d.digits = digits
	return d, true
}

// isInteger reports whether the number is a whole number.
func (d decimal) isInteger() bool { return d.digits == "" || d.exp >= 0 }

// boundedNumber returns the stand-in of a JSON number literal (see Number
// bounds above) and true, or s and false when s needs none (or is not a
// JSON number).
func boundedNumber(s string) (string, bool) {
	if len(s) <= numberMaxText && !strings.ContainsAny(s, "eE") {
		return s, false
	}
	d, ok := parseDecimal(s)
	if !ok {
		return s, false
	}
	// Its absolute value lies in [10^(mag-1), 10^mag).
	mag := len(d.digits) + d.exp
	if len(s) <= numberMaxText && (d.digits == "" || mag >= -numberMaxMagnitude && mag <= numberMaxMagnitude) {
		return s, false
	}
	sign := ""
	if d.neg {
		sign = "-"
	}
	switch {
	case d.digits == "":
		return "0", true
	case mag > numberMaxMagnitude && d.isInteger():
		return sign + "1e" + strconv.Itoa(numberMaxMagnitude+1), true
	case mag > numberMaxMagnitude:
		return sign + "1" + strings.Repeat("0", numberMaxMagnitude+1) + ".5", true
	case mag < -numberMaxMagnitude:
		return sign + "1e-" + strconv.Itoa(numberMaxMagnitude+2), true
	case len(d.digits) <= numberMaxDigits:
		return sign + d.digits + "e" + strconv.Itoa(d.exp), true
	}
	// Too many digits: keep the first numberMaxDigits and put a 5 after
	// them, which stays strictly between the truncation and the next
	// number of that many digits, as the value does (its last digit,
	// dropped, is not 0); a non-integer value keeps its 5 after the point.
	unit := mag - numberMaxDigits // exponent of the last digit kept
	head := d.digits[:numberMaxDigits]
	if unit <= 0 || d.isInteger() {
		return sign + head + "5e" + strconv.Itoa(unit-1), true
	}
	return sign + head + strings.Repeat("0", unit) + ".5", true
}

// boundMessages returns msgs with every json.Number replaced by its
// stand-in (see boundedNumber), copying only the containers on the way to
// a replaced number (msgs itself when nothing is replaced). A json.Number
// that is not a JSON number is an *invalidNumberError (the first one,
// keys taken in sorted order).
func boundMessages(msgs []any) ([]any, error) {
	var out []any
	for i, m := range msgs {
		nm, changed, ok := boundNumbersIn(m)
		if !ok {
			if err := findInvalidNumber(msgs, nil); err != nil {
				return nil, err
			}
			return msgs, nil // not reached: both read numbers alike
		}
		if changed {
			if out == nil {
				out = append([]any(nil), msgs...)
			}
			out[i] = nm
		}
	}
	if out == nil {
		return msgs, nil
	}
	return out, nil
}

// boundNumbersIn returns v with its json.Numbers bounded, and whether
// any was replaced; ok is false when v holds an invalid json.Number.
func boundNumbersIn(v any) (out any, changed, ok bool) {
	switch x := v.(type) {
	case json.Number:
		if _, _, _, _, valid := scanNumber(string(x)); !valid {
			return nil, false, false
		}
		if b, changed := boundedNumber(string(x)); changed {
			return json.Number(b), true, true
		}
	case []any:
		var list []any
		for i, item := range x {
			nv, changed, ok := boundNumbersIn(item)
			if !ok {
				return nil, false, false
			}
			if changed {
				if list == nil {
					list = append([]any(nil), x...)
				}
				list[i] = nv
			}
		}
		if list != nil {
			return list, true, true
		}
	case map[string]any:
		var obj map[string]any
		for k, item := range x {
			nv, changed, ok := boundNumbersIn(item)
			if !ok {
				return nil, false, false
			}
			if changed {
				if obj == nil {
					obj = make(map[string]any, len(x))
					for k2, v2 := range x {
						obj[k2] = v2
					}
				}
				obj[k] = nv
			}
		}
		if obj != nil {
			return obj, true, true
		}
	}
	return v, false, true
}

// findInvalidNumber returns the first json.Number in v (keys in sorted
// order) that is not a JSON number, or nil.
func findInvalidNumber(v any, loc []string) error {
	switch x := v.(type) {
	case json.Number:
		if _, _, _, _, ok := scanNumber(string(x)); !ok {
			return &invalidNumberError{lit: string(x), loc: append([]string(nil), loc...)}
		}
	case []any:
		for i, item := range x {
			if e := findInvalidNumber(item, append(loc, strconv.Itoa(i))); e != nil {
				return e
			}
		}
	case map[string]any:
		for _, k := range sortedKeys(x) {
			if e := findInvalidNumber(x[k], append(loc, k)); e != nil {
				return e
			}
		}
	}
	return nil
}

// invalidNumberError reports a json.Number whose text is not a JSON
// number, at loc (segments from the payload array).
type invalidNumberError struct {
	lit string
	loc []string
}

func (e *invalidNumberError) Error() string { return "invalid JSON number " + pyStr(e.lit) }

// invalidNumberFailure turns boundMessages' error into the schema failure
// of the message holding the number.
func invalidNumberFailure(err error, msgs []any) *ValidationError {
	ve := &ValidationError{MessageIndex: -1, Message: "Validation failed: " + err.Error(), Kind: ErrSchema}
	var ne *invalidNumberError
	if !errors.As(err, &ne) || len(ne.loc) == 0 {
		return ve
	}
	if i, perr := strconv.Atoi(ne.loc[0]); perr == nil && i < len(msgs) {
		ve.MessageIndex = i
		if m, ok := msgs[i].(map[string]any); ok {
			_, ve.SurfaceID = messageSurface(m)
		}
	}
	if len(ne.loc) > 2 {
		ve.Path = jsonwire.JoinPointer(ne.loc[2:])
	}
	return ve
}
