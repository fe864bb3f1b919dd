package protocol

import (
	"sort"
	"strings"
)

// componentSchemas returns the component definitions the catalog declares,
// by type name. For v0.8 they may live in the server-to-client schema
// (surfaceUpdate.components[].component.properties) or, failing that, in
// the catalog's "components"; for the v0.9 family, in the catalog.
func (c *Catalog) componentSchemas() map[string]any {
	if c.family == FamilyV08 {
		if m := digObject(c.s2c, "properties", "surfaceUpdate", "properties", "components", "items", "properties", "component", "properties"); len(m) > 0 {
			return m
		}
	}
	m, _ := c.catalog["components"].(map[string]any)
	return m
}

// digObject follows keys through nested objects.
func digObject(m map[string]any, keys ...string) map[string]any {
	cur := m
	for _, k := range keys {
		next, ok := cur[k].(map[string]any)
		if !ok {
			return nil
		}
		cur = next
	}
	return cur
}

// indexComponents fills names, refs and required from the component
// schemas. Only the schema text is inspected ($refs are judged by name,
// not followed), as the reference SDK does.
func (c *Catalog) indexComponents() {
	comps := c.componentSchemas()
	c.refs = make(map[string]refFields, len(comps))
	c.required = make(map[string][]string, len(comps))
	for name, s := range comps {
		c.names = append(c.names, name)
		schema, _ := s.(map[string]any)
		single, list := map[string]bool{}, map[string]bool{}
		collectRefFields(schema, single, list)
		if len(single) > 0 || len(list) > 0 {
			c.refs[name] = refFields{single: setToSorted(single), list: setToSorted(list)}
		}
		req := map[string]bool{}
		collectRequired(schema, req)
		if len(req) > 0 {
			c.required[name] = setToSorted(req)
		}
	}
	sort.Strings(c.names)
}

var combinators = [...]string{"allOf", "oneOf", "anyOf"}

func collectRefFields(schema map[string]any, single, list map[string]bool) {
	if schema == nil {
		return
	}
	props, _ := schema["properties"].(map[string]any)
	for name, p := range props {
		ps, _ := p.(map[string]any)
		switch {
		case isComponentIDSchema(ps) || name == "child" || name == "contentChild" || name == "entryPointChild":
			single[name] = true
		case isChildListSchema(ps) || name == "children":
			list[name] = true
		}
	}
	for _, k := range combinators {
		subs, _ := schema[k].([]any)
		for _, s := range subs {
			if m, ok := s.(map[string]any); ok {
				collectRefFields(m, single, list)
			}
		}
	}
}

// isComponentIDSchema: a $ref to a ComponentId (or to a "child"
// definition), an inline {"type":"string","title":"ComponentId"}, or a
// combinator containing one.
func isComponentIDSchema(s map[string]any) bool {
	if s == nil {
		return false
	}
	if ref, ok := s["$ref"].(string); ok && (strings.HasSuffix(ref, "ComponentId") || strings.HasSuffix(ref, "child") || strings.Contains(ref, "/child")) {
		return true
	}
	if s["type"] == "string" && s["title"] == "ComponentId" {
		return true
	}
	return anySub(s, isComponentIDSchema)
}

// isChildListSchema: a $ref to a ChildList (or "children" definition), an
// inline object with explicitList/template/componentId, an array of
// component ids, or a combinator containing one.
func isChildListSchema(s map[string]any) bool {
	if s == nil {
		return false
	}
	if ref, ok := s["$ref"].(string); ok && (strings.HasSuffix(ref, "ChildList") || strings.HasSuffix(ref, "children") || strings.Contains(ref, "/children")) {
		return true
	}
	if s["type"] == "object" {
		props, _ := s["properties"].(map[string]any)
		for _, k := range [...]string{"explicitList", "template", "componentId"} {
			if _, ok := props[k]; ok {
				return true
			}
		}
	}
	if s["type"] == "array" {
		items, _ := s["items"].(map[string]any)
		if isComponentIDSchema(items) {
			return true
		}
	}
	return anySub(s, isChildListSchema)
}

func anySub(s map[string]any, pred func(map[string]any) bool) bool {
	for _, k := range combinators {
		subs, _ := s[k].([]any)
		for _, sub := range subs {
			if m, ok := sub.(map[string]any); ok && pred(m) {
				return true
			}
		}
	}
	return false
}

func collectRequired(schema map[string]any, out map[string]bool) {
	if schema == nil {
		return
	}
	if req, ok := schema["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok && s != "component" {
				out[s] = true
			}
		}
	}
	for _, k := range combinators {
		subs, _ := schema[k].([]any)
		for _, s := range subs {
			if m, ok := s.(map[string]any); ok {
				collectRequired(m, out)
			}
		}
	}
}

func setToSorted(set map[string]bool) []string {
	if len(set) == 0 {
		return nil
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
