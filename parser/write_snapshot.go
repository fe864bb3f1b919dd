package parser

// The output of the progressive modes: a surface's snapshot (progressive)
// or its changes (delta) as updateComponents messages, once reachability
// (reach.go) decided what to yield.

import (
	"slices"
	"strings"

	"github.com/a2ui-stream/a2ui-stream/internal/protocoltape"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// snapshotValid reports whether the snapshot passes the catalog: every
// component and placeholder in it does (components of an update are
// validated independently of each other). A placeholder's verdict is the
// surface's (its message names the surface): placeholderValid judges it
// once per surface where the id does not matter.
func (e *progressiveEngine) snapshotValid(s *surfaceState, sid string) bool {
	if s.invalid > 0 {
		return false
	}
	for _, ent := range s.dirtyList {
		for _, ph := range ent.phs {
			if !e.placeholderValid(sid, ph) {
				return false
			}
		}
	}
	return true
}

// placeholderJSON is the encoding of placeholder ph ("loading_" and the
// id of the child it stands for), from the cache of placeholders.
func (e *progressiveEngine) placeholderJSON(ph string) []byte {
	id, ok := strings.CutPrefix(ph, "loading_")
	if !ok {
		return e.encodePlaceholder(ph) // (placeholders have the prefix)
	}
	return e.names.placeholderOf(id, e.appendChildPlaceholderJSON).js
}

// encodePlaceholder encodes placeholder ph.
func (e *progressiveEngine) encodePlaceholder(ph string) []byte {
	return e.appendPlaceholderJSON(make([]byte, 0, len(ph)+64), ph)
}

// emitSnapshot emits the full snapshot of the surface.
func (e *progressiveEngine) emitSnapshot(s *surfaceState, sid string) {
	ents := s.sortedEnts()
	phs := e.snapshotPlaceholders(s, ents)
	closing := e.closeComponentMessage(sid)
	open := e.openComponentMessage()
	// (reachBytes: the size of ents' processed forms.)
	n := len(open) + len(phs) + len(closing) + s.reachBytes + len(ents)
	b := append(e.out.store.alloc(n), open...)
	for i, ent := range ents {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, ent.pjson...)
	}
	b = append(b, phs...)
	b = append(b, closing...)
	e.emitRaw(b, e.fam == protocol.FamilyV08, sid)
	s.clearUnsent()
}

// snapshotPlaceholders returns the placeholders of the snapshot of ents
// (the surface's reachable components, in id order): each distinct one in
// order of first use, encoded after a comma. It is built again only when
// the surface's phsVer moved (a reachable component's placeholders, or the
// reachable set, changed), from each component's part (compLists.cat,
// kept while its placeholders do not change). Few components have
// placeholders (those whose children are still arriving): the others are
// passed over. With one, the list is its part; with more, their parts
// joined, unless their signatures say a placeholder may repeat one before
// it: then it is built placeholder by placeholder (appendPlaceholders).
func (e *progressiveEngine) snapshotPlaceholders(s *surfaceState, ents []*compEntry) []byte {
	if s.phPartV == s.phsVer {
		return s.phPart
	}
	s.phPartV = s.phsVer
	i := 0
	for i < len(ents) && len(ents[i].phs) == 0 {
		i++
	}
	if i == len(ents) {
		s.phPart = nil
		return nil
	}
	first := ents[i].lists.cat(ents[i].phs) // (phs not empty: lists set)
	j := i + 1
	for j < len(ents) && len(ents[j].phs) == 0 {
		j++
	}
	if j == len(ents) {
		s.phPart = first // (the component's: never written to here)
		return first
	}
	out := append(s.phBuf[:0], first...)
	sig := ents[i].lists.catSig
	for k := j; k < len(ents); k++ {
		ent := ents[k]
		if len(ent.phs) == 0 {
			continue
		}
		l := ent.lists
		part := l.cat(ent.phs)
		if l.catSig&sig != 0 && repeatsOne(ent.phs, sig, ents[i:k]) {
			out = e.appendPlaceholders(out[:0], ents[i:])
			break
		}
		sig |= l.catSig
		out = append(out, part...)
	}
	s.phBuf, s.phPart = out, out
	return out
}

// repeatsOne reports whether one of phs is among the placeholders of
// before, whose signatures make up sig.
func repeatsOne(phs []string, sig uint64, before []*compEntry) bool {
	for _, ph := range phs {
		if sig&idSignature(ph) == 0 {
			continue
		}
		for _, b := range before {
			if slices.Contains(b.phs, ph) {
				return true
			}
		}
	}
	return false
}

// cat returns the encodings of phs (the component's placeholders, whose
// encodings l.phJS holds), each after a comma, each once: the component's
// part of its snapshot's placeholders. It is kept while phs keeps its first
// catN placeholders (process sets catN to 0 when it changed them
// otherwise than by appending), and extended with those appended.
func (l *compLists) cat(phs []string) []byte {
	k := int(l.catN)
	if k == len(phs) {
		return l.phCat
	}
	out, sig := l.phCat, l.catSig
	if k == 0 || k > len(phs) {
		k, out, sig = 0, l.phCat[:0], 0
	}
	if cap(out) == 0 {
		n := 0
		for _, js := range l.phJS {
			n += len(js) + 1
		}
		out = make([]byte, 0, 2*n) // (room for a few appended)
	}
	for ; k < len(phs); k++ {
		ph := phs[k]
		bit := idSignature(ph) // (one bit per placeholder)
		if sig&bit != 0 && slices.Contains(phs[:k], ph) {
			continue
		}
		sig |= bit
		out = append(out, ',')
		out = append(out, l.phJS[k]...)
	}
	l.phCat, l.catSig, l.catN = out, sig, int32(len(phs))
	return out
}

// appendPlaceholders appends to out, each after a comma, the encodings of
// the placeholders of ents not used before. (Only when two components
// wait for the same child: none does in either corpus.)
func (e *progressiveEngine) appendPlaceholders(out []byte, ents []*compEntry) []byte {
	if e.phSeen == nil {
		e.phSeen = map[string]struct{}{}
	}
	clear(e.phSeen)
	for _, ent := range ents {
		for k, ph := range ent.phs {
			if _, dup := e.phSeen[ph]; dup {
				continue
			}
			e.phSeen[ph] = struct{}{}
			out = append(out, ',')
			out = append(out, ent.lists.phJS[k]...)
		}
	}
	return out
}

// emitDelta emits only the components and placeholders of the snapshot not
// yet sent in their current form.
func (e *progressiveEngine) emitDelta(s *surfaceState, sid string) {
	phs := e.deltaPhs[:0]
	ents := e.deltaEnts[:0]
	for _, ent := range s.unsentList {
		if ent.reach {
			ents = append(ents, ent)
		}
	}
	if len(s.phUnsent) > 0 {
		ents, phs = e.unsentPlaceholders(s, ents, phs)
	}
	s.clearUnsent()
	e.deltaPhs, e.deltaEnts = phs, ents[:0]
	if len(ents)+len(phs) == 0 {
		return
	}
	if len(ents) > 1 {
		slices.SortFunc(ents, func(a, b *compEntry) int { return strings.Compare(a.id, b.id) })
	}
	if len(phs) > 1 {
		slices.Sort(phs)
	}
	closing := e.closeComponentMessage(sid)
	open := e.openComponentMessage()
	n := len(open) + len(closing)
	for _, ent := range ents {
		n += len(ent.pjson) + 1
	}
	phJS := e.deltaPhJS[:0]
	for _, ph := range phs {
		js := e.placeholderJSON(ph)
		phJS = append(phJS, js)
		n += len(js) + 1
	}
	b := append(e.out.store.alloc(n), open...)
	for i, ent := range ents {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, ent.pjson...)
	}
	for i, js := range phJS {
		if i > 0 || len(ents) > 0 {
			b = append(b, ',')
		}
		b = append(b, js...)
	}
	b = append(b, closing...)
	clear(phJS)
	e.deltaPhJS = phJS[:0]
	e.emitRaw(b, false, sid)
}

// unsentPlaceholders adds to ents and phs what s.phUnsent holds: the
// reachable components of those ids not yet in ents, and the placeholders
// to yield.
func (e *progressiveEngine) unsentPlaceholders(s *surfaceState, ents []*compEntry, phs []string) ([]*compEntry, []string) {
	inUseBuilt := false
	// (Each once: two components may have added the same one.)
	if len(s.phUnsent) > 1 {
		slices.Sort(s.phUnsent)
		s.phUnsent = slices.Compact(s.phUnsent)
	}
	for _, id := range s.phUnsent {
		if ent := s.comps[id]; ent != nil {
			if ent.reach && !ent.isUnsent {
				ents = append(ents, ent)
			}
			continue
		}
		if e.cat == nil {
			// Every snapshot is yielded, so what is unsent is what the
			// components changed in this one use.
			phs = append(phs, id)
			continue
		}
		if !inUseBuilt {
			e.placeholdersInUse(s)
			inUseBuilt = true
		}
		if _, ok := e.phSeen[id]; ok {
			phs = append(phs, id)
		}
	}
	return ents, phs
}

// placeholdersInUse collects in e.phSeen the placeholders of the current
// snapshot: those of the changed components, or, when an earlier snapshot
// was held back (it did not validate), of every reachable component.
func (e *progressiveEngine) placeholdersInUse(s *surfaceState) {
	if e.phSeen == nil {
		e.phSeen = map[string]struct{}{}
	}
	use := e.phSeen
	clear(use)
	for _, ent := range s.dirtyList {
		for _, ph := range ent.phs {
			use[ph] = struct{}{}
		}
	}
	for _, id := range s.phUnsent {
		if _, ok := s.comps[id]; ok {
			continue
		}
		if _, ok := use[id]; !ok {
			for _, ent := range s.comps {
				if ent.reach {
					for _, ph := range ent.phs {
						use[ph] = struct{}{}
					}
				}
			}
			return
		}
	}
}

// openComponentMessage is the start of the encoding of a component
// message (keys in sorted order, as every message is encoded).
func (e *progressiveEngine) openComponentMessage() []byte {
	if e.fam == protocol.FamilyV09 {
		return openUpdateComponents
	}
	return openSurfaceUpdate
}

var (
	openUpdateComponents = []byte(`{"updateComponents":{"components":[`)
	openSurfaceUpdate    = []byte(`{"surfaceUpdate":{"components":[`)
)

// closeComponentMessage returns the end of the encoding of a component
// message about surface sid (its surface id and, in the v0.9 family, its
// version), valid until the next call. The last one is kept, and reused
// while surface, family and version stay the same.
func (e *progressiveEngine) closeComponentMessage(sid string) []byte {
	ver := ""
	if e.fam == protocol.FamilyV09 {
		ver = e.versionFor(sid)
	}
	c := &e.closing
	if c.ok && c.sid == sid && c.ver == ver && c.fam == e.fam {
		return c.enc
	}
	b := append(c.enc[:0], `],"surfaceId":`...)
	b = appendJSONString(b, sid)
	if e.fam == protocol.FamilyV09 {
		b = append(b, `},"version":`...)
		b = appendJSONString(b, ver)
		b = append(b, '}')
	} else {
		b = append(b, "}}"...)
	}
	*c = closingEnc{ok: true, sid: sid, ver: ver, fam: e.fam, enc: b, epoch: e.nextWrapper()}
	return b
}

// closingEnc is the last end of a component message encoded, with the
// catalog's verdict on its messages of one component (judge, set by
// componentVerdicts) and on its placeholders when it is the same for all
// (ph: 1 valid, -1 invalid, 2 not the same, 0 not known yet), and on its
// messages of components known valid alone (list, set by listVerdict).
// epoch numbers the wrapper among those the engine encoded, for the
// verdicts recorded in it (compEntry.judged); a closing not ok keeps the
// last number given (see nextWrapper).
type closingEnc struct {
	ok       bool
	ph       int8
	epoch    uint32 // (with ok and ph in one word: see TestEngineFitsItsSizeClass)
	sid, ver string
	fam      protocol.Family
	enc      []byte
	judge    protocoltape.ComponentVerdict
	list     protocoltape.ListVerdict
}

// componentMessage wraps components in the family's component message.
func (e *progressiveEngine) componentMessage(sid string, list []any) map[string]any {
	if e.fam == protocol.FamilyV09 {
		return map[string]any{
			"version":         e.versionFor(sid),
			kUpdateComponents: map[string]any{"surfaceId": sid, "components": list},
		}
	}
	return map[string]any{kSurfaceUpdate: map[string]any{"surfaceId": sid, "components": list}}
}
