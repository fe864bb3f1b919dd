package protocol

import (
	"net/url"
	"sort"
	"strings"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// componentTypePointer locates, inside a catalog document, the schema that
// a synthesised anyComponent uses to check the component type. An "enum"
// failure there means the component names a type the catalog lacks.
const componentTypePointer = "#/$defs/anyComponent/properties/component"

// withAnyComponent returns the catalog to compile for a v0.9-family
// catalog. The server-to-client schema validates each component against
// "catalog.json#/$defs/anyComponent"; many catalogs (e.g. the streaming
// suite's inline ones) only declare "components". For those a dispatcher
// is synthesised, which validates a component the way the reference SDK
// does without one: against "#/components/<its type>", an unknown type
// being an error ("Unknown component type: X", see schemaFailure). The
// second result reports whether it was synthesised; a catalog that has an
// anyComponent, or whose "$defs" is not an object, is returned as is.
//
// The synthesised schema is
//
//	{"type": "object", "required": ["component"],
//	 "properties": {"component": {"enum": [<type names>]}},
//	 "allOf": [{"if": {"required": ["component"],
//	                   "properties": {"component": {"const": "<type>"}}},
//	            "then": {"$ref": "<the type's schema>"}}, ...]}
//
// As the reference strips "id" and "component" from a component before
// validating it when the type's schema does not define them, a type whose
// schema does not is checked against a copy (under anyComponent's own
// "$defs") that declares them with a true schema at its top level, so that
// additionalProperties / unevaluatedProperties there accept them.
func withAnyComponent(catalog map[string]any) (map[string]any, bool) {
	defs, hasDefs := catalog["$defs"]
	var defsMap map[string]any
	if hasDefs {
		m, ok := defs.(map[string]any)
		if !ok {
			return catalog, false
		}
		if _, ok := m["anyComponent"]; ok {
			return catalog, false
		}
		defsMap = m
	}
	comps, _ := catalog["components"].(map[string]any)
	names := make([]string, 0, len(comps))
	for n := range comps {
		names = append(names, n)
	}
	sort.Strings(names)

	enum := make([]any, len(names))
	branches := make([]any, len(names))
	ownDefs := map[string]any{}
	for i, n := range names {
		enum[i] = n
		ref := "#/components/" + pointerToken(n)
		if schema, ok := comps[n].(map[string]any); ok {
			if lenient, changed := allowEnvelopeKeys(schema); changed {
				ownDefs[n] = lenient
				ref = "#/$defs/anyComponent/$defs/" + pointerToken(n)
			}
		}
		branches[i] = map[string]any{
			"if": map[string]any{
				"required":   []any{"component"},
				"properties": map[string]any{"component": map[string]any{"const": n}},
			},
			"then": map[string]any{"$ref": ref},
		}
	}
	anyComponent := map[string]any{
		"type":       "object",
		"required":   []any{"component"},
		"properties": map[string]any{"component": map[string]any{"enum": enum}},
	}
	if len(branches) > 0 {
		anyComponent["allOf"] = branches
	}
	if len(ownDefs) > 0 {
		anyComponent["$defs"] = ownDefs
	}

	newDefs := make(map[string]any, len(defsMap)+1)
	for k, v := range defsMap {
		newDefs[k] = v
	}
	newDefs["anyComponent"] = anyComponent
	out := make(map[string]any, len(catalog)+1)
	for k, v := range catalog {
		out[k] = v
	}
	out["$defs"] = newDefs
	return out, true
}

// allowEnvelopeKeys returns a copy of a component schema whose top-level
// "properties" also admit "id" and "component" (with a true schema) when
// the schema does not define them, and whether anything was added.
func allowEnvelopeKeys(schema map[string]any) (map[string]any, bool) {
	var missing []string
	for _, p := range [...]string{"id", "component"} {
		if !definesProperty(schema, p, 0) {
			missing = append(missing, p)
		}
	}
	if len(missing) == 0 {
		return schema, false
	}
	props := map[string]any{}
	if old, ok := schema["properties"].(map[string]any); ok {
		for k, v := range old {
			props[k] = v
		}
	} else if _, has := schema["properties"]; has {
		return schema, false // malformed; let the compiler report it
	}
	for _, p := range missing {
		props[p] = true
	}
	out := make(map[string]any, len(schema)+1)
	for k, v := range schema {
		out[k] = v
	}
	out["properties"] = props
	return out, true
}

// definesProperty reports whether a schema declares a property, directly
// or in an allOf/oneOf/anyOf member; a $ref to a "ComponentCommon" schema
// counts as declaring "id" (as in the reference SDK).
func definesProperty(schema any, name string, depth int) bool {
	m, ok := schema.(map[string]any)
	if !ok || depth > 16 {
		return false
	}
	if props, ok := m["properties"].(map[string]any); ok {
		if _, ok := props[name]; ok {
			return true
		}
	}
	if ref, ok := m["$ref"].(string); ok && name == "id" && strings.Contains(ref, "ComponentCommon") {
		return true
	}
	for _, k := range combinators {
		if subs, ok := m[k].([]any); ok {
			for _, s := range subs {
				if definesProperty(s, name, depth+1) {
					return true
				}
			}
		}
	}
	return false
}

// pointerToken escapes a name as a JSON Pointer reference token inside a
// URI fragment.
func pointerToken(name string) string {
	return url.PathEscape(jsonwire.EscapePointerToken(name))
}
