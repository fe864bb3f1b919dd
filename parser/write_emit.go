package parser

import (
	"encoding/json"
	"slices"
)

// suSnapshot is a v0.8 surfaceUpdate snapshot placed in this call's parts
// (at part, idx), subject to the per-part de-duplication in finishFeed.
type suSnapshot struct {
	part, idx int
	surface   string
}

// emitRaw places an encoded message in the current part. raw was built on
// storage from e.out.store (alloc or tail). A v0.8 snapshot (dedup) is
// subject to the per-part de-duplication.
func (e *progressiveEngine) emitRaw(raw []byte, dedup bool, surface string) {
	e.out.message(e.out.store.keep(raw))
	if dedup && surface != "" {
		pi := len(e.out.parts) - 1
		e.suSnaps = append(e.suSnaps, suSnapshot{part: pi, idx: len(e.out.parts[pi].Messages) - 1, surface: surface})
	}
}

// finishFeed applies the reference's per-chunk de-duplication to this Feed
// call's parts: within a part, only the last surfaceUpdate snapshot of
// each surface is kept (it is the most complete). The last one stays, so no
// part is left without messages.
func (e *progressiveEngine) finishFeed(out *emitter) {
	snaps := e.suSnaps
	if len(snaps) < 2 {
		e.suSnaps = snaps[:0]
		return
	}
	defer func() { e.suSnaps = snaps[:0] }()
	if e.suSeen == nil {
		e.suSeen = map[string]struct{}{}
	}
	part, dropped := -1, false
	for i := len(snaps) - 1; i >= 0; i-- {
		sn := snaps[i]
		if sn.part != part {
			part = sn.part
			clear(e.suSeen)
		}
		if _, dup := e.suSeen[sn.surface]; dup {
			out.parts[sn.part].Messages[sn.idx] = nil
			dropped = true
		}
		e.suSeen[sn.surface] = struct{}{}
	}
	if !dropped {
		return
	}
	for pi := range out.parts {
		p := &out.parts[pi]
		if kept := slices.DeleteFunc(p.Messages, isNilMessage); len(kept) < len(p.Messages) {
			p.Messages = kept[:len(kept):len(kept)]
		}
	}
}

func isNilMessage(m json.RawMessage) bool { return m == nil }
