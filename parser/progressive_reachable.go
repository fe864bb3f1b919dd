package parser

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"slices"
	"sort"
	"strings"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// hashSeed keys the hashes of encoded components (compared to tell whether
// a component changed since it was last yielded).
var hashSeed = maphash.MakeSeed()

// Fields whose values name child components; a child that has not arrived
// is replaced by a placeholder component.
var childFields = [...]string{"children", "explicitList", "child", "contentChild", "entryPointChild", "componentId"}

// yieldReachable yields a snapshot of the components of the current surface
// reachable from its root, with placeholders for children that have not
// arrived, when something in it is new or changed (in delta mode, only what
// changed). With checkRoot (a complete update arrived) a missing root
// component is an error.
func (e *progressiveEngine) yieldReachable(checkRoot bool) error {
	root, hasRoot := e.rootID()
	if !hasRoot || root == "" || !e.kindSeen {
		return nil
	}
	sid := e.surface
	if sid == "" || !e.yieldedStart[sid] || e.deleted[sid] {
		return nil
	}
	s := e.state(sid)
	if checkRoot && s.comps[root] == nil {
		kind := kSurfaceUpdate
		if e.fam == protocol.FamilyV09 {
			kind = kUpdateComponents
		}
		return errNoRoot(root, kind)
	}
	s.setRoot(root)
	if s.rebuild || s.suspect || s.selfRef > 0 {
		if err := e.analyze(s); err != nil {
			return err
		}
	}
	for id := range s.bufDeps {
		if ent := s.comps[id]; ent != nil && ent.reach {
			ent.stale = true
			s.dirty[id] = struct{}{}
		}
	}
	for id := range s.woken {
		s.dirty[id] = struct{}{}
	}
	clear(s.woken)
	should := false
	for id := range s.dirty {
		ent := s.comps[id]
		if ent == nil || !ent.reach {
			delete(s.dirty, id)
			continue
		}
		if !ent.stale && ent.woken > 0 && e.cat == nil && e.patchArrived(s, ent) {
			ent.woken = 0
		}
		if !ent.stale && ent.woken > 0 {
			// Children that arrived turn placeholders into references. A
			// large component is redone only once an eighth of its
			// placeholders resolved (or its update completed), so that
			// the work stays linear however many children it has.
			if len(ent.phs) <= 16 || checkRoot || ent.woken*8 >= len(ent.phs) {
				ent.stale = true
			} else {
				s.woken[id] = struct{}{}
			}
		}
		if ent.stale {
			e.process(s, id, ent)
		}
		if prev, ok := s.yielded[id]; !ok || prev != ent.hash {
			should = true
			s.unsent[id] = struct{}{}
		}
		if !ent.phsYielded {
			for _, ph := range ent.phs {
				if _, ok := s.yielded[ph]; !ok {
					should = true
					s.unsent[ph] = struct{}{}
				}
			}
		}
	}
	if !should {
		clear(s.dirty)
		return nil
	}
	if !e.delta && !checkRoot && !e.forceYield && s.reachBytes > snapFull && e.smallChange(s) {
		// A large snapshot is yielded again only once an eighth of it
		// changed (or its update completed, or the block ended), so that
		// the output stays linear in the input however large a surface
		// grows. The pending changes stay dirty for the next call.
		s.deferred = true
		return nil
	}
	s.deferred = false
	valid := e.cat == nil || e.snapshotValid(s, sid)
	if valid {
		if e.delta {
			e.emitDelta(s, sid)
		} else {
			e.emitSnapshot(s, sid)
		}
	}
	for id := range s.dirty {
		ent := s.comps[id]
		s.yielded[id] = ent.hash
		if !ent.phsYielded {
			for _, ph := range ent.phs {
				if _, ok := s.yielded[ph]; !ok {
					s.yielded[ph] = 0
				}
			}
			ent.phsYielded = true
		}
	}
	clear(s.dirty)
	return nil
}

// snapFull is the snapshot size (bytes of reachable components) up to
// which progressive mode yields every change.
const snapFull = 32 << 10

// smallChange reports whether what changed in the surface since its last
// snapshot is less than an eighth of the snapshot.
func (e *progressiveEngine) smallChange(s *surfaceState) bool {
	changed := 0
	for id := range s.dirty {
		ent := s.comps[id]
		if prev, ok := s.yielded[id]; !ok || prev != ent.hash {
			changed += len(ent.pjson)
		}
		if !ent.phsYielded {
			changed += 64 * len(ent.phs)
		}
	}
	return changed*8 < s.reachBytes
}

// flushDeferred yields the snapshots held back by the size rule.
func (e *progressiveEngine) flushDeferred() error {
	var err error
	saved := e.surface
	e.forceYield = true
	for sid, s := range e.seen {
		if !s.deferred || sid == "" {
			continue
		}
		e.surface = sid
		if ferr := e.yieldReachable(false); ferr != nil && err == nil {
			err = ferr
		}
	}
	e.forceYield = false
	e.surface = saved
	return err
}

// state returns the component state of a surface.
func (e *progressiveEngine) state(sid string) *surfaceState {
	s := e.seen[sid]
	if s == nil {
		s = newSurfaceState(sid)
		e.seen[sid] = s
	}
	return s
}

// process recomputes a component's processed form and its encoding.
func (e *progressiveEngine) process(s *surfaceState, id string, ent *compEntry) {
	for _, w := range ent.waits {
		if m := s.waiters[w]; m != nil {
			delete(m, id)
			if len(m) == 0 {
				delete(s.waiters, w)
			}
		}
	}
	p := placeholderSet{e: e, s: s}
	var pval map[string]any
	oldLen := len(ent.pjson)
	if ent.fast != nil {
		ent.pjson, ent.shared = p.processFast(ent.fast)
	} else {
		pval = p.process(ent.raw)
		if ent.shared {
			ent.pjson, ent.shared = nil, false
		}
		ent.pjson = appendJSON(ent.pjson[:0], pval)
	}
	ent.hash = maphash.Bytes(hashSeed, ent.pjson)
	if ent.reach {
		s.reachBytes += len(ent.pjson) - oldLen
	}
	ent.phs, ent.waits, ent.waitN, ent.usesBuf = p.extra, p.waits, p.waitN, p.usesBuf
	for _, w := range ent.waits {
		m := s.waiters[w]
		if m == nil {
			m = map[string]struct{}{}
			s.waiters[w] = m
		}
		m[id] = struct{}{}
	}
	if ent.usesBuf {
		s.bufDeps[id] = struct{}{}
	} else {
		delete(s.bufDeps, id)
	}
	ent.stale, ent.woken, ent.phsYielded = false, 0, false
	old := ent.valid
	ent.valid = 0
	if e.cat != nil {
		if pval == nil {
			pval, _ = decodeObject(ent.pjson)
		}
		ent.valid = 1
		msg := e.componentMessage(s.id, []any{pval})
		if e.cat.Validate([]any{msg}, protocol.WithStrictIntegrity(false)) != nil {
			ent.valid = -1
		}
	}
	if ent.reach {
		if old < 0 {
			s.invalid--
		}
		if ent.valid < 0 {
			s.invalid++
		}
	}
}

// patchArrived updates the encoded processed form of ent for children that
// arrived since it was processed, by turning their placeholder references
// back into the children's ids in place, which is what processing again
// would do. It reports false (and changes nothing) when the encoding does
// not hold exactly the expected placeholder references.
func (e *progressiveEngine) patchArrived(s *surfaceState, ent *compEntry) bool {
	if len(ent.waits) > 16 {
		return false // the large-component rule applies instead
	}
	var arrived []int
	for i, w := range ent.waits {
		if _, ok := s.comps[w]; ok {
			arrived = append(arrived, i)
		}
	}
	if len(arrived) == 0 || len(arrived) > 8 {
		return false
	}
	oldLen := len(ent.pjson)
	var pat [64]byte
	for _, i := range arrived {
		w := ent.waits[i]
		p := appendJSONString(append(pat[:0], `"loading_`...), w)
		p = append(p[:9], p[10:]...) // drop the quote appendJSONString opened
		if bytes.Count(ent.pjson, p) != ent.waitN[i] {
			return false
		}
	}
	for _, i := range arrived {
		w := ent.waits[i]
		p := appendJSONString(append(pat[:0], `"loading_`...), w)
		p = append(p[:9], p[10:]...)
		ent.pjson = bytes.ReplaceAll(ent.pjson, p, append([]byte{'"'}, p[9:]...))
		if j := slices.Index(ent.phs, "loading_"+w); j >= 0 {
			ent.phs = slices.Delete(slices.Clone(ent.phs), j, j+1)
		}
	}
	for k := len(arrived) - 1; k >= 0; k-- {
		i := arrived[k]
		ent.waits = slices.Delete(slices.Clone(ent.waits), i, i+1)
		ent.waitN = slices.Delete(slices.Clone(ent.waitN), i, i+1)
	}
	ent.hash = maphash.Bytes(hashSeed, ent.pjson)
	s.reachBytes += len(ent.pjson) - oldLen
	return true
}

// snapshotValid reports whether the snapshot passes the catalog: every
// component and placeholder in it does (components of an update are
// validated independently of each other).
func (e *progressiveEngine) snapshotValid(s *surfaceState, sid string) bool {
	if s.invalid > 0 {
		return false
	}
	if e.phValid == nil {
		e.phValid = map[string]bool{}
	}
	for id := range s.dirty {
		for _, ph := range s.comps[id].phs {
			ok, known := e.phValid[ph]
			if !known {
				msg := e.componentMessage(sid, []any{e.placeholder(ph)})
				ok = e.cat.Validate([]any{msg}, protocol.WithStrictIntegrity(false)) == nil
				e.phValid[ph] = ok
			}
			if !ok {
				return false
			}
		}
	}
	return true
}

// placeholderJSON is the encoding of a placeholder component.
func (e *progressiveEngine) placeholderJSON(id string) []byte {
	if b, ok := e.phJSON[id]; ok {
		return b
	}
	if e.phJSON == nil {
		e.phJSON = map[string][]byte{}
	}
	b := appendJSON(nil, e.placeholder(id))
	e.phJSON[id] = b
	return b
}

// emitSnapshot emits the full snapshot of the surface.
func (e *progressiveEngine) emitSnapshot(s *surfaceState, sid string) {
	ents := e.snapEnts[:0]
	n := 96 + len(sid)
	nph := 0
	for _, id := range s.sorted {
		ent := s.comps[id]
		ents = append(ents, ent)
		n += len(ent.pjson) + 1
		nph += len(ent.phs)
	}
	e.snapPhs = e.snapPhs[:0]
	if nph > 0 {
		useMap := nph > 32
		if useMap {
			if e.phSeen == nil {
				e.phSeen = map[string]struct{}{}
			}
			clear(e.phSeen)
		}
		for _, ent := range ents {
			for _, ph := range ent.phs {
				if useMap {
					if _, dup := e.phSeen[ph]; dup {
						continue
					}
					e.phSeen[ph] = struct{}{}
				} else if slices.Contains(e.snapPhs, ph) {
					continue
				}
				e.snapPhs = append(e.snapPhs, ph)
				n += len(e.placeholderJSON(ph)) + 1
			}
		}
	}
	b := make([]byte, 0, n)
	b = e.openComponentMessage(b)
	for i, ent := range ents {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, ent.pjson...)
	}
	for _, ph := range e.snapPhs {
		b = append(b, ',')
		b = append(b, e.placeholderJSON(ph)...)
	}
	clear(ents)
	e.snapEnts = ents[:0]
	b = e.closeComponentMessage(b, sid)
	e.emitRaw(b, e.fam == protocol.FamilyV08, sid)
	clear(s.unsent)
}

// emitDelta emits only the components and placeholders of the snapshot not
// yet sent in their current form.
func (e *progressiveEngine) emitDelta(s *surfaceState, sid string) {
	var comps, phs []string
	var inUse map[string]struct{}
	for id := range s.unsent {
		if ent := s.comps[id]; ent != nil {
			if ent.reach {
				comps = append(comps, id)
			}
			continue
		}
		if inUse == nil {
			inUse = e.placeholdersInUse(s)
		}
		if _, ok := inUse[id]; ok {
			phs = append(phs, id)
		}
	}
	clear(s.unsent)
	if len(comps)+len(phs) == 0 {
		return
	}
	sort.Strings(comps)
	sort.Strings(phs)
	b := e.openComponentMessage(nil)
	for i, id := range comps {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, s.comps[id].pjson...)
	}
	for i, ph := range phs {
		if i > 0 || len(comps) > 0 {
			b = append(b, ',')
		}
		b = append(b, e.placeholderJSON(ph)...)
	}
	b = e.closeComponentMessage(b, sid)
	e.emitRaw(b, false, sid)
}

// placeholdersInUse returns the placeholders of the current snapshot:
// those of the changed components, or, when an earlier snapshot was held
// back (it did not validate), of every reachable component.
func (e *progressiveEngine) placeholdersInUse(s *surfaceState) map[string]struct{} {
	use := map[string]struct{}{}
	for id := range s.dirty {
		for _, ph := range s.comps[id].phs {
			use[ph] = struct{}{}
		}
	}
	for id := range s.unsent {
		if _, ok := s.comps[id]; ok {
			continue
		}
		if _, ok := use[id]; !ok {
			for _, cid := range s.sorted {
				for _, ph := range s.comps[cid].phs {
					use[ph] = struct{}{}
				}
			}
			return use
		}
	}
	return use
}

// openComponentMessage starts the encoding of a component message (keys in
// sorted order, as every message is encoded).
func (e *progressiveEngine) openComponentMessage(b []byte) []byte {
	if e.fam == protocol.FamilyV09 {
		return append(b, `{"updateComponents":{"components":[`...)
	}
	return append(b, `{"surfaceUpdate":{"components":[`...)
}

func (e *progressiveEngine) closeComponentMessage(b []byte, sid string) []byte {
	b = append(b, `],"surfaceId":`...)
	b = appendJSONString(b, sid)
	if e.fam == protocol.FamilyV09 {
		b = append(b, `},"version":`...)
		b = appendJSONString(b, e.versionFor(sid))
		return append(b, '}')
	}
	return append(b, "}}"...)
}

// componentMessage wraps components in the family's component message.
func (e *progressiveEngine) componentMessage(sid string, list []any) map[string]any {
	if e.fam == protocol.FamilyV09 {
		return map[string]any{
			"version":         e.versionFor(sid),
			kUpdateComponents: map[string]any{"surfaceId": sid, "components": list},
		}
	}
	return map[string]any{kSurfaceUpdate: map[string]any{"surfaceId": sid, "components": list}}
}

// placeholder returns the family's loading placeholder component.
func (e *progressiveEngine) placeholder(id string) map[string]any {
	if e.fam == protocol.FamilyV09 {
		return map[string]any{"id": id, "component": "Row", "children": []any{}}
	}
	return map[string]any{"id": id, "component": map[string]any{"Row": map[string]any{"children": map[string]any{"explicitList": []any{}}}}}
}

// placeholderSet builds processed copies of components for one snapshot,
// collecting the placeholders they need (each once, in first-use order).
type placeholderSet struct {
	e       *progressiveEngine
	s       *surfaceState
	extra   []string // placeholder ids, each once, in first-use order
	waits   []string // missing child ids
	waitN   []int    // placements of each missing child's placeholder
	usesBuf bool
	have    map[string]struct{} // extra and waits, once they grow
}

func (p *placeholderSet) add(id, missing string) {
	if !p.has("p\x00"+id, p.extra, id) {
		p.extra = append(p.extra, id)
	}
	if missing == "" {
		return
	}
	if !p.has("w\x00"+missing, p.waits, missing) {
		p.waits = append(p.waits, missing)
		p.waitN = append(p.waitN, 1)
		return
	}
	// Count the placements of an already-missing child.
	if i := slices.Index(p.waits, missing); i >= 0 {
		p.waitN[i]++
	}
}

// has reports whether v is in list (as key in the set once lists grow),
// recording it.
func (p *placeholderSet) has(key string, list []string, v string) bool {
	if p.have == nil && len(list) < 16 {
		return slices.Contains(list, v)
	}
	if p.have == nil {
		p.have = make(map[string]struct{}, 4*len(list))
		for _, x := range p.extra {
			p.have["p\x00"+x] = struct{}{}
		}
		for _, x := range p.waits {
			p.have["w\x00"+x] = struct{}{}
		}
	}
	if _, ok := p.have[key]; ok {
		return true
	}
	p.have[key] = struct{}{}
	return false
}

// process returns a copy of comp with missing children replaced by
// placeholders and (v0.8) data binding paths normalised.
func (p *placeholderSet) process(comp map[string]any) map[string]any {
	if !p.needsWalk(comp, 0) {
		return comp
	}
	compID := fmt.Sprint(comp["id"])
	if def, ok := comp["component"].(map[string]any); ok {
		out := make(map[string]any, len(comp))
		for k, v := range comp {
			out[k] = v
		}
		out["component"] = p.walk(def, compID)
		return out
	}
	return p.walk(comp, compID).(map[string]any)
}

// processFast is process for a component read at byte level: its bytes,
// with the ids of children that have not arrived turned into placeholder
// ids. shared reports that the result is fc.src itself.
func (p *placeholderSet) processFast(fc *fastComp) (out []byte, shared bool) {
	missing := 0
	for f := range childFields {
		for i, sl := range fc.slots {
			if int(sl.field) != f {
				continue
			}
			if _, ok := p.s.comps[string(fc.slotID(i))]; ok {
				continue
			}
			missing++
			ck := string(fc.slotID(i))
			p.add("loading_"+ck, ck)
		}
	}
	if missing == 0 {
		return fc.src, true
	}
	out = make([]byte, 0, len(fc.src)+missing*len("loading_"))
	last := 0
	for i, sl := range fc.slots {
		if _, ok := p.s.comps[string(fc.slotID(i))]; ok {
			continue
		}
		out = append(out, fc.src[last:sl.a]...)
		out = append(out, "loading_"...)
		last = int(sl.a)
	}
	return append(out, fc.src[last:]...), false
}

// needsWalk reports whether v holds anything the processing rewrites: a
// child field (or, in v0.8, a data binding path) in some object.
func (p *placeholderSet) needsWalk(v any, depth int) bool {
	switch x := v.(type) {
	case map[string]any:
		if depth > 0 || p.e.fam == protocol.FamilyV08 {
			if _, ok := x["path"]; ok && p.e.fam == protocol.FamilyV08 {
				return true
			}
		}
		for k, val := range x {
			switch k {
			case "children", "explicitList", "child", "contentChild", "entryPointChild", "componentId":
				return true
			}
			switch val.(type) {
			case map[string]any, []any:
				if p.needsWalk(val, depth+1) {
					return true
				}
			}
		}
	case []any:
		for _, item := range x {
			if p.needsWalk(item, depth+1) {
				return true
			}
		}
	}
	return false
}

func childKey(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// walk copies v, applying the placeholder and path rules to every object.
func (p *placeholderSet) walk(v any, compID string) any {
	switch x := v.(type) {
	case map[string]any:
		obj := make(map[string]any, len(x))
		for k, val := range x {
			obj[k] = val
		}
		if p.e.fam == protocol.FamilyV08 {
			if path, ok := obj["path"].(string); ok && strings.HasPrefix(path, "/") {
				if _, keep := obj["componentId"]; !keep {
					clear(obj)
				}
				obj["path"] = "/" + strings.TrimLeft(path, "/")
			} else if cur, ok := obj["path"]; ok && cur != nil {
				obj["path"] = "/" + pyStr(cur)
			}
		}
		for _, field := range childFields {
			val, ok := obj[field]
			if !ok {
				continue
			}
			switch cv := val.(type) {
			case []any:
				kids := make([]any, 0, len(cv))
				for _, child := range cv {
					ck := childKey(child)
					if _, seen := p.s.comps[ck]; seen {
						kids = append(kids, child)
						continue
					}
					pid := "loading_" + ck
					kids = append(kids, pid)
					p.add(pid, ck)
				}
				if len(kids) == 0 && (field == "children" || field == "explicitList") {
					p.usesBuf = true
					if p.e.listStillOpen(field) {
						pid := "loading_children_" + compID
						kids = append(kids, pid)
						p.add(pid, "")
					}
				}
				obj[field] = kids
			case string:
				if _, seen := p.s.comps[cv]; !seen {
					pid := "loading_" + cv
					obj[field] = pid
					p.add(pid, cv)
				}
			}
		}
		var nested []string
		for k, val := range obj {
			switch val.(type) {
			case map[string]any, []any:
				nested = append(nested, k)
			}
		}
		sort.Strings(nested)
		for _, k := range nested {
			obj[k] = p.walk(obj[k], compID)
		}
		return obj
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = p.walk(item, compID)
		}
		return out
	}
	return v
}

// listStillOpen is the reference's check that an empty child list is a
// list still arriving: the last `"field"` in the buffered message is
// followed by a '[' with no ']' before it.
func (e *progressiveEngine) listStillOpen(field string) bool {
	buf := e.sc.buf
	term := []byte(`"` + field + `"`)
	i := bytes.LastIndex(buf, term)
	if i < 0 {
		return false
	}
	after := buf[i+len(term):]
	j := bytes.IndexByte(after, '[')
	if j < 0 {
		return false
	}
	return bytes.IndexByte(after[:j], ']') < 0
}

// pyStr renders a non-string path value as Python's str() would, close
// enough for the JSON values a path can hold.
func pyStr(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		if x {
			return "True"
		}
		return "False"
	case json.Number:
		return x.String()
	}
	b, _ := json.Marshal(v)
	return string(b)
}
