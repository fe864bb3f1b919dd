package processor

import (
	"github.com/tidwall/gjson"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// surfaceV08 returns the surface a v0.8 message addresses. v0.8 has no
// createSurface: any of its messages creates the surface it names. A new
// surface is returned unregistered; commitV08 registers it, so a message
// that fails after this call leaves no surface behind.
func (p *Processor) surfaceV08(env *envelope, agent string) (s *Surface, isNew bool, merr *MessageError) {
	if s, ok := p.surfaces[env.surfaceID]; ok {
		if s.family != protocol.FamilyV08 {
			return nil, false, fail("", ErrVersion, "%s is a v0.8 message but surface %q is %s", env.kind, s.id, s.family)
		}
		return s, false, nil
	}
	if len(p.surfaces) >= p.opts.maxSurfaces {
		return nil, false, fail("/surfaceId", ErrLimit, "cannot create surface %q: the processor holds its maximum of %d surfaces", env.surfaceID, p.opts.maxSurfaces)
	}
	return newSurface(env.surfaceID, protocol.FamilyV08, env.version, agent), true, nil
}

func (p *Processor) commitV08(s *Surface, isNew bool, t *tracker) {
	if isNew {
		p.surfaces[s.id] = s
		t.create(s.id)
	}
}

func (p *Processor) beginRendering(env *envelope, agent string, t *tracker) *MessageError {
	tp := env.tp
	root, ok, merr := env.getString("root")
	if merr != nil {
		return merr
	}
	if !ok {
		return fail("/root", ErrInvalidMessage, "root is required")
	}
	cat, hasCat, merr := env.getString("catalogId")
	if merr != nil {
		return merr
	}
	if hasCat && !p.catalogAllowed(cat) {
		return fail("/catalogId", ErrUnknownCatalog, "catalog %q is not supported", cat)
	}
	styles := env.get("styles")
	if styles >= 0 && !tp.IsObject(styles) {
		return fail("/styles", ErrInvalidMessage, "styles must be an object")
	}
	s, isNew, merr := p.surfaceV08(env, agent)
	if merr != nil {
		return merr
	}
	if p.opts.strictTopology && len(s.comps) > 0 {
		p.prepareMarks(len(s.comps), 0, 0)
		p.epoch++ // no record is replaced
		if _, merr := p.checkTopology(s, false, p.epoch, root); merr != nil {
			return merr
		}
	}
	p.commitV08(s, isNew, t)
	s.root = root
	if hasCat {
		s.catalogID = cat
	}
	// As the reference: styles default to {} and are replaced, not merged.
	s.styles = "{}"
	if styles >= 0 {
		s.styles = tp.Raw(styles)
	}
	t.setRoot(s.id, s.root)
	t.setStyles(s.id)
	return nil
}

func (p *Processor) surfaceUpdate(env *envelope, agent string, t *tracker) *MessageError {
	s, isNew, merr := p.surfaceV08(env, agent)
	if merr != nil {
		return merr
	}
	if merr := p.parseComponents(env.tp, env.get("components"), true, p.opts.topology, p.refFields(s.family, s.catalogID)); merr != nil {
		return merr
	}
	plan, merr := p.checkComponents(s)
	if merr != nil {
		return merr
	}
	p.commitV08(s, isNew, t)
	p.storeComponents(s, plan, t)
	return nil
}

func (p *Processor) dataModelUpdate(env *envelope, agent string, t *tracker) *MessageError {
	var segs []string
	if path := env.get("path"); path >= 0 {
		if !env.tp.IsString(path) {
			return fail("/path", ErrInvalidMessage, "path must be a string")
		}
		segs = parsePathV08(env.tp.Str(path))
	}
	contents := env.get("contents")
	if contents < 0 {
		return fail("/contents", ErrInvalidMessage, "contents is required")
	}
	value, merr := convertContents(gjson.Parse(env.tp.Raw(contents)), "/contents", p.opts.maxDataBytes)
	if merr != nil {
		return merr
	}
	if len(segs) == 0 {
		if _, isObj := value.(object); !isObj {
			return fail("/contents", ErrDataPath, "the root of a v0.8 data model must be a map")
		}
	}
	s, isNew, merr := p.surfaceV08(env, agent)
	if merr != nil {
		return merr
	}
	w, err := s.data.prepareWrite(segs, value, false, p.opts.maxDataBytes)
	if err != nil {
		return &MessageError{Path: "/path", Err: err}
	}
	p.commitV08(s, isNew, t)
	w.commit()
	t.dataPath(s.id, formatPointer(segs))
	return nil
}
