package parser

import "maps"

// deltaState remembers the data model entries delta mode has yielded, so
// that each data model message can be reduced to what is new or changed:
// the entries (v0.9 family: top-level keys of "value"; v0.8: "contents"
// entries by "key") that differ from the last yielded value at the same
// surface and path. deleteSurface forgets the surface; other messages pass
// through. (Component messages are reduced when they are built: see
// emitDelta. Component updates are upserts by id, so applying the reduced
// messages in order gives the same components as the full snapshots.)
type deltaState struct {
	data map[dataSlot]map[string]string
	enc  []byte   // scratch for encodings
	same []string // scratch for reduceValue
}

func newDeltaState() *deltaState {
	return &deltaState{data: map[dataSlot]map[string]string{}}
}

// forget drops what was yielded for a surface.
func (d *deltaState) forget(surface string) {
	for k := range d.data {
		if k.surface == surface {
			delete(d.data, k)
		}
	}
}

// changed reports whether v differs from the value last yielded under key
// in last (compared by their canonical encodings), recording it if so.
func (d *deltaState) changed(last map[string]string, key string, v any) bool {
	if ev, ok := v.(*encodedValue); ok {
		// Already encoded: compare and keep its encoding as it is.
		if prev, ok := last[key]; ok && prev == ev.out {
			return false
		}
		last[key] = ev.out
		return true
	}
	d.enc = appendJSON(d.enc[:0], v)
	if prev, ok := last[key]; ok && prev == string(d.enc) {
		return false
	}
	last[key] = string(d.enc)
	return true
}

// reduce returns msg reduced to what changed, and false when nothing did.
func (d *deltaState) reduce(msg map[string]any) (map[string]any, bool) {
	if body, ok := msg[kUpdateDataModel].(map[string]any); ok {
		return d.reduceValue(msg, body)
	}
	if body, ok := msg[kDataModelUpdate].(map[string]any); ok {
		return d.reduceContents(msg, body)
	}
	if v, ok := msg[kDeleteSurface]; ok {
		if s, ok := v.(string); ok {
			d.forget(s)
		} else if s, ok := bodySurface(v); ok {
			d.forget(s)
		}
	}
	return msg, true
}

// dataSlot names the data model a message addresses: a surface and a path.
type dataSlot struct{ surface, path string }

func withBody(msg map[string]any, kind string, body map[string]any) map[string]any {
	out := make(map[string]any, len(msg))
	for k, v := range msg {
		out[k] = v
	}
	out[kind] = body
	return out
}

func copyBody(body map[string]any) map[string]any {
	nb := make(map[string]any, len(body))
	for k, v := range body {
		nb[k] = v
	}
	return nb
}

func (d *deltaState) slot(body map[string]any) map[string]string {
	sid, _ := body["surfaceId"].(string)
	path, _ := body["path"].(string)
	return d.slotOf(dataSlot{sid, path})
}

// slotOf is the record of the data model entries yielded for k.
func (d *deltaState) slotOf(k dataSlot) map[string]string {
	m := d.data[k]
	if m == nil {
		m = map[string]string{}
		d.data[k] = m
	}
	return m
}

func (d *deltaState) reduceValue(msg map[string]any, body map[string]any) (map[string]any, bool) {
	value, ok := body["value"].(map[string]any)
	if !ok {
		// A scalar, list or absent value replaces what is at the path.
		sid, _ := body["surfaceId"].(string)
		path, _ := body["path"].(string)
		delete(d.data, dataSlot{sid, path})
		return msg, true
	}
	last := d.slot(body)
	same := d.same[:0] // the keys that did not change
	for k, v := range value {
		if !d.changed(last, k, v) {
			same = append(same, k)
		}
	}
	d.same = same
	if len(same) == len(value) && len(value) > 0 {
		return nil, false
	}
	if len(same) == 0 {
		return msg, true
	}
	changed := maps.Clone(value)
	for _, k := range same {
		delete(changed, k)
	}
	clear(same)
	nb := copyBody(body)
	nb["value"] = changed
	return withBody(msg, kUpdateDataModel, nb), true
}

func (d *deltaState) reduceContents(msg map[string]any, body map[string]any) (map[string]any, bool) {
	list, ok := body["contents"].([]any)
	if !ok {
		return msg, true
	}
	last := d.slot(body)
	kept := make([]any, 0, len(list))
	for _, it := range list {
		var key string
		var isStr bool
		switch entry := it.(type) {
		case map[string]any:
			key, isStr = entry["key"].(string)
		case *encodedValue:
			key, isStr = entry.key, entry.keyed
		}
		if !isStr {
			kept = append(kept, it)
			continue
		}
		if !d.changed(last, key, it) {
			continue
		}
		kept = append(kept, it)
	}
	if len(kept) == 0 && len(list) > 0 {
		return nil, false
	}
	if len(kept) == len(list) {
		return msg, true
	}
	nb := copyBody(body)
	nb["contents"] = kept
	return withBody(msg, kDataModelUpdate, nb), true
}
