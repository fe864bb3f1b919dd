package parser

import (
	"fmt"
	"reflect"
	"testing"
)

// Tests of the buffers parsers share (the pool of released output blocks,
// output_store.go, and that of block buffers, internal/deltaengine): a
// buffer goes to another parser only once nothing of its parser or of its
// caller can still read it.

// TestReleasedBlockStaysLentUntilNextCall: a block released at the end of
// a call is still the caller's until the parser's next call, however many
// blocks other stores take and give back meanwhile.
func TestReleasedBlockStaysLentUntilNextCall(t *testing.T) {
	a := outputStore{borrow: true}
	a.reset()
	msg := a.keep(append(a.alloc(5), "hello"...))
	a.release()
	b := outputStore{borrow: true}
	for range 8 {
		b.reset()
		b.keep(append(b.alloc(5), "world"...))
		b.release()
	}
	if string(msg) != "hello" {
		t.Fatalf("a message lent by a released block was overwritten before its parser's next call: %q", msg)
	}
}

// sharedRun is a parser fed a stream in chunks, one call at a time, with
// the output of each call copied when it returned.
type sharedRun struct {
	p      *Parser
	chunks [][]byte
	next   int
	outs   []callOutput
	// last is the last call's output as returned (borrowed output stays
	// valid until the next call); kept holds every owned message returned.
	last []Part
	kept []retained
}

// step makes the run's next call, if any.
func (r *sharedRun) step() {
	if r.next > len(r.chunks) {
		return
	}
	parts, err := feedOrClose(r.p, r.chunks, r.next)
	r.outs = append(r.outs, copyCall(parts, err))
	r.last = parts
	if !r.p.cfg.borrow {
		for _, pt := range parts {
			for _, m := range pt.Messages {
				r.kept = append(r.kept, retained{call: r.next, orig: m, copy: append([]byte(nil), m...)})
			}
		}
	}
	r.next++
}

// check fails when the run's last output (borrowed: valid until its next
// call) or any owned message changed since it was returned.
func (r *sharedRun) check(tb testing.TB, what string) {
	tb.Helper()
	if r.next == 0 {
		return
	}
	if got, want := copyCall(r.last, nil), r.outs[len(r.outs)-1]; !reflect.DeepEqual(got.Parts, want.Parts) {
		tb.Fatalf("%s: %s changed before the next call:\nnow:\n%s\nreturned:\n%s", what, callName(r.chunks, r.next-1), got, want)
	}
	for _, k := range r.kept {
		if string(k.orig) != string(k.copy) {
			tb.Fatalf("%s: an owned message of call %d changed: %q, returned as %q", what, k.call, k.orig, k.copy)
		}
	}
}

// TestInterleavedParsersShareNoLiveBuffer runs progressive and delta
// parsers, borrowed and owned, over the two corpora in turns (so that each
// takes the buffers the others released), checks after each call of
// another parser that nothing a parser returned changed, and that each
// parser's outputs are those of the same stream parsed alone.
func TestInterleavedParsersShareNoLiveBuffer(t *testing.T) {
	t.Parallel() // long: runs beside the other long tests, after the sequential ones (the heap measurements among them)
	for _, m := range []Mode{ModeProgressive, ModeDelta} {
		t.Run(m.String(), func(t *testing.T) {
			inputs := []struct {
				name   string
				borrow bool
			}{
				{"stream_v09.txt", true}, {"stream_v08.txt", true},
				{"stream_v09.txt", false}, {"stream_v08.txt", false},
			}
			var runs, alone []*sharedRun
			for i, in := range inputs {
				data := corpusPrefix(t, in.name, 48<<10)
				opts := modeOpts(nil, m, FramingTags)
				if in.borrow {
					opts = append(opts, WithBorrowedOutput())
				}
				chunks := chunked(data, 16+i)
				runs = append(runs, &sharedRun{p: mustNew(t, opts...), chunks: chunks})
				solo := &sharedRun{p: mustNew(t, opts...), chunks: chunks}
				for solo.next <= len(chunks) {
					solo.step()
				}
				alone = append(alone, solo)
			}
			// Every other round, each turn of a run goes on until a block
			// of its stream ended (so that it released what the block
			// held), then the others take their turns while its last output
			// must stay; in the other rounds, turns are a few calls, so that
			// the runs are inside blocks at the same time.
			for round, busy := 0, true; busy; round++ {
				busy = false
				for i, r := range runs {
					for calls, was := 0, false; r.next <= len(r.chunks); calls++ {
						if round%2 == 1 && calls == 5 {
							break
						}
						busy = true
						r.step()
						for j, other := range runs {
							if j != i {
								other.check(t, fmt.Sprintf("after a call of run %d", i))
							}
						}
						if was && !r.p.inBlock {
							break
						}
						was = was || r.p.inBlock
					}
				}
			}
			for i, r := range runs {
				for c := range r.outs {
					if !reflect.DeepEqual(r.outs[c], alone[i].outs[c]) {
						t.Fatalf("run %d (%s, borrowed %v): %s differs from the stream parsed alone:\ninterleaved:\n%s\nalone:\n%s",
							i, inputs[i].name, inputs[i].borrow, callName(r.chunks, c), r.outs[c], alone[i].outs[c])
					}
				}
			}
		})
	}
}
