package processor_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/processor"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

type ruleCase struct {
	name    string
	opts    []processor.Option
	setup   []string
	msg     string
	wantErr error // nil: the message must apply
	check   func(t *testing.T, p *processor.Processor, b processor.Batch)
}

func wantData(sid, want string) func(*testing.T, *processor.Processor, processor.Batch) {
	return func(t *testing.T, p *processor.Processor, _ processor.Batch) {
		t.Helper()
		if got := dataModel(t, p, sid); got != want {
			t.Errorf("data model of %s = %s, want %s", sid, got, want)
		}
	}
}

func wantComponent(sid, cid, want string) func(*testing.T, *processor.Processor, processor.Batch) {
	return func(t *testing.T, p *processor.Processor, _ processor.Batch) {
		t.Helper()
		if got := component(t, p, sid, cid); got != want {
			t.Errorf("component %s/%s = %s, want %s", sid, cid, got, want)
		}
	}
}

func both(fs ...func(*testing.T, *processor.Processor, processor.Batch)) func(*testing.T, *processor.Processor, processor.Batch) {
	return func(t *testing.T, p *processor.Processor, b processor.Batch) {
		t.Helper()
		for _, f := range fs {
			f(t, p, b)
		}
	}
}

func runRules(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := newProcessor(t, tc.opts...)
			if len(tc.setup) > 0 {
				mustApply(t, p, tc.setup...)
			}
			before := state(t, p)
			b := p.ProcessList(msgs(tc.msg))
			if len(b.Results) != 1 {
				t.Fatalf("got %d results, want 1", len(b.Results))
			}
			r := b.Results[0]
			if tc.wantErr == nil {
				if !r.OK {
					t.Fatalf("message failed: %v", r.Err)
				}
			} else {
				if r.OK {
					t.Fatalf("message applied, want error %v", tc.wantErr)
				}
				if !errors.Is(r.Err, tc.wantErr) {
					t.Fatalf("error %v, want %v", r.Err, tc.wantErr)
				}
				var me *processor.MessageError
				if !errors.As(r.Err, &me) || me.Index != 0 {
					t.Fatalf("error %#v is not a *MessageError for index 0", r.Err)
				}
				if r.Error == nil || r.Error.Code != "VALIDATION_FAILED" || r.Error.Message == "" || r.Error.Path == "" {
					t.Fatalf("agent-facing error = %+v", r.Error)
				}
				if after := state(t, p); after != before {
					t.Fatalf("a failed message changed the state:\nbefore %s\nafter  %s", before, after)
				}
			}
			if tc.check != nil {
				tc.check(t, p, b)
			}
		})
	}
}

func TestSurfaceRules(t *testing.T) {
	runRules(t, []ruleCase{
		{name: "create_surface_sets_identity", msg: `{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c","theme":{"primaryColor":"#00BFFF"},"sendDataModel":true}}`,
			check: func(t *testing.T, p *processor.Processor, b processor.Batch) {
				s, ok := p.Surface("s")
				if !ok {
					t.Fatal("surface not created")
				}
				if s.CatalogID() != "c" || string(s.Theme()) != `{"primaryColor":"#00BFFF"}` || !s.SendDataModel() || s.Root() != "root" {
					t.Errorf("identity = %q %s %v %q", s.CatalogID(), s.Theme(), s.SendDataModel(), s.Root())
				}
				if !reflect.DeepEqual(b.Changes.SurfacesCreated, []string{"s"}) {
					t.Errorf("SurfacesCreated = %v", b.Changes.SurfacesCreated)
				}
			}},
		{name: "create_existing_surface_is_error", setup: []string{create("s")}, msg: create("s"), wantErr: processor.ErrSurfaceExists},
		{name: "create_without_catalog_is_error", msg: `{"version":"v0.9","createSurface":{"surfaceId":"s"}}`, wantErr: processor.ErrInvalidMessage},
		{name: "create_unconfigured_catalog_is_error", opts: []processor.Option{processor.WithCatalogIDs("only")}, msg: create("s"), wantErr: processor.ErrUnknownCatalog},
		{name: "update_components_unknown_surface_is_error", msg: comps("s", `{"id":"root","component":"Text","text":"x"}`), wantErr: processor.ErrUnknownSurface},
		{name: "update_data_model_unknown_surface_is_error", msg: data("s", "/a", "1"), wantErr: processor.ErrUnknownSurface},
		{name: "delete_surface_removes_everything", setup: []string{create("s"), comps("s", `{"id":"root","component":"Text","text":"x"}`), data("s", "/a", "1")}, msg: del("s"),
			check: func(t *testing.T, p *processor.Processor, b processor.Batch) {
				if _, ok := p.Surface("s"); ok {
					t.Error("surface still exists")
				}
				if !reflect.DeepEqual(b.Changes.SurfacesDeleted, []string{"s"}) {
					t.Errorf("SurfacesDeleted = %v", b.Changes.SurfacesDeleted)
				}
			}},
		{name: "deleted_surface_can_be_created_again", setup: []string{create("s"), comps("s", `{"id":"root","component":"Text","text":"x"}`), data("s", "/a", "1"), del("s")}, msg: create("s"),
			check: both(wantData("s", `{}`), wantComponent("s", "root", "<none>"))},
		{name: "delete_unknown_surface_is_a_no_op", msg: del("nope"),
			check: func(t *testing.T, _ *processor.Processor, b processor.Batch) {
				if len(b.Changes.SurfacesDeleted) != 0 {
					t.Errorf("SurfacesDeleted = %v", b.Changes.SurfacesDeleted)
				}
			}},
		{name: "max_surfaces_bound", opts: []processor.Option{processor.WithMaxSurfaces(1)}, setup: []string{create("a")}, msg: create("b"), wantErr: processor.ErrLimit},
	})
}

func TestComponentRules(t *testing.T) {
	runRules(t, []ruleCase{
		{name: "update_replaces_all_properties",
			setup: []string{create("s"), comps("s", `{"id":"root","component":"Text","text":"a","variant":"h1"}`)},
			msg:   comps("s", `{"id":"root","component":"Text","text":"b"}`),
			check: wantComponent("s", "root", `{"component":"Text","id":"root","text":"b"}`)},
		{name: "changed_type_recreates_component",
			setup: []string{create("s"), comps("s", `{"id":"root","component":"Text","text":"a"}`)},
			msg:   comps("s", `{"id":"root","component":"Divider"}`),
			check: both(wantComponent("s", "root", `{"component":"Divider","id":"root"}`),
				func(t *testing.T, _ *processor.Processor, b processor.Batch) {
					if got := b.Changes.Surfaces["s"].ComponentsRecreated; !reflect.DeepEqual(got, []string{"root"}) {
						t.Errorf("ComponentsRecreated = %v", got)
					}
					if got := b.Changes.Surfaces["s"].Root; got != "root" {
						t.Errorf("Root = %q, want root", got)
					}
				})},
		{name: "forward_references_are_allowed",
			setup: []string{create("s")},
			msg:   comps("s", `{"id":"root","component":"Column","children":["later"]}`),
			check: wantComponent("s", "root", `{"children":["later"],"component":"Column","id":"root"}`)},
		{name: "component_without_id_is_error", setup: []string{create("s")}, msg: comps("s", `{"component":"Text"}`), wantErr: processor.ErrInvalidMessage},
		{name: "component_without_type_is_error", setup: []string{create("s")}, msg: comps("s", `{"id":"root"}`), wantErr: processor.ErrInvalidMessage},
		{name: "empty_components_is_error", setup: []string{create("s")}, msg: comps("s"), wantErr: processor.ErrInvalidMessage},
		{name: "duplicate_ids_in_one_update_is_error", setup: []string{create("s")},
			msg: comps("s", `{"id":"a","component":"Text"}`, `{"id":"a","component":"Text"}`), wantErr: protocol.ErrDuplicateID},
		{name: "self_reference_is_error", setup: []string{create("s")},
			msg: comps("s", `{"id":"root","component":"Card","child":"root"}`), wantErr: protocol.ErrSelfReference},
		{name: "cycle_within_update_is_error", setup: []string{create("s")},
			msg: comps("s", `{"id":"root","component":"Card","child":"a"}`, `{"id":"a","component":"Card","child":"root"}`), wantErr: protocol.ErrCycle},
		{name: "cycle_across_updates_is_error",
			setup: []string{create("s"), comps("s", `{"id":"root","component":"Card","child":"a"}`, `{"id":"a","component":"Card","child":"b"}`)},
			msg:   comps("s", `{"id":"b","component":"Card","child":"a"}`), wantErr: protocol.ErrCycle},
		{name: "cycle_before_root_exists_is_error", setup: []string{create("s")},
			msg: comps("s", `{"id":"a","component":"Card","child":"b"}`, `{"id":"b","component":"Column","children":["a"]}`), wantErr: protocol.ErrCycle},
		{name: "tree_deeper_than_limit_is_error", setup: []string{create("s")},
			msg: comps("s", chainComponents(52)...), wantErr: protocol.ErrRecursionLimit},
		{name: "progressive_chain_deeper_than_limit_is_error", setup: append([]string{create("s")}, progressiveChain(50)...),
			msg: comps("s", `{"id":"c50","component":"Card","child":"c51"}`, `{"id":"c51","component":"Text"}`), wantErr: protocol.ErrRecursionLimit},
		{name: "progressive_chain_at_limit_is_accepted", setup: append([]string{create("s")}, progressiveChain(49)...),
			msg: comps("s", `{"id":"c49","component":"Card","child":"c50"}`, `{"id":"c50","component":"Text"}`)},
		{name: "progressive_cycle_is_error", setup: append([]string{create("s")}, progressiveChain(20)...),
			msg: comps("s", `{"id":"c20","component":"Card","child":"c3"}`), wantErr: protocol.ErrCycle},
		{name: "topology_off_allows_cycles", opts: []processor.Option{processor.WithTopology(false)}, setup: []string{create("s")},
			msg: comps("s", `{"id":"root","component":"Card","child":"root"}`)},
		{name: "strict_topology_rejects_dangling_reference", opts: []processor.Option{processor.WithStrictTopology(true)}, setup: []string{create("s")},
			msg: comps("s", `{"id":"root","component":"Card","child":"missing"}`), wantErr: protocol.ErrDanglingRef},
		{name: "strict_topology_rejects_orphan", opts: []processor.Option{processor.WithStrictTopology(true)}, setup: []string{create("s")},
			msg: comps("s", `{"id":"root","component":"Text"}`, `{"id":"lost","component":"Text"}`), wantErr: protocol.ErrOrphan},
		{name: "strict_topology_rejects_missing_root", opts: []processor.Option{processor.WithStrictTopology(true)}, setup: []string{create("s")},
			msg: comps("s", `{"id":"a","component":"Text"}`), wantErr: protocol.ErrMissingRoot},
		{name: "max_components_bound", opts: []processor.Option{processor.WithMaxComponents(2)}, setup: []string{create("s"), comps("s", `{"id":"root","component":"Text"}`)},
			msg: comps("s", `{"id":"a","component":"Text"}`, `{"id":"b","component":"Text"}`), wantErr: processor.ErrLimit},
		{name: "max_components_counts_replacements_once", opts: []processor.Option{processor.WithMaxComponents(2)}, setup: []string{create("s"), comps("s", `{"id":"root","component":"Text"}`)},
			msg: comps("s", `{"id":"root","component":"Text","text":"x"}`, `{"id":"b","component":"Text"}`)},
	})
}

// progressiveChain returns updates that build root -> c1 -> ... -> cn one
// component per message, cn a Text.
func progressiveChain(n int) []string {
	out := []string{comps("s", `{"id":"root","component":"Card","child":"c1"}`)}
	for i := 1; i < n; i++ {
		out = append(out, comps("s", fmt.Sprintf(`{"id":"c%d","component":"Card","child":"c%d"}`, i, i+1)))
	}
	return append(out, comps("s", fmt.Sprintf(`{"id":"c%d","component":"Text"}`, n)))
}

// chainComponents returns n components root -> c1 -> c2 ... each a Card.
func chainComponents(n int) []string {
	out := make([]string, n)
	id := func(i int) string {
		if i == 0 {
			return "root"
		}
		return "c" + strings.Repeat("x", i)
	}
	for i := range n {
		c := `{"id":"` + id(i) + `","component":"Card"`
		if i+1 < n {
			c += `,"child":"` + id(i+1) + `"`
		}
		out[i] = c + "}"
	}
	return out
}

func TestDataModelRules(t *testing.T) {
	s := create("s")
	runRules(t, []ruleCase{
		{name: "upsert_creates_value", setup: []string{s}, msg: data("s", "/user/name", `"Ann"`), check: wantData("s", `{"user":{"name":"Ann"}}`)},
		{name: "upsert_replaces_value", setup: []string{s, data("s", "/a", `{"b":1,"c":2}`)}, msg: data("s", "/a", `{"d":3}`), check: wantData("s", `{"a":{"d":3}}`)},
		{name: "missing_parent_becomes_object", setup: []string{s}, msg: data("s", "/a/b/c", `1`), check: wantData("s", `{"a":{"b":{"c":1}}}`)},
		{name: "missing_parent_becomes_array_before_index", setup: []string{s}, msg: data("s", "/items/0/title", `"x"`), check: wantData("s", `{"items":[{"title":"x"}]}`)},
		{name: "index_past_end_pads_with_null", setup: []string{s, data("s", "/a", `[1]`)}, msg: data("s", "/a/3", `4`), check: wantData("s", `{"a":[1,null,null,4]}`)},
		{name: "null_parent_is_replaced_by_container", setup: []string{s, data("s", "/a", `null`)}, msg: data("s", "/a/b", `1`), check: wantData("s", `{"a":{"b":1}}`)},
		{name: "write_into_received_value", setup: []string{s, data("s", "/", `{"user":{"tags":["a","b"]}}`)}, msg: data("s", "/user/tags/1", `"c"`), check: wantData("s", `{"user":{"tags":["a","c"]}}`)},
		{name: "tilde_escapes", setup: []string{s}, msg: data("s", "/a~1b/c~0d", `1`), check: wantData("s", `{"a/b":{"c~d":1}}`)},
		{name: "invalid_escape_is_error", setup: []string{s}, msg: data("s", "/a~2", `1`), wantErr: processor.ErrDataPath},
		{name: "omitted_value_removes_key", setup: []string{s, data("s", "/", `{"a":1,"b":2}`)}, msg: data("s", "/a", "-"), check: wantData("s", `{"b":2}`)},
		{name: "omitted_value_empties_array_slot", setup: []string{s, data("s", "/a", `[1,2,3]`)}, msg: data("s", "/a/1", "-"), check: wantData("s", `{"a":[1,null,3]}`)},
		{name: "removing_missing_path_changes_nothing", setup: []string{s, data("s", "/a", `1`)}, msg: data("s", "/x/y", "-"),
			check: both(wantData("s", `{"a":1}`), func(t *testing.T, _ *processor.Processor, b processor.Batch) {
				if sc := b.Changes.Surfaces["s"]; sc != nil && len(sc.DataPaths) != 0 {
					t.Errorf("DataPaths = %v", sc.DataPaths)
				}
			})},
		{name: "omitted_path_replaces_model", setup: []string{s, data("s", "/a", `1`)}, msg: data("s", "-", `{"b":2}`), check: wantData("s", `{"b":2}`)},
		{name: "slash_path_replaces_model", setup: []string{s, data("s", "/a", `1`)}, msg: data("s", "/", `{"c":3}`),
			check: both(wantData("s", `{"c":3}`), func(t *testing.T, _ *processor.Processor, b processor.Batch) {
				if got := b.Changes.Surfaces["s"].DataPaths; !reflect.DeepEqual(got, []string{"/"}) {
					t.Errorf("DataPaths = %v", got)
				}
			})},
		{name: "omitted_path_and_value_clears_model", setup: []string{s, data("s", "/a", `1`)}, msg: data("s", "-", "-"), check: wantData("s", `{}`)},
		{name: "relative_path_is_read_from_root", setup: []string{s}, msg: data("s", "user/name", `"x"`), check: wantData("s", `{"user":{"name":"x"}}`)},
		{name: "write_through_primitive_is_error", setup: []string{s, data("s", "/a", `5`)}, msg: data("s", "/a/b", `1`), wantErr: processor.ErrDataPath},
		{name: "write_through_string_is_error", setup: []string{s, data("s", "/a", `"txt"`)}, msg: data("s", "/a/0", `1`), wantErr: processor.ErrDataPath},
		{name: "non_numeric_segment_on_array_is_error", setup: []string{s, data("s", "/a", `[1]`)}, msg: data("s", "/a/x", `1`), wantErr: processor.ErrDataPath},
		{name: "leading_zero_index_on_array_is_error", setup: []string{s, data("s", "/a", `[1,2]`)}, msg: data("s", "/a/01", `9`), wantErr: processor.ErrDataPath},
		{name: "leading_zero_segment_on_object_is_a_key", setup: []string{s}, msg: data("s", "/a/01", `9`), check: wantData("s", `{"a":{"01":9}}`)},
		{name: "zero_index_is_an_index", setup: []string{s, data("s", "/a", `[1,2]`)}, msg: data("s", "/a/0", `9`), check: wantData("s", `{"a":[9,2]}`)},
		{name: "proto_segment_is_forbidden", setup: []string{s}, msg: data("s", "/__proto__/x", `1`), wantErr: processor.ErrDataPath},
		{name: "constructor_segment_is_forbidden", setup: []string{s}, msg: data("s", "/a/constructor", `1`), wantErr: processor.ErrDataPath},
		{name: "prototype_segment_is_forbidden", setup: []string{s}, msg: data("s", "prototype", `1`), wantErr: processor.ErrDataPath},
		{name: "escaped_proto_segment_is_forbidden", setup: []string{s}, msg: data("s", "/a/__proto__", `{}`), wantErr: processor.ErrDataPath},
		{name: "path_deeper_than_limit_is_bounded", setup: []string{s}, msg: data("s", strings.Repeat("/a", 51), `1`), wantErr: processor.ErrLimit},
		{name: "path_at_limit_is_accepted", setup: []string{s}, msg: data("s", strings.Repeat("/a", 50), `1`)},
		{name: "huge_index_is_bounded", setup: []string{s}, msg: data("s", "/a/99999999999", `1`), wantErr: processor.ErrLimit},
		{name: "max_data_model_bytes_bound", opts: []processor.Option{processor.WithMaxDataModelBytes(64)}, setup: []string{s},
			msg: data("s", "/a", `"`+strings.Repeat("x", 100)+`"`), wantErr: processor.ErrLimit},
		{name: "padding_counts_against_bound", opts: []processor.Option{processor.WithMaxDataModelBytes(1000)}, setup: []string{s},
			msg: data("s", "/a/100000", `1`), wantErr: processor.ErrLimit},
		{name: "path_must_be_string", setup: []string{s}, msg: `{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":3,"value":1}}`, wantErr: processor.ErrInvalidMessage},
	})
}

func TestEnvelopeRules(t *testing.T) {
	runRules(t, []ruleCase{
		{name: "not_json", msg: `{"version":`, wantErr: processor.ErrInvalidMessage},
		{name: "not_an_object", msg: `[1,2]`, wantErr: processor.ErrInvalidMessage},
		{name: "no_kind", msg: `{"version":"v0.9"}`, wantErr: processor.ErrInvalidMessage},
		{name: "two_kinds", msg: `{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"},"deleteSurface":{"surfaceId":"s"}}`, wantErr: processor.ErrInvalidMessage},
		{name: "unknown_top_level_property", msg: `{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"},"extra":1}`, wantErr: processor.ErrInvalidMessage},
		{name: "unknown_body_property", msg: `{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c","extra":1}}`, wantErr: processor.ErrInvalidMessage},
		{name: "v09_kind_without_version", msg: `{"createSurface":{"surfaceId":"s","catalogId":"c"}}`, wantErr: processor.ErrInvalidMessage},
		{name: "v09_kind_with_v08_version", msg: `{"version":"v0.8","createSurface":{"surfaceId":"s","catalogId":"c"}}`, wantErr: processor.ErrVersion},
		{name: "v010_version_is_v09_family", msg: `{"version":"v0.10","createSurface":{"surfaceId":"s","catalogId":"c"}}`},
		{name: "call_function_is_unsupported", msg: `{"version":"v0.10","functionCallId":"f1","callFunction":{"call":"now","returnType":"string","callableFrom":"remoteOnly"}}`, wantErr: processor.ErrUnsupported},
		{name: "action_response_is_unsupported", msg: `{"version":"v0.10","actionId":"a1","actionResponse":{"value":1}}`, wantErr: processor.ErrUnsupported},
		{name: "missing_surface_id", msg: `{"version":"v0.9","deleteSurface":{}}`, wantErr: processor.ErrInvalidMessage},
		{name: "surface_id_not_string", msg: `{"version":"v0.9","deleteSurface":{"surfaceId":7}}`, wantErr: processor.ErrInvalidMessage},
		{name: "body_not_object", msg: `{"version":"v0.9","deleteSurface":"s"}`, wantErr: processor.ErrInvalidMessage},
		{name: "nesting_deeper_than_limit", setup: []string{create("s")}, msg: data("s", "/a", strings.Repeat("[", 60)+strings.Repeat("]", 60)), wantErr: protocol.ErrRecursionLimit},
		{name: "nesting_at_limit_is_accepted", setup: []string{create("s")}, msg: data("s", "/a", strings.Repeat("[", 47)+strings.Repeat("]", 47))},
		{name: "v08_message_to_v09_surface", setup: []string{create("s")},
			msg: `{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Text":{"text":{"literalString":"x"}}}}]}}`, wantErr: processor.ErrVersion},
		{name: "v09_message_to_v08_surface", setup: []string{`{"beginRendering":{"surfaceId":"s","root":"root"}}`},
			msg: comps("s", `{"id":"root","component":"Text"}`), wantErr: processor.ErrVersion},
	})
}

func TestV08Rules(t *testing.T) {
	const su = `{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Column":{"children":{"explicitList":["t"]}}}},{"id":"t","weight":1,"component":{"Text":{"text":{"path":"/name"}}}}]}}`
	runRules(t, []ruleCase{
		{name: "surface_update_creates_surface", msg: su,
			check: both(wantComponent("s", "t", `{"component":{"Text":{"text":{"path":"/name"}}},"id":"t","weight":1}`),
				func(t *testing.T, p *processor.Processor, b processor.Batch) {
					s, _ := p.Surface("s")
					if s.Family() != protocol.FamilyV08 || s.Root() != "" {
						t.Errorf("family %v root %q", s.Family(), s.Root())
					}
					if !reflect.DeepEqual(b.Changes.SurfacesCreated, []string{"s"}) {
						t.Errorf("SurfacesCreated = %v", b.Changes.SurfacesCreated)
					}
				})},
		{name: "begin_rendering_sets_root_and_styles", setup: []string{su}, msg: `{"beginRendering":{"surfaceId":"s","root":"root","styles":{"primaryColor":"#f00"}}}`,
			check: func(t *testing.T, p *processor.Processor, b processor.Batch) {
				s, _ := p.Surface("s")
				if s.Root() != "root" || string(s.Styles()) != `{"primaryColor":"#f00"}` {
					t.Errorf("root %q styles %s", s.Root(), s.Styles())
				}
				if b.Changes.Surfaces["s"].Root != "root" {
					t.Errorf("Root change = %q", b.Changes.Surfaces["s"].Root)
				}
			}},
		{name: "contents_become_plain_json", msg: `{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"name","valueString":"Bob"},{"key":"n","valueNumber":4.5},{"key":"ok","valueBoolean":true},{"key":"addr","valueMap":[{"key":"city","valueString":"X"}]},{"key":"list","valueString":"[1, 2]"},{"key":"nokey"}]}}`,
			check: wantData("s", `{"addr":{"city":"X"},"list":[1,2],"n":4.5,"name":"Bob","ok":true}`)},
		{name: "contents_at_path", setup: []string{`{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"keep","valueString":"k"}]}}`},
			msg:   `{"dataModelUpdate":{"surfaceId":"s","path":"user","contents":[{"key":"name","valueString":"Bob"}]}}`,
			check: wantData("s", `{"keep":"k","user":{"name":"Bob"}}`)},
		{name: "root_contents_replace_model", setup: []string{`{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"old","valueString":"o"}]}}`},
			msg:   `{"dataModelUpdate":{"surfaceId":"s","path":"/","contents":[{"key":"new","valueString":"n"}]}}`,
			check: wantData("s", `{"new":"n"}`)},
		{name: "dot_key_sets_primitive_at_path", msg: `{"dataModelUpdate":{"surfaceId":"s","path":"/messages/0","contents":[{"key":".","valueString":"hi"}]}}`,
			check: wantData("s", `{"messages":["hi"]}`)},
		{name: "dotted_path_nests", msg: `{"dataModelUpdate":{"surfaceId":"s","path":"user.address","contents":[{"key":"city","valueString":"X"}]}}`,
			check: wantData("s", `{"user":{"address":{"city":"X"}}}`)},
		{name: "json_string_deeper_than_limit_is_error", msg: `{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"m","valueString":"` + strings.Repeat("[", 60) + strings.Repeat("]", 60) + `"}]}}`,
			wantErr: protocol.ErrRecursionLimit},
		{name: "json_string_at_limit_is_parsed", msg: `{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"m","valueString":"` + strings.Repeat("[", 50) + strings.Repeat("]", 50) + `"}]}}`,
			check: wantData("s", `{"m":`+strings.Repeat("[", 50)+strings.Repeat("]", 50)+`}`)},
		{name: "invalid_json_string_stays_a_string", msg: `{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"m","valueString":"[1,]"}]}}`,
			check: wantData("s", `{"m":"[1,]"}`)},
		{name: "contents_entry_without_key_is_error", msg: `{"dataModelUpdate":{"surfaceId":"s","contents":[{"valueString":"x"}]}}`, wantErr: processor.ErrInvalidMessage},
		{name: "failed_first_message_creates_no_surface", msg: `{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":"Text"}]}}`, wantErr: processor.ErrInvalidMessage,
			check: func(t *testing.T, p *processor.Processor, _ processor.Batch) {
				if _, ok := p.Surface("s"); ok {
					t.Error("a failed v0.8 message created its surface")
				}
			}},
		{name: "begin_rendering_requires_root", msg: `{"beginRendering":{"surfaceId":"s"}}`, wantErr: processor.ErrInvalidMessage},
		{name: "delete_surface_v08", setup: []string{su}, msg: `{"deleteSurface":{"surfaceId":"s"}}`,
			check: func(t *testing.T, p *processor.Processor, _ processor.Batch) {
				if _, ok := p.Surface("s"); ok {
					t.Error("surface still exists")
				}
			}},
		{name: "v08_cycle_is_error", msg: `{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Card":{"child":"b"}}},{"id":"b","component":{"Card":{"child":"a"}}}]}}`, wantErr: protocol.ErrCycle},
	})
}
