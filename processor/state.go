package processor

import (
	"bytes"
	"encoding/json"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// StateError is one entry of the "errors" array of the canonical state: a
// failure in the list with the given 0-based index.
type StateError struct {
	List    int    `json:"list"`
	Message string `json:"message"`
}

// Snapshot returns the processor's state as plain JSON values, in the
// canonical shape:
//
//	{"surfaces": {"<surfaceId>": {
//	    "catalogId": <string or null>, "theme": <object or null>,
//	    "sendDataModel": <bool>,
//	    "components": {"<id>": <the component object as held>},
//	    "dataModel": <the whole data model>}}}
//
// A v0.8 surface also has "root" and "styles" (string/object or null), and
// its components keep their v0.8 shape. Numbers are json.Number, so they
// keep the text they arrived with.
func (p *Processor) Snapshot() (map[string]any, error) {
	surfaces := make(map[string]any, len(p.surfaces))
	for id, s := range p.surfaces {
		m, err := s.snapshot()
		if err != nil {
			return nil, err
		}
		surfaces[id] = m
	}
	return map[string]any{"surfaces": surfaces}, nil
}

func (s *Surface) snapshot() (map[string]any, error) {
	comps := make(map[string]any, len(s.comps))
	for i := range s.comps {
		c := &s.comps[i]
		chunk := s.chunks[c.chunk]
		v, err := plain(rawJSON(c.json.in(chunk)))
		if err != nil {
			return nil, err
		}
		comps[c.id.in(chunk)] = v
	}
	data, err := plain(s.data.root)
	if err != nil {
		return nil, err
	}
	m := map[string]any{
		"catalogId":     nullIfEmpty(s.catalogID),
		"theme":         nil,
		"sendDataModel": s.sendDataModel,
		"components":    comps,
		"dataModel":     data,
	}
	if s.theme != "" {
		if m["theme"], err = plain(rawJSON(s.theme)); err != nil {
			return nil, err
		}
	}
	if s.family == protocol.FamilyV08 {
		m["root"] = nullIfEmpty(s.root)
		m["styles"] = nil
		if s.styles != "" {
			if m["styles"], err = plain(rawJSON(s.styles)); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// StateJSON renders the canonical state: Snapshot plus an "errors" array
// (empty when errs is), with object keys sorted at every level, 2-space
// indentation and a trailing newline.
func (p *Processor) StateJSON(errs []StateError) ([]byte, error) {
	snap, err := p.Snapshot()
	if err != nil {
		return nil, err
	}
	list := make([]any, len(errs))
	for i, e := range errs {
		list[i] = map[string]any{"list": e.List, "message": e.Message}
	}
	snap["errors"] = list
	return MarshalCanonical(snap)
}

// MarshalCanonical encodes plain JSON values with object keys sorted at
// every level, 2-space indentation, no HTML escaping and a trailing
// newline.
func MarshalCanonical(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// marshalCompact encodes plain JSON values compactly, keys sorted, without
// HTML escaping.
func marshalCompact(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
