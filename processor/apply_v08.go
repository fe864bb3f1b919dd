package processor

import (
	"github.com/tidwall/gjson"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// surfaceV08 returns the surface a v0.8 message addresses. v0.8 has no
// createSurface: any of its messages creates the surface it names. A new
// surface is returned unregistered; commitV08 registers it, so a message
// that fails after this call leaves no surface behind.
func (p *Processor) surfaceV08(env envelope, agent string) (s *Surface, isNew bool, merr *MessageError) {
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

func (p *Processor) beginRendering(env envelope, agent string, t *tracker) *MessageError {
	b := env.body
	if merr := checkKeys(b, "surfaceId", "catalogId", "root", "styles"); merr != nil {
		return merr
	}
	root := b.Get("root")
	if !root.Exists() {
		return fail("/root", ErrInvalidMessage, "root is required")
	}
	if root.Type != gjson.String || root.Str == "" {
		return fail("/root", ErrInvalidMessage, "root must be a non-empty string")
	}
	cat := b.Get("catalogId")
	if cat.Exists() {
		if cat.Type != gjson.String || cat.Str == "" {
			return fail("/catalogId", ErrInvalidMessage, "catalogId must be a non-empty string")
		}
		if !p.catalogAllowed(cat.Str) {
			return fail("/catalogId", ErrUnknownCatalog, "catalog %q is not supported", cat.Str)
		}
	}
	styles := b.Get("styles")
	if styles.Exists() && !styles.IsObject() {
		return fail("/styles", ErrInvalidMessage, "styles must be an object")
	}
	s, isNew, merr := p.surfaceV08(env, agent)
	if merr != nil {
		return merr
	}
	if p.opts.strictTopology && len(s.components) > 0 {
		if merr := p.checkTopology(s, nil, root.Str); merr != nil {
			return merr
		}
	}
	p.commitV08(s, isNew, t)
	s.root, s.rendering = root.Str, true
	if cat.Exists() {
		s.catalogID = cat.Str
	}
	// As the reference: styles default to {} and are replaced, not merged.
	s.styles = "{}"
	if styles.Exists() {
		s.styles = styles.Raw
	}
	t.setRoot(s.id, s.root)
	t.setStyles(s.id)
	return nil
}

func (p *Processor) surfaceUpdate(env envelope, agent string, t *tracker) *MessageError {
	if merr := checkKeys(env.body, "surfaceId", "components"); merr != nil {
		return merr
	}
	comps, merr := parseComponents(env.body.Get("components"), true, nil)
	if merr != nil {
		return merr
	}
	s, isNew, merr := p.surfaceV08(env, agent)
	if merr != nil {
		return merr
	}
	if merr := p.checkComponents(s, comps); merr != nil {
		return merr
	}
	p.commitV08(s, isNew, t)
	p.storeComponents(s, comps, t)
	return nil
}

func (p *Processor) dataModelUpdate(env envelope, agent string, t *tracker) *MessageError {
	b := env.body
	if merr := checkKeys(b, "surfaceId", "path", "contents"); merr != nil {
		return merr
	}
	var segs []string
	if path := b.Get("path"); path.Exists() {
		if path.Type != gjson.String {
			return fail("/path", ErrInvalidMessage, "path must be a string")
		}
		segs = parsePathV08(path.Str)
	}
	contents := b.Get("contents")
	if !contents.Exists() {
		return fail("/contents", ErrInvalidMessage, "contents is required")
	}
	value, merr := convertContents(contents, "/contents")
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
