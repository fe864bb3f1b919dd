package perf

import (
	"context"
	"fmt"
	"strconv"
	"time"
)

// ScalingComponents are the sizes of the scaling check's messages: the
// parser's cost per byte should not grow with the size of a message.
var ScalingComponents = []int{100, 1000, 10000}

// ScalingChunk is the chunk size the scaling check feeds its answers in.
const ScalingChunk = 16

// ScalingAnswer returns a model answer of prose around one block holding
// a createSurface and one updateComponents of n components (n >= 1): a
// root Column whose children are n-1 Text components, each defined after
// the root.
func ScalingAnswer(n int) []byte {
	b := []byte(`Here is the list you asked for. <a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"scale","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}},`)
	b = append(b, `{"version":"v0.9","updateComponents":{"surfaceId":"scale","components":[{"id":"root","component":"Column","children":[`...)
	for i := 1; i < n; i++ {
		if i > 1 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, "item-"+strconv.Itoa(i))
	}
	b = append(b, "]}"...)
	for i := 1; i < n; i++ {
		b = fmt.Appendf(b, `,{"id":"item-%d","component":"Text","text":"Entry %d of the list"}`, i, i)
	}
	return append(b, "]}}]</a2ui-json> Tell me if you need more."...)
}

// scaling runs the scaling check: the parse stage in every mode on the
// answers of ScalingComponents, in ScalingChunk-byte chunks.
func (r *Runner) scaling(ctx context.Context, pr *progress) ([]ScalePoint, error) {
	var out []ScalePoint
	for _, mode := range r.cfg.modes {
		for _, n := range r.cfg.sizes {
			pr.next(fmt.Sprintf("scaling: %s %d components", modeName(mode), n))
			in := &Input{Name: fmt.Sprintf("scaling-%d", n), Data: ScalingAnswer(n)}
			run := &parseRun{in: in, chunk: ScalingChunk, opts: parserOptions(mode)}
			if _, err := run.pass(ctx, nil); err != nil { // warm-up
				return nil, &StageError{Stage: StageParse, Mode: modeName(mode), Chunk: ScalingChunk, Err: err}
			}
			var ns []float64
			var cpu time.Duration
			for round := 0; r.moreRounds(round, cpu); round++ {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				passes, d, err := r.timedRound(ctx, run)
				if err != nil {
					return nil, &StageError{Stage: StageParse, Mode: modeName(mode), Chunk: ScalingChunk, Err: err}
				}
				cpu += d
				ns = append(ns, float64(d.Nanoseconds())/float64(passes*len(in.Data)))
			}
			out = append(out, ScalePoint{Mode: modeName(mode), Components: n, Bytes: len(in.Data),
				Chunk: ScalingChunk, NsPerByte: SpreadOf(ns)})
		}
	}
	return out, nil
}
