package parser

import (
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// Message kind keys.
const (
	kBeginRendering   = string(protocol.KindBeginRendering)
	kSurfaceUpdate    = string(protocol.KindSurfaceUpdate)
	kDataModelUpdate  = string(protocol.KindDataModelUpdate)
	kDeleteSurface    = string(protocol.KindDeleteSurface)
	kCreateSurface    = string(protocol.KindCreateSurface)
	kUpdateComponents = string(protocol.KindUpdateComponents)
	kUpdateDataModel  = string(protocol.KindUpdateDataModel)
)

// handleMessage handles a complete top-level (or protocol-looking) object.
func (e *progressiveEngine) handleMessage(obj map[string]any) error {
	if e.fam == protocol.FamilyUnknown {
		// The family of its first kind key in key order: an object with
		// kinds of both families (escaped keys the scanner did not see)
		// gets the same family whatever the map's order.
		first, fam := "", protocol.FamilyUnknown
		for k := range obj {
			_, fl := classifyKey([]byte(k))
			if f := familyOfKindFlag(fl); f != protocol.FamilyUnknown && (fam == protocol.FamilyUnknown || k < first) {
				first, fam = k, f
			}
		}
		if fam != protocol.FamilyUnknown {
			e.setFamily(fam)
		}
	}
	var handled bool
	var err error
	switch e.fam {
	case protocol.FamilyV08:
		handled, err = e.handleV08(obj)
	case protocol.FamilyV09:
		handled, err = e.handleV09(obj)
	}
	if err != nil || handled {
		return err
	}
	// Not a recognised message: validate it strictly (it fails when the
	// catalog's schema does not allow it) and pass it through otherwise.
	return e.yieldMessage(obj)
}

// bodySurface returns body.surfaceId when body is an object with a
// non-empty string surfaceId.
func bodySurface(v any) (string, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return "", false
	}
	s, ok := m["surfaceId"].(string)
	return s, ok && s != ""
}

// messageSurfaceOf applies the reference's rule for the surface a complete
// message addresses.
func (e *progressiveEngine) messageSurfaceOf(obj map[string]any, kinds ...string) string {
	sid := e.surface
	if s, ok := obj["surfaceId"].(string); ok {
		sid = s
	}
	for _, k := range kinds {
		if v, ok := obj[k]; ok {
			if k == kDeleteSurface {
				if s, ok := v.(string); ok {
					return s
				}
			}
			if s, ok := bodySurface(v); ok {
				return s
			}
			return sid
		}
	}
	return sid
}

func orUnknown(s string) string {
	if s == "" {
		return unknownSurface
	}
	return s
}

// handleV08 is the v0.8 handling of a complete message.
func (e *progressiveEngine) handleV08(obj map[string]any) (bool, error) {
	if err := e.validate(obj, false); err != nil {
		return false, err
	}
	e.setSurface(e.messageSurfaceOf(obj, kSurfaceUpdate, kBeginRendering, kDeleteSurface))
	if err := e.takeLimitErr(); err != nil {
		return true, err
	}
	sid := orUnknown(e.surface)

	if _, ok := obj[kDeleteSurface]; ok {
		if !e.yieldedStart[sid] {
			// A deleteSurface before the surface began is ignored.
			return true, nil
		}
		e.deleteSurface(sid)
		return true, e.yieldMessage(obj)
	}
	_, isBR := obj[kBeginRendering]
	if e.deleted[sid] != 0 && !isBR {
		return true, nil // ignored, as the reference does (it took no slot: see holds)
	}
	if _, ok := obj[kSurfaceUpdate]; ok && !e.yieldedStart[sid] {
		if !e.admitPending(sid) {
			return true, e.takeLimitErr()
		}
		e.pending[sid] = append(e.pending[sid], obj)
		return true, nil
	}
	if isBR {
		br, _ := obj[kBeginRendering].(map[string]any)
		if s, ok := br["surfaceId"].(string); ok {
			e.setSurface(s)
			if err := e.takeLimitErr(); err != nil {
				return true, err
			}
		}
		root := e.bodyRoot(br)
		delete(e.deleted, sid) // begun anew: setRoot counts it again (see holds)
		e.setRoot(root)
		if !e.yieldedStart[sid] {
			if err := e.yieldMessage(obj); err != nil {
				return true, err
			}
			e.yieldedStart[sid], e.gate.ok = true, false
		}
		if list := e.pending[sid]; len(list) > 0 {
			delete(e.pending, sid)
			for _, p := range list {
				if _, err := e.handleV08(p); err != nil {
					return true, err
				}
			}
		}
		return true, e.yieldReachable(false)
	}
	if su, ok := obj[kSurfaceUpdate]; ok {
		e.kindSeen = true
		e.addComponents(su)
		return true, e.yieldReachable(true)
	}
	if _, ok := obj[kDataModelUpdate]; ok {
		e.kindSeen = true
		if err := e.yieldMessage(obj); err != nil {
			return true, err
		}
		return true, e.yieldReachable(false)
	}
	return true, e.yieldMessage(obj)
}

// bodyRoot is the root a message body m names: its "root" when it names
// one, else the current root, else "root".
func (e *progressiveEngine) bodyRoot(m map[string]any) string {
	if r, ok := m["root"].(string); ok {
		return r
	}
	if root, has := e.rootID(); has && root != "" {
		return root
	}
	return "root"
}

// adoptRoot sets the surface root from a v0.9 createSurface or
// updateComponents body, when it is an object (see bodyRoot).
func (e *progressiveEngine) adoptRoot(body any) {
	if m, ok := body.(map[string]any); ok {
		e.setRoot(e.bodyRoot(m))
	}
}

// handleV09 is the v0.9-family handling of a complete message.
func (e *progressiveEngine) handleV09(obj map[string]any) (bool, error) {
	if err := e.validate(obj, false); err != nil {
		return false, err
	}
	e.setSurface(e.messageSurfaceOf(obj, kUpdateComponents, kCreateSurface))
	if err := e.takeLimitErr(); err != nil {
		return true, err
	}
	sid := orUnknown(e.surface)

	if cs, ok := obj[kCreateSurface]; ok {
		e.kindSeen = true
		e.adoptRoot(cs)
		if v, ok := obj["version"].(string); ok {
			e.surfaceVer[sid] = v
		}
		if !e.yieldedStart[sid] {
			if err := e.yieldMessage(obj); err != nil {
				return true, err
			}
			e.yieldedStart[sid], e.gate.ok = true, false
		}
		delete(e.pending, sid)
		return true, e.yieldReachable(false)
	}
	if uc, ok := obj[kUpdateComponents]; ok {
		e.kindSeen = true
		e.adoptRoot(uc)
		e.addComponents(uc)
		return true, e.yieldReachable(true)
	}
	if _, ok := obj[kDeleteSurface]; ok {
		if !e.yieldedStart[sid] {
			if !e.admitPending(sid) {
				return true, e.takeLimitErr()
			}
			e.pending[sid] = append(e.pending[sid], obj)
			return true, nil
		}
		e.kindSeen = true
		if err := e.yieldMessage(obj); err != nil {
			return true, err
		}
		// The surface is gone: a new one under the same id starts afresh.
		e.forgetSurface(sid)
		return true, nil
	}
	if _, ok := obj[kUpdateDataModel]; ok {
		e.kindSeen = true
		return true, e.yieldMessage(obj)
	}
	return false, nil
}

// addComponents records the components of a complete update for the
// current surface.
func (e *progressiveEngine) addComponents(body any) {
	m, _ := body.(map[string]any)
	list, _ := m["components"].([]any)
	sc := e.state(e.surface)
	for _, item := range list {
		switch c := item.(type) {
		case *fastComp:
			e.putFast(sc, c)
		case map[string]any:
			e.putDecoded(sc, c)
		}
	}
}

// deleteSurface forgets a deleted v0.8 surface; later messages for it are
// ignored until a new beginRendering.
func (e *progressiveEngine) deleteSurface(sid string) {
	e.forgetSurface(sid)
	e.rememberDeleted(sid)
}

// forgetSurface drops everything known about a surface.
func (e *progressiveEngine) forgetSurface(sid string) {
	delete(e.held, sid)
	if e.lastHeld == sid {
		e.lastHeld = ""
	}
	delete(e.pending, sid)
	delete(e.yieldedStart, sid)
	e.gate.ok = false // (and rootIDs, below)
	delete(e.seen, sid)
	e.cur = nil
	e.dataGen++
	delete(e.rootIDs, sid)
	delete(e.surfaceVer, sid)
	e.forgetData(sid)
}

// handlePartialComponent caches a component seen decoded inside a
// message that is still arriving (see fastDecoded), unless it is not
// renderable yet (an empty object in it, v0.8: in its definition, or a
// required property missing). While the family is still unknown it waits
// (famWaiting) until the family is fixed (setFamily): the reader needs
// the family, and no surface has begun (a surface's start fixes the
// family), so none could be yielded before.
func (e *progressiveEngine) handlePartialComponent(comp map[string]any) {
	if e.fam == protocol.FamilyUnknown {
		e.famWaiting = append(e.famWaiting, famWait{e.surface, comp})
		return
	}
	e.putPartial(e.surface, comp)
}

// famWait is a component met while the family was unknown, and the
// surface it was met for.
type famWait struct {
	surface string
	comp    map[string]any
}

// putPartial is handlePartialComponent for surface sid, the family known.
func (e *progressiveEngine) putPartial(sid string, comp map[string]any) {
	if fc := e.fastDecoded(comp); fc != nil && !fc.emptyObj && e.renderable() {
		e.putFast(e.state(sid), fc)
		e.dirty = true
	}
}

// yieldMessage yields a complete message decoded (see yieldEncoded).
func (e *progressiveEngine) yieldMessage(msg map[string]any) error {
	e.msgBuf = appendJSON(e.msgBuf[:0], msg)
	e.lay.read(e.msgBuf)
	err := e.yieldEncoded(msg)
	if cap(e.msgBuf) > maxCatBuf {
		e.msgBuf = nil
	}
	return err
}

// dataRecord is the record of the data yielded for a surface and path.
type dataRecord struct {
	keys *keyRecord // data key -> comparison encoding of the last value (see appendCmp)
	msg  uint64     // delta mode: the message (scanner generation) it is of
	used bool       // in recUsed
}

// dataState is the record of the data yielded for a surface and path: data
// key -> comparison encoding of the last value.
func (e *progressiveEngine) dataState(k dataSlot) *keyRecord {
	r := e.dataYielded[k.surface][k.path]
	if r == nil {
		if !e.admitSurface(k.surface) {
			return newKeyRecord(e.maxComps) // refused: a scratch record, not kept
		}
		e.boundDataSlots(k.surface)
		paths := e.dataYielded[k.surface]
		if paths == nil {
			paths = map[string]*dataRecord{}
			e.dataYielded[k.surface] = paths
		}
		r = &dataRecord{keys: newKeyRecord(e.maxComps)}
		paths[k.path] = r
	} else if r.keys.len() > e.maxComps || r.keys.dropped {
		// The record spares yielding an entry twice: past the bound it
		// starts afresh (see boundDataSlots), in a new record (clearing
		// would keep the large one's storage). A record dropped (at a
		// block end, see boundRecords, or with the data it linked, see
		// keyRecord) is empty already.
		r.keys.unlink()
		r.keys = newKeyRecord(e.maxComps)
		e.dataGen++
	}
	if !r.used {
		r.used = true
		e.recUsed = append(e.recUsed, r)
	}
	if e.dstate != nil && r.msg != e.sc.msgGen {
		// Delta mode reduces a message against itself only (data_delta.go):
		// the record starts afresh with each message, so that its first
		// yield carries every entry read so far.
		if r.keys.len() > 0 {
			r.keys.unlink()
			r.keys = newKeyRecord(e.maxComps)
		}
		r.msg = e.sc.msgGen
	}
	return r.keys
}

// versionFor is the version string of a constructed v0.9-family message
// for surface sid: the version of the message being read, else the
// surface's createSurface version, else the catalog's.
func (e *progressiveEngine) versionFor(sid string) string {
	if e.sc.bufVersion != "" {
		return e.sc.bufVersion
	}
	if v, ok := e.surfaceVer[sid]; ok {
		return v
	}
	return e.defaultVersion
}
