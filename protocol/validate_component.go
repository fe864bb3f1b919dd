package protocol

import (
	"sync"

	"github.com/a2ui-stream/a2ui-stream/internal/jsontape"
	"github.com/a2ui-stream/a2ui-stream/internal/protocoltape"
)

// The fast verdict on a message of one component, judged on the component
// alone. A component message is a wrapper (its family's envelope, surface
// id, version) around a list of components; for a message of one
// component C, MessageVerdict(open+C+close) is, exactly:
//
//   - parse: the wrapper parses, and C parses as one value whose nesting,
//     added to its place's, stays within jsontape.MaxDepth;
//   - PlainKeys: the wrapper's keys are plain (fixed), and C's are;
//   - the schema walk: fastRun reaches C only as an item of the wrapper's
//     array (validity of the items' schema at C), and everything else it
//     reads of the wrapper does not depend on C (structure, the wrapper's
//     own values), unless a const or enum compares a whole container
//     holding C (then no plan). So the walk is a decision tree whose
//     questions are "does C hold for schema n, reached at depth d?" and
//     whose leaves are the verdicts; componentPlan holds that tree, built
//     by walking the wrapper with a hole answering each question both ways;
//   - the limits: the wrapper's, fixed (no "path" member is C, and with no
//     "call" key in the wrapper C is at function call depth 0), and C's.
//
// A plan answers for any C what MessageVerdict answers for the wrapped
// message, decided or not, except that it may leave undecided what that
// decides (a question whose walk gives up, where the message's walk would
// not have asked it), and the caller then takes the message's path.

// componentPlan is the decision tree of one wrapper (see above).
type componentPlan struct {
	room  int                                                                             // the nesting C may have: MaxDepth less its place's
	steps []planStep                                                                      // steps[0] is the root; none: undecided
	judge func(comp, key string, unread *protocoltape.Unread) (valid, decided, free bool) // verdict, made once
}

// planStep is a question (node non-nil: C against node, at depth, then
// next[answer]) or a leaf: the schema's verdict (valid, decided).
type planStep struct {
	node           *fsNode
	depth          int
	next           [2]int32
	valid, decided bool
}

// fastProbe is what a walk records for a plan. With a hole: the answers
// to give to its questions in order (asked counts them), the question
// past them (ask, at askDepth), and opaque when the walk read a container
// holding the hole as a whole. With a taint (a token whose value should
// not matter): read when the walk read its value.
type fastProbe struct {
	hole, taint int
	answers     []bool
	asked       int
	ask         *fsNode
	askDepth    int
	opaque      bool
	read        bool
	marking     bool                   // texts are wanted: marks holds the tokens read
	marks       [maxMarked / 64]uint64 // a bit per token
}

// reads records that a walk read token t's value (whole: its text, which
// holds its subtree's).
func (p *fastProbe) reads(tp *jsontape.Tape, t int, whole bool) {
	within := func(x int) bool { return x > 0 && (t == x || whole && t < x && x < tp.Next(t)) }
	p.opaque = p.opaque || within(p.hole)
	p.read = p.read || within(p.taint)
	if p.marking {
		end := t + 1
		if whole {
			end = tp.Next(t)
		}
		for x := t; x < end; x++ {
			p.marks[x/64] |= 1 << (x % 64)
		}
	}
}

// query is valid(n, r.hole, false) in a plan's walk: what valid does
// before it looks at the token, then the next answer, or, past them, the
// question, which stops the walk.
func (r *fastRun) query(n *fsNode) bool {
	switch n.always {
	case 1:
		return true
	case -1:
		return false
	}
	return r.answer(n, r.depth)
}

// answer is the next answer of the plan's walk, or, past them, the
// question about n at depth, which stops the walk.
func (r *fastRun) answer(n *fsNode, depth int) bool {
	if r.bail {
		return false
	}
	p := r.probe
	if p.asked < len(p.answers) {
		p.asked++
		return p.answers[p.asked-1]
	}
	p.ask, p.askDepth = n, depth
	r.bail = true
	return false
}

// planHole is the JSON text standing for the component while a plan is
// built (a string no wrapper of the engine holds).
const planHole = `"\u0000a2ui-stream: the component"`

// maxPlanSteps bounds a plan's tree.
const maxPlanSteps = 32

// buildPlan builds the plan of the wrapper open, close.
func (c *Catalog) buildPlan(open, close string) *componentPlan {
	p := &componentPlan{}
	p.judge = p.verdict
	if c != nil && c.schema != nil && c.fast == nil {
		return p
	}
	tp := new(jsontape.Tape)
	if tp.Parse(open+planHole+close) != nil || !tp.PlainKeys() || !fastLimitsOK(tp) {
		return p
	}
	for t := 0; t < tp.Len(); t++ {
		if tp.Kind(t) == jsontape.Object && tp.Member(t, "call") >= 0 {
			return p
		}
	}
	hole, parent, depth := holeOf(tp)
	if hole <= 0 || tp.Kind(parent) != jsontape.Array {
		return p
	}
	p.room = jsontape.MaxDepth - depth
	if c == nil || c.schema == nil {
		p.steps = []planStep{{valid: true, decided: true}}
		return p
	}
	if _, ok := c.planStep(&p.steps, tp, hole, 0, nil); !ok {
		p.steps = nil
	}
	return p
}

// holeOf returns the token of the plan's hole in tp (-1: none, or more
// than one), the container holding it, and how many containers hold it.
func holeOf(tp *jsontape.Tape) (hole, parent, depth int) {
	hole, parent = -1, -1
	for t := 0; t < tp.Len(); t++ {
		if tp.Kind(t) == jsontape.String && tp.Raw(t) == planHole {
			if hole >= 0 {
				return -1, -1, 0
			}
			hole = t
		}
	}
	for t := 0; t < hole; t++ {
		if k := tp.Kind(t); (k == jsontape.Object || k == jsontape.Array) && tp.Next(t) > hole {
			depth, parent = depth+1, t
		}
	}
	return hole, parent, depth
}

// planStep appends to steps the subtree of the walks whose first
// questions got answers, and returns its index. With list (a list plan's
// walk, validate_list.go), the count checks of that array, the hole's,
// are questions too.
func (c *Catalog) planStep(steps *[]planStep, tp *jsontape.Tape, hole, list int, answers []bool) (int32, bool) {
	if len(*steps) >= maxPlanSteps {
		return 0, false
	}
	pr := &fastProbe{hole: hole, answers: answers}
	r := fastRun{tp: tp, hole: hole, probe: pr, list: list}
	ok, _ := r.valid(c.fast.root, 0, false)
	if pr.opaque {
		return 0, false
	}
	at := int32(len(*steps))
	if pr.ask == nil {
		*steps = append(*steps, planStep{valid: ok && !r.bail, decided: !r.bail})
		return at, true
	}
	*steps = append(*steps, planStep{node: pr.ask, depth: pr.askDepth})
	for i, a := range []bool{false, true} {
		next, ok := c.planStep(steps, tp, hole, list, append(answers[:len(answers):len(answers)], a))
		if !ok {
			return 0, false
		}
		(*steps)[at].next[i] = next
	}
	return at, true
}

// verdict is MessageVerdict on the wrapper around comp (see above); with
// a taint (the value token of the member taintKey of comp, a string), it
// also reports whether the verdict holds whatever that string, and with
// unread, what it did not read (see protocoltape.ComponentVerdict).
func (p *componentPlan) verdict(comp, taintKey string, unread *protocoltape.Unread) (valid, decided, free bool) {
	if len(p.steps) == 0 {
		return false, false, false
	}
	tp := fastTapes.Get().(*jsontape.Tape)
	defer func() {
		tp.Forget() // the pool keeps no reference to comp
		fastTapes.Put(tp)
	}()
	if tp.Parse(comp) != nil || !tp.PlainKeys() {
		return false, false, false
	}
	limitsOK, deep := fastLimits(tp, p.room)
	if deep {
		return false, false, false
	}
	var probe fastProbe
	var pr *fastProbe
	if taintKey != "" && taintKey != "path" && tp.IsObject(0) {
		if t := tp.Member(0, taintKey); tp.IsString(t) {
			probe.taint, pr = t, &probe
		}
	}
	if unread != nil && tp.Len() <= maxMarked {
		probe.marking, pr = true, &probe
	}
	s := &p.steps[0]
	for s.node != nil {
		r := fastRun{tp: tp, depth: s.depth, probe: pr}
		ok, _ := r.valid(s.node, 0, false)
		if r.bail {
			return false, false, false
		}
		s = &p.steps[s.next[b2i(ok)]]
	}
	free = pr != nil && pr.taint > 0 && !pr.read
	if unread != nil && s.decided {
		unread.Texts, unread.Lists = unread.Texts[:0], unread.Lists[:0]
		if probe.marking {
			probe.unread(tp, 0, "", unread)
		}
	}
	if !s.decided || !s.valid {
		return false, s.decided, free
	}
	return limitsOK, true, free
}

// maxMarked bounds the tokens of a component whose unread texts and lists
// a verdict reports.
const maxMarked = 512

// unread appends to u what a walk that marked p.marks did not read under
// token t, the value of member key ("": none): the texts of string values
// not marked, but a "path" member's, and the arrays not marked (their
// count: see array) of strings all unread.
func (p *fastProbe) unread(tp *jsontape.Tape, t int, key string, u *protocoltape.Unread) (text bool) {
	switch {
	case tp.IsObject(t):
		for j, end := t+1, tp.Next(t); j < end; j = tp.Next(j + 1) {
			p.unread(tp, j+1, tp.Key(j), u)
		}
	case tp.IsArray(t):
		texts := tp.Count(t) > 0
		for j, end := t+1, tp.Next(t); j < end; j = tp.Next(j) {
			texts = p.unread(tp, j, "", u) && texts
		}
		if texts && !p.marked(t) {
			_, end := tp.Span(t)
			u.Lists = append(u.Lists, int32(end-1))
		}
	case tp.IsString(t) && key != "path" && !p.marked(t):
		start, end := tp.Span(t)
		u.Texts = append(u.Texts, int32(start), int32(end))
		return true
	}
	return false
}

// marked reports whether the walk read token t (see reads).
func (p *fastProbe) marked(t int) bool { return p.marks[t/64]&(1<<(t%64)) != 0 }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// wrapperCache caches a catalog's plans by wrapper (the message's bytes
// before and after its components), at most maxComponentPlans of them
// (then it starts again). Safe for concurrent use.
type wrapperCache[P any] struct {
	mu    sync.Mutex
	plans map[string]*P
}

// maxComponentPlans bounds a catalog's cache of plans.
const maxComponentPlans = 256

// get returns the plan of the wrapper open, close, built by build on a
// miss (two callers may both build one: plans are values of the wrapper).
func (cache *wrapperCache[P]) get(open, close []byte, build func(open, close string) *P) *P {
	var buf [128]byte
	key := append(append(append(buf[:0], open...), 0), close...)
	cache.mu.Lock()
	p, ok := cache.plans[string(key)]
	cache.mu.Unlock()
	if ok {
		return p
	}
	p = build(string(open), string(close))
	cache.mu.Lock()
	if cache.plans == nil || len(cache.plans) >= maxComponentPlans {
		cache.plans = map[string]*P{}
	}
	cache.plans[string(key)] = p
	cache.mu.Unlock()
	return p
}

// componentPlan returns the plan of the wrapper open, close.
func (c *Catalog) componentPlan(open, close []byte) *componentPlan {
	if c == nil {
		return c.buildPlan(string(open), string(close))
	}
	return c.plans.get(open, close, c.buildPlan)
}
