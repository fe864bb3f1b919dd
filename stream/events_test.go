package stream

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
	"github.com/a2ui-stream/a2ui-stream/parser"
	"github.com/a2ui-stream/a2ui-stream/processor"
	"github.com/a2ui-stream/a2ui-stream/protocol"
	"github.com/a2ui-stream/a2ui-stream/sinks"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// marshal encodes v as encoding/json does with HTML escaping off.
func marshal(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// TestEncodersMatchEncodingJSON holds the hand-written encoders of results
// and changes to encoding/json's output for the processor's types.
func TestEncodersMatchEncodingJSON(t *testing.T) {
	results := []processor.Result{
		{Index: 0, Type: protocol.KindCreateSurface, SurfaceID: "a<b>&\"", OK: true},
		{Index: 3},
		{Index: 1, Type: protocol.KindUpdateComponents, SurfaceID: "s", Error: &protocol.ErrorReport{
			Code: "VALIDATION_FAILED", SurfaceID: "s", Path: "/components/0", Message: "bad \u2028 \x01 é"}},
	}
	for _, r := range results {
		if got, want := string(appendResult(nil, &r)), marshal(t, r); got != want {
			t.Errorf("result:\n got %s\nwant %s", got, want)
		}
	}
	changes := []processor.Changes{
		{},
		{SurfacesCreated: []string{"a", "b"}},
		{SurfacesDeleted: []string{"z"}},
		{SurfacesCreated: []string{"a"}, SurfacesDeleted: []string{"a"}, Surfaces: map[string]*processor.SurfaceChanges{
			"b": {ComponentsUpserted: []string{"root", "x"}, ComponentsRecreated: []string{"x"}, DataPaths: []string{"/"}, Root: "root", StylesChanged: true},
			"a": {},
			"c": {DataPaths: []string{"/n"}},
			"d": {StylesChanged: true},
			"e": {Root: "r"},
			"f": {ComponentsRecreated: []string{"q"}},
		}},
	}
	for _, c := range changes {
		if got, want := string(appendChanges(nil, &c)), marshal(t, c); got != want {
			t.Errorf("changes:\n got %s\nwant %s", got, want)
		}
	}
}

// eventSchema compiles event.schema.json.
func eventSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("event.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("event.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("event.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validateLines(t *testing.T, s *jsonschema.Schema, lines []string) {
	t.Helper()
	for _, l := range lines {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(l))
		if err != nil {
			t.Fatalf("not JSON: %s", l)
		}
		if err := s.Validate(v); err != nil {
			t.Fatalf("event does not match event.schema.json: %v\n%s", err, l)
		}
	}
}

// TestEventSchema checks every kind of event against the published
// schema, and that the schema rejects what it should.
func TestEventSchema(t *testing.T) {
	s := eventSchema(t)
	pl, rec := newTestPipeline(t, WithMaxChunk(4096))
	feedChunks(t, pl, "a", sample(t), 7)
	feedChunks(t, pl, "b", []byte(`<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"a","catalogId":"c"}},`+
		`{"version":"v0.9","updateDataModel":{"surfaceId":"nope"}}, {bad</a2ui-json>`), 5)
	mustFeed(t, pl, "c", strings.Repeat("x", 5000))
	mustEnd(t, pl, "ghost")
	if err := pl.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	lines := rec.lines()
	seen := map[string]bool{}
	for _, l := range lines {
		seen[decode(t, l)["event"].(string)] = true
	}
	for _, k := range []string{"text", "batch", "error", "end"} {
		if !seen[k] {
			t.Fatalf("no %s event to check", k)
		}
	}
	validateLines(t, s, lines)
	for _, bad := range []string{
		`{"event":"text","session":"a"}`,
		`{"event":"batch","session":"a","batch":0,"list":0,"listEnd":true,"applied":0,"failed":0,"messages":[],"results":[],"changes":{}}`,
		`{"event":"end","session":"a","reason":"bored","bytes":0,"lists":0,"batches":0,"messages":0,"failed":0,"errors":0}`,
		`{"event":"other","session":"a"}`,
	} {
		v, _ := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if s.Validate(v) == nil {
			t.Errorf("schema accepts %s", bad)
		}
	}
}

// TestCorpusEvents runs every turn of both corpora through the pipeline in
// all three modes at 16-byte chunks: the events match the schema (a
// sample of them in the progressive modes) and no message fails.
func TestCorpusEvents(t *testing.T) {
	dir := shareddata.Dir(t)
	s := eventSchema(t)
	for _, name := range []string{"stream_v09", "stream_v08"} {
		data, err := os.ReadFile(filepath.Join(dir, "corpus", name+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		var turns struct {
			Offsets [][2]int `json:"offsets"`
		}
		raw, err := os.ReadFile(filepath.Join(dir, "corpus", name+".turns.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &turns); err != nil {
			t.Fatal(err)
		}
		for _, mode := range []parser.Mode{parser.ModeComplete, parser.ModeProgressive, parser.ModeDelta} {
			t.Run(name+"/"+mode.String(), func(t *testing.T) {
				pl, rec := newTestPipeline(t, WithMode(mode))
				for i, o := range turns.Offsets {
					if mode != parser.ModeComplete && i%4 != 0 {
						continue // every fourth turn: the race detector makes these slow
					}
					feedChunks(t, pl, "turn"+strings.Repeat("x", i%3), data[o[0]:o[1]], 16)
				}
				lines := rec.lines()
				if mode != parser.ModeComplete {
					// Every yield is a batch: check a sample.
					var some []string
					for i := 0; i < len(lines); i += 50 {
						some = append(some, lines[i])
					}
					lines = some
				}
				validateLines(t, s, lines)
				for _, l := range rec.lines(sinks.KindEnd) {
					if !strings.Contains(l, `"failed":0,"errors":0`) {
						t.Fatalf("a turn failed: %s", l)
					}
				}
			})
		}
	}
}
