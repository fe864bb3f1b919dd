package processor

import (
	"encoding/json"
	"sort"
)

// ClientDataModel is the a2uiClientDataModel metadata object: the data
// models of surfaces created with sendDataModel, by surface id.
type ClientDataModel struct {
	Version  string                     `json:"version"`
	Surfaces map[string]json.RawMessage `json:"surfaces"`
}

// ClientDataModel aggregates the data models of every surface created with
// sendDataModel: true. It returns nil when there is none (the metadata is
// then left out, as the reference does).
//
// The specification requires targeted delivery: a surface's data model
// goes only to the agent that created it. Use ClientDataModelFor when more
// than one agent shares the processor.
func (p *Processor) ClientDataModel() (*ClientDataModel, error) {
	return p.clientDataModel(func(*Surface) bool { return true })
}

// ClientDataModelFor is ClientDataModel restricted to the surfaces created
// by lists from agent (see ProcessListFrom).
func (p *Processor) ClientDataModelFor(agent string) (*ClientDataModel, error) {
	return p.clientDataModel(func(s *Surface) bool { return s.agent == agent })
}

func (p *Processor) clientDataModel(keep func(*Surface) bool) (*ClientDataModel, error) {
	var out *ClientDataModel
	for id, s := range p.surfaces {
		if !s.sendDataModel || !keep(s) {
			continue
		}
		dm, err := s.DataModel()
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = &ClientDataModel{Version: "v0.9", Surfaces: make(map[string]json.RawMessage)}
		}
		out.Surfaces[id] = dm
	}
	return out, nil
}

// ClientCapabilities is the a2uiClientCapabilities metadata object (v0.9
// shape): {"v0.9": {"supportedCatalogIds": [...]}}.
type ClientCapabilities struct {
	V09 CapabilitiesV09 `json:"v0.9"`
}

// CapabilitiesV09 is the v0.9 entry of ClientCapabilities.
type CapabilitiesV09 struct {
	SupportedCatalogIDs []string          `json:"supportedCatalogIds"`
	InlineCatalogs      []json.RawMessage `json:"inlineCatalogs,omitempty"`
}

// ClientCapabilities builds the a2uiClientCapabilities object for the
// given catalog ids; with none, it lists the catalogs the processor was
// configured with (WithCatalog, WithCatalogIDs), sorted. Duplicates are
// dropped; the order given is kept.
func (p *Processor) ClientCapabilities(catalogIDs ...string) ClientCapabilities {
	ids := catalogIDs
	if len(ids) == 0 {
		ids = make([]string, 0, len(p.catalogs))
		for id := range p.catalogs {
			ids = append(ids, id)
		}
		sort.Strings(ids)
	}
	seen := make(map[string]bool, len(ids))
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if id == "" || seen[id] {
			continue
		}
		seen[id] = true
		out = append(out, id)
	}
	return ClientCapabilities{V09: CapabilitiesV09{SupportedCatalogIDs: out}}
}
