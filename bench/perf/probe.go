package perf

import "time"

// probe watches one session's pass in the untimed passes: the latency of
// each message from its closing brace to the first yield (or batch) that
// follows it, the latency of each batch from the chunk that caused it,
// counts of what went wrong, and the turns fed (for heap samples). Timed
// passes run with a nil probe.
type probe struct {
	braces []int64 // offsets of the input's closing braces, in order
	next   int     // first brace not yet fed

	pending  []pendingBrace // fed, not yet followed by a yield
	t0       time.Time      // when the current call started
	chunkEnd int64          // stream offset after the current chunk

	bytesLat, usLat, batchLat []float64

	dropped, failed int // blocks dropped, messages failed

	// turnFed, when set, is called after each turn's last byte was fed
	// and before the turn is closed (the heap pass samples there).
	turnFed func(turn int)
}

type pendingBrace struct {
	off int64
	t0  time.Time
}

// newProbe returns a probe measuring latencies against braces.
func newProbe(braces []int64) *probe {
	return &probe{braces: braces, bytesLat: make([]float64, 0, len(braces)), usLat: make([]float64, 0, len(braces))}
}

// chunk records that the bytes [start, end) of the input are about to be
// fed, now.
func (p *probe) chunk(start, end int) {
	p.t0 = time.Now()
	p.chunkEnd = int64(end)
	for p.next < len(p.braces) && p.braces[p.next] < int64(end) {
		if b := p.braces[p.next]; b >= int64(start) {
			p.pending = append(p.pending, pendingBrace{b, p.t0})
		}
		p.next++
	}
}

// call records that a call feeding no bytes (Close, End) starts now.
func (p *probe) call() { p.t0 = time.Now() }

// yield records a yield now: every pending brace has its latency.
func (p *probe) yield() { p.yieldAt(time.Now()) }

func (p *probe) yieldAt(now time.Time) {
	for _, b := range p.pending {
		p.bytesLat = append(p.bytesLat, float64(p.chunkEnd-b.off-1))
		p.usLat = append(p.usLat, micros(now.Sub(b.t0)))
	}
	p.pending = p.pending[:0]
}

// batch records a batch out now: its latency from the call that caused
// it, and a yield.
func (p *probe) batch() {
	now := time.Now()
	p.batchLat = append(p.batchLat, micros(now.Sub(p.t0)))
	p.yieldAt(now)
}

// turn tells turnFed that a turn was fed.
func (p *probe) turn(i int) {
	if p.turnFed != nil {
		p.turnFed(i)
	}
}

func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
