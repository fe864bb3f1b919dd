package protocol

import (
	"sort"
	"strings"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// dispatchOneOfs returns a copy of a v0.9-family catalog in which every
// "oneOf" over local component references (the catalog's anyComponent) is
// replaced by an equivalent dispatch on the "component" property, when
// that is provably equivalent: each alternative requires "component" and
// pins it to a distinct constant. Then on an object at most one
// alternative can match, so oneOf holds exactly when "component" names one
// of the constants and that alternative holds; the dispatch checks only
// that one instead of every alternative (anything but an object still
// goes through the oneOf). When the conditions do not hold the node is
// left as is. The result is used only to decide validity quickly; error
// reports come from the unmodified catalog.
func dispatchOneOfs(catalog map[string]any) map[string]any {
	if catalog == nil {
		return nil
	}
	r := oneOfRewriter{root: catalog}
	out, _ := r.rewrite(catalog, 0).(map[string]any)
	return out
}

// reportOneOfs returns a copy of a v0.9-family catalog for error reports,
// and whether it differs from the catalog: every oneOf node that
// dispatchOneOfs replaces becomes {"if": <its dispatch>, "else": <the
// node>}. The schema library checks "if" without building errors, so a
// component that holds (the common case, even in an invalid message)
// costs one dispatch instead of every alternative with its error tree;
// one that fails runs the unmodified oneOf, whose errors are exactly the
// original's (the library reports a failing "else" as the failure of its
// subschema, which is the oneOf's alone), and so is the report. Validity
// is unchanged, the dispatch being equivalent to the oneOf.
func reportOneOfs(catalog map[string]any) (map[string]any, bool) {
	if catalog == nil {
		return nil, false
	}
	r := oneOfRewriter{root: catalog, report: true}
	out, _ := r.rewrite(catalog, 0).(map[string]any)
	return out, r.changed
}

// oneOfRewriter copies a catalog, replacing its dispatchable oneOf nodes
// by their dispatch (report false) or by a dispatch that falls back to
// the node (report true).
type oneOfRewriter struct {
	root    map[string]any
	report  bool
	changed bool
}

func (r *oneOfRewriter) rewrite(node any, depth int) any {
	if depth > 64 {
		return node
	}
	switch x := node.(type) {
	case map[string]any:
		if d, ok := dispatchFor(x, r.root); ok {
			r.changed = true
			if r.report {
				return map[string]any{"if": d, "else": x}
			}
			return d
		}
		out := make(map[string]any, len(x))
		for k, v := range x {
			out[k] = r.rewrite(v, depth+1)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, v := range x {
			out[i] = r.rewrite(v, depth+1)
		}
		return out
	}
	return node
}

// dispatchFor builds the dispatching replacement of a oneOf node, if safe.
func dispatchFor(node map[string]any, root map[string]any) (map[string]any, bool) {
	alts, ok := node["oneOf"].([]any)
	if !ok || len(alts) < 2 {
		return nil, false
	}
	for k := range node {
		switch k {
		case "oneOf", "discriminator", "description", "title", "$comment":
		default:
			return nil, false // other keywords: keep the node as is
		}
	}
	names := map[string]string{} // component const -> $ref
	allObjects := true           // every alternative requires an object
	for _, a := range alts {
		am, ok := a.(map[string]any)
		if !ok || len(am) != 1 {
			return nil, false
		}
		ref, ok := am["$ref"].(string)
		if !ok || !strings.HasPrefix(ref, "#/") {
			return nil, false
		}
		target, ok := resolveLocal(root, ref)
		if !ok {
			return nil, false
		}
		name, object, ok := pinnedComponent(target)
		if !ok {
			return nil, false
		}
		allObjects = allObjects && object
		if _, dup := names[name]; dup {
			return nil, false
		}
		names[name] = ref
	}
	consts := make([]string, 0, len(names))
	for n := range names {
		consts = append(consts, n)
	}
	sort.Strings(consts)
	enum := make([]any, len(consts))
	branches := make([]any, len(consts))
	for i, n := range consts {
		enum[i] = n
		branches[i] = map[string]any{
			"if":   map[string]any{"properties": map[string]any{"component": map[string]any{"const": n}}},
			"then": map[string]any{"$ref": names[n]},
		}
	}
	dispatch := map[string]any{
		"type":       "object",
		"required":   []any{"component"},
		"properties": map[string]any{"component": map[string]any{"enum": enum}},
		"allOf":      branches,
	}
	if allObjects {
		return dispatch, true
	}
	// Only on an object do the alternatives exclude one another: a
	// non-object satisfies every alternative that does not require an
	// object, so it keeps the oneOf.
	return map[string]any{
		"if":   map[string]any{"type": "object"},
		"then": dispatch,
		"else": map[string]any{"oneOf": alts},
	}, true
}

// pinnedComponent reports the constant a component schema pins
// "component" to, provided it also requires "component" (directly or in
// an inline allOf member), and whether it requires an object ("type":
// "object", there too).
func pinnedComponent(s map[string]any) (name string, object, ok bool) {
	required := false
	var visit func(m map[string]any, depth int)
	visit = func(m map[string]any, depth int) {
		if depth > 8 {
			return
		}
		if props, ok := m["properties"].(map[string]any); ok {
			if comp, ok := props["component"].(map[string]any); ok {
				if c, ok := comp["const"].(string); ok && name == "" {
					name = c
				}
			}
		}
		if m["type"] == "object" {
			object = true
		}
		if req, ok := m["required"].([]any); ok {
			for _, r := range req {
				if r == "component" {
					required = true
				}
			}
		}
		if all, ok := m["allOf"].([]any); ok {
			for _, sub := range all {
				if sm, ok := sub.(map[string]any); ok {
					visit(sm, depth+1)
				}
			}
		}
	}
	visit(s, 0)
	return name, object, name != "" && required
}

// resolveLocal follows a "#/a/b" JSON Pointer within root.
func resolveLocal(root map[string]any, ref string) (map[string]any, bool) {
	var cur any = root
	for _, seg := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
		seg, _ = jsonwire.UnescapePointerToken(seg)
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		cur = m[seg]
	}
	m, ok := cur.(map[string]any)
	return m, ok
}
