package processor

import (
	"math"
	"strconv"
	"unsafe"

	"github.com/a2ui-stream/a2ui-stream/internal/jsontape"
	"github.com/a2ui-stream/a2ui-stream/protocol"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// Component is one component as a surface holds it (see
// Surface.Component).
type Component struct {
	// ID is the component's id.
	ID string
	// Type is the component type ("Text", "Column", ...).
	Type string
	// JSON is the component object as received: for the v0.9 family the
	// flat object ({"id","component":"Text","text":…}); for v0.8 the nested
	// one ({"id","component":{"Text":{…}}}, with "weight" if given).
	JSON string
}

// How a surface holds its components
//
// A surface keeps the text its components arrived in as a few chunks
// (Surface.chunks: the copies of the lists that carried them; a component
// with escaped strings gets a chunk of its own, see relocate), and each
// component as a record of offsets into its chunk: its JSON, id and type,
// and its references as a run of the surface's reference slab. Records,
// references and the id index (idIndex) hold no pointers, so a surface is
// a handful of pointers for the garbage collector to follow, however many
// components it holds.

// span is a string held by a surface: n bytes at off in a chunk.
type span struct{ off, n int32 }

// in returns the span's string in chunk.
func (sp span) in(chunk string) string { return chunk[sp.off : sp.off+sp.n] }

// comp is one component as a surface holds it: offsets only, no pointers.
type comp struct {
	// chunk is the index of the component's text in Surface.chunks; while
	// an update is checked, the update's records have chunk < 0: pending
	// chunk -chunk-1 (Processor.pend).
	chunk int32
	json  span // the component object
	id    span
	typ   span // the type ("Text"; for v0.8 the key of the component object)

	refs, nrefs int32 // references: the ids refs[refs:refs+nrefs] of the slab

	// height is the length of the longest reference path below the
	// component in its surface's graph (topology checks only).
	height int32
}

// A component's references are held as the spans of the ids they name
// (in the component's chunk): nothing else of them is kept. When an
// error message needs where one sits (refInfo), the component's references
// are extracted again from its text (see refField).

// refInfo is where a reference sits (rendered as
// protocol.ComponentRef.Field on demand): under which property (a span of
// the component's chunk), and how.
type refInfo struct {
	key    span
	index  int32 // for suffixChildAt
	suffix refSuffix
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
// ("child", "children.explicitList", "tabs[0].child", ...), given the
// reference's chunk.
func (r refInfo) field(chunk string) string {
	key := r.key.in(chunk)
	switch r.suffix {
	case suffixComponentID:
		return key + ".componentId"
	case suffixExplicitList:
		return key + ".explicitList"
	case suffixTemplateComponentID:
		return key + ".template.componentId"
	case suffixChildAt:
		return key + "[" + strconv.Itoa(int(r.index)) + "].child"
	}
	return key
}

// updInfo is what the checks of an update know about one of its records
// (Processor.uinfo, parallel to Processor.upd).
type updInfo struct {
	hash       uint32 // of the id
	slot       int32  // the record's index in the surface once stored; -1 for a new id until storeComponents assigns one
	prev       int32  // the update's earlier record with the same id, or -1
	superseded bool   // a later record of the update has the same id
}

// setSource makes msg, a substring of chunk, the message whose components
// the processor parses next: offsets are taken in chunk, which the
// surfaces keep.
func (p *Processor) setSource(chunk string, chunkID uint64) {
	p.cur, p.curID = chunk, chunkID
	p.curBase = uintptr(unsafe.Pointer(unsafe.StringData(chunk)))
}

// textSpan returns the span of s, a substring of the current chunk.
func (p *Processor) textSpan(s string) span {
	if len(s) == 0 {
		return span{}
	}
	// Both pointers are into the one chunk allocation: their difference
	// is s's offset in it.
	return span{off: int32(uintptr(unsafe.Pointer(unsafe.StringData(s))) - p.curBase), n: int32(len(s))}
}

// escSpan records s, an unescaped string that is not in the current
// chunk, in the escape buffer; its span (off = -1 - position) is relocated
// into the component's own chunk once the component is parsed.
func (p *Processor) escSpan(s string) span {
	sp := span{off: -1 - int32(len(p.esc)), n: int32(len(s))}
	p.esc = append(p.esc, s...)
	return sp
}

// strSpan returns string token t's value and its span.
func (p *Processor) strSpan(tp *jsontape.Tape, t int) (string, span) {
	s, esc := tp.Text(t)
	if esc {
		s = tp.Str(t)
		return s, p.escSpan(s)
	}
	return s, p.textSpan(s)
}

// stringSpan is strSpan for token t when it is a string, else "".
func (p *Processor) stringSpan(tp *jsontape.Tape, t int) (string, span) {
	if !tp.IsString(t) {
		return "", span{}
	}
	return p.strSpan(tp, t)
}

// parseComponents decodes the components array of an updateComponents
// (v0.9 family) or surfaceUpdate (v0.8) body (token arr, -1 if absent)
// into the processor's update records (p.upd, p.uinfo, references in
// p.urefs; with p.wantWhere also p.urefx). It checks each component's
// envelope (an object with a string id and type) and, when withRefs is
// set, extracts its references.
func (p *Processor) parseComponents(tp *jsontape.Tape, arr int, v08, withRefs bool, refFields protocol.RefFieldsFunc) *MessageError {
	if arr < 0 {
		return fail("/components", ErrInvalidMessage, "components is required")
	}
	if !tp.IsArray(arr) {
		return fail("/components", ErrInvalidMessage, "components must be an array")
	}
	p.updV08, p.updRefFields = v08, refFields
	n := tp.Count(arr)
	// The scratch is reused; one much larger update does not keep its
	// size forever.
	if cap(p.upd) > 4*n+256 {
		p.upd, p.uinfo, p.urefs, p.urefx = nil, nil, nil, nil
	}
	if cap(p.upd) < n {
		p.upd = make([]comp, 0, n)
		p.uinfo = make([]updInfo, 0, n)
	}
	p.upd, p.uinfo, p.urefs, p.urefx = p.upd[:n], p.uinfo[:n], p.urefs[:0], p.urefx[:0]
	p.pend = append(p.pend[:0], p.cur)
	upd, uinfo := p.upd, p.uinfo
	for i, c, end := 0, arr+1, tp.Next(arr); c < end; i, c = i+1, tp.Next(c) {
		upd[i] = comp{refs: int32(len(p.urefs))}
		uinfo[i] = updInfo{slot: -1, prev: -1}
		if merr := p.parseComponent(tp, c, i, v08, withRefs, refFields); merr != nil {
			return merr
		}
	}
	if n == 0 {
		return fail("/components", ErrInvalidMessage, "components must not be empty")
	}
	return nil
}

func componentPath(i int, rest string) string {
	return "/components/" + strconv.Itoa(i) + rest
}

// parseComponent checks the envelope of component i (token c) into record
// p.upd[i] and, with withRefs, appends its references (see
// parseComponents).
func (p *Processor) parseComponent(tp *jsontape.Tape, c, i int, v08, withRefs bool, refFields protocol.RefFieldsFunc) *MessageError {
	if !tp.IsObject(c) {
		return fail(componentPath(i, ""), ErrInvalidMessage, "a component must be an object")
	}
	rec := &p.upd[i]
	rec.chunk = -1 // pending chunk 0: the message's
	rec.json = p.textSpan(tp.Raw(c))
	p.esc = p.esc[:0]
	var single, list []string
	if withRefs && !v08 && refFields != nil {
		if t := tp.Member(c, "component"); tp.IsString(t) {
			single, list = refFields(tp.Str(t))
		}
	}
	var id, typ string
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
			s, sp := p.stringSpan(tp, v)
			if s == "" {
				return fail(componentPath(i, "/id"), ErrInvalidMessage, "component id must be a non-empty string")
			}
			id, rec.id = s, sp
			if single == nil {
				continue // an id is a reference only when the catalog says so
			}
		case "component":
			if !v08 {
				s, sp := p.stringSpan(tp, v)
				if s == "" {
					return fail(componentPath(i, "/component"), ErrInvalidMessage, "component type must be a non-empty string")
				}
				typ, rec.typ = s, sp
				continue
			}
			n := 0
			if tp.IsObject(v) {
				for m, mend := v+1, tp.Next(v); m < mend && n < 2; m = tp.Next(m + 1) {
					n++
					typ, rec.typ = p.strSpan(tp, m)
					props = m + 1
				}
			}
			if n != 1 || typ == "" || !tp.IsObject(props) {
				return fail(componentPath(i, "/component"), ErrInvalidMessage, "v0.8 component must be an object with exactly one key, the component type, holding an object")
			}
			continue
		case "weight":
			if v08 && tp.Kind(v) != jsontape.Number {
				return fail(componentPath(i, "/weight"), ErrInvalidMessage, "weight must be a number")
			}
		default:
			if v08 {
				return fail(componentPath(i, "/"+jsonwire.EscapePointerToken(k)), ErrInvalidMessage, "unknown component property %q", k)
			}
		}
		if withRefs && !v08 {
			switch tp.Kind(v) {
			case jsontape.Object, jsontape.Array:
				p.appendPropRefs(tp, k, j, v, single, list)
			case jsontape.String:
				if single != nil || heuristicSingle(k) {
					p.appendPropRefs(tp, k, j, v, single, list)
				}
			}
		}
	}
	if id == "" {
		return fail(componentPath(i, "/id"), ErrInvalidMessage, "component id is required")
	}
	if typ == "" {
		return fail(componentPath(i, "/component"), ErrInvalidMessage, "component %q has no type", id)
	}
	if withRefs && v08 {
		if refFields != nil {
			single, list = refFields(typ)
		}
		p.appendRefs(tp, props, single, list)
	}
	rec.nrefs = int32(len(p.urefs)) - rec.refs
	p.uinfo[i].hash = hashID(id)
	if len(p.esc) > 0 {
		if int64(rec.json.n)+int64(len(p.esc)) > math.MaxInt32 {
			return fail(componentPath(i, ""), ErrLimit, "component %q is too large", id)
		}
		p.relocate(rec)
	}
	return nil
}

// relocate gives a component some of whose strings have escapes (their
// unescaped values are in p.esc) a chunk of its own: its JSON followed by
// those values, with every span moved into it.
func (p *Processor) relocate(rec *comp) {
	base, n := rec.json.off, rec.json.n
	chunk := p.cur[base:base+n] + string(p.esc)
	fix := func(sp *span) {
		switch {
		case sp.n == 0:
		case sp.off < 0:
			sp.off = n + (-1 - sp.off)
		default:
			sp.off -= base
		}
	}
	fix(&rec.id)
	fix(&rec.typ)
	for i := rec.refs; i < rec.refs+rec.nrefs; i++ {
		fix(&p.urefs[i])
		if p.wantWhere {
			fix(&p.urefx[i].key)
		}
	}
	rec.json.off = 0
	p.pend = append(p.pend, chunk)
	rec.chunk = -int32(len(p.pend))
	p.esc = p.esc[:0]
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

// appendRefs appends the references a v0.8 component's properties (object
// token props) make. It follows protocol.ComponentRefs exactly (a
// differential test holds the two together), reading the message's tape
// instead of a decoded map.
func (p *Processor) appendRefs(tp *jsontape.Tape, props int, single, list []string) {
	for j, end := props+1, tp.Next(props); j < end; j = tp.Next(j + 1) {
		k, esc := tp.Text(j)
		if esc {
			k = tp.Str(j)
		}
		p.appendPropRefs(tp, k, j, j+1, single, list)
	}
}

// appendPropRefs appends the references of one property (key k, key token
// kt, value token v). It walks the tape's tokens directly (no iterator
// closures): it runs for every property of every component.
func (p *Processor) appendPropRefs(tp *jsontape.Tape, k string, kt, v int, single, list []string) {
	switch tp.Kind(v) {
	case jsontape.String:
		// Only a single-reference property can hold an id as a string.
		if heuristicSingle(k) || contains(single, k) {
			p.addRef(tp, v, kt, suffixNone, 0)
		}
		return
	case jsontape.Object, jsontape.Array:
	default:
		return // numbers, booleans and null hold no references
	}
	inList := contains(list, k)
	switch {
	case contains(single, k) || heuristicSingle(k):
		if tp.IsObject(v) {
			if id := tp.Member(v, "componentId"); tp.IsString(id) {
				p.addRef(tp, id, kt, suffixComponentID, 0)
			}
		}
	case inList || heuristicList(k):
		switch {
		case tp.IsArray(v):
			for item, end := v+1, tp.Next(v); item < end; item = tp.Next(item) {
				if tp.IsString(item) {
					p.addRef(tp, item, kt, suffixNone, 0)
				}
			}
		case tp.IsObject(v):
			if el := tp.Member(v, "explicitList"); el >= 0 {
				if tp.IsArray(el) {
					for item, end := el+1, tp.Next(el); item < end; item = tp.Next(item) {
						if tp.IsString(item) {
							p.addRef(tp, item, kt, suffixExplicitList, 0)
						}
					}
				}
			} else if tpl := tp.Member(v, "template"); tpl >= 0 {
				if tp.IsObject(tpl) {
					if id := tp.Member(tpl, "componentId"); tp.IsString(id) {
						p.addRef(tp, id, kt, suffixTemplateComponentID, 0)
					}
				}
			} else if id := tp.Member(v, "componentId"); tp.IsString(id) {
				p.addRef(tp, id, kt, suffixComponentID, 0)
			}
		}
	}
	// Arrays of objects with a "child" (e.g. tabs: [{title, child}]). An
	// array spanning one token per item holds no object.
	if tp.IsArray(v) && !inList && tp.Next(v)-v-1 != tp.Count(v) {
		i := 0
		for item, end := v+1, tp.Next(v); item < end; item, i = tp.Next(item), i+1 {
			if tp.IsObject(item) {
				if ch := tp.Member(item, "child"); tp.IsString(ch) {
					if s, _ := tp.Text(ch); s != "" {
						p.addRef(tp, ch, kt, suffixChildAt, int32(i))
					}
				}
			}
		}
	}
}

// addRef appends the reference held by string token t, under the property
// with key token kt.
func (p *Processor) addRef(tp *jsontape.Tape, t, kt int, suffix refSuffix, index int32) {
	_, id := p.strSpan(tp, t)
	p.urefs = append(p.urefs, id)
	if p.wantWhere {
		p.urefx = append(p.urefx, refInfo{key: p.keySpan(tp, kt), suffix: suffix, index: index})
	}
}

// keySpan is the span of key token kt's value.
func (p *Processor) keySpan(tp *jsontape.Tape, kt int) span {
	_, sp := p.strSpan(tp, kt)
	return sp
}

// refField renders where the k-th reference of a component (its JSON
// text js) sits, extracting its references again, with where they sit
// (error messages only).
func refField(js string, v08 bool, refFields protocol.RefFieldsFunc, k int32) string {
	q := Processor{work: &work{wantWhere: true}}
	q.setSource(js, 0)
	if q.tp.Parse(js) != nil {
		return ""
	}
	q.upd, q.uinfo, q.pend = []comp{{}}, []updInfo{{}}, []string{js}
	if q.parseComponent(&q.tp, 0, 0, v08, true, refFields) != nil || k >= q.upd[0].nrefs {
		return ""
	}
	rc := &q.upd[0]
	return q.urefx[rc.refs+k].field(q.pend[-rc.chunk-1])
}
