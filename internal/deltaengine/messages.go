package deltaengine

// The messages of a block: what lies between them (between), the surface
// each names (surfaceID), the stream's family (setFamily), and what each
// yields when it ends (messageEnd): a surface's start, its deletion, a
// message of no kind the engine reads, a component or data model
// message's end.

import (
	"slices"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// between handles a byte of the block between its messages, as the
// parser's grammar takes it: messages in a list, where a ',' between them
// may be missing or repeat, or bare (read as a list's); a '}' there loses
// the count of brackets (lost.go); anything else fails the block.
func (k *Engine) between(c byte) {
	inList := len(k.stack) == 1 && !k.bare
	if k.fence {
		// A markdown fence's marker: it ends at its line's end, or where
		// the JSON starts (the parser's fenceMarkerEnd).
		if c != '[' && c != '{' {
			k.fence = c != '\n'
			k.spaces++
			return
		}
		k.fence = false
	}
	if !jsonwire.IsSpace(c) {
		k.content = true
	}
	switch {
	case jsonwire.IsSpace(c), c == ',' && inList:
		k.spaces++ // (dropped)
	case c == '{':
		k.bareFrame()
		k.open(c)
	case c == '[' && len(k.stack) == 0:
		k.open(c)
	case c == '[' && k.bare:
		k.bare = false // the list of the messages after a bare one
		k.buf = append(k.buf, c)
	case c == ']' && inList:
		k.buf = append(k.buf, c)
		k.close()
	case c == '}' && (len(k.stack) == 1 || k.expect != eListOpen):
		k.loseCount(c) // an extra '}' after a message or the list
	case c == '`' && !inList:
		// A markdown fence inside the tags, as the parser reads one.
		if !k.fenced {
			k.fenced, k.fenceAt = true, k.raw(len(k.buf))
		}
		k.fence = true
		k.spaces++
	default:
		k.failByte(c)
	}
}

// bareFrame puts a list's frame, without its byte, under a message that
// opens outside a list: it is read as a list's.
func (k *Engine) bareFrame() {
	if len(k.stack) == 0 {
		k.bare = true
		k.stack = append(k.stack, frame{open: '['})
	}
}

// outsideList handles a byte after a JSONL line's message: a space, or
// junk, which fails the block.
func (k *Engine) outsideList(c byte) {
	if !jsonwire.IsSpace(c) {
		k.failByte(c)
	}
}

// surfaceID finds the surface of the message (one map lookup), or makes it
// (not begun until its createSurface or beginRendering: see begin).
func (k *Engine) surfaceID(sid []byte) {
	if k.cur = k.surfaces[string(sid)]; k.cur == nil && k.msgKind != kDelete {
		// (A late message to a deleted v0.8 surface takes no slot: its
		// surface is uncounted until it begins again.)
		uncounted := k.deleted.has(string(sid)) && k.msgKind != kCreate
		if k.maxSurfaces > 0 && !uncounted && len(k.surfaces)-k.uncounted >= k.maxSurfaces {
			k.failWith(&Limit{What: "surfaces", Max: k.maxSurfaces, SurfaceID: string(sid)})
			return
		}
		k.cur = &surface{id: string(sid), root: "root", uncounted: uncounted}
		k.surfaces[k.cur.id] = k.cur
		if uncounted {
			k.uncounted++
		}
	}
	if k.cur != nil {
		k.last = k.cur
	}
}

func (k *Engine) messageEnd() {
	msg := k.buf[k.msgStart:]
	switch {
	case msg[0] != '{', !k.valid(msg), !k.checkMessage(msg, false):
		// (A list in the list, of a block read the lost way, is none.)
	case k.msgKind == kCreate && k.cur != nil && !k.cur.begun:
		if k.yieldWhole() {
			k.begin(k.cur)
		}
	case k.msgKind == kCreate && k.cur != nil:
		k.rootNamed()
	case k.msgKind == kDelete && k.cur != nil && k.cur.begun:
		// The surface is gone: a new one under its id starts afresh (v0.8:
		// once it begins again).
		if k.yieldWhole() {
			k.forget(k.cur)
			if k.v08 {
				k.forgetData(k.cur.id)
				k.rememberDeleted(k.cur.id)
			}
		}
	case k.msgKind == 0:
		k.yieldWhole() // a message of no kind the engine reads: as it is
	case k.msgKind == kUpdate:
		if k.cur == nil {
			k.cur = k.last // (no surface named: the last one named)
		}
		if s := k.cur; k.v08 && s != nil && !s.begun {
			if k.maxComps > 0 && s.waiting >= k.maxComps {
				k.failWith(&Limit{What: "components", Max: k.maxComps, SurfaceID: s.id})
				break
			}
			s.waiting++ // (a message waiting for its beginRendering)
		}
		k.takeHeld(k.cur, true)
		if s := k.cur; s != nil && s.filling {
			k.refill(s)
		}
		if s := k.cur; s != nil && s.begun && s.suspect && len(k.queue) == 0 {
			// The reference checks the surface at each of its component
			// messages, one whose components all were skipped too: a
			// self-reference or cycle left in it fails each (topology).
			if err := k.topology(s); err != nil {
				k.failWith(err)
				break
			}
		}
		if k.progressive {
			k.release() // an update completed: large components are redone
		}
		k.flush(true)
	case k.msgKind == kData && (k.progressive || k.cur == nil || !k.dataSent):
		// Whole: progressive mode, unless the record holds each of its
		// members (record.go); delta mode, when it yielded nothing yet or
		// names no surface (its slot is not the one its sniffs yielded
		// at, "default"; a value that is no object, or none, too).
		if start := len(k.out); k.yieldWhole() && k.progressive && !k.dedupe09(k.out[start:]) {
			k.out, k.offs = k.out[:start], k.offs[:len(k.offs)-2]
		}
	case k.msgKind == kData:
		if k.checkMessage(msg, true) {
			k.dataEntries(true)
		}
	case k.msgKind == kDataModel:
		// (That of a v0.8 surface deleted and not begun again is dropped
		// when it ends, as the parser drops it; what it yielded while it
		// arrived stands: see complete08.)
		if k.checkMessage(msg, true) {
			k.data08(true)
		}
	}
	k.msgKind, k.compStart = 0, -1
}

// yieldWhole yields the message just ended in canonical form, and reports
// whether it did (with a catalog, it must pass with the root and orphan
// checks, else it fails the block).
func (k *Engine) yieldWhole() bool {
	if !k.checkMessage(k.buf[k.msgStart:], true) {
		return false
	}
	start := len(k.out)
	k.out, _ = k.cw.canonical(k.out, k.buf[k.msgStart:], 0)
	k.offs = append(k.offs, start, len(k.out))
	return true
}

// begin begins surface s (its createSurface or beginRendering ended): its
// root and version are the message's, and the components that came
// before it are yielded (a root other than the one they were read under
// makes their reachability anew).
func (k *Engine) begin(s *surface) {
	if s.begun, s.waiting = true, 0; s.uncounted {
		s.uncounted = false
		k.uncounted--
	}
	if d := k.deleted; d.has(s.id) {
		delete(d.ids, s.id)
		d.order = slices.DeleteFunc(d.order, func(id string) bool { return id == s.id })
	}
	if k.verA >= 0 {
		s.version = string(k.buf[k.verA:k.verB])
	}
	if root := k.idText(k.buf[max(k.rootA, 0):k.rootB]); k.rootA >= 0 && string(root) != s.root {
		s.root = string(root)
		s.reach, s.sorted, s.bad = s.reach[:0], 0, 0
		k.forgetBody(s)
		for e := range s.comps.all {
			e.reach, e.parents = false, 0
		}
	}
	if r := s.comps.getString(s.root); r != nil && r.arrived && !r.reach {
		k.reachFrom(s, r)
	}
	for e := range s.comps.all {
		if e.reach && e.arrived {
			k.enqueue(e)
		}
	}
}

// rootNamed makes the root a v0.8 beginRendering names the root of its
// surface, when the surface began already: once the message ends, as in
// the parser (it is not yielded again; what the root reaches is).
func (k *Engine) rootNamed() {
	if s := k.cur; k.v08 && k.msgKind == kCreate && s != nil && s.begun && k.rootA >= 0 && string(k.idText(k.buf[k.rootA:k.rootB])) != s.root {
		k.begin(s)
	}
}

// setFamily fixes the stream's family by the first message kind it reads,
// as the parser does: v0.8 for beginRendering, surfaceUpdate,
// dataModelUpdate and deleteSurface, else v0.9.
func (k *Engine) setFamily(key uint8) {
	switch key {
	case kBegin, kSurfaceUpdate, kDataModel, kDelete:
		k.famSet, k.v08 = true, true
	case kCreate, kUpdate, kData:
		k.famSet = true
	}
}

// rememberDeleted records a deleted v0.8 surface, whose data model
// messages are dropped until it begins again: at most MaxSurfaces are
// remembered, the oldest forgotten first, as the parser does.
func (k *Engine) rememberDeleted(id string) {
	if k.deleted == nil {
		k.deleted = &deletedSurfaces{ids: map[string]bool{}}
	}
	d := k.deleted
	for k.maxSurfaces > 0 && len(d.ids) >= k.maxSurfaces && len(d.order) > 0 {
		delete(d.ids, d.order[0])
		d.order = d.order[1:]
	}
	if !d.ids[id] {
		d.ids[id] = true
		d.order = append(d.order, id)
	}
}

// deletedSurfaces are the v0.8 surfaces deleted and not begun again (see
// rememberDeleted): their ids, and the same oldest first.
type deletedSurfaces struct {
	ids   map[string]bool
	order []string
}

// has reports whether id is of a surface deleted (d may be nil: none).
func (d *deletedSurfaces) has(id string) bool {
	return d != nil && d.ids[id]
}

// forget drops surface s, deleted.
func (k *Engine) forget(s *surface) {
	delete(k.surfaces, s.id)
	k.forgetBody(s)
	if s.uncounted {
		k.uncounted--
	}
	if k.last == s {
		k.last = nil
	}
}
