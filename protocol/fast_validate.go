package protocol

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"unicode/utf8"

	"github.com/a2ui-stream/a2ui-stream/internal/jsontape"
)

// fastMaxEvalMembers: objects with more members are left to the library
// when unevaluatedProperties needs to know which members were evaluated
// (one bit per member).
const fastMaxEvalMembers = 64

// fastMaxDepth bounds schema recursion at one instance location and
// nesting overall; deeper means "not decided here".
const fastMaxDepth = 512

// fastRun is one evaluation of a fastSchema over a tape.
type fastRun struct {
	tp    *jsontape.Tape
	depth int
	bail  bool // undecided: the caller takes the full path
	// hole and probe serve the one-component plans (validate_component.go):
	// hole is the token, an array item, whose checks probe answers (0,
	// the root, is never an array item: none).
	hole  int
	probe *fastProbe
	// list, in a walk that builds a list plan (validate_list.go), is the
	// hole's array, whose item count checks probe answers (0: none).
	list int
}

// valid reports whether token t satisfies n. With wantEval it also
// returns, for an object, the members n evaluated (bit i = i-th member),
// for an enclosing unevaluatedProperties.
func (r *fastRun) valid(n *fsNode, t int, wantEval bool) (bool, uint64) {
	switch n.always {
	case 1:
		return true, 0
	case -1:
		return false, 0
	}
	if r.bail {
		return false, 0
	}
	if r.depth >= fastMaxDepth {
		r.bail = true
		return false, 0
	}
	r.depth++
	ok, eval := r.check(n, t, wantEval)
	r.depth--
	return ok, eval
}

func (r *fastRun) check(n *fsNode, t int, wantEval bool) (bool, uint64) {
	if n.typeOnly {
		return r.typeOK(n.types, t), 0
	}
	kind := r.tp.Kind(t)
	if n.types != 0 && !r.typeOK(n.types, t) {
		return false, 0
	}
	if n.hasConst && !r.equal(t, n.constV) {
		return false, 0
	}
	if n.enumStrs != nil {
		if kind != jsontape.String {
			return false, 0
		}
		if r.probe != nil {
			r.probe.reads(r.tp, t, false)
		}
		if _, ok := n.enumStrs[r.tp.Str(t)]; !ok {
			return false, 0
		}
	} else if n.enum != nil {
		found := false
		for _, e := range n.enum {
			if r.equal(t, e) {
				found = true
				break
			}
		}
		if !found {
			return false, 0
		}
	}
	needEval := (wantEval || n.uneval != nil) && kind == jsontape.Object
	if needEval && r.tp.Count(t) > fastMaxEvalMembers {
		r.bail = true
		return false, 0
	}
	var eval uint64
	switch kind {
	case jsontape.Object:
		ok, e := r.object(n, t)
		if !ok {
			return false, 0
		}
		eval |= e
	case jsontape.Array:
		if !r.array(n, t) {
			return false, 0
		}
	case jsontape.String:
		if !r.string(n, t) {
			return false, 0
		}
	case jsontape.Number:
		if !r.number(n, t) {
			return false, 0
		}
	}
	if n.ref != nil {
		ok, e := r.valid(n.ref, t, needEval)
		if !ok {
			return false, 0
		}
		eval |= e
	}
	if n.not != nil {
		if ok, _ := r.valid(n.not, t, false); ok || r.bail {
			return false, 0
		}
	}
	if ok, e := r.allOf(n, t, needEval); !ok {
		return false, 0
	} else {
		eval |= e
	}
	if n.anyOf != nil {
		matched := false
		for _, s := range n.anyOf {
			ok, e := r.valid(s, t, needEval)
			if ok {
				matched = true
				eval |= e
				if !needEval {
					break
				}
			}
		}
		if !matched {
			return false, 0
		}
	}
	if n.oneOf != nil {
		matched := 0
		for _, s := range n.oneOf {
			ok, e := r.valid(s, t, needEval)
			if ok {
				matched++
				if matched > 1 {
					return false, 0
				}
				eval |= e
			}
		}
		if matched != 1 {
			return false, 0
		}
	}
	if n.ifN != nil {
		if ok, e := r.valid(n.ifN, t, needEval); ok {
			eval |= e
			if n.thenN != nil {
				ok, e := r.valid(n.thenN, t, needEval)
				if !ok {
					return false, 0
				}
				eval |= e
			}
		} else if n.elseN != nil {
			ok, e := r.valid(n.elseN, t, needEval)
			if !ok {
				return false, 0
			}
			eval |= e
		}
	}
	if n.uneval != nil && kind == jsontape.Object {
		i := 0
		for j, end := t+1, r.tp.Next(t); j < end; j = r.tp.Next(j + 1) {
			if eval&(1<<uint(i)) == 0 {
				if ok, _ := r.valid(n.uneval, j+1, false); !ok {
					return false, 0
				}
			}
			i++
		}
		eval = allMembers(r.tp.Count(t))
	}
	if r.bail {
		return false, 0
	}
	return true, eval
}

// allOf checks n.allOf, dispatching on n.switchKey when it can.
func (r *fastRun) allOf(n *fsNode, t int, needEval bool) (bool, uint64) {
	var eval uint64
	if n.switchKey != "" && r.tp.Kind(t) == jsontape.Object {
		if v, idx := r.memberIndex(t, n.switchKey); v >= 0 || n.switchRequired {
			if v < 0 || r.tp.Kind(v) != jsontape.String {
				return true, 0 // no branch's "if" holds
			}
			if r.probe != nil {
				r.probe.reads(r.tp, v, false)
			}
			thens := n.switchThen[r.tp.Str(v)]
			for _, s := range thens {
				ok, e := r.valid(s, t, needEval)
				if !ok {
					return false, 0
				}
				eval |= e
			}
			if len(thens) > 0 && idx < 64 {
				eval |= 1 << uint(idx)
			}
			return true, eval
		}
	}
	for _, s := range n.allOf {
		ok, e := r.valid(s, t, needEval)
		if !ok {
			return false, 0
		}
		eval |= e
	}
	return true, eval
}

// memberIndex is the value token of key in object t and the member's
// position, or -1, -1.
func (r *fastRun) memberIndex(t int, key string) (int, int) {
	tp := r.tp
	i := 0
	for j := t + 1; j < tp.Next(t); j = tp.Next(j + 1) {
		if tp.Key(j) == key {
			return j + 1, i
		}
		i++
	}
	return -1, -1
}

func allMembers(n int) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(n) - 1
}

func (r *fastRun) typeOK(bits uint8, t int) bool {
	switch r.tp.Kind(t) {
	case jsontape.Null:
		return bits&ftNull != 0
	case jsontape.True, jsontape.False:
		return bits&ftBoolean != 0
	case jsontape.Object:
		return bits&ftObject != 0
	case jsontape.Array:
		return bits&ftArray != 0
	case jsontape.String:
		return bits&ftString != 0
	case jsontape.Number:
		if bits&ftNumber != 0 {
			return true
		}
		if bits&ftInteger != 0 {
			return r.isInteger(t)
		}
	}
	return false
}

func (r *fastRun) isInteger(t int) bool {
	text := r.tp.Raw(t)
	if !strings.ContainsAny(text, ".eE") {
		return true
	}
	d, ok := parseDecimal(text)
	return ok && d.isInteger()
}

// object checks the object keywords of n on object t and returns the
// members properties / additionalProperties evaluated.
func (r *fastRun) object(n *fsNode, t int) (bool, uint64) {
	tp := r.tp
	count := tp.Count(t)
	if n.minProps >= 0 && count < n.minProps {
		return false, 0
	}
	if n.maxProps >= 0 && count > n.maxProps {
		return false, 0
	}
	if len(n.names) == 0 && n.addl == nil {
		return true, 0
	}
	// One pass over the members: required names found, property schemas.
	var found, eval uint64
	i := 0
	for j, end := t+1, tp.Next(t); j < end; j = tp.Next(j + 1) {
		key := tp.Key(j)
		var sch *fsNode
		for k := range n.names {
			if nm := &n.names[k]; nm.name == key {
				found |= nm.reqBit
				sch = nm.node
				break
			}
		}
		if sch == nil {
			sch = n.addl
		}
		if sch != nil {
			if ok, _ := r.valid(sch, j+1, false); !ok {
				return false, 0
			}
			if i < 64 {
				eval |= 1 << uint(i)
			}
		}
		i++
	}
	if found != n.allRequired {
		return false, 0
	}
	return true, eval
}

func (r *fastRun) array(n *fsNode, t int) bool {
	tp := r.tp
	count := tp.Count(t)
	if n.minItems >= 0 || n.maxItems >= 0 {
		if r.probe != nil {
			r.probe.reads(tp, t, false) // (an array's own mark: its count)
		}
		if t == r.list && t > 0 {
			if !r.countQuery(n) {
				return false
			}
		} else if n.minItems >= 0 && count < n.minItems || n.maxItems >= 0 && count > n.maxItems {
			return false
		}
	}
	if n.items != nil {
		for j, end := t+1, tp.Next(t); j < end; j = tp.Next(j) {
			if j == r.hole {
				if !r.query(n.items) {
					return false
				}
			} else if ok, _ := r.valid(n.items, j, false); !ok {
				return false
			}
		}
	}
	return true
}

func (r *fastRun) string(n *fsNode, t int) bool {
	if n.minLen < 0 && n.maxLen < 0 && n.pattern == nil {
		return true
	}
	if r.probe != nil {
		r.probe.reads(r.tp, t, false)
	}
	s := r.tp.Str(t)
	if n.minLen >= 0 || n.maxLen >= 0 {
		l := utf8.RuneCountInString(s)
		if n.minLen >= 0 && l < n.minLen || n.maxLen >= 0 && l > n.maxLen {
			return false
		}
	}
	return n.pattern == nil || n.pattern.MatchString(s)
}

func (r *fastRun) number(n *fsNode, t int) bool {
	if n.minimum == nil && n.maximum == nil && n.exMin == nil && n.exMax == nil {
		return true
	}
	text, _ := boundedNumber(r.tp.Raw(t)) // as ValidateSchema gives it to the library
	num, ok := new(big.Rat).SetString(text)
	if !ok {
		r.bail = true
		return false
	}
	return (n.minimum == nil || num.Cmp(n.minimum) >= 0) &&
		(n.maximum == nil || num.Cmp(n.maximum) <= 0) &&
		(n.exMin == nil || num.Cmp(n.exMin) > 0) &&
		(n.exMax == nil || num.Cmp(n.exMax) < 0)
}

// equal compares token t with a schema value (const, enum) as the library
// does: numbers by value, objects regardless of key order.
func (r *fastRun) equal(t int, want any) bool {
	kind := r.tp.Kind(t)
	if r.probe != nil {
		switch want.(type) {
		case map[string]any, []any:
			r.probe.reads(r.tp, t, true)
		default:
			r.probe.reads(r.tp, t, false)
		}
	}
	switch w := want.(type) {
	case string:
		return kind == jsontape.String && r.tp.Str(t) == w
	case bool:
		return (kind == jsontape.True && w) || (kind == jsontape.False && !w)
	case nil:
		return kind == jsontape.Null
	}
	return schemaValueEqual(r.decode(t), want)
}

// decode is token t's value in the package's JSON data model (json.Number
// numbers), for the rare comparisons the fast path does not do on the
// text itself.
func (r *fastRun) decode(t int) any {
	v, err := decodeJSON([]byte(r.tp.Raw(t)))
	if err != nil {
		return nil
	}
	return v
}

// schemaValueEqual is deep equality of a message's value a and a schema's
// value b (const, enum) of the package's JSON data model, numbers compared
// by value as the library compares them after ValidateSchema bounded a's.
func schemaValueEqual(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !schemaValueEqual(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !schemaValueEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case string, bool, nil:
		return a == b
	case json.Number:
	default:
		return false
	}
	if _, ok := b.(json.Number); !ok {
		return false
	}
	// As the library compares them after ValidateSchema: the message's
	// number (a) through its stand-in, the schema's (b) as written.
	sa, _ := boundedNumber(fmt.Sprint(a))
	ra, ok1 := new(big.Rat).SetString(sa)
	rb, ok2 := new(big.Rat).SetString(fmt.Sprint(b))
	if !ok1 || !ok2 {
		return false
	}
	return ra.Cmp(rb) == 0
}
