package processor_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// TestTopologyMatchesProtocol drives random component updates into a
// surface and checks each accept/reject decision (and the error kind)
// against protocol.CheckIntegrity + protocol.AnalyzeTopology run on the
// whole merged component list.
func TestTopologyMatchesProtocol(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ids := []string{"root", "a", "b", "c", "d", "e", "f"}
	accepted, rejected := 0, 0
	for round := range 300 {
		p := newProcessor(t)
		mustApply(t, p, create("s"))
		held := map[string]map[string]any{} // what the surface holds
		var order []string
		for step := range 8 {
			n := 1 + rng.IntN(3)
			var texts []string
			var decoded []map[string]any
			for range n {
				id := ids[rng.IntN(len(ids))]
				var c string
				switch rng.IntN(3) {
				case 0:
					c = fmt.Sprintf(`{"id":%q,"component":"Card","child":%q}`, id, ids[rng.IntN(len(ids))])
				case 1:
					c = fmt.Sprintf(`{"id":%q,"component":"Column","children":[%q,%q]}`, id, ids[rng.IntN(len(ids))], ids[rng.IntN(len(ids))])
				default:
					c = fmt.Sprintf(`{"id":%q,"component":"Text"}`, id)
				}
				texts = append(texts, c)
				var m map[string]any
				_ = json.Unmarshal([]byte(c), &m)
				decoded = append(decoded, m)
			}
			// The protocol's verdict on the merged graph.
			wantErr := protocol.CheckIntegrity("", decoded, nil, true)
			if wantErr == nil {
				next := map[string]map[string]any{}
				for k, v := range held {
					next[k] = v
				}
				var merged []map[string]any
				for _, m := range decoded {
					next[m["id"].(string)] = m
				}
				seen := map[string]bool{}
				for _, id := range order {
					merged = append(merged, next[id])
					seen[id] = true
				}
				for _, m := range decoded {
					if id := m["id"].(string); !seen[id] {
						merged = append(merged, m)
						seen[id] = true
					}
				}
				_, wantErr = protocol.AnalyzeTopology("", merged, nil, protocol.TopologyOptions{})
			}
			b := p.ProcessList(msgs(comps("s", texts...)))
			r := b.Results[0]
			if (wantErr == nil) != r.OK {
				t.Fatalf("round %d step %d: processor ok=%v (%v), protocol says %v\nheld %v\nupdate %v", round, step, r.OK, r.Err, wantErr, held, texts)
			}
			if r.OK {
				accepted++
			} else {
				rejected++
			}
			if wantErr != nil {
				for _, kind := range []error{protocol.ErrDuplicateID, protocol.ErrSelfReference, protocol.ErrCycle} {
					if errors.Is(wantErr, kind) != errors.Is(r.Err, kind) {
						t.Fatalf("round %d step %d: error %v, protocol %v", round, step, r.Err, wantErr)
					}
				}
				continue
			}
			for _, m := range decoded {
				id := m["id"].(string)
				if _, ok := held[id]; !ok {
					order = append(order, id)
				}
				held[id] = m
			}
		}
	}
	if accepted < 100 || rejected < 100 {
		t.Errorf("weak coverage: %d accepted, %d rejected", accepted, rejected)
	}
}

// longestPath is the oracle for the depth rule: the length of the longest
// reference path in an acyclic component graph.
func longestPath(comps map[string]map[string]any) int {
	memo := map[string]int{}
	var h func(id string) int
	h = func(id string) int {
		if v, ok := memo[id]; ok {
			return v
		}
		best := 0
		for _, r := range protocol.ComponentRefs(nil, comps[id], nil) {
			if _, ok := comps[r.ID]; ok {
				best = max(best, h(r.ID)+1)
			}
		}
		memo[id] = best
		return best
	}
	best := 0
	for id := range comps {
		best = max(best, h(id))
	}
	return best
}

// TestFullTopologyDepthIgnoresOrder sends chains around the depth limit as
// one update (checked by the full walk) with their components in several
// orders: the verdict must follow the longest reference path alone, and a
// later small update of an accepted chain (checked incrementally from the
// heights the full walk stored) must apply.
func TestFullTopologyDepthIgnoresOrder(t *testing.T) {
	for _, links := range []int{protocol.MaxComponentDepth, protocol.MaxComponentDepth + 1, protocol.MaxComponentDepth + 10} {
		chain := make([]string, links+1)
		for i := range links {
			chain[i] = fmt.Sprintf(`{"id":"c%d","component":"Card","child":"c%d"}`, i, i+1)
		}
		chain[links] = fmt.Sprintf(`{"id":"c%d","component":"Text","text":"end"}`, links)
		half := len(chain) / 2
		rng := rand.New(rand.NewPCG(uint64(links), 9))
		orders := map[string][]string{
			"forward":          chain,
			"reverse":          reversed(chain),
			"lower_half_first": append(slices.Clone(chain[half:]), chain[:half]...),
			"shuffled":         shuffled(rng, chain),
		}
		for name, order := range orders {
			t.Run(fmt.Sprintf("links=%d/%s", links, name), func(t *testing.T) {
				p := newProcessor(t)
				mustApply(t, p, create("s"))
				r := p.ProcessList(msgs(comps("s", order...))).Results[0]
				if links > protocol.MaxComponentDepth {
					if r.OK || !errors.Is(r.Err, protocol.ErrRecursionLimit) {
						t.Fatalf("chain of %d links: ok=%v err=%v, want the depth limit", links, r.OK, r.Err)
					}
					return
				}
				if !r.OK {
					t.Fatalf("chain of %d links rejected: %v", links, r.Err)
				}
				// Re-sending a held component and changing the leaf are
				// small updates on the stored heights.
				for _, c := range []string{chain[links-1], fmt.Sprintf(`{"id":"c%d","component":"Text","text":"new"}`, links)} {
					if r := p.ProcessList(msgs(comps("s", c))).Results[0]; !r.OK {
						t.Fatalf("small update %s rejected: %v", c, r.Err)
					}
				}
			})
		}
	}
}

// reversed returns a reversed copy of list.
func reversed(list []string) []string {
	out := slices.Clone(list)
	slices.Reverse(out)
	return out
}

// shuffled returns a shuffled copy of list.
func shuffled(rng *rand.Rand, list []string) []string {
	out := slices.Clone(list)
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// TestIncrementalTopologyMatchesOracle grows surfaces of up to 80
// components with small updates (so that most are checked incrementally),
// mostly as chains so that the depth limit is reached, and compares every
// decision with protocol.AnalyzeTopology (self-references, cycles) and a
// longest-path oracle (depth).
func TestIncrementalTopologyMatchesOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	id := func(i int) string { return fmt.Sprintf("n%d", i) }
	var accepted, cycles, deep int
	for round := range 60 {
		p := newProcessor(t)
		mustApply(t, p, create("s"))
		held := map[string]map[string]any{}
		pos := rng.IntN(80)
		for step := range 200 {
			n := 1 + rng.IntN(2)
			var texts []string
			next := map[string]map[string]any{}
			for k, v := range held {
				next[k] = v
			}
			var decoded []map[string]any
			for range n {
				i := rng.IntN(80)
				var c string
				switch r := rng.IntN(10); {
				case r < 8:
					// Grow a chain: the next id links to the one after it.
					pos = (pos + 1) % 80
					c = fmt.Sprintf(`{"id":%q,"component":"Card","child":%q}`, id(pos), id(pos+1))
				case r < 9:
					c = fmt.Sprintf(`{"id":%q,"component":"Column","children":[%q,%q]}`, id(i), id(rng.IntN(80)), id(rng.IntN(80)))
				default:
					c = fmt.Sprintf(`{"id":%q,"component":"Text"}`, id(i))
				}
				texts = append(texts, c)
				var m map[string]any
				_ = json.Unmarshal([]byte(c), &m)
				decoded = append(decoded, m)
			}
			wantErr := protocol.CheckIntegrity("", decoded, nil, true)
			for _, m := range decoded {
				next[m["id"].(string)] = m
			}
			if wantErr == nil {
				var merged []map[string]any
				for _, m := range next {
					merged = append(merged, m)
				}
				_, wantErr = protocol.AnalyzeTopology("", merged, nil, protocol.TopologyOptions{MaxDepth: 1 << 20})
			}
			wantDeep := wantErr == nil && longestPath(next) > protocol.MaxComponentDepth

			r := p.ProcessList(msgs(comps("s", texts...))).Results[0]
			switch {
			case wantErr != nil:
				if r.OK || !errors.Is(r.Err, protocol.ErrValidation) {
					t.Fatalf("round %d step %d: ok=%v err=%v, protocol: %v\nupdate %v", round, step, r.OK, r.Err, wantErr, texts)
				}
				for _, kind := range []error{protocol.ErrDuplicateID, protocol.ErrSelfReference, protocol.ErrCycle} {
					if errors.Is(wantErr, kind) != errors.Is(r.Err, kind) {
						t.Fatalf("round %d step %d: error %v, protocol %v", round, step, r.Err, wantErr)
					}
				}
				cycles++
			case wantDeep:
				if r.OK || !errors.Is(r.Err, protocol.ErrRecursionLimit) {
					t.Fatalf("round %d step %d: ok=%v err=%v, want the depth limit (longest path %d)\nupdate %v", round, step, r.OK, r.Err, longestPath(next), texts)
				}
				deep++
			default:
				if !r.OK {
					t.Fatalf("round %d step %d: rejected %v, oracle accepts (longest path %d)\nupdate %v", round, step, r.Err, longestPath(next), texts)
				}
				held = next
				accepted++
			}
		}
	}
	if accepted < 500 || cycles < 100 || deep < 10 {
		t.Errorf("weak coverage: %d accepted, %d cycles, %d too deep", accepted, cycles, deep)
	}
	t.Logf("%d accepted, %d cycles/self-references/duplicates, %d too deep", accepted, cycles, deep)
}
