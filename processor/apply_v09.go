package processor

import (
	"slices"

	"github.com/a2ui-stream/a2ui-stream/internal/jsontape"
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
	if sdm >= 0 && tp.Kind(sdm) != jsontape.True && tp.Kind(sdm) != jsontape.False {
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
	s.sendDataModel = sdm >= 0 && tp.Kind(sdm) == jsontape.True
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
	if merr := p.parseComponents(env.tp, env.get("components"), false, p.opts.topology, p.refFields(s.family, s.catalogID)); merr != nil {
		return merr
	}
	plan, merr := p.checkComponents(s)
	if merr != nil {
		return merr
	}
	p.storeComponents(s, plan, t)
	return nil
}

// checkComponents checks the parsed update (p.upd) against the surface:
// the component bound and the topology. It changes no state (only the
// records' scratch marks).
func (p *Processor) checkComponents(s *Surface) (topoPlan, *MessageError) {
	if dup := p.indexUpdate(); dup != "" && p.opts.topology {
		return topoPlan{}, topoFailure(protocol.ErrDuplicateID, "Duplicate component ID: %s", dup)
	}
	p.prepareMarks(len(s.comps), len(p.upd), len(p.urefs))
	p.epoch++
	repl := p.epoch
	added := 0
	for i := range p.upd {
		u := &p.uinfo[i]
		if u.superseded {
			continue
		}
		if len(s.comps) > 0 {
			c := &p.upd[i]
			u.slot = s.find(u.hash, c.id.in(p.pend[-c.chunk-1]))
		}
		if u.slot < 0 {
			added++
		} else {
			p.marks[u.slot].repl = repl
		}
	}
	if len(s.comps)+added > p.opts.maxComponents {
		return topoPlan{}, fail("/components", ErrLimit, "surface %q would hold %d components, more than the bound of %d", s.id, len(s.comps)+added, p.opts.maxComponents)
	}
	var plan topoPlan
	if p.opts.topology {
		var merr *MessageError
		if plan, merr = p.checkTopology(s, true, repl, s.Root()); merr != nil {
			return topoPlan{}, merr
		}
	}
	return plan, nil
}

// indexUpdate indexes the update's records by id (p.uidx: the last record
// of a repeated id, as a later entry replaces an earlier one), links each
// repeated id's records (updInfo.prev, superseded) and reports the first
// repeated id.
func (p *Processor) indexUpdate() (dup string) {
	p.uidx.reset(len(p.upd))
	for i := range p.upd {
		c, u := &p.upd[i], &p.uinfo[i]
		id := c.id.in(p.pend[-c.chunk-1])
		pos, found := p.probeUpd(u.hash, id)
		if found {
			j := int32(uint32(p.uidx.e[pos])) - 1
			if dup == "" {
				dup = id
			}
			p.uinfo[j].superseded = true
			u.prev = j
		} else {
			p.uidx.n++
		}
		p.uidx.e[pos] = uint64(u.hash)<<32 | uint64(uint32(i+1))
	}
	return dup
}

// storeComponents stores the checked update: each component replaces any
// component with its id whole (all its properties), keeping its place; a
// changed type is recorded as a recreation.
func (p *Processor) storeComponents(s *Surface, plan topoPlan, t *tracker) {
	nOld := int32(len(s.comps))
	fresh := nOld == 0
	// New ids take the next indexes, in the order of their last records.
	next, nLatest, nRefs := nOld, 0, 0
	for i := range p.upd {
		if u := &p.uinfo[i]; !u.superseded {
			if u.slot < 0 {
				u.slot = next
				next++
			}
			nLatest++
			nRefs += int(p.upd[i].nrefs)
		}
	}
	root := s.Root()
	ids := make([]string, nLatest)
	if p.opts.topology {
		p.commitTopology(s, plan)
	}
	chunkOf := p.storeChunks(s)
	if fresh && nLatest == len(p.upd) && p.refsInOrder() {
		p.takeUpdate(s, chunkOf, ids)
	} else {
		ids = p.storeRecords(s, chunkOf, ids[:0], nOld, next, nRefs, root, t)
	}
	t.upserts(s.id, ids)
	if fresh && root != "" && p.findUpd(hashID(root), root) >= 0 {
		t.setRoot(s.id, root)
	}
	s.compact()
}

// refsInOrder reports whether the update's references lie in p.urefs in
// the order of its records, without gaps.
func (p *Processor) refsInOrder() bool {
	at := int32(0)
	for i := range p.upd {
		if p.upd[i].refs != at {
			return false
		}
		at += p.upd[i].nrefs
	}
	return int(at) == len(p.urefs)
}

// storeRecords stores the update's records one by one (see
// storeComponents), appending the ids stored to ids.
func (p *Processor) storeRecords(s *Surface, chunkOf []int32, ids []string, nOld, next int32, nRefs int, root string, t *tracker) []string {
	fresh := nOld == 0
	if fresh {
		s.comps = make([]comp, 0, next)
		s.refs = make([]span, 0, nRefs)
		s.idx.reset(int(next))
	}
	for i := range p.upd {
		c, u := &p.upd[i], &p.uinfo[i]
		chunk := p.pend[-c.chunk-1]
		id := c.id.in(chunk)
		if !fresh {
			// As replacing the components one by one in update order: an
			// earlier record of a repeated id is the one a later replaces.
			existed, oldType := false, ""
			switch {
			case u.prev >= 0:
				pc := &p.upd[u.prev]
				existed, oldType = true, pc.typ.in(p.pend[-pc.chunk-1])
			default:
				slot := u.slot
				if u.superseded {
					slot = p.uinfo[p.findUpd(u.hash, id)].slot
				}
				if slot < nOld {
					old := &s.comps[slot]
					existed, oldType = true, old.typ.in(s.chunks[old.chunk])
				}
			}
			recreated := existed && oldType != c.typ.in(chunk)
			if recreated {
				t.recreate(s.id, id)
			}
			if id == root && (!existed || recreated) {
				t.setRoot(s.id, id)
			}
		}
		if u.superseded {
			continue
		}
		ids = append(ids, id)
		rec := *c
		rec.chunk = chunkOf[-c.chunk-1]
		rec.refs = int32(len(s.refs))
		s.refs = append(s.refs, p.urefs[c.refs:c.refs+c.nrefs]...)
		if u.slot < nOld {
			old := &s.comps[u.slot]
			s.deadRefs += int(old.nrefs)
			*old = rec
		} else {
			s.comps = append(s.comps, rec)
			s.idx.insert(u.hash, u.slot)
		}
	}
	return ids
}

// takeUpdate stores the common first update of a surface: every record is
// new and the last of its id, so the records, their references and the
// update's index become the surface's as they are (the update's index was
// built by inserting the same hashes in the same order as the surface's
// would be). It fills ids.
func (p *Processor) takeUpdate(s *Surface, chunkOf []int32, ids []string) {
	s.comps = slices.Clone(p.upd)
	for i := range s.comps {
		c := &s.comps[i]
		ids[i] = c.id.in(p.pend[-c.chunk-1])
		c.chunk = chunkOf[-c.chunk-1]
	}
	s.refs = slices.Clone(p.urefs)
	s.idx = idIndex{e: slices.Clone(p.uidx.e), n: p.uidx.n}
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
