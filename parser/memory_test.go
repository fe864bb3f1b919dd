package parser

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/speccatalog"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// Memory held by the progressive modes: what a parser keeps once a turn's
// block ended (per stream), and the live heap while a large data model
// block arrives. Figures are bytes, measured as the live heap after a
// forced collection, never times.

// liveHeap is the live heap after forced collections: two, since what the
// package's pools of released buffers hold (shared by all parsers, not
// any stream's) survives one.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// feedTurn feeds turn to p in chunks of n bytes, keeping no part.
func feedTurn(tb testing.TB, p *Parser, turn []byte, n int) {
	tb.Helper()
	for i := 0; i < len(turn); i += n {
		if _, err := p.Feed(turn[i:min(i+n, len(turn))]); err != nil {
			tb.Fatal(err)
		}
	}
}

// streamHeld returns the bytes a parser of mode holds, on average, after
// being fed one turn (the stream still open: no Close), and the turns'
// average size.
func streamHeld(tb testing.TB, turns [][]byte, mode Mode, opts ...Option) (perStream, perInput float64) {
	tb.Helper()
	ps := make([]*Parser, len(turns))
	in := 0
	before := liveHeap()
	for i, turn := range turns {
		p, err := New(append([]Option{WithMode(mode), WithBorrowedOutput()}, opts...)...)
		if err != nil {
			tb.Fatal(err)
		}
		feedTurn(tb, p, turn, 16)
		ps[i] = p
		in += len(turn)
	}
	after := liveHeap()
	runtime.KeepAlive(ps)
	n := float64(len(turns))
	return float64(int64(after)-int64(before)) / n, float64(in) / n
}

// BenchmarkStreamHeld reports the bytes a progressive or delta parser
// holds per stream after one corpus turn (B/stream), and that as a
// multiple of the turn's input (x-input).
func BenchmarkStreamHeld(b *testing.B) {
	for _, corpus := range []string{"stream_v09", "stream_v08"} {
		for _, mode := range []Mode{ModeProgressive, ModeDelta} {
			b.Run(fmt.Sprintf("%s/%v", corpus, mode), func(b *testing.B) {
				turns := corpusTurns(b, corpus)
				var per, in float64
				for b.Loop() {
					per, in = streamHeld(b, turns, mode)
				}
				b.ReportMetric(per, "B/stream")
				b.ReportMetric(per/in, "x-input")
			})
		}
	}
}

// surfaceHeld returns the bytes one parser of mode holds per turn (each
// turn's surface stays live) after being fed every turn.
func surfaceHeld(tb testing.TB, turns [][]byte, mode Mode) float64 {
	tb.Helper()
	before := liveHeap()
	p, err := New(WithMode(mode), WithBorrowedOutput())
	if err != nil {
		tb.Fatal(err)
	}
	for _, turn := range turns {
		feedTurn(tb, p, turn, 16)
	}
	after := liveHeap()
	runtime.KeepAlive(p)
	return float64(int64(after)-int64(before)) / float64(len(turns))
}

// BenchmarkSurfaceHeld reports the bytes one parser holds per live surface
// after a whole corpus stream (one surface per turn).
func BenchmarkSurfaceHeld(b *testing.B) {
	for _, corpus := range []string{"stream_v09", "stream_v08"} {
		for _, mode := range []Mode{ModeProgressive, ModeDelta} {
			b.Run(fmt.Sprintf("%s/%v", corpus, mode), func(b *testing.B) {
				turns := corpusTurns(b, corpus)
				var per float64
				for b.Loop() {
					per = surfaceHeld(b, turns, mode)
				}
				b.ReportMetric(per, "B/surface")
			})
		}
	}
}

// largeDataBlock is one block of a createSurface (beginRendering) and a
// data model message of about size bytes: v0.9, an updateDataModel whose
// value has one small entry per key; v0.8, a dataModelUpdate with one
// contents entry per key.
func largeDataBlock(v08 bool, size int) []byte {
	var b []byte
	if v08 {
		b = append(b, `<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"r"}},{"dataModelUpdate":{"surfaceId":"s","contents":[`...)
	} else {
		b = append(b, `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":{`...)
	}
	for i := 0; len(b) < size; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		if v08 {
			b = fmt.Appendf(b, `{"key":"k%d","valueString":"v%d"}`, i, i)
		} else {
			b = fmt.Appendf(b, `"k%d":%d`, i, i*7)
		}
	}
	if v08 {
		return append(b, `]}}]</a2ui-json>`...)
	}
	return append(b, `}}}]</a2ui-json>`...)
}

// blockHeap feeds data to a new parser of mode in chunks of n bytes and
// returns the largest live heap seen at samples points (samples of them,
// evenly spread, the last with the whole block fed) and the live heap the
// parser holds once the block ended and the next call returned (no Close:
// the stream stays open),
// both net of the heap before.
func blockHeap(tb testing.TB, data []byte, mode Mode, n, samples int) (peak, held int64) {
	tb.Helper()
	before := int64(liveHeap())
	p, err := New(WithMode(mode), WithBorrowedOutput())
	if err != nil {
		tb.Fatal(err)
	}
	step := max(len(data)/samples, n)
	next := step
	for i := 0; i < len(data); i += n {
		j := min(i+n, len(data))
		if _, err := p.Feed(data[i:j]); err != nil {
			tb.Fatal(err)
		}
		if j >= next && j < len(data) {
			next += step
			peak = max(peak, int64(liveHeap())-before)
		}
	}
	// One more call, so that the last call's output (WithBorrowedOutput:
	// valid until the next call) is no longer the caller's.
	if _, err := p.Feed([]byte("\n")); err != nil {
		tb.Fatal(err)
	}
	held = int64(liveHeap()) - before
	runtime.KeepAlive(p)
	runtime.KeepAlive(data) // (live at before: else freed by now, and held short by its size)
	return max(peak, held), held
}

// BenchmarkLargeDataBlock reports the live heap while a data model block
// of 8 MB arrives (peak-B, peak-x: as a multiple of the block) and what the
// parser holds once it ended (held-B, held-x).
func BenchmarkLargeDataBlock(b *testing.B) {
	for _, v08 := range []bool{false, true} {
		data := largeDataBlock(v08, DefaultMaxBlockSize-4096)
		for _, mode := range []Mode{ModeComplete, ModeProgressive, ModeDelta} {
			for _, n := range []int{16, 64 << 10} {
				name := fmt.Sprintf("v09/%v/chunk%d", mode, n)
				if v08 {
					name = fmt.Sprintf("v08/%v/chunk%d", mode, n)
				}
				b.Run(name, func(b *testing.B) {
					var peak, held int64
					for b.Loop() {
						peak, held = blockHeap(b, data, mode, n, 64)
					}
					b.ReportMetric(float64(peak), "peak-B")
					b.ReportMetric(float64(peak)/float64(len(data)), "peak-x")
					b.ReportMetric(float64(held), "held-B")
					b.ReportMetric(float64(held)/float64(len(data)), "held-x")
				})
			}
		}
	}
}

// Bound of TestLargeDataBlockHeap on what the parser holds once the block
// ended, as a multiple of the block: set on the parser's previous engine,
// which measured it near 0 (17x to 24x of an 8 MB block before that
// engine let go of a block's state at its end). Until session 25 the
// measure let the block itself be collected before the end, so it read
// about -1.06x and could not fail; measured right, every case holds about
// 2.4 KB but one (see maxHeldRecord).
const maxHeldBlocks = 0.125

// maxHeldRecord is the bound of the case that keeps the stream's record of
// yielded data (v0.9 progressive at 64 KB chunks): the hashes of the keys
// its chunks' yields named, 8,194 of the block's 80,000 (16-byte chunks
// pass MaxComponents and drop it at the block's end), as the reference
// keeps dataYielded to de-duplicate the stream's later data messages:
// 0.28x (298 KB), bounded per slot by MaxComponents keys (about 36 B
// each), at 695dfda as at de1f491.
const maxHeldRecord = 0.32

// racePeakBlocks is what the race detector adds to TestLargeDataBlockHeap's
// peaks, as a multiple of the block: measured 0x to 0.05x on the parser's
// previous engine, under 0.01x at 147b668 (`go test -race ./parser -run
// TestLargeDataBlockHeap -v`). CI runs the tests with -race only, so the
// bounds hold there too, shifted by this much.
const racePeakBlocks = 0.1

// TestLargeDataBlockHeap feeds a large data model block and checks the
// live heap while it arrives and what the parser holds once it ended.
func TestLargeDataBlockHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("feeds megabytes and forces collections")
	}
	// maxPeak bounds the peak, as a multiple of the block: the measure of
	// each case at 0d239c6 (session 25) with about 12% of room. The
	// parser's previous engine measured 4.8x, 3.9x, 4.9x, 4.9x, 4.4x and
	// 4.9x (bench/README.md, "Peak while a 1 MB data block arrives");
	// internal/deltaengine 4.1x, 2.6x, 3.6x, 4.1x, 3.8x and 3.8x at
	// 147b668; 3.1x, 2.3x, 2.6x, 2.9x, 2.8x and 2.8x since its output
	// and lists are reused and borrowed output is no longer copied (the
	// cases in order).
	for _, tc := range []struct {
		name             string
		v08              bool
		mode             Mode
		chunk            int
		maxPeak, maxHeld float64
	}{
		{"v09_progressive_chunk16", false, ModeProgressive, 16, 3.5, maxHeldBlocks},
		{"v09_progressive_chunk64k", false, ModeProgressive, 64 << 10, 2.65, maxHeldRecord},
		{"v09_delta_chunk16", false, ModeDelta, 16, 3.0, maxHeldBlocks},
		{"v09_delta_chunk64k", false, ModeDelta, 64 << 10, 3.35, maxHeldBlocks},
		{"v08_progressive_chunk64k", true, ModeProgressive, 64 << 10, 3.2, maxHeldBlocks},
		{"v08_delta_chunk64k", true, ModeDelta, 64 << 10, 3.15, maxHeldBlocks},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := largeDataBlock(tc.v08, 1<<20)
			peak, held := blockHeap(t, data, tc.mode, tc.chunk, 16)
			size := float64(len(data))
			t.Logf("block %d B: peak %d B (%.1fx), held %d B (%.2fx)", len(data), peak, float64(peak)/size, held, float64(held)/size)
			maxPeak := tc.maxPeak
			if raceBuild {
				maxPeak += racePeakBlocks
			}
			if float64(peak) > maxPeak*size {
				t.Errorf("peak live heap %d B, over %vx the block (%d B)", peak, maxPeak, len(data))
			}
			if float64(held) > tc.maxHeld*size {
				t.Errorf("held %d B once the block ended, over %vx the block (%d B)", held, tc.maxHeld, len(data))
			}
		})
	}
}

// maxStreamInput bounds what a parser holds after one corpus turn, as a
// multiple of the turn's bytes: the turn's surface (its components), the
// stream's record of the data it yielded and the engine itself. The
// parser's previous engine measured 2.7x to 3.4x; internal/deltaengine
// 2.7x to 4.0x (at 147b668).
const maxStreamInput = 4.5

// TestStreamHeld checks what progressive and delta parsers hold, on
// average, after one corpus turn.
func TestStreamHeld(t *testing.T) {
	for _, corpus := range []string{"stream_v09", "stream_v08"} {
		for _, mode := range []Mode{ModeProgressive, ModeDelta} {
			t.Run(fmt.Sprintf("%s_%v", corpus, mode), func(t *testing.T) {
				per, in := streamHeld(t, corpusTurns(t, corpus), mode)
				t.Logf("%.0f B per stream, %.1fx the turn (%.0f B)", per, per/in, in)
				if per > maxStreamInput*in {
					t.Errorf("%.0f B per stream, over %vx the turn (%.0f B)", per, maxStreamInput, in)
				}
			})
		}
	}
}

// TestStreamHeldWithCatalog: what a stream holds after a corpus turn
// with the specification's catalog (v0.9 basic, v0.8 standard) is within
// the same bound as without: what judging the yields needs is let go at
// the block's end (at 147b668, the same figures as without).
func TestStreamHeldWithCatalog(t *testing.T) {
	cats := map[string]*protocol.Catalog{"stream_v09": speccatalog.BasicV09(t), "stream_v08": speccatalog.StandardV08(t)}
	for _, corpus := range []string{"stream_v09", "stream_v08"} {
		for _, mode := range []Mode{ModeProgressive, ModeDelta} {
			t.Run(fmt.Sprintf("%s_%v", corpus, mode), func(t *testing.T) {
				per, in := streamHeld(t, corpusTurns(t, corpus), mode, WithCatalog(cats[corpus]))
				t.Logf("%.0f B per stream, %.1fx the turn (%.0f B)", per, per/in, in)
				if per > maxStreamInput*in {
					t.Errorf("%.0f B per stream, over %vx the turn (%.0f B)", per, maxStreamInput, in)
				}
			})
		}
	}
}

// unfinishedTurn is a v0.9 turn whose surface stays unfinished: a root
// whose children are n Text components and m ids that never arrive (so
// the root still waits for children when the block ends).
func unfinishedTurn(n, m int) []byte {
	var b strings.Builder
	b.WriteString(`Here it is. <a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},`)
	b.WriteString(`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":[`)
	for i := range n + m {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"c%d"`, i)
	}
	b.WriteString(`]}`)
	for i := range n {
		fmt.Fprintf(&b, `,{"id":"c%d","component":"Text","text":"item %d"}`, i, i)
	}
	b.WriteString(`]}}]</a2ui-json> Done.`)
	return []byte(b.String())
}

// maxUnfinishedHeld bounds what a parser holds after a turn whose surface
// stays unfinished, n components and m children missing: the surface's
// components and the engine. The parser's previous engine measured on
// 2026-12-07 (bytes per stream, progressive / delta): n=5, m=1
// 13,185 / 13,089; n=12, m=1 18,562 / 18,081; n=25, m=1 28,273 / 27,281;
// n=45, m=1 42,225 / 39,569; n=12, m=2 18,689 / 18,209; n=12, m=5 20,833
// / 20,352: 15x to 27x the turn, against 2.5x to 3.4x for a finished turn
// (TestStreamHeld). At 147b668, internal/deltaengine holds 4,232 to
// 20,512 B (5.8x to 10.5x the turn); at 0442892 (session 25), with -race,
// progressive 5,044 / 8,160 / 12,880 / 21,120 / 8,344 / 9,632 B and delta
// 4,345 / 6,752 / 10,065 / 16,129 / 6,936 / 7,968 B (the cases in order):
// about 3 KB, 390 B per component and 350 B per child missing. The bound
// (m children missing) has about 20% of room over the largest.
func maxUnfinishedHeld(n, m int) float64 { return 3.5*1024 + 470*float64(n) + 500*float64(m) }

// TestStreamHeldUnfinished checks what progressive and delta parsers
// hold, on average, after a turn whose surface stays unfinished (n
// components, m children missing), which TestStreamHeld's corpus turns,
// all finished, do not show.
func TestStreamHeldUnfinished(t *testing.T) {
	for _, tc := range []struct{ n, m int }{{5, 1}, {12, 1}, {25, 1}, {45, 1}, {12, 2}, {12, 5}} {
		for _, mode := range []Mode{ModeProgressive, ModeDelta} {
			t.Run(fmt.Sprintf("n%d_m%d_%v", tc.n, tc.m, mode), func(t *testing.T) {
				turns := make([][]byte, 200)
				for i := range turns {
					turns[i] = unfinishedTurn(tc.n, tc.m)
				}
				per, in := streamHeld(t, turns, mode)
				t.Logf("%.0f B per stream, %.1fx the turn (%.0f B)", per, per/in, in)
				if max := maxUnfinishedHeld(tc.n, tc.m); per > max {
					t.Errorf("%.0f B per stream, over %.0f B for %d components, %d missing", per, max, tc.n, tc.m)
				}
			})
		}
	}
}
