package processor

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"
)

// TestCompactionBoundsHeldText updates one component per list, many times:
// the surface must drop the lists' text and the references it no longer
// uses, keeping its storage proportional to what it holds.
func TestCompactionBoundsHeldText(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	list := func(texts ...string) []json.RawMessage {
		out := make([]json.RawMessage, len(texts))
		for i, s := range texts {
			out[i] = json.RawMessage(s)
		}
		return out
	}
	upd := func(c string) string {
		return `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` + c + `]}}`
	}
	p.ProcessList(list(`{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}}`,
		upd(`{"id":"root","component":"Column","children":["a","b","c"]}`)))
	for i := range 2000 {
		b := p.ProcessList(list(upd(fmt.Sprintf(`{"id":"a","component":"Row","children":["x%d","y%d","z%d"]}`, i, i, i))))
		if b.Failed != 0 {
			t.Fatal(b.Errors()[0])
		}
	}
	s := p.surfaces["s"]
	if len(s.chunks) > 2*len(s.comps)+minChunks+1 {
		t.Errorf("%d chunks held for %d components", len(s.chunks), len(s.comps))
	}
	if len(s.refs) > 2*(3+3)+len(s.comps)+64 {
		t.Errorf("%d references held, 6 live", len(s.refs))
	}
	if c, ok := s.Component("a"); !ok || c.JSON != `{"id":"a","component":"Row","children":["x1999","y1999","z1999"]}` {
		t.Errorf("a = %+v", c)
	}
}

// TestPrepareMarksWraps restarts the epochs, clearing every mark, before
// the counter would wrap.
func TestPrepareMarksWraps(t *testing.T) {
	p := Processor{work: &work{epoch: math.MaxUint32 - 10, marks: []nodeMark{{mark: 5, tentEpoch: 6, repl: 7}}}}
	p.prepareMarks(1, 0, 100)
	if p.epoch != 0 || p.marks[0] != (nodeMark{}) {
		t.Fatalf("epoch %d, marks %+v", p.epoch, p.marks[0])
	}
	p.epoch = 1000
	p.marks[0].mark = 1000
	p.prepareMarks(1, 0, 100)
	if p.epoch != 1000 || p.marks[0].mark != 1000 {
		t.Fatalf("epoch %d, marks %+v: reset without need", p.epoch, p.marks[0])
	}
}
