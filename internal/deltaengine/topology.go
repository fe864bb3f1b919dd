package deltaengine

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// The topology check of a surface, as the parser's (and the reference's):
// a component that references itself, or a cycle among the components
// reachable from the root, fails the block with the protocol's error. A
// surface is checked only when a change may have made one (suspect): a
// reference to a component that was already reachable (a second parent,
// the root, or a cycle), or a self-reference.

// suspectRef notes a new reference from a reachable component to kid,
// which was reachable already: s is checked before it yields.
func suspectRef(s *surface, kid *entry) {
	if kid.reach && (kid.parents > 0 || kid.id == s.root) {
		s.suspect = true
	}
}

// topology checks surface s (see above), and returns the error that fails
// the block, if any.
func (k *Engine) topology(s *surface) error {
	s.suspect = false
	if s.selfRef {
		// As the reference checks every component of the surface each
		// time, a component that references itself fails every check
		// until it is replaced, and the first in the order of the
		// reference's table is named.
		var first *entry
		for e := range s.comps.all {
			if e.arrived && refsItself(e) && (first == nil || e.arrival < first.arrival) {
				first = e
			}
		}
		if first != nil {
			s.suspect = true
			return &protocol.ValidationError{MessageIndex: -1, Kind: protocol.ErrSelfReference,
				Message: fmt.Sprintf("Self-reference detected: Component '%s' references itself in field '%s'", decodedID(first.id), k.refField(first, decodedID(first.id)))}
		}
		s.selfRef = false
	}
	root := s.comps.getString(s.root)
	if root == nil || !root.arrived {
		return nil
	}
	// Depth first from the root, as protocol.AnalyzeTopology walks: a
	// reference to a component on the walk's stack is a cycle.
	type step struct {
		e    *entry
		next int
	}
	state := map[*entry]bool{root: true} // true: on the stack
	stack := []step{{e: root}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next == len(top.e.refs) {
			state[top.e] = false
			stack = stack[:len(stack)-1]
			continue
		}
		r := top.e.refs[top.next]
		top.next++
		if r.fl&slotRef == 0 || !r.kid.arrived {
			continue
		}
		switch on, seen := state[r.kid]; {
		case !seen:
			if len(stack) > protocol.MaxComponentDepth {
				return &protocol.ValidationError{MessageIndex: -1, Kind: protocol.ErrRecursionLimit,
					Message: fmt.Sprintf("Global recursion limit exceeded: logical depth > %d", protocol.MaxComponentDepth)}
			}
			state[r.kid] = true
			stack = append(stack, step{e: r.kid})
		case on:
			s.suspect = true // (it fails each check until it is broken)
			return &protocol.ValidationError{MessageIndex: -1, Kind: protocol.ErrCycle,
				Message: fmt.Sprintf("Circular reference detected involving component '%s'", decodedID(r.kid.id))}
		}
	}
	return nil
}

// refsItself reports that e references itself.
func refsItself(e *entry) bool {
	for _, r := range e.refs {
		if r.fl&slotRef != 0 && r.kid == e {
			return true
		}
	}
	return false
}

// decodedID is the id whose canonical text (escaped, as entries hold it)
// is id.
func decodedID(id string) string {
	if strings.IndexByte(id, '\\') < 0 {
		return id
	}
	b, _, _ := jsonwire.AppendUnescaped(nil, []byte(id))
	return string(b)
}

// refField is the field, as protocol.ComponentRefs names it with the
// catalog's reference fields, in which component e references id (the
// rare path of an error message: e is decoded).
func (k *Engine) refField(e *entry, id string) string {
	var refs protocol.RefFieldsFunc
	if k.cat != nil {
		refs = k.cat.RefFields
	}
	var m map[string]any
	if json.Unmarshal(e.src, &m) == nil {
		for _, r := range protocol.ComponentRefs(nil, m, refs) {
			if r.ID == id {
				return r.Field
			}
		}
	}
	return ""
}
