package parser

// Sniffing data model updates (the reference's "sniffing"): while a
// dataModelUpdate (v0.8) or updateDataModel (v0.9 family) message is still
// arriving, the engine heals it after each chunk, as the reference does,
// and yields the top-level data entries that are new or changed since they
// were last yielded.
//
// The outcome is the reference's: that of decoding the healed message,
// where a healed message that is not valid JSON is cut back at its last
// comma, again and again, until a prefix heals into an object. The data
// model reader (dataReader) gives that outcome without decoding the
// message: it follows the message byte by byte as it arrives and keeps
// its complete data entries encoded, so that a sniff only decodes the
// entry still arriving. It reads every shape the reference sniffs: a
// message, a data model object nested in one (sniffed as a message of its
// own), a string cut inside an escape, and a message that is not valid
// JSON (a block whose bracket count is lost, read the reference's way).

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
		if err := e.sniffDataRead(i, flag == flagDataV08); err != nil {
			return err
		}
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
