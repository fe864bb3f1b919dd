package processor

import (
	"bytes"
	"encoding/json"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

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
// keep the text they arrived with. (The command line's "apply --state"
// renders it, with its errors, in a canonical text form.)
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
