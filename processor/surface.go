package processor

import (
	"encoding/json"
	"sort"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// Surface is one surface's state. The processor owns it: a *Surface
// obtained from Processor.Surface is valid, and must not be used
// concurrently with, or after, the next ProcessList call. Its methods may
// be called from several goroutines at once between two lists.
type Surface struct {
	id            string
	family        protocol.Family
	version       protocol.Version
	catalogID     string
	theme         string // raw JSON object, "" when none
	sendDataModel bool
	agent         string
	root          string // v0.8: set by beginRendering
	styles        string // v0.8: raw JSON object, "" when none

	// The components (see comp): records in first-arrival order (a
	// component keeps its index when replaced), their references, the
	// chunks of text they point into and the index from ids to records.
	comps       []comp
	refs        []span // the ids components reference
	deadRefs    int    // references of replaced records still in refs
	chunks      []string
	chunk0      [1]string // the first chunk's storage
	lastChunk   uint64    // the Processor.curID of chunks[lastChunkAt]; 0 for none
	lastChunkAt int32
	chunkLimit  int // compact drops unused chunks beyond this many
	idx         idIndex
	// parents maps a component id (present or not) to the indexes of the
	// components referencing it, once per reference; nil until an
	// incremental topology check needs it (see buildParents).
	parents map[string][]int32
	data    dataModel
}

func newSurface(id string, family protocol.Family, version protocol.Version, agent string) *Surface {
	return &Surface{id: id, family: family, version: version, agent: agent, data: newDataModel()}
}

// ID is the surface id.
func (s *Surface) ID() string { return s.id }

// Family is the protocol family the surface was created with.
func (s *Surface) Family() protocol.Family { return s.family }

// Version is the protocol version of the message that created the surface
// ("" for a v0.8 surface created by a message without one).
func (s *Surface) Version() protocol.Version { return s.version }

// CatalogID is the catalog the surface uses ("" for a v0.8 surface whose
// beginRendering named none: the standard catalog).
func (s *Surface) CatalogID() string { return s.catalogID }

// Theme is the createSurface theme as received, or nil.
func (s *Surface) Theme() json.RawMessage {
	if s.theme == "" {
		return nil
	}
	return json.RawMessage(s.theme)
}

// SendDataModel reports whether the surface's data model is sent back to
// the agent with client messages.
func (s *Surface) SendDataModel() bool { return s.sendDataModel }

// Agent is the agent whose list created the surface ("" if not given).
func (s *Surface) Agent() string { return s.agent }

// Root is the root component id: "root" for the v0.9 family, the
// beginRendering root for v0.8 ("" before it).
func (s *Surface) Root() string {
	if s.family == protocol.FamilyV08 {
		return s.root
	}
	return "root"
}

// Styles is the v0.8 beginRendering styles as received, or nil.
func (s *Surface) Styles() json.RawMessage {
	if s.styles == "" {
		return nil
	}
	return json.RawMessage(s.styles)
}

// Component returns a component by id.
func (s *Surface) Component(id string) (Component, bool) {
	i := s.find(hashID(id), id)
	if i < 0 {
		return Component{}, false
	}
	c := &s.comps[i]
	chunk := s.chunks[c.chunk]
	return Component{ID: c.id.in(chunk), Type: c.typ.in(chunk), JSON: c.json.in(chunk)}, true
}

// ComponentIDs lists the surface's component ids, sorted.
func (s *Surface) ComponentIDs() []string {
	ids := make([]string, len(s.comps))
	for i := range s.comps {
		ids[i] = s.idOf(&s.comps[i])
	}
	sort.Strings(ids)
	return ids
}

// Len is the number of components.
func (s *Surface) Len() int {
	return len(s.comps)
}

// idOf returns the id of one of the surface's records.
func (s *Surface) idOf(c *comp) string { return c.id.in(s.chunks[c.chunk]) }

// DataModel returns the whole data model as JSON (object keys sorted).
func (s *Surface) DataModel() (json.RawMessage, error) {
	v, err := plain(s.data.root)
	if err != nil {
		return nil, err
	}
	return marshalCompact(v)
}

// Data returns the value at a JSON Pointer in the data model, as JSON, and
// whether there is one.
func (s *Surface) Data(path string) (json.RawMessage, bool) {
	segs, err := parsePointer(path)
	if err != nil {
		return nil, false
	}
	n, ok := s.data.get(segs)
	if !ok {
		return nil, false
	}
	v, err := plain(n)
	if err != nil {
		return nil, false
	}
	b, err := marshalCompact(v)
	if err != nil {
		return nil, false
	}
	return b, true
}

// DataModelBytes is the approximate size of the data model, as counted
// against WithMaxDataModelBytes.
func (s *Surface) DataModelBytes() int { return s.data.bytes }

// buildParents builds the reverse reference index if it is not built.
func (s *Surface) buildParents() {
	if s.parents != nil {
		return
	}
	s.parents = make(map[string][]int32, len(s.comps))
	for i := range s.comps {
		c := &s.comps[i]
		chunk := s.chunks[c.chunk]
		for _, r := range s.refs[c.refs : c.refs+c.nrefs] {
			id := r.in(chunk)
			s.parents[id] = append(s.parents[id], int32(i))
		}
	}
}

// removeParent drops one reference from the component at index parent to
// child from the index.
func (s *Surface) removeParent(child string, parent int32) {
	list := s.parents[child]
	for i, x := range list {
		if x == parent {
			list[i] = list[len(list)-1]
			list = list[:len(list)-1]
			break
		}
	}
	if len(list) == 0 {
		delete(s.parents, child)
	} else {
		s.parents[child] = list
	}
}
