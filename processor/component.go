package processor

import (
	"strconv"

	"github.com/tidwall/gjson"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// Component is one component as a surface holds it.
type Component struct {
	// ID is the component's id.
	ID string
	// Type is the component type ("Text", "Column", ...).
	Type string
	// JSON is the component object as received: for the v0.9 family the
	// flat object ({"id","component":"Text","text":…}); for v0.8 the nested
	// one ({"id","component":{"Text":{…}}}, with "weight" if given).
	JSON string

	// skel is the component reduced to what the topology checks read: id,
	// component type and the values of properties that can hold references.
	skel map[string]any
}

// parseComponents decodes the components array of an updateComponents
// (v0.9 family) or surfaceUpdate (v0.8) body. It checks each component's
// envelope (an object with a string id and type) but not its properties.
func parseComponents(arr gjson.Result, v08 bool, refs protocol.RefFieldsFunc) ([]*Component, *MessageError) {
	if !arr.Exists() {
		return nil, fail("/components", ErrInvalidMessage, "components is required")
	}
	if !arr.IsArray() {
		return nil, fail("/components", ErrInvalidMessage, "components must be an array")
	}
	var out []*Component
	var ferr *MessageError
	i := 0
	arr.ForEach(func(_, c gjson.Result) bool {
		path := "/components/" + strconv.Itoa(i)
		i++
		comp, err := parseComponent(c, path, v08, refs)
		if err != nil {
			ferr = err
			return false
		}
		out = append(out, comp)
		return true
	})
	if ferr != nil {
		return nil, ferr
	}
	if len(out) == 0 {
		return nil, fail("/components", ErrInvalidMessage, "components must not be empty")
	}
	return out, nil
}

func parseComponent(c gjson.Result, path string, v08 bool, refs protocol.RefFieldsFunc) (*Component, *MessageError) {
	if !c.IsObject() {
		return nil, fail(path, ErrInvalidMessage, "a component must be an object")
	}
	comp := &Component{JSON: c.Raw}
	skel := make(map[string]any, 4)
	var ferr *MessageError
	var props gjson.Result
	c.ForEach(func(k, v gjson.Result) bool {
		switch key := k.Str; key {
		case "id":
			if v.Type != gjson.String || v.Str == "" {
				ferr = fail(path+"/id", ErrInvalidMessage, "component id must be a non-empty string")
				return false
			}
			comp.ID = v.Str
			skel["id"] = v.Str
		case "component":
			if v08 {
				if !v.IsObject() {
					ferr = fail(path+"/component", ErrInvalidMessage, "v0.8 component must be an object with exactly one key, the component type")
					return false
				}
				n := 0
				v.ForEach(func(t, p gjson.Result) bool {
					n++
					comp.Type, props = t.Str, p
					return n < 2
				})
				if n != 1 || comp.Type == "" || !props.IsObject() {
					ferr = fail(path+"/component", ErrInvalidMessage, "v0.8 component must be an object with exactly one key, the component type, holding an object")
					return false
				}
			} else {
				if v.Type != gjson.String || v.Str == "" {
					ferr = fail(path+"/component", ErrInvalidMessage, "component type must be a non-empty string")
					return false
				}
				comp.Type = v.Str
				skel["component"] = v.Str
			}
		case "weight":
			if v08 && v.Type != gjson.Number {
				ferr = fail(path+"/weight", ErrInvalidMessage, "weight must be a number")
				return false
			}
			if !v08 {
				addSkelProp(skel, key, v)
			}
		default:
			if v08 {
				ferr = fail(path+"/"+escapeToken(key), ErrInvalidMessage, "unknown component property %q", key)
				return false
			}
			addSkelProp(skel, key, v)
		}
		return true
	})
	if ferr != nil {
		return nil, ferr
	}
	if comp.ID == "" {
		return nil, fail(path+"/id", ErrInvalidMessage, "component id is required")
	}
	if comp.Type == "" {
		return nil, fail(path+"/component", ErrInvalidMessage, "component %q has no type", comp.ID)
	}
	if v08 {
		inner := make(map[string]any, 2)
		props.ForEach(func(k, v gjson.Result) bool {
			addSkelProp(inner, k.Str, v)
			return true
		})
		skel["component"] = map[string]any{comp.Type: inner}
	}
	_ = refs // the reference fields are read by protocol.ComponentRefs from skel
	comp.skel = skel
	return comp, nil
}

// addSkelProp keeps, of one component property, what protocol.ComponentRefs
// may read: strings, arrays of strings or of objects with a "child", and
// objects with "componentId", "explicitList" or "template". Other values
// cannot hold references and are left out.
func addSkelProp(skel map[string]any, key string, v gjson.Result) {
	switch {
	case v.Type == gjson.String:
		skel[key] = v.Str
	case v.IsArray():
		if a := skelArray(v); a != nil {
			skel[key] = a
		}
	case v.IsObject():
		m := make(map[string]any, 1)
		v.ForEach(func(k, x gjson.Result) bool {
			switch k.Str {
			case "componentId":
				if x.Type == gjson.String {
					m["componentId"] = x.Str
				}
			case "explicitList":
				if a := skelArray(x); a != nil {
					m["explicitList"] = a
				}
			case "template":
				if x.IsObject() {
					if id := x.Get("componentId"); id.Type == gjson.String {
						m["template"] = map[string]any{"componentId": id.Str}
					} else {
						m["template"] = map[string]any{}
					}
				}
			}
			return true
		})
		if len(m) > 0 {
			skel[key] = m
		}
	}
}

func skelArray(v gjson.Result) []any {
	if !v.IsArray() {
		return nil
	}
	var out []any
	v.ForEach(func(_, x gjson.Result) bool {
		switch {
		case x.Type == gjson.String:
			out = append(out, x.Str)
		case x.IsObject():
			if ch := x.Get("child"); ch.Type == gjson.String {
				out = append(out, map[string]any{"child": ch.Str})
			} else {
				out = append(out, nil)
			}
		default:
			out = append(out, nil)
		}
		return true
	})
	if out == nil {
		out = []any{}
	}
	return out
}

// escapeToken escapes one JSON Pointer token.
func escapeToken(s string) string {
	return formatPointer([]string{s})[1:]
}
