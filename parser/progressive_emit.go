package parser

import (
	"encoding/json"
)

// emission is one message yielded during the current Feed call. Messages
// are placed in the emitter at once (so they interleave correctly with
// text) and encoded in feedEnd, after the per-part de-duplication and, in
// delta mode, the reduction to what changed.
type emission struct {
	part, idx int
	msg       map[string]any // a message to encode, or
	raw       []byte         // an encoded component message
	suSurface string         // surface of a v0.8 surfaceUpdate snapshot
	gen       uint64         // the scanner's generation of the message msg comes from
}

// emit places msg, a yield of the message being read, in the current part.
func (e *progressiveEngine) emit(msg map[string]any) {
	e.out.message(nil)
	pi := len(e.out.parts) - 1
	e.emitted = append(e.emitted, emission{part: pi, idx: len(e.out.parts[pi].Messages) - 1, msg: msg, gen: e.sc.msgGen})
}

// emitRaw places an encoded message in the current part. raw was built on
// storage from e.out.store (alloc or tail). A v0.8 snapshot (dedup) is
// subject to the per-part de-duplication.
func (e *progressiveEngine) emitRaw(raw []byte, dedup bool, surface string) {
	raw = e.out.store.keep(raw)
	e.out.message(nil)
	pi := len(e.out.parts) - 1
	em := emission{part: pi, idx: len(e.out.parts[pi].Messages) - 1, raw: raw}
	if dedup && surface != "" {
		em.suSurface = surface
	}
	e.emitted = append(e.emitted, em)
}

// encode encodes a message into the call's output storage.
func (e *emitter) encode(msg map[string]any) json.RawMessage {
	return e.store.keep(appendJSON(e.store.tail(), msg))
}

// finishFeed encodes the messages of this Feed call into out's parts:
//
//   - within a part, only the last surfaceUpdate per surface is kept (the
//     reference's per-chunk de-duplication: it is the most complete);
//   - in delta mode, each message is reduced to the components and data
//     entries new or changed since the previous yield, and dropped when
//     nothing is left.
func (e *progressiveEngine) finishFeed(out *emitter) {
	if len(e.emitted) == 0 {
		return
	}
	drop := e.drop[:0]
	for range e.emitted {
		drop = append(drop, false)
	}
	e.drop = drop
	// Per-part de-duplication of surfaceUpdate snapshots, keeping the last:
	// a snapshot is dropped when a later one of the same part has the same
	// surface.
	part := -1
	for i := len(e.emitted) - 1; i >= 0; i-- {
		s := e.emitted[i].suSurface
		if s == "" {
			continue
		}
		if e.suSeen == nil {
			e.suSeen = map[string]struct{}{}
		}
		if p := e.emitted[i].part; p != part {
			part = p
			clear(e.suSeen)
		}
		if _, dup := e.suSeen[s]; dup {
			drop[i] = true
		}
		e.suSeen[s] = struct{}{}
	}
	for i := range e.emitted {
		em := &e.emitted[i]
		if drop[i] {
			continue
		}
		if em.raw != nil {
			out.parts[em.part].Messages[em.idx] = json.RawMessage(em.raw)
			continue
		}
		if e.dstate == nil {
			out.parts[em.part].Messages[em.idx] = out.encode(em.msg)
			continue
		}
		msgs := e.dstate.reduce(em.msg, em.gen)
		if len(msgs) == 0 {
			drop[i] = true
			continue
		}
		out.parts[em.part].Messages[em.idx] = out.encode(msgs[0])
		for _, m := range msgs[1:] {
			if e.extra == nil {
				e.extra = map[[2]int][]json.RawMessage{}
			}
			k := [2]int{em.part, em.idx}
			e.extra[k] = append(e.extra[k], out.encode(m))
		}
	}
	// Compact: remove dropped messages, and parts left with nothing; insert
	// the messages a reduction added after the one they follow.
	anyDrop := len(e.extra) > 0
	for _, d := range drop {
		anyDrop = anyDrop || d
	}
	if anyDrop {
		for pi := range out.parts {
			p := &out.parts[pi]
			if p.Messages == nil {
				continue
			}
			kept := p.Messages[:0]
			if len(e.extra) > 0 {
				kept = nil // the part grows: a new array
			}
			for mi, m := range p.Messages {
				if m != nil {
					kept = append(kept, m)
				}
				kept = append(kept, e.extra[[2]int{pi, mi}]...)
			}
			if len(kept) == 0 {
				p.Messages = nil
			} else {
				p.Messages = kept[:len(kept):len(kept)]
			}
		}
		parts := out.parts[:0]
		for pi, p := range out.parts {
			if p.Messages == nil && p.Text == "" {
				out.dropped = append(out.dropped, pi)
				continue
			}
			parts = append(parts, p)
		}
		out.parts = parts
	}
	clear(e.emitted)
	e.emitted = e.emitted[:0]
	clear(e.extra)
}
