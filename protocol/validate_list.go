package protocol

import (
	"slices"

	"github.com/a2ui-stream/a2ui-stream/internal/jsontape"
)

// The fast verdict on a message of n >= 1 components, each of them known
// valid alone: MessageVerdict(open+C1,...,Cn+close) where, for every i,
// MessageVerdict(open+Ci+close) is valid and decided. It extends the
// one-component plan (validate_component.go). The message's verdict is:
//
//   - parse, PlainKeys, limits: the wrapper's, fixed, and each Ci's as
//     for its message of one component (a value's nesting, its keys, its
//     "path" members and function calls are its own, at its place), all
//     of which hold;
//   - the schema walk: fastRun reads the hole's array only as an item
//     count (minItems, maxItems) and as items, and reads the items only
//     through the items' schema, each in turn until one fails (no plan
//     when a const or enum compares a container holding them). So it is a
//     decision tree, built as a one-component plan's is, whose questions
//     are "does the count n hold for array schema s?" and "does every Ci
//     hold for the items' schema s, reached at depth d?".
//
// The count questions are answered from n. An item question is answered
// true when every path of the one-component plan's tree to a valid,
// decided leaf answers it true (a trusted question): the walk of each Ci's
// valid message took one of those paths, and the answer depends only on
// Ci, s and d. Any other item question leaves the verdict undecided, as
// does a wrapper with no one-component plan, or one whose hole's array
// the walk reads otherwise (opaque).

// listPlan is the decision tree of one wrapper for messages of components
// known valid alone (see above).
type listPlan struct {
	steps []planStep // a count question has depth countQuestion; none: undecided
	// trusted[i]: steps[i] is an item question every valid component
	// answers true.
	trusted []bool
}

// countQuestion is the depth of a planStep asking the item count.
const countQuestion = -1

// countQuery is query for the item count checks (minItems, maxItems) of
// the hole's array, in a list plan's walk.
func (r *fastRun) countQuery(n *fsNode) bool {
	return r.answer(n, countQuestion)
}

// buildListPlan builds the list plan of the wrapper open, close.
func (c *Catalog) buildListPlan(open, close string) *listPlan {
	p := &listPlan{}
	one := c.buildPlan(open, close)
	if len(one.steps) == 0 {
		return p
	}
	if c == nil || c.schema == nil {
		// (No schema: parse, keys and limits alone, all of which hold.)
		p.steps, p.trusted = []planStep{{valid: true, decided: true}}, []bool{false}
		return p
	}
	tp := new(jsontape.Tape)
	if tp.Parse(open+planHole+close) != nil {
		return p
	}
	// (The wrapper has a one-component plan: one hole, an array's item.)
	hole, parent, _ := holeOf(tp)
	if hole <= 0 || parent <= 0 || tp.Kind(parent) != jsontape.Array || tp.Count(parent) != 1 {
		return p
	}
	if _, ok := c.planStep(&p.steps, tp, hole, parent, nil); !ok {
		p.steps = nil
		return p
	}
	trust := trustedQuestions(one.steps)
	p.trusted = make([]bool, len(p.steps))
	for i, s := range p.steps {
		p.trusted[i] = s.node != nil && s.depth != countQuestion &&
			slices.ContainsFunc(trust, func(q planStep) bool { return q.node == s.node && q.depth == s.depth })
	}
	return p
}

// trustedQuestions returns the questions of a one-component plan's tree
// that every path to a valid, decided leaf answers true (none when no
// path leads to one).
func trustedQuestions(steps []planStep) []planStep {
	var out []planStep
	found := false
	same := func(a, b planStep) bool { return a.node == b.node && a.depth == b.depth }
	var walk func(i int32, along []planStep)
	walk = func(i int32, along []planStep) {
		s := steps[i]
		switch {
		case s.node != nil:
			walk(s.next[0], along)
			walk(s.next[1], append(along[:len(along):len(along)], s))
		case !s.valid || !s.decided:
		case !found:
			out, found = slices.Clone(along), true
		default:
			out = slices.DeleteFunc(out, func(q planStep) bool {
				return !slices.ContainsFunc(along, func(a planStep) bool { return same(a, q) })
			})
		}
	}
	walk(0, nil)
	return out
}

// verdict is MessageVerdict on the wrapper around n >= 1 components, each
// known valid alone in it (see above).
func (p *listPlan) verdict(n int) (valid, decided bool) {
	if len(p.steps) == 0 || n < 1 {
		return false, false
	}
	i := 0
	for s := &p.steps[0]; ; s = &p.steps[i] {
		switch {
		case s.node == nil:
			return s.valid, s.decided
		case s.depth == countQuestion:
			ok := (s.node.minItems < 0 || n >= s.node.minItems) && (s.node.maxItems < 0 || n <= s.node.maxItems)
			i = int(s.next[b2i(ok)])
		case p.trusted[i]:
			i = int(s.next[1])
		default:
			return false, false
		}
	}
}

// listPlan returns the list plan of the wrapper open, close.
func (c *Catalog) listPlan(open, close []byte) *listPlan {
	if c == nil {
		return c.buildListPlan(string(open), string(close))
	}
	return c.lists.get(open, close, c.buildListPlan)
}
