package processor

import (
	"github.com/tidwall/gjson"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// checkKeys fails on a body property not in allowed (the message schemas
// are closed: additionalProperties is false).
func checkKeys(body gjson.Result, allowed ...string) *MessageError {
	var ferr *MessageError
	body.ForEach(func(k, _ gjson.Result) bool {
		for _, a := range allowed {
			if k.Str == a {
				return true
			}
		}
		ferr = fail("/"+escapeToken(k.Str), ErrInvalidMessage, "unknown property %q", k.Str)
		return false
	})
	return ferr
}

// liveSurface returns the surface an update addresses, checking that it
// exists and belongs to the message's family.
func (p *Processor) liveSurface(env envelope) (*Surface, *MessageError) {
	s, ok := p.surfaces[env.surfaceID]
	if !ok {
		return nil, fail("/surfaceId", ErrUnknownSurface, "surface %q does not exist", env.surfaceID)
	}
	if s.family != env.family {
		return nil, fail("", ErrVersion, "%s is a %s message but surface %q is %s", env.kind, env.family, s.id, s.family)
	}
	return s, nil
}

func (p *Processor) createSurface(env envelope, agent string, t *tracker) *MessageError {
	b := env.body
	if merr := checkKeys(b, "surfaceId", "catalogId", "theme", "sendDataModel"); merr != nil {
		return merr
	}
	cat := b.Get("catalogId")
	if !cat.Exists() {
		return fail("/catalogId", ErrInvalidMessage, "catalogId is required")
	}
	if cat.Type != gjson.String || cat.Str == "" {
		return fail("/catalogId", ErrInvalidMessage, "catalogId must be a non-empty string")
	}
	theme := b.Get("theme")
	if theme.Exists() && !theme.IsObject() {
		return fail("/theme", ErrInvalidMessage, "theme must be an object")
	}
	sdm := b.Get("sendDataModel")
	if sdm.Exists() && sdm.Type != gjson.True && sdm.Type != gjson.False {
		return fail("/sendDataModel", ErrInvalidMessage, "sendDataModel must be a boolean")
	}
	if _, ok := p.surfaces[env.surfaceID]; ok {
		return fail("/surfaceId", ErrSurfaceExists, "surface %q already exists (delete it first)", env.surfaceID)
	}
	if !p.catalogAllowed(cat.Str) {
		return fail("/catalogId", ErrUnknownCatalog, "catalog %q is not supported", cat.Str)
	}
	if len(p.surfaces) >= p.opts.maxSurfaces {
		return fail("/surfaceId", ErrLimit, "cannot create surface %q: the processor holds its maximum of %d surfaces", env.surfaceID, p.opts.maxSurfaces)
	}
	s := newSurface(env.surfaceID, protocol.FamilyV09, env.version, agent)
	s.catalogID = cat.Str
	if theme.Exists() {
		s.theme = theme.Raw
	}
	s.sendDataModel = sdm.Type == gjson.True
	p.surfaces[s.id] = s
	t.create(s.id)
	return nil
}

func (p *Processor) deleteSurface(env envelope, t *tracker) *MessageError {
	if merr := checkKeys(env.body, "surfaceId"); merr != nil {
		return merr
	}
	// Deleting a surface that does not exist is a no-op, as in the
	// reference renderer.
	if _, ok := p.surfaces[env.surfaceID]; ok {
		delete(p.surfaces, env.surfaceID)
		t.remove(env.surfaceID)
	}
	return nil
}

func (p *Processor) updateComponents(env envelope, t *tracker) *MessageError {
	if merr := checkKeys(env.body, "surfaceId", "components"); merr != nil {
		return merr
	}
	s, merr := p.liveSurface(env)
	if merr != nil {
		return merr
	}
	comps, merr := parseComponents(env.body.Get("components"), false, nil)
	if merr != nil {
		return merr
	}
	if merr := p.checkComponents(s, comps); merr != nil {
		return merr
	}
	p.storeComponents(s, comps, t)
	return nil
}

// checkComponents checks an update's components against the surface: the
// component bound and the topology. It changes nothing.
func (p *Processor) checkComponents(s *Surface, comps []*Component) *MessageError {
	added := 0
	var seen map[string]bool
	if len(comps) > 1 {
		seen = make(map[string]bool, len(comps))
	}
	for _, c := range comps {
		if _, ok := s.components[c.ID]; ok || seen[c.ID] {
			continue
		}
		if seen != nil {
			seen[c.ID] = true
		}
		added++
	}
	if len(s.components)+added > p.opts.maxComponents {
		return fail("/components", ErrLimit, "surface %q would hold %d components, more than the bound of %d", s.id, len(s.components)+added, p.opts.maxComponents)
	}
	if p.opts.topology {
		if merr := p.checkTopology(s, comps, s.Root()); merr != nil {
			return merr
		}
	}
	return nil
}

// storeComponents stores checked components: each replaces any component
// with its id whole (all its properties); a changed type is recorded as a
// recreation.
func (p *Processor) storeComponents(s *Surface, comps []*Component, t *tracker) {
	for _, c := range comps {
		old, existed := s.components[c.ID]
		recreated := existed && old.Type != c.Type
		if !existed {
			s.order = append(s.order, c.ID)
		}
		s.components[c.ID] = c
		t.upsert(s.id, c.ID, recreated)
		if c.ID == s.Root() && (!existed || recreated) {
			t.setRoot(s.id, c.ID)
		}
	}
}

func (p *Processor) updateDataModel(env envelope, t *tracker) *MessageError {
	b := env.body
	if merr := checkKeys(b, "surfaceId", "path", "value"); merr != nil {
		return merr
	}
	s, merr := p.liveSurface(env)
	if merr != nil {
		return merr
	}
	var segs []string
	if path := b.Get("path"); path.Exists() {
		if path.Type != gjson.String {
			return fail("/path", ErrInvalidMessage, "path must be a string")
		}
		var err error
		if segs, err = parsePointer(path.Str); err != nil {
			return &MessageError{Path: "/path", Err: err}
		}
	}
	value := b.Get("value")
	var node any
	if value.Exists() {
		node = rawJSON(value.Raw)
	}
	w, err := s.data.prepareWrite(segs, node, !value.Exists(), p.opts.maxDataBytes)
	if err != nil {
		return &MessageError{Path: "/path", Err: err}
	}
	w.commit()
	if w.changed {
		t.dataPath(s.id, formatPointer(segs))
	}
	return nil
}
