package parser

import (
	"bytes"
	"reflect"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// endOfChunk runs after each segment: it heals and reads the open objects
// that can yield something (a component, a data model update) when a byte
// that can change them arrived, then yields a snapshot if components
// changed.
func (e *progressiveEngine) endOfChunk() error {
	s := &e.sc
	if len(s.stack) > 0 && len(s.buf) > 0 && s.sig {
		s.sig = false
		if s.compTok {
			e.sniffComponents()
		}
		var err error
		switch e.fam {
		case protocol.FamilyV08:
			if s.dataTokV08 {
				err = e.sniffDataV08()
			}
		case protocol.FamilyV09:
			if s.dataTokV09 {
				err = e.sniffDataV09()
			}
		}
		if err != nil {
			return err
		}
	}
	if e.dirty {
		e.dirty = false
		return e.yieldReachable(false)
	}
	return nil
}

// sniffFull is the size up to which an open object is healed whenever it
// changed; a larger one is healed again only once it grew by an eighth, so
// that the work (and, in delta mode, the output) stays linear in the input
// however large one object gets.
const sniffFull = 1024

// shouldSniff applies the growth rule to frame f and records the sniff.
func (s *progScan) shouldSniff(f *pframe) bool {
	size := len(s.buf) - f.start
	if size > sniffFull && size-f.sniffed < size/8 {
		return false
	}
	f.sniffed = size
	return true
}

// sniffComponents heals the open objects that have "id" and "component"
// keys, innermost first, and caches those that are components.
func (e *progressiveEngine) sniffComponents() {
	s := &e.sc
	fast := e.fastComps()
	// Every healed object ends the same way: after a dangling key none of
	// them is valid JSON.
	dangling := fast && s.danglingKey()
	for i := len(s.stack) - 1; i >= 0; i-- {
		f := &s.stack[i]
		if f.open != '{' || f.flags&(flagID|flagComponent) != flagID|flagComponent || !s.shouldSniff(f) {
			continue
		}
		if fast {
			if dangling {
				continue
			}
			healed, ok := e.healOpen(i)
			if !ok {
				continue
			}
			switch e.cs.scan(healed, e.fam == protocol.FamilyV08) {
			case compInvalid:
				continue
			case compFast:
				if !e.cs.emptyObj {
					sc := e.state(e.surface)
					if e.growFast(sc) == nil {
						fc := e.fastResult(sc)
						if ent := sc.comps[fc.id]; (ent == nil || ent.fast != fc) && e.putFast(sc, fc) {
							fc.owned = true
						}
					}
				}
				e.dirty = true
				continue
			}
			obj, ok := decodeObject(healed)
			if ok && truthy(obj["id"]) && truthy(obj["component"]) {
				e.sniffedComponent(obj)
			}
			continue
		}
		obj, ok := e.heal.healDecode(s.buf[f.start:])
		if !ok || !truthy(obj["id"]) || !truthy(obj["component"]) {
			continue
		}
		e.sniffedComponent(obj)
	}
}

// growFast handles the common case of a component still arriving (or
// just completed): the component e.cs just read has a partial entry in sc,
// held by that entry alone. Its bytes are updated in place, without
// allocating, and when its child ids did not change (so neither did its
// references) the topology is left untouched. It returns the entry's
// component, or nil, changing nothing, when the case does not apply.
func (e *progressiveEngine) growFast(sc *surfaceState) *fastComp {
	c := &e.cs
	ent := sc.comps[string(c.out[c.idA:c.idB])]
	if ent == nil || ent.fast == nil || !ent.fast.owned {
		return nil
	}
	fc := ent.fast
	if string(fc.src) == string(c.out) {
		return fc
	}
	// Slots [0, k) keep their child ids.
	k := 0
	for k < len(c.slots) && k < len(fc.slots) {
		sl := c.slots[k]
		if sl.field != fc.slots[k].field || string(c.out[sl.a:sl.b]) != string(fc.slotID(k)) {
			break
		}
		k++
	}
	same := k == len(c.slots) && k == len(fc.slots)
	if !same && fc.pns != nil {
		// A fresh cache (the old one may be shared, see putFast) that keeps
		// the placeholders of the unchanged slots.
		pns := make([]*phName, len(c.slots))
		copy(pns, fc.pns[:k])
		fc.pns = pns
	}
	// The entry's processed form may share the old bytes: it is stale
	// (record) and recomputed before it is read again.
	fc.src = append(fc.src[:0], c.out...)
	fc.slots = append(fc.slots[:0], c.slots...)
	refs, self := ent.refs, ent.selfRef
	if !same {
		refs, self = fc.refs(&e.names)
	}
	e.record(sc, fc.id, ent, refs, self)
	ent.raw = nil
	return fc
}

// sniffedComponent caches a healed component.
func (e *progressiveEngine) sniffedComponent(obj map[string]any) {
	switch c := obj["component"].(type) {
	case string:
		e.handlePartialComponent(obj)
	case map[string]any:
		if len(c) > 0 {
			e.handlePartialComponent(obj)
		}
	}
}

// healOpen is healer.heal for the open object at stack index i, using what
// the scanner knows (the open containers, the open string) instead of
// scanning the object's bytes again: the result is the same.
func (e *progressiveEngine) healOpen(i int) ([]byte, bool) {
	s := &e.sc
	start := s.stack[i].start
	f := rstripSpace(s.buf[start:])
	if len(f) == 0 {
		return nil, false
	}
	out := append(e.heal.out[:0], f...)
	if s.inStr {
		if !mayCutString(f, s.strStart-start) {
			return nil, false
		}
		out = append(out, '"')
	} else if n := len(out); out[n-1] == ',' {
		out = rstripSpace(out[:n-1])
	}
	for j := len(s.stack) - 1; j >= i; j-- {
		if s.stack[j].open == '{' {
			out = append(out, '}')
		} else {
			out = append(out, ']')
		}
	}
	e.heal.out = out
	return out, true
}

// sniffSurface is the surface a sniffed data model update addresses.
func (e *progressiveEngine) sniffSurface(body map[string]any) string {
	if s, ok := body["surfaceId"].(string); ok && s != "" {
		return s
	}
	if e.surface != "" {
		return e.surface
	}
	return "default"
}

// sniffDataV08 yields the entries of a dataModelUpdate still arriving.
func (e *progressiveEngine) sniffDataV08() error {
	s := &e.sc
	for i := len(s.stack) - 1; i >= 0; i-- {
		f := &s.stack[i]
		if f.open != '{' || f.flags&flagDataV08 == 0 || !s.shouldSniff(f) {
			continue
		}
		obj, ok := e.healData(i)
		if !ok || len(obj) == 0 {
			continue
		}
		if err := e.sniffedDataV08(obj); err != nil {
			return err
		}
		e.dataLastGen = e.dataGen
	}
	return nil
}

// sniffedDataV08 yields what is new in a healed data model message.
func (e *progressiveEngine) sniffedDataV08(obj map[string]any) error {
	body, ok := obj[kDataModelUpdate].(map[string]any)
	if !ok {
		return nil
	}
	raw, ok := body["contents"]
	if !ok {
		return nil
	}
	contents := contentsToDict(raw)
	if len(contents) == 0 {
		return nil
	}
	sid := e.sniffSurface(body)
	path, _ := body["path"].(string)
	d := e.dataState(dataSlot{sid, path})
	changed := map[string]any{}
	for k, v := range contents {
		if !reflect.DeepEqual(d[k], v) {
			changed[k] = v
		}
	}
	if len(changed) == 0 {
		return nil
	}
	var out any = changed
	if list, ok := raw.([]any); ok {
		out = pruneEntries(latestEntries(list, contents))
	}
	payload := map[string]any{"surfaceId": sid, "contents": out}
	if p, ok := body["path"]; ok {
		payload["path"] = p
	}
	if err := e.yieldMessage(map[string]any{kDataModelUpdate: payload}, false); err != nil {
		return err
	}
	for k, v := range contents {
		d[k] = v
	}
	return nil
}

// sniffDataV09 yields the changed top-level entries of an updateDataModel
// value still arriving.
func (e *progressiveEngine) sniffDataV09() error {
	s := &e.sc
	for i := len(s.stack) - 1; i >= 0; i-- {
		f := &s.stack[i]
		if f.open != '{' || f.flags&flagDataV09 == 0 || !s.shouldSniff(f) {
			continue
		}
		obj, ok := e.healData(i)
		if !ok || len(obj) == 0 {
			continue
		}
		if err := e.sniffedDataV09(obj); err != nil {
			return err
		}
		e.dataLastGen = e.dataGen
	}
	return nil
}

// sniffedDataV09 yields what is new in a healed data model message.
func (e *progressiveEngine) sniffedDataV09(obj map[string]any) error {
	body, ok := obj[kUpdateDataModel].(map[string]any)
	if !ok {
		return nil
	}
	value, ok := body["value"].(map[string]any)
	if !ok {
		return nil
	}
	sid := e.sniffSurface(body)
	path, hasPath := body["path"].(string)
	d := e.dataState(dataSlot{sid, path})
	changed := map[string]any{}
	for k, v := range value {
		if !reflect.DeepEqual(d[k], v) {
			changed[k] = v
		}
	}
	if len(changed) == 0 {
		return nil
	}
	payload := map[string]any{"surfaceId": sid, "value": changed}
	if hasPath {
		// The reference drops the path here, which would write the
		// entries at the root; keep it.
		payload["path"] = path
	}
	msg := map[string]any{"version": e.versionFor(sid), kUpdateDataModel: payload}
	if err := e.yieldMessage(msg, false); err != nil {
		return err
	}
	for k, v := range changed {
		d[k] = v
	}
	return nil
}

// contentsToDict flattens v0.8 data model contents (a list of {key,
// value*} entries, valueMap nesting) into key -> value.
func contentsToDict(raw any) map[string]any {
	switch x := raw.(type) {
	case map[string]any:
		return x
	case []any:
		res := map[string]any{}
		for _, it := range x {
			entry, ok := it.(map[string]any)
			if !ok {
				continue
			}
			var val any
			for _, vk := range [...]string{"value", "valueString", "valueNumber", "valueBoolean"} {
				if v, ok := entry[vk]; ok {
					val = v
					break
				}
			}
			if vm, has := entry["valueMap"]; has && val == nil {
				val = contentsToDict(vm)
			}
			key, _ := entry["key"].(string)
			if key != "" && val != nil {
				res[key] = val
			}
		}
		return res
	}
	return map[string]any{}
}

// latestEntries keeps, for each key of contents, the last entry of list
// with that key, in list order.
func latestEntries(list []any, contents map[string]any) []any {
	seen := map[string]bool{}
	var rev []any
	for i := len(list) - 1; i >= 0; i-- {
		entry, ok := list[i].(map[string]any)
		if !ok {
			continue
		}
		k, _ := entry["key"].(string)
		if k == "" || seen[k] {
			continue
		}
		if _, ok := contents[k]; !ok {
			continue
		}
		seen[k] = true
		rev = append(rev, entry)
	}
	out := make([]any, len(rev))
	for i, v := range rev {
		out[len(rev)-1-i] = v
	}
	return out
}

// pruneEntries drops data model entries that have a key but no value yet
// (recursively inside valueMap).
func pruneEntries(entries []any) []any {
	out := make([]any, 0, len(entries))
	for _, it := range entries {
		entry, ok := it.(map[string]any)
		if !ok {
			out = append(out, it)
			continue
		}
		hasVal := false
		for _, vk := range [...]string{"value", "valueString", "valueNumber", "valueBoolean"} {
			if _, ok := entry[vk]; ok {
				hasVal = true
				break
			}
		}
		if vm, ok := entry["valueMap"]; ok {
			if list, isList := vm.([]any); isList {
				pruned := pruneEntries(list)
				if len(pruned) == 0 && len(list) > 0 {
					delete(entry, "valueMap")
				} else {
					entry["valueMap"] = pruned
					hasVal = true
				}
			}
		}
		if _, hasKey := entry["key"]; hasVal && hasKey {
			out = append(out, entry)
		}
	}
	return out
}

// healData heals the open data model message at stack index i and decodes
// it, with the reference's fallback for data model fragments: when the
// healed fragment does not parse, it is cut back at its last comma, again
// and again, until a prefix heals into an object. It reports false, without
// decoding, when the input is the one the last data sniff handled and no
// data was recorded since: the outcome would be the same (nothing new).
func (e *progressiveEngine) healData(i int) (map[string]any, bool) {
	s := &e.sc
	frag := s.buf[s.stack[i].start:]
	try := func(src []byte) (map[string]any, bool, bool) {
		if e.dataLastGen == e.dataGen && e.dataLastSurface == e.surface && string(e.dataLast) == string(src) {
			return nil, false, true
		}
		m, ok := decodeObject(src)
		if ok {
			e.dataLast = append(e.dataLast[:0], src...)
			e.dataLastSurface = e.surface
		}
		return m, ok, false
	}
	if src, ok := e.healOpen(i); ok {
		if m, ok, same := try(src); ok || same {
			return m, ok
		}
	}
	trimmed := frag
	for {
		j := bytes.LastIndexByte(trimmed, ',')
		if j < 0 {
			return nil, false
		}
		trimmed = trimmed[:j]
		fixed, ok := e.heal.heal(trimmed)
		if !ok {
			continue
		}
		if m, ok, same := try(fixed); ok || same {
			return m, ok
		}
	}
}

// danglingKey reports whether the buffered text ends with an object key
// (whole or cut) or a key and its colon, with no value yet: healed, it is
// not valid JSON.
func (s *progScan) danglingKey() bool {
	if len(s.stack) == 0 || s.stack[len(s.stack)-1].open != '{' {
		return false
	}
	if s.inStr {
		return !s.strIsVal
	}
	return s.prevColon || (s.afterStr && !s.strIsVal)
}
