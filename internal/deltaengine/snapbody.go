package deltaengine

import (
	"bytes"
	"fmt"
	"slices"
)

// snapBody is progressive mode's copy of the last snapshot it wrote of one
// surface, so that the next is written with work for what changed since,
// not for every component:
//
//   - b holds the forms of the surface's reachable components that
//     arrived, sorted by id, each followed by ',';
//   - lens holds, for each entry of s.reach (sorted), the size of its form
//     and ',' in b (0: none: it has not arrived), negated when the form
//     names placeholders;
//   - ph holds the placeholders that follow the forms, each after a ','.
//
// A snapshot rewrites in b the forms of the components that changed (or
// were inserted in s.reach: see sortReach), finding each one's place from
// lens, and writes ph anew only when a form's placeholders changed. It
// builds b anew (build) when b is another surface's, with a catalog (which
// judges the placeholders one by one), or when b is stale: a change was
// not written in it (a snapshot held back) or a component left s.reach
// (forgetBody).
//
// A body lasts for one block: letGo pools it with the block's lists, so
// that a stream holds no second copy of its surfaces between blocks.
type snapBody struct {
	s     *surface // the surface whose forms b holds (nil: none)
	b, ph []byte
	lens  []int32
	stale bool
	// The form last rewritten (nil: none), its index in s.reach and its
	// offset in b, for the next rewrite of the same component (the one
	// arriving, at each chunk) not to look for them.
	last          *entry
	lastI, lastAt int
}

// forgetBody drops the body of surface s, if k holds it: a component left
// its reachable ones, or a failed block dropped forms it holds.
func (k *Engine) forgetBody(s *surface) {
	if b := k.body; b != nil && b.s == s {
		b.s = nil
	}
}

// staleBody marks the body of surface s, if k holds it, stale: changes
// to its forms were not written in it.
func (k *Engine) staleBody(s *surface) {
	if b := k.body; b != nil && b.s == s {
		b.stale = true
	}
}

// writeBody appends the forms and placeholders of the snapshot of surface
// s (s.reach sorted), each after a ',' but the first. ents are the
// components whose forms changed since the last snapshot (some may be
// listed twice); phsMoved, whether the placeholders some of them name
// did. With a catalog, it appends no placeholders: it returns them, in
// order of first use, for the catalog to judge.
func (k *Engine) writeBody(out []byte, s *surface, ents []*entry, phsMoved bool) ([]byte, []*entry) {
	if k.cat != nil {
		return k.build(out, nil, s)
	}
	b := k.body
	if b == nil {
		b = &snapBody{}
		k.body = b
	}
	inStep := b.s == s && !b.stale && len(b.lens) == len(s.reach) && len(ents) <= maxRewrites
	if inStep {
		var moved bool
		inStep, moved = k.rewrite(b, s, ents)
		phsMoved = phsMoved || moved
	}
	if !inStep {
		b.s, b.stale, b.b, b.lens, b.last = s, false, b.b[:0], b.lens[:0], nil
		var phs []*entry
		b.b, phs = k.build(b.b, b, s)
		b.ph = b.ph[:0]
		for _, p := range phs {
			b.ph = k.placeholder(append(b.ph, ','), p)
		}
	} else if phsMoved {
		b.ph = b.ph[:0]
		for i, n := range b.lens {
			if n >= 0 {
				continue
			}
			for _, p := range s.reach[i].snap.phs {
				if p.snapGen != k.snapGen {
					p.snapGen = k.snapGen
					b.ph = k.placeholder(append(b.ph, ','), p)
				}
			}
		}
	}
	at := len(out)
	if len(b.b) > 0 {
		out = append(out, b.b[:len(b.b)-1]...)
	}
	out = append(out, b.ph...)
	if verifyBodies {
		k.verifyBody(out[at:], s)
	}
	return out, nil
}

// verifyBodies, set by tests (export_test.go), has every snapshot written
// from a body checked against the same built anew.
var verifyBodies bool

// verifyBody panics unless got is what build writes for s.
func (k *Engine) verifyBody(got []byte, s *surface) {
	k.snapGen++
	want, phs := k.build(nil, nil, s)
	for _, p := range phs {
		want = k.placeholder(append(want, ','), p)
	}
	if !bytes.Equal(got, want) {
		panic(fmt.Sprintf("deltaengine: the snapshot of surface %q written from its body is\n%s\nnot\n%s", s.id, got, want))
	}
}

// maxRewrites is the number of changed forms up to which a snapshot
// rewrites them in its body: each costs a walk of lens and a move of the
// bytes after it, so that more are cheaper built anew (a large chunk, a
// message that sends many components).
const maxRewrites = 8

// build appends to dst the forms of the reachable components of s that
// arrived, sorted by id, each after a ',' but the first (each followed by
// ',', and noted in b's lens, when b is not nil), and returns
// the components whose placeholders they name, in order of first use
// (marked with k.snapGen).
func (k *Engine) build(dst []byte, b *snapBody, s *surface) ([]byte, []*entry) {
	first, phs := len(dst), k.phs[:0]
	for _, e := range s.reach {
		if !e.arrived {
			if b != nil {
				b.lens = append(b.lens, 0)
			}
			continue
		}
		if !e.formed() {
			k.snapOf(s, e) // (one whose yield a failed block dropped)
		}
		e.counted = false
		sn := e.snap
		switch {
		case b != nil:
			dst = append(append(dst, sn.form...), ',')
			b.lens = append(b.lens, bodyLen(sn))
		case len(dst) > first:
			dst = append(append(dst, ','), sn.form...)
		default:
			dst = append(dst, sn.form...)
		}
		for _, p := range sn.phs {
			if p.snapGen != k.snapGen {
				p.snapGen, phs = k.snapGen, append(phs, p)
			}
		}
	}
	k.phs = phs[:0]
	return dst, phs
}

// rewrite writes in body b, kept in step with s.reach, the forms of ents.
// It reports false if it finds b not in step (b is then to be built
// anew), and whether a form came to name placeholders or ceased to.
func (k *Engine) rewrite(b *snapBody, s *surface, ents []*entry) (ok, phsMoved bool) {
	reach, lens := s.reach, b.lens
	for _, e := range ents {
		at, i := 0, 0
		if e == b.last && b.lastI < len(reach) && reach[b.lastI] == e {
			// (its offset stays: only the forms after it changed since)
			at, i = b.lastAt, b.lastI
		} else {
			for ; i < len(reach) && reach[i] != e; i++ {
				at += int(abs(lens[i]))
			}
			if i == len(reach) {
				return false, phsMoved
			}
		}
		b.last, b.lastI, b.lastAt = e, i, at
		if !e.formed() {
			k.snapOf(s, e) // (one whose yield a failed block dropped)
		}
		e.counted = false
		n := bodyLen(e.snap)
		if n < 0 != (lens[i] < 0) {
			phsMoved = true
		}
		b.b = splice(b.b, at, int(abs(lens[i])), int(abs(n)), e.snap.form)
		lens[i] = n
	}
	return true, phsMoved
}

// bodyLen is the size of sn's form and a ',', negated if it names
// placeholders (see snapBody.lens).
func bodyLen(sn *snapForm) int32 {
	if n := int32(len(sn.form) + 1); len(sn.phs) == 0 {
		return n
	} else {
		return -n
	}
}

func abs(n int32) int32 {
	if n < 0 {
		return -n
	}
	return n
}

// splice writes form and a ',' (n bytes) over the old bytes at body[at:],
// moving the bytes after them.
func splice(body []byte, at, old, n int, form []byte) []byte {
	if d := n - old; d != 0 {
		end := len(body)
		if d > 0 {
			body = slices.Grow(body, d)[:end+d]
		}
		copy(body[at+n:], body[at+old:end])
		body = body[:end+d]
	}
	copy(body[at:], form)
	body[at+n-1] = ','
	return body
}
