package parser

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// latestFull is dataReader.latest computed from scratch, over the whole
// list: the oracle of its incremental answer.
func latestFull(c *dataContents) []int {
	var idx []int
	for i := range c.elems {
		el := c.elem(i)
		if el.key == "" || el.pruned == "" || !c.lastIs(el.key, i) {
			continue
		}
		if _, val := c.valAt(el.key); val {
			idx = append(idx, i)
		}
	}
	return idx
}

// TestLatestIncremental checks dataReader.latest, brought up to date from
// its last answer as elements are added, against latestFull after every
// batch of elements (one to three at a time), over random lists with
// repeated keys, elements with and without values, pruned ones and
// keyless ones, and across a reset of the contents (a new data id).
func TestLatestIncremental(t *testing.T) {
	for seed := range uint64(200) {
		t.Run(fmt.Sprintf("seed_%d", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 7))
			var r dataReader
			var c dataContents
			id := uint64(1)
			c.reset(true, id)
			keys := 1 + rng.IntN(6)
			for step := range 60 {
				if rng.IntN(40) == 0 {
					id++
					c.reset(true, id)
				}
				for range 1 + rng.IntN(3) {
					el := dataElem{hasVal: rng.IntN(3) > 0}
					if rng.IntN(8) > 0 {
						el.key = fmt.Sprintf("k%d", rng.IntN(keys))
					}
					if rng.IntN(5) > 0 {
						el.pruned = fmt.Sprintf(`{"key":%q,"n":%d}`, el.key, step)
					}
					if el.hasVal {
						el.cmp = fmt.Sprint(step)
					}
					c.addElem(el)
				}
				got, want := r.latest(&c), latestFull(&c)
				if !slices.Equal(got, want) && (len(got) > 0 || len(want) > 0) {
					t.Fatalf("step %d: latest %v, want %v", step, got, want)
				}
			}
		})
	}
}
