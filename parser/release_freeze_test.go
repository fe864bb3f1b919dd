package parser

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestThawedEntriesAsKept: a surface frozen at a block's end and thawed
// has the components a parser that keeps every block's state has, field
// by field: what the compact form keeps (bytes, processed form, child
// slots, references, flags, hashes: the hash of the processed form is
// computed again, the references may be kept as the slots' ids) and what
// the surface keeps (arrival order, sorted reachable list, targets).
// After every call, both parsers fed the same chunks.
func TestThawedEntriesAsKept(t *testing.T) {
	inputs := []struct{ name, in string }{
		{"rest_v09", releaseRestV09}, {"rest_v08", releaseRestV08},
		{"reuse_v09", reuseListsV09},
		{"corpus_v09", string(corpusPrefix(t, "stream_v09.txt", 96<<10))},
		{"corpus_v08", string(corpusPrefix(t, "stream_v08.txt", 96<<10))},
	}
	for _, in := range inputs {
		thawed := 0
		for _, mode := range []Mode{ModeProgressive, ModeDelta} {
			for _, size := range []int{1, 7, 16, 256} {
				if size == 1 && strings.HasPrefix(in.name, "corpus") {
					continue
				}
				t.Run(fmt.Sprintf("%s/%v/chunk%d", in.name, mode, size), func(t *testing.T) {
					thawed += checkThawedAsKept(t, mode, chunksOf([]byte(in.in), size))
				})
			}
		}
		if thawed == 0 {
			t.Errorf("%s: no surface was frozen", in.name)
		}
	}
}

// checkThawedAsKept feeds chunks to a releasing parser and a keeping one
// and compares, after each call, the surfaces the releasing one froze
// (thawed by the check, as a block's first use would) with the kept ones.
// It returns how many it thawed.
func checkThawedAsKept(t *testing.T, mode Mode, chunks [][]byte) (thawed int) {
	t.Helper()
	var engs [2]*progressiveEngine
	var ps [2]*Parser
	for i := range ps {
		p, err := New(WithMode(mode))
		if err != nil {
			t.Fatal(err)
		}
		ps[i], engs[i] = p, progressiveOf(t, p.eng)
	}
	rel, kept := engs[0], engs[1]
	kept.keepIdle = true
	for c, chunk := range chunks {
		for _, p := range ps {
			p.Feed(chunk)
		}
		for _, sid := range slices.Sorted(maps.Keys(rel.seen)) {
			s := rel.seen[sid]
			if s.frozen == nil {
				continue
			}
			s.thaw()
			thawed++
			if err := sameSurface(s, kept.seen[sid]); err != nil {
				t.Fatalf("call %d, surface %q: %v", c, sid, err)
			}
		}
	}
	return thawed
}

// sameSurface compares a thawed surface with its kept form.
func sameSurface(s, k *surfaceState) error {
	if k == nil {
		return fmt.Errorf("not kept")
	}
	if !slices.Equal(s.order, k.order) {
		return fmt.Errorf("order %q, kept %q", s.order, k.order)
	}
	ids := func(list []*compEntry) []string {
		var out []string
		for _, ent := range list {
			out = append(out, ent.id)
		}
		return out
	}
	// (In any order: delta mode sorts it only when it needs it.)
	if a, b := slices.Sorted(slices.Values(ids(s.sorted))), slices.Sorted(slices.Values(ids(k.sorted))); !slices.Equal(a, b) {
		return fmt.Errorf("sorted %q, kept %q", a, b)
	}
	if len(s.tidx) != len(k.tidx) {
		return fmt.Errorf("%d targets, kept %d", len(s.tidx), len(k.tidx))
	}
	for id, i := range s.tidx {
		j, ok := k.tidx[id]
		if !ok {
			return fmt.Errorf("target %q not kept", id)
		}
		if a, b := s.tgts[i], k.tgts[j]; a.inbound != b.inbound || a.depth != b.depth {
			return fmt.Errorf("target %q: %d/%d, kept %d/%d", id, a.inbound, a.depth, b.inbound, b.depth)
		}
	}
	for _, id := range s.order {
		if err := sameEntry(s.comps[id], k.comps[id]); err != nil {
			return fmt.Errorf("component %q: %v", id, err)
		}
	}
	return nil
}

// sameEntry compares a thawed component with its kept form.
func sameEntry(a, b *compEntry) error {
	if b == nil || b.fast == nil {
		return fmt.Errorf("not kept at byte level")
	}
	type view struct {
		Hash, YHash                                         uint64
		YOK, Shared, SelfRef, Reach, Stale, UsesBuf, Reproc bool
		Pjson, Src                                          string
		Refs                                                []string
		Depth, PhsYieldedN                                  int
		Gen                                                 uint32
		Valid                                               int8
		Slots                                               []childSlot
		Empty                                               []emptyList
		EmptyObj, Rewrote, Nested                           bool
	}
	v := func(e *compEntry) view {
		x := view{
			Hash: e.hash, YHash: e.yHash, YOK: e.yOK, Shared: e.shared, SelfRef: e.selfRef, Reach: e.reach,
			Stale: e.stale, UsesBuf: e.usesBuf, Reproc: e.reprocessed, Pjson: string(e.pjson), Src: string(e.fast.src),
			Refs: e.refs, Depth: int(e.depth), PhsYieldedN: int(e.phsYieldedN), Gen: e.gen, Valid: e.valid,
			Slots: e.fast.slots, Empty: e.fast.empty, EmptyObj: e.fast.emptyObj, Rewrote: e.fast.rewrote, Nested: e.fast.nested,
		}
		if e.stale {
			x.Hash = 0 // (computed again before it is read)
		}
		if len(x.Refs) == 0 {
			x.Refs = nil
		}
		if len(x.Slots) == 0 {
			x.Slots = nil
		}
		if len(x.Empty) == 0 {
			x.Empty = nil
		}
		return x
	}
	if va, vb := v(a), v(b); fmt.Sprintf("%+v", va) != fmt.Sprintf("%+v", vb) {
		return fmt.Errorf("thawed\n%+v\nkept\n%+v", va, vb)
	}
	return nil
}
