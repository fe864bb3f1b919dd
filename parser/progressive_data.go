package parser

import (
	"bytes"
)

// Sniffing data model updates (the reference's "sniffing"): while a
// dataModelUpdate (v0.8) or updateDataModel (v0.9 family) message is still
// arriving, the engine heals it after each chunk, as the reference does,
// and yields the top-level data entries that are new or changed since they
// were last yielded.
//
// The outcome is that of decoding the healed message (healData): when the
// healed message is not valid JSON, it is cut back at its last comma, again
// and again, until a prefix heals into an object. The
// data model reader (dataReader) gives that outcome without decoding the
// message: it follows the message byte by byte as it arrives and keeps its
// complete data entries encoded, so that a sniff only decodes the entry
// still arriving. It takes the decoding path in the rare cases it does not
// model (a message that is not valid JSON so far, a data model message
// nested in another object, a string cut inside an escape).

// sniffSurface is the surface a sniffed data model update addresses.
func (e *progressiveEngine) sniffSurface(body map[string]any) string {
	s, _ := body["surfaceId"].(string)
	return e.surfaceOr(s)
}

// surfaceOr is s when it is not empty, else the current surface, else
// "default".
func (e *progressiveEngine) surfaceOr(s string) string {
	if s != "" {
		return s
	}
	if e.surface != "" {
		return e.surface
	}
	return defaultSurface
}

// sniffDataV08 yields the entries of a dataModelUpdate still arriving.
func (e *progressiveEngine) sniffDataV08() error {
	return e.sniffData(flagDataV08)
}

// sniffDataV09 yields the changed top-level entries of an updateDataModel
// value still arriving.
func (e *progressiveEngine) sniffDataV09() error {
	return e.sniffData(flagDataV09)
}

// sniffData sniffs the open objects with the data model key of flag,
// innermost first.
func (e *progressiveEngine) sniffData(flag uint8) error {
	s := &e.sc
	for i := len(s.stack) - 1; i >= 0; i-- {
		f := &s.stack[i]
		if f.open != '{' || f.flags&flag == 0 || !s.shouldSniff(f) {
			continue
		}
		if done, err := e.sniffDataRead(i, flag == flagDataV08); done || err != nil {
			if err != nil {
				return err
			}
			continue
		}
		obj, ok := e.healData(i)
		if !ok || len(obj) == 0 {
			continue
		}
		var err error
		if flag == flagDataV08 {
			err = e.sniffedDataV08(obj)
		} else {
			err = e.sniffedDataV09(obj)
		}
		if err != nil {
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
	changed := e.changedData(d, contents)
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
		e.recordData(d, k, v)
	}
	return nil
}

// changedData returns the entries of m that differ from what d recorded
// as yielded.
func (e *progressiveEngine) changedData(d map[string]string, m map[string]any) map[string]any {
	changed := map[string]any{}
	for k, v := range m {
		if e.dataDiffers(d, k, v) {
			changed[k] = v
		}
	}
	return changed
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
	changed := e.changedData(d, value)
	if len(changed) == 0 {
		return nil
	}
	return e.yieldDataV09(d, sid, path, hasPath, changed)
}

// yieldDataV09 yields the changed entries of a sniffed updateDataModel
// and records them.
func (e *progressiveEngine) yieldDataV09(d map[string]string, sid, path string, hasPath bool, changed map[string]any) error {
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
		e.recordData(d, k, v)
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
			val := entryValue(entry)
			key, _ := entry["key"].(string)
			if key != "" && val != nil {
				res[key] = val
			}
		}
		return res
	}
	return map[string]any{}
}

// entryValue is the value contentsToDict reads from a v0.8 data entry: the
// first of value, valueString, valueNumber and valueBoolean it has (even
// null), else its valueMap flattened; nil if none.
func entryValue(entry map[string]any) any {
	for _, vk := range [...]string{"value", "valueString", "valueNumber", "valueBoolean"} {
		if v, ok := entry[vk]; ok {
			if v != nil {
				return v
			}
			break
		}
	}
	if vm, has := entry["valueMap"]; has {
		return contentsToDict(vm)
	}
	return nil
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
