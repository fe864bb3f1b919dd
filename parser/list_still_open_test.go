package parser

import (
	"bytes"
	"math/rand"
	"testing"
)

// listStillOpenNaive is the reference's check, searching the whole buffer.
func listStillOpenNaive(buf []byte, field string) bool {
	term := []byte(`"` + field + `"`)
	i := bytes.LastIndex(buf, term)
	if i < 0 {
		return false
	}
	after := buf[i+len(term):]
	j := bytes.IndexByte(after, '[')
	if j < 0 {
		return false
	}
	return bytes.IndexByte(after[:j], ']') < 0
}

// TestListStillOpenMatchesSearch: the incremental check gives the
// whole-buffer search's answer after every growth of a random buffer made
// of keys (whole or cut anywhere), brackets and other bytes, through new
// messages (a new generation, a shorter buffer), for both fields, asked in
// any order; and it reads each byte a bounded number of times.
func TestListStillOpenMatchesSearch(t *testing.T) {
	pieces := []string{`"children"`, `"explicitList"`, `"child`, `ren"`, `"explicit`, `List"`, `[`, `]`, `:`, `,`, `"x"`, ` `, `{`, `}`, `"`}
	r := rand.New(rand.NewSource(1))
	e := &progressiveEngine{}
	checks := 0
	for msg := 0; msg < 300; msg++ {
		e.sc.buf = e.sc.buf[:0]
		e.sc.msgGen++
		for step := 0; step < 40; step++ {
			for k := r.Intn(4); k >= 0; k-- {
				e.sc.buf = append(e.sc.buf, pieces[r.Intn(len(pieces))]...)
			}
			fields := []string{"children", "explicitList"}
			if r.Intn(2) == 0 {
				fields[0], fields[1] = fields[1], fields[0]
			}
			for _, f := range fields[:1+r.Intn(2)] {
				if got, want := e.listStillOpen(f), listStillOpenNaive(e.sc.buf, f); got != want {
					t.Fatalf("message %d, step %d, %s in %q: %v, want %v", msg, step, f, e.sc.buf, got, want)
				}
				checks++
			}
		}
	}
	if checks == 0 {
		t.Fatal("nothing checked")
	}
}

// TestListStillOpenLinear: asked after every byte of a growing message
// (whose first component has an empty list, as a model that fills it
// later), the check reads each buffered byte a bounded number of times:
// the buffer's search position only moves forward.
func TestListStillOpenLinear(t *testing.T) {
	e := &progressiveEngine{}
	e.sc.msgGen = 1
	e.sc.buf = append(e.sc.buf, `{"components":[{"id":"root","children":[]}`...)
	piece := []byte(`,{"id":"t","component":"Text","text":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}`)
	calls := 0
	for range 20000 {
		for _, b := range piece[:8] {
			e.sc.buf = append(e.sc.buf, b)
			e.listStillOpen("children")
			calls++
		}
		e.sc.buf = append(e.sc.buf, piece[8:]...)
		e.listStillOpen("children")
		calls++
	}
	// Each byte searched for the key once, and once for the brackets, plus
	// the key's length of overlap per call.
	if max, got := 2*len(e.sc.buf)+len(keyChildren)*calls, e.openLists[0].examined; got > max {
		t.Fatalf("%d bytes searched for %d calls on %d bytes, want at most %d", got, calls, len(e.sc.buf), max)
	}
}
