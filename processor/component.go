package processor

import (
	"strconv"

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

	refs []ref // references to other components (topology)

	// height is the length of the longest reference path below the
	// component in its surface's graph (topology checks only). While
	// parseComponents runs it holds len(refs), so that a Component fits
	// in 96 bytes.
	height int32

	// Scratch marks of the topology checks, stamped with an epoch (not
	// state). mark == epoch means, in the check using it: on the full
	// walk's stack (heights), visited (reaches), in the affected set
	// (checkIncremental); no two of these run on one epoch. tentEpoch ==
	// epoch means tent is the tentative height.
	tent            int32
	mark, tentEpoch uint64
}

// hasRef reports whether c references id.
func (c *Component) hasRef(id string) bool {
	for _, r := range c.refs {
		if r.id == id {
			return true
		}
	}
	return false
}

// ref is one reference from a component to another component id, with
// where it sits (rendered as protocol.ComponentRef.Field on demand).
type ref struct {
	id     string
	key    string
	suffix refSuffix
	index  int32 // for suffixChildAt
}

type refSuffix uint8

const (
	suffixNone refSuffix = iota
	suffixComponentID
	suffixExplicitList
	suffixTemplateComponentID
	suffixChildAt // key[index].child
)

// field renders where a reference sits, as protocol.ComponentRefs does
// ("child", "children.explicitList", "tabs[0].child", ...).
func (r ref) field() string {
	switch r.suffix {
	case suffixComponentID:
		return r.key + ".componentId"
	case suffixExplicitList:
		return r.key + ".explicitList"
	case suffixTemplateComponentID:
		return r.key + ".template.componentId"
	case suffixChildAt:
		return r.key + "[" + strconv.Itoa(int(r.index)) + "].child"
	}
	return r.key
}

// parseComponents decodes the components array of an updateComponents
// (v0.9 family) or surfaceUpdate (v0.8) body (token arr, -1 if absent). It
// checks each component's envelope (an object with a string id and type)
// and, when withRefs is set, extracts its references. The components of
// one message share their allocations.
func parseComponents(tp *protocol.Tape, arr int, v08, withRefs bool, refFields protocol.RefFieldsFunc) ([]*Component, *MessageError) {
	if arr < 0 {
		return nil, fail("/components", ErrInvalidMessage, "components is required")
	}
	if !tp.IsArray(arr) {
		return nil, fail("/components", ErrInvalidMessage, "components must be an array")
	}
	n := tp.Count(arr)
	slab := make([]Component, 0, n)
	var refBuf []ref
	if withRefs {
		refBuf = make([]ref, 0, n+4) // a tree has n-1 references
	}
	var ferr *MessageError
	tp.Items(arr)(func(i, c int) bool {
		slab = append(slab, Component{})
		start := len(refBuf)
		if ferr = parseComponent(tp, &slab[i], c, i, v08, withRefs, refFields, &refBuf); ferr != nil {
			return false
		}
		slab[i].height = int32(len(refBuf) - start) // len(refs), for now
		return true
	})
	if ferr != nil {
		return nil, ferr
	}
	if len(slab) == 0 {
		return nil, fail("/components", ErrInvalidMessage, "components must not be empty")
	}
	out := make([]*Component, len(slab))
	at := 0
	for i := range slab {
		n := int(slab[i].height)
		slab[i].height = 0
		slab[i].refs = refBuf[at : at+n : at+n]
		at += n
		out[i] = &slab[i]
	}
	return out, nil
}

func componentPath(i int, rest string) string {
	return "/components/" + strconv.Itoa(i) + rest
}

// parseComponent checks one component's envelope and, with withRefs,
// appends its references to refs.
func parseComponent(tp *protocol.Tape, comp *Component, c, i int, v08, withRefs bool, refFields protocol.RefFieldsFunc, refs *[]ref) *MessageError {
	if !tp.IsObject(c) {
		return fail(componentPath(i, ""), ErrInvalidMessage, "a component must be an object")
	}
	comp.JSON = tp.Raw(c)
	var single, list []string
	if withRefs && !v08 && refFields != nil {
		if t := tp.Member(c, "component"); tp.IsString(t) {
			single, list = refFields(tp.Str(t))
		}
	}
	props := -1
	// The members, read directly off the tape (the hot loop of an update).
	for j, end := c+1, tp.Next(c); j < end; j = tp.Next(j + 1) {
		k, esc := tp.Text(j)
		if esc {
			k = tp.Str(j)
		}
		v := j + 1
		switch k {
		case "id":
			id, esc := "", false
			if tp.IsString(v) {
				if id, esc = tp.Text(v); esc {
					id = tp.Str(v)
				}
			}
			if id == "" {
				return fail(componentPath(i, "/id"), ErrInvalidMessage, "component id must be a non-empty string")
			}
			comp.ID = id
		case "component":
			if !v08 {
				typ, esc := "", false
				if tp.IsString(v) {
					if typ, esc = tp.Text(v); esc {
						typ = tp.Str(v)
					}
				}
				if typ == "" {
					return fail(componentPath(i, "/component"), ErrInvalidMessage, "component type must be a non-empty string")
				}
				comp.Type = internType(typ)
				continue
			}
			n := 0
			if tp.IsObject(v) {
				tp.Members(v)(func(t string, p int) bool {
					n++
					comp.Type, props = internType(t), p
					return n < 2
				})
			}
			if n != 1 || comp.Type == "" || !tp.IsObject(props) {
				return fail(componentPath(i, "/component"), ErrInvalidMessage, "v0.8 component must be an object with exactly one key, the component type, holding an object")
			}
			continue
		case "weight":
			if v08 && tp.Kind(v) != protocol.TapeNumber {
				return fail(componentPath(i, "/weight"), ErrInvalidMessage, "weight must be a number")
			}
		default:
			if v08 {
				return fail(componentPath(i, "/"+escapeToken(k)), ErrInvalidMessage, "unknown component property %q", k)
			}
		}
		if withRefs && !v08 {
			*refs = appendPropRefs(tp, *refs, k, v, single, list)
		}
	}
	if comp.ID == "" {
		return fail(componentPath(i, "/id"), ErrInvalidMessage, "component id is required")
	}
	if comp.Type == "" {
		return fail(componentPath(i, "/component"), ErrInvalidMessage, "component %q has no type", comp.ID)
	}
	if withRefs && v08 {
		if refFields != nil {
			single, list = refFields(comp.Type)
		}
		*refs = appendRefs(tp, *refs, props, single, list)
	}
	return nil
}

// Property names that hold references whatever the catalog says: the
// protocol package's well-known names (see protocol.RefFieldsFunc).
func heuristicSingle(k string) bool {
	switch k {
	case "child", "contentChild", "entryPointChild", "detail", "summary", "root":
		return true
	}
	return false
}

func heuristicList(k string) bool {
	switch k {
	case "children", "explicitList", "template":
		return true
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// appendRefs appends the references a component's properties make. It
// follows protocol.ComponentRefs exactly (a differential test holds the
// two together), reading the message's tape instead of a decoded map so
// that a component costs no allocation beyond its share of the message's.
func appendRefs(tp *protocol.Tape, dst []ref, props int, single, list []string) []ref {
	tp.Members(props)(func(k string, v int) bool {
		dst = appendPropRefs(tp, dst, k, v, single, list)
		return true
	})
	return dst
}

// appendPropRefs appends the references of one property. It walks the
// tape's tokens directly (no iterator closures): it runs for every
// property of every component.
func appendPropRefs(tp *protocol.Tape, dst []ref, key string, v int, single, list []string) []ref {
	switch tp.Kind(v) {
	case protocol.TapeString:
		// Only a single-reference property can hold an id as a string.
		if heuristicSingle(key) || contains(single, key) {
			dst = append(dst, ref{id: tapeStr(tp, v), key: internKey(key)})
		}
		return dst
	case protocol.TapeObject, protocol.TapeArray:
	default:
		return dst // numbers, booleans and null hold no references
	}
	inList := contains(list, key)
	switch {
	case contains(single, key) || heuristicSingle(key):
		if tp.IsObject(v) {
			if id := tp.Member(v, "componentId"); tp.IsString(id) {
				dst = append(dst, ref{id: tapeStr(tp, id), key: internKey(key), suffix: suffixComponentID})
			}
		}
	case inList || heuristicList(key):
		switch {
		case tp.IsArray(v):
			for item, end := v+1, tp.Next(v); item < end; item = tp.Next(item) {
				if tp.IsString(item) {
					dst = append(dst, ref{id: tapeStr(tp, item), key: internKey(key)})
				}
			}
		case tp.IsObject(v):
			if el := tp.Member(v, "explicitList"); el >= 0 {
				if tp.IsArray(el) {
					for item, end := el+1, tp.Next(el); item < end; item = tp.Next(item) {
						if tp.IsString(item) {
							dst = append(dst, ref{id: tapeStr(tp, item), key: internKey(key), suffix: suffixExplicitList})
						}
					}
				}
			} else if tpl := tp.Member(v, "template"); tpl >= 0 {
				if tp.IsObject(tpl) {
					if id := tp.Member(tpl, "componentId"); tp.IsString(id) {
						dst = append(dst, ref{id: tapeStr(tp, id), key: internKey(key), suffix: suffixTemplateComponentID})
					}
				}
			} else if id := tp.Member(v, "componentId"); tp.IsString(id) {
				dst = append(dst, ref{id: tapeStr(tp, id), key: internKey(key), suffix: suffixComponentID})
			}
		}
	}
	// Arrays of objects with a "child" (e.g. tabs: [{title, child}]).
	if tp.IsArray(v) && !inList {
		i := 0
		for item, end := v+1, tp.Next(v); item < end; item, i = tp.Next(item), i+1 {
			if tp.IsObject(item) {
				if ch := tp.Member(item, "child"); tp.IsString(ch) {
					if id := tapeStr(tp, ch); id != "" {
						dst = append(dst, ref{id: id, key: internKey(key), suffix: suffixChildAt, index: int32(i)})
					}
				}
			}
		}
	}
	return dst
}

// tapeStr is string token t's value (Str, with the escape-free common case
// inline).
func tapeStr(tp *protocol.Tape, t int) string {
	s, esc := tp.Text(t)
	if esc {
		return tp.Str(t)
	}
	return s
}

// escapeToken escapes one JSON Pointer token.
func escapeToken(s string) string {
	return formatPointer([]string{s})[1:]
}
