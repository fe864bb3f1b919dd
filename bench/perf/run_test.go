package perf

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// smallInput is two turns, each prose and a block of a createSurface and
// an updateComponents (4 messages in 2 blocks).
func smallInput() *Input {
	turn := func(id string) string {
		return `Sure, here it is. <a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"` + id +
			`","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}},` +
			`{"version":"v0.9","updateComponents":{"surfaceId":"` + id + `","components":[` +
			`{"id":"root","component":"Column","children":["t1","t2"]},` +
			`{"id":"t1","component":"Text","text":"First \"line\" }]"},{"id":"t2","component":"Text","text":"Second"}]}}]</a2ui-json> Anything else?` + "\n"
	}
	a, b := turn("s-1"), turn("s-2")
	return &Input{Name: "small.txt", Data: []byte(a + b), Turns: []Turn{{0, len(a)}, {len(a), len(a) + len(b)}}}
}

// runSmall runs every stage and mode on smallInput, one pass per round.
func runSmall(t *testing.T, opts ...Option) *Result {
	t.Helper()
	var steps []Progress
	r, err := NewRunner(append([]Option{WithChunks(7, 64), WithRounds(2), WithMinRound(0), WithSessions(2),
		WithProgress(func(p Progress) { steps = append(steps, p) })}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Run(context.Background(), []*Input{smallInput()})
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) == 0 || steps[len(steps)-1].Done != steps[len(steps)-1].Total {
		t.Errorf("progress steps %v: want a last step with Done == Total", steps)
	}
	return res
}

func TestRunCounts(t *testing.T) {
	res := runSmall(t)
	if len(res.Files) != 1 {
		t.Fatalf("%d files", len(res.Files))
	}
	f := res.Files[0]
	if f.Messages != 4 || f.Blocks != 2 || f.Turns != 2 {
		t.Errorf("file: %d messages in %d blocks, %d turns; want 4, 2, 2", f.Messages, f.Blocks, f.Turns)
	}
	if len(f.Cells) != 3*3*2 || len(f.Floor) != 2 {
		t.Fatalf("%d cells and %d floors, want 18 and 2", len(f.Cells), len(f.Floor))
	}
	for _, c := range f.Cells {
		name := c.Stage + " " + c.Mode
		if c.Rounds != 2 || c.Passes != 2 || c.MBps.Median <= 0 || c.FloorPercent.Median <= 0 {
			t.Errorf("%s %d: %d rounds, %d passes, %v MB/s, %v%% of floor", name, c.Chunk, c.Rounds, c.Passes, c.MBps.Median, c.FloorPercent.Median)
		}
		if c.Failed != 0 || c.DroppedBlocks != 0 {
			t.Errorf("%s %d: %d failed, %d dropped", name, c.Chunk, c.Failed, c.DroppedBlocks)
		}
		wantSessions := 1
		if c.Stage == string(StagePipeline) {
			wantSessions = 2
		}
		if c.Sessions != wantSessions {
			t.Errorf("%s: %d sessions, want %d", name, c.Sessions, wantSessions)
		}
		if c.Mode == "complete" && c.Messages != 4*c.Sessions {
			t.Errorf("%s %d: %d messages, want %d", name, c.Chunk, c.Messages, 4*c.Sessions)
		}
		if got := len(c.Heap.Turns); got != 2 || c.Heap.Turns[0].Turns != 1 || c.Heap.Turns[1].Turns != 2 {
			t.Errorf("%s %d: heap samples %+v, want after turns 1 and 2", name, c.Chunk, c.Heap.Turns)
		}
		switch {
		case c.Stage == string(StageProcess):
			if c.Latency != nil || c.BatchMicros != nil {
				t.Errorf("process: latencies %+v %+v, want none", c.Latency, c.BatchMicros)
			}
		case c.Latency == nil || c.Latency.Bytes.Count != 4*c.Sessions || c.Latency.Unresolved != 0:
			t.Errorf("%s %d: latency %+v, want 4 braces per session, all resolved", name, c.Chunk, c.Latency)
		case c.Stage == string(StagePipeline) && (c.BatchMicros == nil || c.BatchMicros.Count == 0):
			t.Errorf("%s %d: no batch latencies", name, c.Chunk)
		}
		// A complete-mode parser yields a message in the call that feeds
		// its closing brace: at most chunk-1 bytes later.
		if c.Stage == string(StageParse) && c.Mode == "complete" && c.Latency.Bytes.Max > float64(c.Chunk-1) {
			t.Errorf("parse complete %d: brace latency max %v bytes, over the chunk", c.Chunk, c.Latency.Bytes.Max)
		}
	}
}

func TestRunDeterministicCounts(t *testing.T) {
	counts := func(res *Result) []any {
		var out []any
		for _, c := range res.Files[0].Cells {
			out = append(out, c.Stage, c.Mode, c.Chunk, c.Messages, c.Rounds, c.Passes)
			if c.Latency != nil {
				out = append(out, c.Latency.Bytes)
			}
		}
		return out
	}
	a, b := counts(runSmall(t)), counts(runSmall(t))
	if len(a) != len(b) {
		t.Fatalf("%d and %d values", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("value %d differs between runs: %v and %v", i, a[i], b[i])
		}
	}
}

func TestResultJSONValidates(t *testing.T) {
	res := runSmall(t, WithModes(DefaultModes[0]), WithScaling(true), withSizes(3, 30))
	if len(res.Scaling) != 2 {
		t.Fatalf("%d scaling points, want 2", len(res.Scaling))
	}
	out, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	sch := compileSchema(t)
	if err := sch.Validate(decode(t, out)); err != nil {
		t.Fatalf("the result does not validate: %v", err)
	}
	// The schema rejects what is not a result.
	for name, bad := range map[string]string{
		"no files":       `{"tool":"a2ui-stream bench","machine":{"go":"x","os":"x","arch":"x","cpus":1,"gomaxprocs":1},"settings":{"stages":["parse"],"modes":["delta"],"chunks":[1],"minRoundSeconds":0,"sessions":1,"clock":"x"}}`,
		"unknown stage":  strings.Replace(string(out), `"stage":"parse"`, `"stage":"render"`, 1),
		"negative rate":  strings.Replace(string(out), `"mbps":{"median":`, `"mbps":{"median":-`, 1),
		"unknown member": strings.Replace(string(out), `"tool":`, `"extra":1,"tool":`, 1),
	} {
		if err := sch.Validate(decode(t, []byte(bad))); err == nil {
			t.Errorf("%s: validated", name)
		}
	}
}

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	if err := c.AddResource("result.schema.json", decode(t, Schema)); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("result.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func decode(t *testing.T, data []byte) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestWriteTableAndPlots(t *testing.T) {
	res := runSmall(t, WithStages(StageParse, StagePipeline), WithScaling(true), withSizes(3, 30))
	var b bytes.Buffer
	if err := WriteTable(&b, res); err != nil {
		t.Fatal(err)
	}
	head := fmt.Sprintf("small.txt: %d bytes, 2 turns, 4 messages in 2 blocks", len(smallInput().Data))
	for _, want := range []string{head, "floor (bare boundary scan", "pipeline  progressive", "scaling: parse stage"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
	if err := WriteTable(failWriter{}, res); err == nil {
		t.Error("WriteTable to a failing writer returned nil")
	}
	dir := filepath.Join(t.TempDir(), "plots")
	paths, err := WritePlots(dir, res)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"throughput-small.svg", "heap-small.svg", "scaling.svg"}
	if len(paths) != len(want) {
		t.Fatalf("plots %v, want %v", paths, want)
	}
	for i, p := range paths {
		data, err := os.ReadFile(p)
		if filepath.Base(p) != want[i] || err != nil || !bytes.Contains(data, []byte("<svg")) {
			t.Errorf("plot %s: %v, %d bytes; want %s, an SVG", p, err, len(data), want[i])
		}
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestRunStopsWithContext(t *testing.T) {
	r, err := NewRunner(WithMinRound(0))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Run(ctx, []*Input{smallInput()}); !errors.Is(err, context.Canceled) {
		t.Errorf("Run with a done context: %v, want context.Canceled", err)
	}
}
