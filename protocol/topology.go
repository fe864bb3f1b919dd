package protocol

import (
	"fmt"
	"sort"
)

// Protocol recursion limits, as enforced by the reference validator.
const (
	// MaxComponentDepth bounds the depth of the component tree below the
	// root (and the JSON nesting of a single message).
	MaxComponentDepth = 50
	// MaxFunctionCallDepth bounds nested functionCall arguments.
	MaxFunctionCallDepth = 5
)

// RefFieldsFunc reports which properties of a component type hold component
// ids: single holds one id (e.g. "child"), list holds several (e.g.
// "children": an array of ids, {"explicitList": [...]} or a template
// {"componentId": ...}). (*Catalog).RefFields has this signature. A nil
// RefFieldsFunc is allowed: the well-known field names (child, children,
// contentChild, entryPointChild, detail, summary, root, explicitList,
// template) are always treated as references.
type RefFieldsFunc func(componentType string) (single, list []string)

// ComponentRef is one reference from a component to another component id.
type ComponentRef struct {
	// ID is the referenced component id.
	ID string
	// Field names where the reference sits, e.g. "child",
	// "children.explicitList" or "tabs[0].child".
	Field string
}

// TopologyOptions tunes AnalyzeTopology.
type TopologyOptions struct {
	// RaiseOnOrphans makes components unreachable from the root an error
	// (only when a root id is given).
	RaiseOnOrphans bool
	// MaxDepth bounds the depth of the tree below the root; 0 means
	// MaxComponentDepth.
	MaxDepth int
}

var (
	heuristicSingleRefs = map[string]bool{"child": true, "contentChild": true, "entryPointChild": true, "detail": true, "summary": true, "root": true}
	heuristicListRefs   = map[string]bool{"children": true, "explicitList": true, "template": true}
)

// ComponentType returns the type of a component: the string value of
// "component" (v0.9 family), or the single key of the "component" object
// (v0.8). ok is false when neither shape is present.
func ComponentType(component map[string]any) (typ string, ok bool) {
	switch c := component["component"].(type) {
	case string:
		return c, true
	case map[string]any:
		if len(c) == 1 {
			for k := range c {
				return k, true
			}
		}
	}
	return "", false
}

// ComponentRefs appends to dst the references component makes to other
// components, using refs for the catalog's reference fields plus the
// well-known field names. It understands both the v0.9 flat shape
// ({"id","component":"Card","child":"x"}) and the v0.8 nested shape
// ({"id","component":{"Card":{"child":"x"}}}).
func ComponentRefs(dst []ComponentRef, component map[string]any, refs RefFieldsFunc) []ComponentRef {
	switch c := component["component"].(type) {
	case string:
		dst = appendPropRefs(dst, c, component, refs)
	case map[string]any:
		for _, typ := range sortedKeys(c) {
			if props, ok := c[typ].(map[string]any); ok {
				dst = appendPropRefs(dst, typ, props, refs)
			}
		}
	}
	return dst
}

func appendPropRefs(dst []ComponentRef, typ string, props map[string]any, refs RefFieldsFunc) []ComponentRef {
	if typ == "" {
		return dst
	}
	var single, list []string
	if refs != nil {
		single, list = refs(typ)
	}
	for _, key := range sortedKeys(props) {
		value := props[key]
		inList := contains(list, key)
		switch {
		case contains(single, key) || heuristicSingleRefs[key]:
			switch v := value.(type) {
			case string:
				dst = append(dst, ComponentRef{v, key})
			case map[string]any:
				if id, ok := v["componentId"]; ok {
					if s, ok := id.(string); ok {
						dst = append(dst, ComponentRef{s, key + ".componentId"})
					}
				}
			}
		case inList || heuristicListRefs[key]:
			switch v := value.(type) {
			case []any:
				for _, item := range v {
					if s, ok := item.(string); ok {
						dst = append(dst, ComponentRef{s, key})
					}
				}
			case map[string]any:
				if el, ok := v["explicitList"]; ok {
					items, _ := el.([]any)
					for _, item := range items {
						if s, ok := item.(string); ok {
							dst = append(dst, ComponentRef{s, key + ".explicitList"})
						}
					}
				} else if tpl, ok := v["template"]; ok {
					if t, ok := tpl.(map[string]any); ok {
						if s, ok := t["componentId"].(string); ok {
							dst = append(dst, ComponentRef{s, key + ".template.componentId"})
						}
					}
				} else if id, ok := v["componentId"]; ok {
					if s, ok := id.(string); ok {
						dst = append(dst, ComponentRef{s, key + ".componentId"})
					}
				}
			}
		}
		// Arrays of objects with a "child" (e.g. tabs: [{title, child}]).
		if arr, ok := value.([]any); ok && !inList {
			for i, item := range arr {
				if m, ok := item.(map[string]any); ok {
					if s, ok := m["child"].(string); ok && s != "" {
						dst = append(dst, ComponentRef{s, fmt.Sprintf("%s[%d].child", key, i)})
					}
				}
			}
		}
	}
	return dst
}

// componentID returns a component's string id.
func componentID(c map[string]any) (string, bool) {
	id, ok := c["id"].(string)
	return id, ok
}

// CheckIntegrity checks one update's components: ids are unique ("Duplicate
// component ID: x"); unless skipRootCheck, when rootID is not "" the root is
// present ("Missing root component: No component has id='root'") and every
// reference points at a component of the same update ("Component 'a'
// references non-existent component 'b' in field 'child'"). An empty rootID
// means an incremental update: only duplicates are checked. Components
// without a string id are ignored.
//
// Validate, unlike this function, takes an empty root a payload declares
// (a v0.8 beginRendering with "root": "") as a root id, as the reference
// does.
func CheckIntegrity(rootID string, components []map[string]any, refs RefFieldsFunc, skipRootCheck bool) error {
	return checkIntegrity(rootID, rootID != "", components, refs, skipRootCheck)
}

// checkIntegrity is CheckIntegrity with the root given apart from its id:
// hasRoot false means an incremental update, and with hasRoot true an
// empty rootID is the id "".
func checkIntegrity(rootID string, hasRoot bool, components []map[string]any, refs RefFieldsFunc, skipRootCheck bool) error {
	ids := make(map[string]bool, len(components))
	for _, c := range components {
		id, ok := componentID(c)
		if !ok {
			continue
		}
		if ids[id] {
			return topoErr(ErrDuplicateID, "Duplicate component ID: %s", id)
		}
		ids[id] = true
	}
	if skipRootCheck || !hasRoot {
		return nil
	}
	if !ids[rootID] {
		return topoErr(ErrMissingRoot, "Missing root component: No component has id='%s'", rootID)
	}
	var buf []ComponentRef
	for _, c := range components {
		buf = ComponentRefs(buf[:0], c, refs)
		for _, r := range buf {
			if !ids[r.ID] {
				id, _ := componentID(c)
				return topoErr(ErrDanglingRef, "Component '%s' references non-existent component '%s' in field '%s'", id, r.ID, r.Field)
			}
		}
	}
	return nil
}

// AnalyzeTopology checks the reference graph of components and returns the
// ids reachable from rootID (including rootID itself when present).
//
// Errors: a self-reference ("Self-reference detected: Component 'a'
// references itself in field 'child'"), a cycle ("Circular reference
// detected involving component 'a'"), a tree deeper than opts.MaxDepth
// ("Global recursion limit exceeded: logical depth > 50") and, with
// opts.RaiseOnOrphans and a root, an unreachable component ("Component 'x'
// is not reachable from 'root'"). References to ids not in components are
// not errors here (see CheckIntegrity) but, as in the reference, such ids
// are in the returned set when reached (a parser renders them as
// placeholders). With rootID == "" (an incremental update) every component
// is traversed to find cycles and the returned set holds every component
// id and every id they reference. A root that is not among components
// gives an empty set.
//
// Components may be v0.9 (flat) or v0.8 (nested) shaped. The function does
// not modify components and is safe for concurrent use. Validate, unlike
// this function, takes an empty root a payload declares as a root id (see
// CheckIntegrity).
func AnalyzeTopology(rootID string, components []map[string]any, refs RefFieldsFunc, opts TopologyOptions) (map[string]bool, error) {
	return analyzeTopology(rootID, rootID != "", components, refs, opts)
}

// analyzeTopology is AnalyzeTopology with the root given apart from its id
// (see checkIntegrity).
func analyzeTopology(rootID string, hasRoot bool, components []map[string]any, refs RefFieldsFunc, opts TopologyOptions) (map[string]bool, error) {
	maxDepth := opts.MaxDepth
	if maxDepth <= 0 {
		maxDepth = MaxComponentDepth
	}
	adj := make(map[string][]string, len(components))
	var all []string
	var buf []ComponentRef
	for _, c := range components {
		id, ok := componentID(c)
		if !ok {
			continue
		}
		if _, seen := adj[id]; !seen {
			all = append(all, id)
			adj[id] = nil
		}
		buf = ComponentRefs(buf[:0], c, refs)
		for _, r := range buf {
			if r.ID == id {
				return nil, topoErr(ErrSelfReference, "Self-reference detected: Component '%s' references itself in field '%s'", id, r.Field)
			}
			adj[id] = append(adj[id], r.ID)
		}
	}

	t := topoWalk{adj: adj, maxDepth: maxDepth, visited: make(map[string]bool, len(adj)), onStack: make(map[string]bool)}
	if hasRoot {
		if _, ok := adj[rootID]; ok {
			if err := t.dfs(rootID); err != nil {
				return nil, err
			}
		}
		if opts.RaiseOnOrphans {
			var orphans []string
			for _, id := range all {
				if !t.visited[id] {
					orphans = append(orphans, id)
				}
			}
			if len(orphans) > 0 {
				sort.Strings(orphans)
				return nil, topoErr(ErrOrphan, "Component '%s' is not reachable from '%s'", orphans[0], rootID)
			}
		}
		return t.visited, nil
	}
	sort.Strings(all)
	for _, id := range all {
		if !t.visited[id] {
			if err := t.dfs(id); err != nil {
				return nil, err
			}
		}
	}
	return t.visited, nil
}

// topoWalk is an iterative depth-first search (no Go recursion, so a long
// chain cannot exhaust the stack).
type topoWalk struct {
	adj      map[string][]string
	maxDepth int
	visited  map[string]bool
	onStack  map[string]bool
}

func (t *topoWalk) dfs(start string) error {
	type frame struct {
		id   string
		next int
	}
	stack := []frame{{id: start}}
	t.visited[start] = true
	t.onStack[start] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		kids := t.adj[top.id]
		if top.next >= len(kids) {
			delete(t.onStack, top.id)
			stack = stack[:len(stack)-1]
			continue
		}
		n := kids[top.next]
		top.next++
		if !t.visited[n] {
			// depth of n is len(stack)
			if len(stack) > t.maxDepth {
				return topoErr(ErrRecursionLimit, "Global recursion limit exceeded: logical depth > %d", t.maxDepth)
			}
			t.visited[n] = true
			t.onStack[n] = true
			stack = append(stack, frame{id: n})
		} else if t.onStack[n] {
			return topoErr(ErrCycle, "Circular reference detected involving component '%s'", n)
		}
	}
	return nil
}

func topoErr(kind error, format string, args ...any) *ValidationError {
	return &ValidationError{MessageIndex: -1, Message: fmt.Sprintf(format, args...), Kind: kind}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
