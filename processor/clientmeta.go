package processor

import (
	"encoding/json"
	"maps"
	"slices"
	"sort"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// The A2UI client metadata that travels with A2A messages. The types are
// defined here, once: the processor computes them (ClientDataModel,
// ClientCapabilities), and package stream/a2a reads and writes them on the
// wire (its ClientCapabilities and ClientDataModel are aliases of these).

// CatalogSupport is what a client renders for one protocol version: the ids
// of the catalogs it supports and any inline catalog definitions.
type CatalogSupport struct {
	SupportedCatalogIDs []string          `json:"supportedCatalogIds"`
	InlineCatalogs      []json.RawMessage `json:"inlineCatalogs,omitempty"`
}

// ClientCapabilities is the a2uiClientCapabilities metadata object. From
// v0.9 on it is keyed by version ({"v0.9.1": {"supportedCatalogIds": […]}});
// the older flat form ({"supportedCatalogIds": […]}, v0.8) has no version.
type ClientCapabilities struct {
	// Versions holds the keyed form, by normalised version ("0.9.1").
	Versions map[protocol.Version]CatalogSupport
	// Flat holds the older flat form. It is written only when Versions is
	// empty.
	Flat *CatalogSupport
}

// MarshalJSON writes the keyed form ("v"-prefixed version keys) or, when
// Versions is empty, the flat form ({} when that is absent too).
func (c ClientCapabilities) MarshalJSON() ([]byte, error) {
	if len(c.Versions) == 0 {
		if c.Flat == nil {
			return []byte("{}"), nil
		}
		return json.Marshal(normalisedSupport(*c.Flat))
	}
	m := make(map[string]CatalogSupport, len(c.Versions))
	for v, cs := range c.Versions {
		m["v"+string(v)] = normalisedSupport(cs)
	}
	return json.Marshal(m)
}

func normalisedSupport(cs CatalogSupport) CatalogSupport {
	if cs.SupportedCatalogIDs == nil {
		cs.SupportedCatalogIDs = []string{}
	}
	return cs
}

// Newest returns the newest version of the keyed form that is also among
// supported (all versions when supported is empty), with its catalogs. It
// reports false when there is none.
func (c ClientCapabilities) Newest(supported ...protocol.Version) (protocol.Version, CatalogSupport, bool) {
	vs := slices.SortedFunc(maps.Keys(c.Versions), func(a, b protocol.Version) int { return b.Compare(a) })
	for _, v := range vs {
		if len(supported) == 0 || slices.ContainsFunc(supported, func(s protocol.Version) bool { return s.Compare(v) == 0 }) {
			return v, c.Versions[v], true
		}
	}
	return "", CatalogSupport{}, false
}

// ClientDataModel is the a2uiClientDataModel metadata object: the data
// models of surfaces created with sendDataModel, by surface id.
type ClientDataModel struct {
	// Version is the protocol version, normalised ("0.9"); it is written
	// with a "v" prefix.
	Version  protocol.Version
	Surfaces map[string]json.RawMessage
}

// MarshalJSON writes {"version":"v<version>","surfaces":{…}}.
func (dm ClientDataModel) MarshalJSON() ([]byte, error) {
	s := dm.Surfaces
	if s == nil {
		s = map[string]json.RawMessage{}
	}
	return json.Marshal(struct {
		Version  string                     `json:"version"`
		Surfaces map[string]json.RawMessage `json:"surfaces"`
	}{"v" + string(dm.Version), s})
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
			out = &ClientDataModel{Version: protocol.V09, Surfaces: make(map[string]json.RawMessage)}
		}
		out.Surfaces[id] = dm
	}
	return out, nil
}

// ClientCapabilities builds the a2uiClientCapabilities object (keyed form,
// v0.9: {"v0.9": {"supportedCatalogIds": [...]}}) for the given catalog
// ids; with none, it lists the catalogs the processor was configured with
// (WithCatalog, WithCatalogIDs), sorted. Duplicates are dropped; the order
// given is kept.
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
	return ClientCapabilities{Versions: map[protocol.Version]CatalogSupport{protocol.V09: {SupportedCatalogIDs: out}}}
}
