package main

import (
	"hash/maphash"
	"slices"
	"strings"
)

// flush yields the queued reachable components whose form changed, then
// the placeholders they first need, each list sorted by id as the parser
// sorts them, as one updateComponents message.
func (k *engine) flush() {
	if len(k.queue) == 0 {
		return
	}
	// Locals, stored back once: a store to the engine's fields is a
	// pointer write, which costs a write barrier while the GC marks.
	ents, phs, out := k.ents[:0], k.phs[:0], k.out
	for _, e := range k.queue {
		if e.queued = false; e.reach && e.arrived {
			ents = append(ents, e)
		}
	}
	k.queue = k.queue[:0]
	slices.SortFunc(ents, func(a, b *entry) int { return strings.Compare(a.id, b.id) })
	start := len(out)
	out = append(out, `{"updateComponents":{"components":[`...)
	first := len(out)
	for _, e := range ents {
		at := len(out)
		if at > first {
			out = append(out, ',')
		}
		from, prev := len(out), int32(0)
		for _, r := range e.refs {
			if kid := r.kid; !kid.arrived {
				out = append(out, e.src[prev:r.a]...)
				out = append(out, "loading_"...)
				if prev = r.a; !kid.phYielded {
					kid.phYielded, phs = true, append(phs, kid)
				}
			}
		}
		out = append(out, e.src[prev:]...)
		e.missing, e.woke, e.deferred = 0, 0, false
		for _, r := range e.refs {
			if !r.kid.arrived {
				e.missing++
			}
		}
		if h := maphash.Bytes(k.seed, out[from:]); h != e.hash {
			e.hash = h
		} else {
			out = out[:at] // as last yielded
		}
	}
	slices.SortFunc(phs, func(a, b *entry) int { return strings.Compare(a.id, b.id) })
	for _, p := range phs {
		if len(out) > first {
			out = append(out, ',')
		}
		out = append(out, `{"children":[],"component":"Row","id":"loading_`...)
		out = append(out, p.id...)
		out = append(out, `"}`...)
	}
	if len(out) == first {
		out = out[:start]
	} else {
		out = append(out, `],"surfaceId":"`...)
		out = append(out, k.cur.id...)
		out = append(out, `"},"version":"`...)
		if k.verA >= 0 {
			out = append(out, k.buf[k.verA:k.verB]...)
		} else {
			out = append(out, k.cur.version...)
		}
		out = append(out, `"}`...)
		k.offs = append(k.offs, start, len(out))
	}
	k.ents, k.phs, k.out = ents[:0], phs[:0], out
}
