package processor_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/processor"
)

// A 4-message list whose 2nd message is bad: messages 1, 3 and 4 apply,
// the failure is reported with its index and surface, and the callback
// fires exactly once.
func TestScenarioBadSecondMessage(t *testing.T) {
	var logs bytes.Buffer
	p := newProcessor(t, processor.WithLogger(slog.New(slog.NewJSONHandler(&logs, nil))))
	var batches []processor.Batch
	p.OnBatch(func(b processor.Batch) { batches = append(batches, b) })

	b := p.ProcessList(msgs(
		create("s"),
		comps("s", `{"id":"root","component":"Card","child":"root"}`), // self-reference
		comps("s", `{"id":"root","component":"Text","text":{"path":"/msg"}}`),
		data("s", "/msg", `"hi"`),
	))

	if len(batches) != 1 {
		t.Fatalf("callback fired %d times, want 1", len(batches))
	}
	if !reflect.DeepEqual(batches[0].Results, b.Results) {
		t.Error("callback got a different batch than ProcessList returned")
	}
	wantOK := []bool{true, false, true, true}
	for i, r := range b.Results {
		if r.OK != wantOK[i] || r.Index != i {
			t.Errorf("result %d: ok=%v index=%d, want ok=%v", i, r.OK, r.Index, wantOK[i])
		}
	}
	var me *processor.MessageError
	if !errors.As(b.Results[1].Err, &me) || me.Index != 1 || me.SurfaceID != "s" || me.Kind != "updateComponents" {
		t.Fatalf("failure = %#v", b.Results[1].Err)
	}
	if b.Applied != 3 || b.Failed != 1 {
		t.Errorf("applied %d failed %d", b.Applied, b.Failed)
	}
	if got := component(t, p, "s", "root"); got != `{"component":"Text","id":"root","text":{"path":"/msg"}}` {
		t.Errorf("root = %s", got)
	}
	if got := dataModel(t, p, "s"); got != `{"msg":"hi"}` {
		t.Errorf("data model = %s", got)
	}
	if !strings.Contains(logs.String(), `"index":1`) || !strings.Contains(logs.String(), `"surfaceId":"s"`) {
		t.Errorf("failure not logged with index and surface: %s", logs.String())
	}
	if strings.Count(logs.String(), "\n") != 1 {
		t.Errorf("want exactly one log record, got: %s", logs.String())
	}
}

// A failing updateComponents of 10 components changes nothing: not one of
// its components is applied, including the nine valid ones before the bad
// one.
func TestScenarioFailingUpdateOfTenChangesNothing(t *testing.T) {
	p := newProcessor(t)
	mustApply(t, p, create("s"), comps("s", `{"id":"root","component":"Column","children":["c0"]}`, `{"id":"c0","component":"Text","text":"old"}`))
	before := state(t, p)

	var cs []string
	for i := range 9 {
		cs = append(cs, fmt.Sprintf(`{"id":"c%d","component":"Text","text":"new %d"}`, i, i))
	}
	cs = append(cs, `{"id":"c9","component":"Card","child":"c9"}`) // the 10th is bad
	b := p.ProcessList(msgs(comps("s", cs...)))

	if b.Failed != 1 || b.Applied != 0 {
		t.Fatalf("applied %d failed %d, want 0 and 1", b.Applied, b.Failed)
	}
	if after := state(t, p); after != before {
		t.Errorf("state changed:\nbefore %s\nafter  %s", before, after)
	}
	if len(b.Changes.Surfaces) != 0 {
		t.Errorf("changes reported for a failed list: %+v", b.Changes)
	}
}

// Two surfaces whose messages interleave in one list stay independent.
func TestScenarioInterleavedSurfaces(t *testing.T) {
	p := newProcessor(t)
	b := p.ProcessList(msgs(
		create("a"),
		create("b"),
		comps("a", `{"id":"root","component":"Text","text":"A"}`),
		comps("b", `{"id":"root","component":"Divider"}`),
		data("b", "/x", `1`),
		data("a", "/x", `2`),
		comps("a", `{"id":"extra","component":"Text","text":"A2"}`),
		data("b", "/x", "-"),
		del("a"),
		create("a"),
		data("a", "/y", `3`),
	))
	if b.Failed != 0 {
		t.Fatalf("failures: %v", b.Errors())
	}
	if got := component(t, p, "b", "root"); got != `{"component":"Divider","id":"root"}` {
		t.Errorf("b root = %s", got)
	}
	if got := component(t, p, "b", "extra"); got != "<none>" {
		t.Errorf("b got a's component: %s", got)
	}
	if got := dataModel(t, p, "b"); got != `{}` {
		t.Errorf("b data = %s", got)
	}
	if got := dataModel(t, p, "a"); got != `{"y":3}` {
		t.Errorf("a data = %s", got)
	}
	if got := component(t, p, "a", "root"); got != "<none>" {
		t.Errorf("recreated a kept a component: %s", got)
	}
	want := processor.Changes{
		SurfacesCreated: []string{"a", "b"},
		Surfaces: map[string]*processor.SurfaceChanges{
			"a": {DataPaths: []string{"/y"}},
			"b": {ComponentsUpserted: []string{"root"}, DataPaths: []string{"/x"}, Root: "root"},
		},
	}
	if !reflect.DeepEqual(b.Changes, want) {
		t.Errorf("changes = %+v\nwant      %+v", b.Changes, want)
	}
}

func TestBatches(t *testing.T) {
	t.Run("empty_list_yields_a_batch", func(t *testing.T) {
		p := newProcessor(t)
		n := 0
		p.OnBatch(func(b processor.Batch) { n++ })
		b := p.ProcessList(nil)
		if n != 1 || b.Seq != 1 || len(b.Results) != 0 {
			t.Errorf("callbacks %d seq %d results %d", n, b.Seq, len(b.Results))
		}
	})
	t.Run("all_failed_list_yields_a_batch_with_results", func(t *testing.T) {
		p := newProcessor(t)
		n := 0
		p.OnBatch(func(b processor.Batch) { n++ })
		b := p.ProcessList(msgs(`nope`, del(""), data("x", "/", "1")))
		if n != 1 || b.Failed != 3 || len(b.Results) != 3 {
			t.Errorf("callbacks %d failed %d results %d", n, b.Failed, len(b.Results))
		}
	})
	t.Run("sequence_numbers_increase", func(t *testing.T) {
		p := newProcessor(t)
		for want := uint64(1); want <= 3; want++ {
			if b := p.ProcessList(nil); b.Seq != want {
				t.Errorf("seq %d, want %d", b.Seq, want)
			}
		}
	})
	t.Run("cancelled_callback_stops", func(t *testing.T) {
		p := newProcessor(t)
		n := 0
		cancel := p.OnBatch(func(processor.Batch) { n++ })
		p.ProcessList(nil)
		cancel()
		p.ProcessList(nil)
		if n != 1 {
			t.Errorf("callback fired %d times, want 1", n)
		}
	})
	t.Run("created_and_deleted_in_one_list_is_no_net_change", func(t *testing.T) {
		p := newProcessor(t)
		b := p.ProcessList(msgs(create("s"), data("s", "/a", "1"), del("s")))
		if len(b.Changes.SurfacesCreated)+len(b.Changes.SurfacesDeleted)+len(b.Changes.Surfaces) != 0 {
			t.Errorf("changes = %+v", b.Changes)
		}
	})
	t.Run("replaced_surface_is_deleted_and_created", func(t *testing.T) {
		p := newProcessor(t)
		mustApply(t, p, create("s"))
		b := p.ProcessList(msgs(del("s"), create("s")))
		if !reflect.DeepEqual(b.Changes.SurfacesCreated, []string{"s"}) || !reflect.DeepEqual(b.Changes.SurfacesDeleted, []string{"s"}) {
			t.Errorf("changes = %+v", b.Changes)
		}
	})
	t.Run("data_paths_collapse_below_written_parent", func(t *testing.T) {
		p := newProcessor(t)
		mustApply(t, p, create("s"))
		b := p.ProcessList(msgs(data("s", "/a/b", "1"), data("s", "/a", "{}"), data("s", "/a-b", "1"), data("s", "/a/c", "2")))
		if got := b.Changes.Surfaces["s"].DataPaths; !reflect.DeepEqual(got, []string{"/a", "/a-b"}) {
			t.Errorf("DataPaths = %v", got)
		}
	})
	t.Run("batch_is_unaffected_by_later_lists", func(t *testing.T) {
		p := newProcessor(t)
		b1 := p.ProcessList(msgs(create("s"), comps("s", `{"id":"root","component":"Text"}`, `{"id":"a","component":"Text"}`)))
		before, _ := json.Marshal(b1)
		p.ProcessList(msgs(comps("s", `{"id":"b","component":"Text"}`, `{"id":"root","component":"Divider"}`), del("s"), create("s"),
			comps("s", `{"id":"z","component":"Text"}`, `{"id":"y","component":"Text"}`, `{"id":"x","component":"Text"}`)))
		after, _ := json.Marshal(b1)
		if string(before) != string(after) {
			t.Errorf("batch changed:\nbefore %s\nafter  %s", before, after)
		}
		if got := b1.Changes.Surfaces["s"].ComponentsUpserted; !reflect.DeepEqual(got, []string{"root", "a"}) {
			t.Errorf("ComponentsUpserted = %v, want arrival order [root a]", got)
		}
	})
	t.Run("batch_is_json_serialisable", func(t *testing.T) {
		p := newProcessor(t)
		b := p.ProcessList(msgs(create("s"), data("zz", "/a", "1")))
		out, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		var back processor.Batch
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatal(err)
		}
		if back.Seq != 1 || back.Failed != 1 || back.Results[1].Error == nil || back.Results[1].Error.SurfaceID != "zz" {
			t.Errorf("round trip lost data: %s", out)
		}
		if !strings.Contains(string(out), `"code":"VALIDATION_FAILED"`) {
			t.Errorf("no agent-facing error in %s", out)
		}
	})
}

func TestProcessJSON(t *testing.T) {
	p := newProcessor(t)
	if _, err := p.ProcessJSON([]byte(`{"not":"an array"}`)); !errors.Is(err, processor.ErrNotArray) {
		t.Errorf("object: err = %v", err)
	}
	if _, err := p.ProcessJSON([]byte(`[1,`)); !errors.Is(err, processor.ErrNotArray) {
		t.Errorf("broken: err = %v", err)
	}
	if p.Seq() != 0 {
		t.Errorf("a rejected list produced a batch")
	}
	b, err := p.ProcessJSON([]byte(" [" + create("s") + " , " + data("s", "/a", "[1, 2]") + "]\n"))
	if err != nil || b.Applied != 2 {
		t.Fatalf("err %v batch %+v", err, b)
	}
	if got := dataModel(t, p, "s"); got != `{"a":[1,2]}` {
		t.Errorf("data = %s", got)
	}
}

func TestClientMetadata(t *testing.T) {
	p := newProcessor(t, processor.WithCatalogIDs(basicCatalog, "urn:other"))
	if dm, err := p.ClientDataModel(); err != nil || dm != nil {
		t.Fatalf("empty processor: %v %v", dm, err)
	}
	p.ProcessListFrom("agent-a", msgs(createSend("a1"), data("a1", "/x", "1"), create("a2"), data("a2", "/y", "2")))
	p.ProcessListFrom("agent-b", msgs(createSend("b1"), data("b1", "/z", `"q"`)))

	all, err := p.ClientDataModel()
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(all)
	if string(out) != `{"version":"v0.9","surfaces":{"a1":{"x":1},"b1":{"z":"q"}}}` {
		t.Errorf("ClientDataModel = %s", out)
	}
	forA, err := p.ClientDataModelFor("agent-a")
	if err != nil {
		t.Fatal(err)
	}
	out, _ = json.Marshal(forA)
	if string(out) != `{"version":"v0.9","surfaces":{"a1":{"x":1}}}` {
		t.Errorf("ClientDataModelFor(agent-a) = %s", out)
	}
	if none, _ := p.ClientDataModelFor("agent-c"); none != nil {
		t.Errorf("ClientDataModelFor(agent-c) = %+v, want nil", none)
	}

	caps, _ := json.Marshal(p.ClientCapabilities())
	if string(caps) != `{"v0.9":{"supportedCatalogIds":["`+basicCatalog+`","urn:other"]}}` {
		t.Errorf("ClientCapabilities() = %s", caps)
	}
	caps, _ = json.Marshal(p.ClientCapabilities("urn:x", "urn:x", "urn:y"))
	if string(caps) != `{"v0.9":{"supportedCatalogIds":["urn:x","urn:y"]}}` {
		t.Errorf("ClientCapabilities(ids) = %s", caps)
	}
}

func TestOptionsValidated(t *testing.T) {
	for name, opt := range map[string]processor.Option{
		"max_surfaces_zero":   processor.WithMaxSurfaces(0),
		"max_components_neg":  processor.WithMaxComponents(-1),
		"max_data_bytes_zero": processor.WithMaxDataModelBytes(0),
		"nil_logger":          processor.WithLogger(nil),
		"nil_catalog":         processor.WithCatalog(nil),
		"empty_catalog_id":    processor.WithCatalogIDs(""),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := processor.New(opt); err == nil {
				t.Error("New accepted an invalid option")
			}
		})
	}
}

func TestMessageErrorText(t *testing.T) {
	p := newProcessor(t)
	b := p.ProcessList(msgs(create("s"), data("s", "/a", "1"), data("s", "/a/b", "2")))
	errs := b.Errors()
	if len(errs) != 1 {
		t.Fatalf("errors = %v", errs)
	}
	got := errs[0].Error()
	want := `processor: message 2 (updateDataModel, surface "s"): invalid data model path: cannot write "/a/b": "/a" holds a primitive value`
	if got != want {
		t.Errorf("Error() = %s\nwant      %s", got, want)
	}
	rep := errs[0].Report()
	if rep.Path != "/path" || rep.SurfaceID != "s" {
		t.Errorf("Report() = %+v", rep)
	}
}
