package processor

import (
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// liveSurface returns the surface an update addresses, checking that it
// exists and belongs to the message's family.
func (p *Processor) liveSurface(env *envelope) (*Surface, *MessageError) {
	s, ok := p.surfaces[env.surfaceID]
	if !ok {
		return nil, fail("/surfaceId", ErrUnknownSurface, "surface %q does not exist", env.surfaceID)
	}
	if s.family != env.family {
		return nil, fail("", ErrVersion, "%s is a %s message but surface %q is %s", env.kind, env.family, s.id, s.family)
	}
	return s, nil
}

func (p *Processor) createSurface(env *envelope, agent string, t *tracker) *MessageError {
	tp := env.tp
	cat, ok, merr := env.getString("catalogId")
	if merr != nil {
		return merr
	}
	if !ok {
		return fail("/catalogId", ErrInvalidMessage, "catalogId is required")
	}
	theme := env.get("theme")
	if theme >= 0 && !tp.IsObject(theme) {
		return fail("/theme", ErrInvalidMessage, "theme must be an object")
	}
	sdm := env.get("sendDataModel")
	if sdm >= 0 && tp.Kind(sdm) != protocol.TapeTrue && tp.Kind(sdm) != protocol.TapeFalse {
		return fail("/sendDataModel", ErrInvalidMessage, "sendDataModel must be a boolean")
	}
	if _, ok := p.surfaces[env.surfaceID]; ok {
		return fail("/surfaceId", ErrSurfaceExists, "surface %q already exists (delete it first)", env.surfaceID)
	}
	if !p.catalogAllowed(cat) {
		return fail("/catalogId", ErrUnknownCatalog, "catalog %q is not supported", cat)
	}
	if len(p.surfaces) >= p.opts.maxSurfaces {
		return fail("/surfaceId", ErrLimit, "cannot create surface %q: the processor holds its maximum of %d surfaces", env.surfaceID, p.opts.maxSurfaces)
	}
	s := newSurface(env.surfaceID, protocol.FamilyV09, env.version, agent)
	s.catalogID = cat
	if theme >= 0 {
		s.theme = tp.Raw(theme)
	}
	s.sendDataModel = sdm >= 0 && tp.Kind(sdm) == protocol.TapeTrue
	p.surfaces[s.id] = s
	t.create(s.id)
	return nil
}

func (p *Processor) deleteSurface(env *envelope, t *tracker) *MessageError {
	// Deleting a surface that does not exist is a no-op, as in the
	// reference renderer.
	if _, ok := p.surfaces[env.surfaceID]; ok {
		delete(p.surfaces, env.surfaceID)
		t.remove(env.surfaceID)
	}
	return nil
}

func (p *Processor) updateComponents(env *envelope, t *tracker) *MessageError {
	s, merr := p.liveSurface(env)
	if merr != nil {
		return merr
	}
	comps, merr := parseComponents(env.tp, env.get("components"), false, p.opts.topology, p.refFields(s.family, s.catalogID))
	if merr != nil {
		return merr
	}
	upd, plan, merr := p.checkComponents(s, comps)
	if merr != nil {
		return merr
	}
	p.storeComponents(s, comps, upd, plan, t)
	return nil
}

// checkComponents checks an update's components against the surface: the
// component bound and the topology. It changes nothing.
func (p *Processor) checkComponents(s *Surface, comps []*Component) (map[string]*Component, topoPlan, *MessageError) {
	upd, dup := p.indexUpdate(comps, len(s.components) == 0)
	if dup != "" && p.opts.topology {
		return nil, topoPlan{}, topoFailure(protocol.ErrDuplicateID, "Duplicate component ID: %s", dup)
	}
	added := 0
	for _, c := range comps {
		if !latest(upd, comps, c) {
			continue // a later component has this id
		}
		if _, ok := s.components[c.ID]; !ok {
			added++
		}
	}
	if len(s.components)+added > p.opts.maxComponents {
		return nil, topoPlan{}, fail("/components", ErrLimit, "surface %q would hold %d components, more than the bound of %d", s.id, len(s.components)+added, p.opts.maxComponents)
	}
	var plan topoPlan
	if p.opts.topology {
		var merr *MessageError
		if plan, merr = p.checkTopology(s, comps, upd, s.Root()); merr != nil {
			return nil, topoPlan{}, merr
		}
	}
	return upd, plan, nil
}

// indexUpdate maps an update's ids to its components (the last one for a
// repeated id, as a later entry replaces an earlier one) and reports the
// first repeated id. For a surface without components the map is fresh
// (storeComponents adopts it as the surface's map); otherwise it is a map
// the processor reuses.
func (p *Processor) indexUpdate(comps []*Component, fresh bool) (map[string]*Component, string) {
	var m map[string]*Component
	if fresh {
		m = make(map[string]*Component, len(comps))
	} else {
		// Reuse the map, unless an earlier, much larger update grew it:
		// clearing costs its capacity, not its length.
		if p.upd == nil || p.updCap > 4*len(comps)+64 {
			p.upd, p.updCap = make(map[string]*Component, len(comps)), len(comps)
		}
		clear(p.upd)
		p.updCap = max(p.updCap, len(comps))
		m = p.upd
	}
	dup := ""
	for _, c := range comps {
		if _, ok := m[c.ID]; ok && dup == "" {
			dup = c.ID
		}
		m[c.ID] = c
	}
	return m, dup
}

// storeComponents stores checked components: each replaces any component
// with its id whole (all its properties); a changed type is recorded as a
// recreation.
//
// upd is the update indexed by id (see indexUpdate); a surface without
// components adopts it as its map.
func (p *Processor) storeComponents(s *Surface, comps []*Component, upd map[string]*Component, plan topoPlan, t *tracker) {
	if p.opts.topology {
		p.commitTopology(s, comps, upd, plan)
	}
	if len(s.components) == 0 {
		s.components = upd
		s.order = make([]string, 0, len(upd))
		for _, c := range comps {
			if latest(upd, comps, c) {
				s.order = append(s.order, c.ID)
			}
		}
		// The Batch shares the order's array up to its length: the surface
		// only ever appends to order, and a capped slice never sees that.
		t.upserts(s.id, s.order[:len(s.order):len(s.order)])
		if _, ok := upd[s.Root()]; ok {
			t.setRoot(s.id, s.Root())
		}
		return
	}
	ids := make([]string, 0, len(upd))
	for _, c := range comps {
		old, existed := s.components[c.ID]
		recreated := existed && old.Type != c.Type
		if !existed {
			s.order = append(s.order, c.ID)
		}
		s.components[c.ID] = c
		if latest(upd, comps, c) {
			ids = append(ids, c.ID)
		}
		if recreated {
			t.recreate(s.id, c.ID)
		}
		if c.ID == s.Root() && (!existed || recreated) {
			t.setRoot(s.id, c.ID)
		}
	}
	t.upserts(s.id, ids)
}

func (p *Processor) updateDataModel(env *envelope, t *tracker) *MessageError {
	s, merr := p.liveSurface(env)
	if merr != nil {
		return merr
	}
	var segs []string
	if path := env.get("path"); path >= 0 {
		if !env.tp.IsString(path) {
			return fail("/path", ErrInvalidMessage, "path must be a string")
		}
		var err error
		if segs, err = parsePointer(env.tp.Str(path)); err != nil {
			return &MessageError{Path: "/path", Err: err}
		}
	}
	value := env.get("value")
	var node any
	if value >= 0 {
		node = rawJSON(env.tp.Raw(value))
	}
	w, err := s.data.prepareWrite(segs, node, value < 0, p.opts.maxDataBytes)
	if err != nil {
		return &MessageError{Path: "/path", Err: err}
	}
	w.commit()
	if w.changed {
		t.dataPath(s.id, formatPointer(segs))
	}
	return nil
}
