package stream

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/parser"
	"github.com/a2ui-stream/a2ui-stream/sinks"
)

// FuzzPipeline feeds arbitrary model output, cut at arbitrary points, to
// a pipeline in each mode: every event is one line of valid JSON; in
// complete mode with the list policy the batch and end events are those of
// the whole input fed at once; in every mode the pipeline ends the session
// with exactly one end event, and nothing panics or hangs. Seeded from the
// tables of the pipeline tests.
func FuzzPipeline(f *testing.F) {
	for _, s := range []string{
		threeMessages,
		string(sample(f)),
		`<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"a","catalogId":"c"}}, {bad</a2ui-json><a2ui-json>[]</a2ui-json>`,
		"<a2ui-json>[\n  {\"version\": \"v0.9\",\n   \"createSurface\": {\"surfaceId\": \"p\", \"catalogId\": \"c\"}}\n]</a2ui-json>",
		`<a2ui-json>[{"version":"v0.9","updateComponents":{"surfaceId":"nope","components":[]}}]`,
		"\xff\xfe<a2ui-json>[\x00]</a2ui-json>",
	} {
		f.Add([]byte(s), uint8(7), uint8(3))
	}
	f.Fuzz(func(t *testing.T, in []byte, cut1, cut2 uint8) {
		if len(in) == 0 || len(in) > 4096 { // no input: End of a session never opened, tested elsewhere
			return
		}
		for _, mode := range []parser.Mode{parser.ModeComplete, parser.ModeProgressive, parser.ModeDelta} {
			whole := runFuzz(t, mode, [][]byte{in})
			var chunks [][]byte
			step := []int{int(cut1%32) + 1, int(cut2%32) + 1}
			for i, off := 0, 0; off < len(in); i++ {
				n := min(step[i%2], len(in)-off)
				chunks = append(chunks, in[off:off+n])
				off += n
			}
			cut := runFuzz(t, mode, chunks)
			if mode == parser.ModeComplete && !slices.Equal(whole, cut) {
				t.Fatalf("complete mode: batch and end events depend on the chunking:\n%q\nvs\n%q", whole, cut)
			}
		}
	})
}

// runFuzz feeds chunks to one session and returns its batch and end
// events, checking every line.
func runFuzz(t *testing.T, mode parser.Mode, chunks [][]byte) []string {
	pl, rec := newTestPipeline(t, WithMode(mode))
	ctx := context.Background()
	for _, c := range chunks {
		if err := pl.Feed(ctx, "f", c); err != nil {
			t.Fatal(err)
		}
	}
	if err := pl.End(ctx, "f"); err != nil {
		t.Fatal(err)
	}
	ends := 0
	for _, e := range rec.session("f") {
		if !json.Valid(e.Line) || bytes.ContainsAny(e.Line, "\r\n") {
			t.Fatalf("%v: event is not one line of JSON: %q", mode, e.Line)
		}
		if e.Kind == sinks.KindEnd {
			ends++
		}
	}
	if ends != 1 {
		t.Fatalf("%v: %d end events", mode, ends)
	}
	return rec.lines(sinks.KindBatch, sinks.KindEnd)
}
