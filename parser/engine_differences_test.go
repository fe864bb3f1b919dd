package parser

import (
	"flag"
	"math/rand/v2"
	"strings"
	"testing"
)

var differences = flag.Bool("differences", false, "TestEngineDifferences: count the random streams the two engines read otherwise")

// TestEngineDifferences (with -differences) feeds the random streams of the
// golden-key tests one byte at a time to the progressive engine and to
// internal/deltaengine, in both modes, and counts them by their worst
// difference, block by block: "same"; "failing", a difference only in
// blocks one of them fails (where it fails, or which component it names);
// "clean", a difference in a block neither fails. It is a measurement
// (bench/README.md): it fails nothing.
func TestEngineDifferences(t *testing.T) {
	if !*differences {
		t.Skip("a measurement: run with -differences")
	}
	v09c, v08c := refCatalogs(t)
	r := rand.New(rand.NewPCG(15, 13))
	var decoded [][]byte
	for i := range 100 {
		decoded = append(decoded, []byte(randomDecodedStream(r, i%2 == 1)))
	}
	for _, g := range []struct {
		name string
		gen  func(i int) []byte
		opts []Option
	}{
		{"references v0.8", func(i int) []byte { return randomRefStream(int64(i), true) }, nil},
		{"references v0.9", func(i int) []byte { return randomRefStream(int64(i), false) }, nil},
		{"catalog references v0.8", func(i int) []byte { return randomCatalogRefStream(int64(i), true) }, []Option{WithCatalog(v08c)}},
		{"catalog references v0.9", func(i int) []byte { return randomCatalogRefStream(int64(i), false) }, []Option{WithCatalog(v09c)}},
		{"field shapes v0.8", func(i int) []byte { return randomFieldStream(int64(i), true) }, nil},
		{"field shapes v0.9", func(i int) []byte { return randomFieldStream(int64(i), false) }, nil},
		{"skipped components v0.8", func(i int) []byte { return randomSkipStream(int64(i), true) }, nil},
		{"skipped components v0.9", func(i int) []byte { return randomSkipStream(int64(i), false) }, nil},
		{"decoded shapes", func(i int) []byte { return decoded[i] }, nil},
	} {
		count := map[string]int{}
		var clean []int
		for i := range 100 {
			c := blockDifference(g.gen(i), g.opts)
			count[c]++
			if c == "clean" {
				clean = append(clean, i)
			}
		}
		t.Logf("%-24s same %3d, failing %3d, clean %3d %v", g.name, count["same"], count["failing"], count["clean"], clean)
	}
}

// blockDifference is in's worst difference (see TestEngineDifferences).
func blockDifference(in []byte, opts []Option) string {
	var starts []int
	for i := 0; ; i++ {
		j := strings.Index(string(in[i:]), "<a2ui-json>")
		if j < 0 {
			break
		}
		i += j
		starts = append(starts, i)
	}
	blockOf := func(at int) int {
		b := -1
		for i, s := range starts {
			if at >= s {
				b = i
			}
		}
		return b
	}
	// perBlock feeds in one byte at a time: each block's messages, and the
	// blocks that fail.
	perBlock := func(mode Mode, engine []Option) (map[int]string, map[int]bool) {
		p, err := New(append(append([]Option{WithMode(mode)}, opts...), engine...)...)
		if err != nil {
			panic(err)
		}
		msgs, fails := map[int]string{}, map[int]bool{}
		note := func(at int, parts []Part, err error) {
			b := blockOf(at)
			for _, pt := range parts {
				for _, m := range pt.Messages {
					msgs[b] += string(m) + "\n"
				}
			}
			if err != nil {
				fails[b] = true
			}
		}
		for i := range in {
			parts, err := p.Feed(in[i : i+1])
			note(i, parts, err)
		}
		parts, err := p.Close()
		note(len(in), parts, err)
		return msgs, fails
	}
	worst := "same"
	for _, mode := range []Mode{ModeProgressive, ModeDelta} {
		am, af := perBlock(mode, nil)
		bm, bf := perBlock(mode, []Option{withDeltaFirst()})
		for b := -1; b < len(starts); b++ {
			switch {
			case am[b] == bm[b] && af[b] == bf[b]:
			case af[b] || bf[b]:
				if worst == "same" {
					worst = "failing"
				}
			default:
				worst = "clean"
			}
		}
	}
	return worst
}
