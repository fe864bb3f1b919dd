package protocol_test

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

func decode(t testing.TB, s string) []any {
	t.Helper()
	var v []any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestValidate(t *testing.T) {
	cat09 := loadSimplified(t, "0.9")
	cat08 := loadSimplified(t, "0.8")
	tests := []struct {
		name      string
		cat       *protocol.Catalog
		payload   string
		opts      []protocol.ValidateOption
		wantErr   error
		wantMatch string
		wantIndex int
		wantPath  string
		wantSurf  string
	}{
		{name: "valid_surface", cat: cat09, payload: `[
			{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},
			{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[
				{"id":"root","component":"Card","child":"t"},{"id":"t","component":"Text","text":"hi"}]}}]`},
		{name: "schema_type", cat: cat09, payload: `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":7}}]`,
			wantErr: protocol.ErrSchema, wantMatch: "7 is not of type 'string'", wantIndex: 0, wantPath: "/catalogId", wantSurf: "s"},
		{name: "schema_second_message", cat: cat09, payload: `[
			{"version":"v0.9","deleteSurface":{"surfaceId":"a"}},
			{"version":"v0.9","updateDataModel":{"surfaceId":"b","extra":1}}]`,
			wantErr: protocol.ErrSchema, wantMatch: "Additional properties are not allowed ('extra' was unexpected)", wantIndex: 1, wantSurf: "b"},
		{name: "orphan_strict", cat: cat09, payload: `[
			{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},
			{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[
				{"id":"root","component":"Text","text":"a"},{"id":"lost","component":"Text","text":"b"}]}}]`,
			wantErr: protocol.ErrOrphan, wantMatch: "Component 'lost' is not reachable from 'root'", wantIndex: 1, wantPath: "/components", wantSurf: "s"},
		{name: "orphan_lenient", cat: cat09, opts: []protocol.ValidateOption{protocol.WithStrictIntegrity(false)}, payload: `[
			{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},
			{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[
				{"id":"root","component":"Text","text":"a"},{"id":"lost","component":"Text","text":"b"}]}}]`},
		{name: "incremental_update_no_root", cat: cat09, payload: `[
			{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"x","component":"Card","child":"elsewhere"}]}}]`},
		{name: "with_root_id_makes_update_complete", cat: cat09, opts: []protocol.ValidateOption{protocol.WithRootID("root")}, payload: `[
			{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"x","component":"Card","child":"elsewhere"}]}}]`,
			wantErr: protocol.ErrMissingRoot, wantMatch: "No component has id='root'", wantIndex: 0, wantSurf: "s"},
		// An empty beginRendering.root is a root id like any other, as in the
		// reference (beginRendering.get("root", "root") is "" there, not
		// None): no component has it, so the root is missing; it is not an
		// incremental update.
		{name: "v08_empty_root_is_missing", cat: cat08, payload: `[
			{"beginRendering":{"surfaceId":"s","root":""}},
			{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Text":{"text":"hi"}}}]}}]`,
			wantErr: protocol.ErrMissingRoot, wantMatch: "Missing root component: No component has id=''", wantIndex: 1, wantPath: "/components", wantSurf: "s"},
		{name: "v08_empty_root_is_missing_in_long_payload", cat: cat08, payload: `[
			{"deleteSurface":{"surfaceId":"a"}},{"deleteSurface":{"surfaceId":"b"}},{"deleteSurface":{"surfaceId":"c"}},
			{"deleteSurface":{"surfaceId":"d"}},{"deleteSurface":{"surfaceId":"e"}},{"deleteSurface":{"surfaceId":"f"}},
			{"beginRendering":{"surfaceId":"s","root":""}},
			{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Text":{"text":"hi"}}}]}}]`,
			wantErr: protocol.ErrMissingRoot, wantMatch: "No component has id=''", wantIndex: 7, wantSurf: "s"},
		{name: "v08_empty_root_no_catalog_is_missing", cat: nil, payload: `[
			{"beginRendering":{"surfaceId":"s","root":""}},
			{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Card":{"child":"elsewhere"}}}]}}]`,
			wantErr: protocol.ErrMissingRoot, wantMatch: "No component has id=''", wantIndex: 1, wantSurf: "s"},
		{name: "v08_empty_root_lenient_checks_only_from_root", cat: cat08, opts: []protocol.ValidateOption{protocol.WithStrictIntegrity(false)}, payload: `[
			{"beginRendering":{"surfaceId":"s","root":""}},
			{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Card":{"child":"b"}}},{"id":"b","component":{"Card":{"child":"a"}}}]}}]`},
		{name: "v08_empty_root_names_component_with_empty_id", cat: cat08, payload: `[
			{"beginRendering":{"surfaceId":"s","root":""}},
			{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"","component":{"Card":{"child":"t"}}},{"id":"t","component":{"Text":{"text":"hi"}}}]}}]`},
		{name: "v08_empty_root_orphan", cat: cat08, payload: `[
			{"beginRendering":{"surfaceId":"s","root":""}},
			{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"","component":{"Text":{"text":"a"}}},{"id":"lost","component":{"Text":{"text":"b"}}}]}}]`,
			wantErr: protocol.ErrOrphan, wantMatch: "Component 'lost' is not reachable from ''", wantIndex: 1, wantSurf: "s"},
		{name: "v08_empty_root_dangling_reference", cat: cat08, payload: `[
			{"beginRendering":{"surfaceId":"s","root":""}},
			{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"","component":{"Card":{"child":"gone"}}}]}}]`,
			wantErr: protocol.ErrDanglingRef, wantMatch: "Component '' references non-existent component 'gone' in field 'child'", wantIndex: 1, wantSurf: "s"},
		{name: "v08_empty_root_of_other_surface_does_not_apply", cat: cat08, payload: `[
			{"beginRendering":{"surfaceId":"other","root":""}},
			{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"x","component":{"Card":{"child":"elsewhere"}}}]}}]`},
		{name: "v09_component_with_empty_id_is_not_root", cat: cat09, payload: `[
			{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},
			{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"","component":"Text","text":"a"}]}}]`,
			wantErr: protocol.ErrMissingRoot, wantMatch: "No component has id='root'", wantIndex: 1, wantSurf: "s"},
		{name: "with_empty_root_id_stays_incremental", cat: cat09, opts: []protocol.ValidateOption{protocol.WithRootID("")}, payload: `[
			{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"x","component":"Card","child":"elsewhere"}]}}]`},
		{name: "nil_catalog_topology_only", cat: nil, payload: `[
			{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Card","child":"b"},{"id":"b","component":"Card","child":"a"}]}}]`,
			wantErr: protocol.ErrCycle, wantMatch: "Circular reference detected involving component"},
		{name: "nil_catalog_skips_schema", cat: nil, payload: `[{"anything":{"surfaceId":5}}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.cat.Validate(decode(t, tt.payload), tt.opts...)
			if tt.wantErr == nil {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if !errors.Is(err, tt.wantErr) || !errors.Is(err, protocol.ErrValidation) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantMatch) || !strings.HasPrefix(err.Error(), "protocol: ") {
				t.Fatalf("err = %q, want it to contain %q", err, tt.wantMatch)
			}
			var ve *protocol.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("not a *ValidationError: %T", err)
			}
			if ve.MessageIndex != tt.wantIndex || ve.Path != tt.wantPath && tt.wantPath != "" || ve.SurfaceID != tt.wantSurf && tt.wantSurf != "" {
				t.Fatalf("index %d path %q surface %q; want %d %q %q", ve.MessageIndex, ve.Path, ve.SurfaceID, tt.wantIndex, tt.wantPath, tt.wantSurf)
			}
		})
	}
}

func TestValidateSeveralErrors(t *testing.T) {
	err := (*protocol.Catalog)(nil).Validate(decode(t, `[
		{"version":"v0.9","updateComponents":{"surfaceId":"a","components":[{"id":"x","component":"Card","child":"x"}]}},
		{"version":"v0.9","updateComponents":{"surfaceId":"b","components":[{"id":"y","component":"Text"},{"id":"y","component":"Text"}]}}]`))
	var list protocol.ValidationErrors
	if !errors.As(err, &list) || len(list) != 2 {
		t.Fatalf("err = %#v, want two errors", err)
	}
	if !errors.Is(err, protocol.ErrSelfReference) || !errors.Is(err, protocol.ErrDuplicateID) {
		t.Fatalf("errors.Is does not see both kinds: %v", err)
	}
	got := protocol.AsValidationErrors(err)
	if len(got) != 2 || got[0].SurfaceID != "a" || got[1].SurfaceID != "b" || got[1].MessageIndex != 1 {
		t.Fatalf("AsValidationErrors = %+v", got)
	}
	if protocol.AsValidationErrors(errors.New("other")) != nil {
		t.Fatal("AsValidationErrors of a foreign error is not nil")
	}
}

func TestErrorReport(t *testing.T) {
	cat := loadSimplified(t, "0.9")
	err := cat.ValidateJSON([]byte(`[{"version":"v0.9","createSurface":{"surfaceId":"s"}}]`))
	list := protocol.AsValidationErrors(err)
	if len(list) != 1 {
		t.Fatalf("err = %v", err)
	}
	b, jerr := json.Marshal(list[0].Report())
	if jerr != nil {
		t.Fatal(jerr)
	}
	want := `{"code":"VALIDATION_FAILED","surfaceId":"s","path":"/","message":"Validation failed: 'catalogId' is a required property"}`
	if string(b) != want {
		t.Fatalf("report = %s\nwant     %s", b, want)
	}
	// The full error keeps the reference's wording and the alternatives.
	for _, s := range []string{"is not valid under any of the given schemas", "Context failures:", "'catalogId' is a required property"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("Error() lacks %q: %s", s, err)
		}
	}
	if err := cat.ValidateJSON([]byte(`[{`)); !errors.Is(err, protocol.ErrSchema) || !strings.Contains(err.Error(), "Invalid JSON") {
		t.Fatalf("malformed JSON: %v", err)
	}
	// Invalid UTF-8 is malformed JSON (encoding/json alone would accept
	// it, replacing the bytes).
	if err := cat.ValidateJSON([]byte("[{\"version\":\"v0.9\",\"deleteSurface\":{\"surfaceId\":\"\xff\"}}]")); !errors.Is(err, protocol.ErrSchema) || !strings.Contains(err.Error(), "invalid UTF-8 at offset 49") {
		t.Fatalf("invalid UTF-8: %v", err)
	}
	// A single object is accepted as a one-message payload.
	if err := cat.ValidateJSON([]byte(`{"version":"v0.9","deleteSurface":{"surfaceId":"s"}}`)); err != nil {
		t.Fatalf("single object: %v", err)
	}
}

func TestFindRootID(t *testing.T) {
	msgs := decode(t, `[{"beginRendering":{"surfaceId":"a","root":"ra"}},{"beginRendering":{"surfaceId":"b"}},{"version":"v0.9","createSurface":{"surfaceId":"c"}}]`)
	tests := []struct {
		surface, want string
		ok            bool
	}{{"a", "ra", true}, {"b", "root", true}, {"c", "root", true}, {"d", "", false}, {"", "ra", true}}
	for _, tt := range tests {
		got, ok := protocol.FindRootID(msgs, tt.surface)
		if got != tt.want || ok != tt.ok {
			t.Errorf("FindRootID(%q) = %q %v, want %q %v", tt.surface, got, ok, tt.want, tt.ok)
		}
	}
}

// Validate finds each update's root as FindRootID does (first declaration
// of the surface, any surface for an update without a surfaceId), however
// many messages the payload has.
func TestValidateRootLookup(t *testing.T) {
	tests := []struct {
		name      string
		payload   string
		wantMatch string // "" means valid
	}{
		{"root_of_own_surface", `[
			{"beginRendering":{"surfaceId":"a","root":"ra"}},{"beginRendering":{"surfaceId":"b","root":"rb"}},
			{"surfaceUpdate":{"surfaceId":"b","components":[{"id":"ra","component":{"Text":{}}}]}}]`,
			"No component has id='rb'"},
		{"first_declaration_wins", `[
			{"beginRendering":{"surfaceId":"a","root":"r1"}},{"beginRendering":{"surfaceId":"a","root":"r2"}},
			{"surfaceUpdate":{"surfaceId":"a","components":[{"id":"r2","component":{"Text":{}}}]}}]`,
			"No component has id='r1'"},
		{"no_surface_id_takes_first_root", `[
			{"beginRendering":{"surfaceId":"b","root":"rb"}},{"beginRendering":{"surfaceId":"a","root":"ra"}},
			{"surfaceUpdate":{"components":[{"id":"ra","component":{"Text":{}}}]}}]`,
			"No component has id='rb'"},
		{"create_surface_root", `[
			{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},
			{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"x","component":"Text"}]}}]`,
			"No component has id='root'"},
		{"begin_rendering_read_before_create_surface", `[
			{"beginRendering":{"surfaceId":"s","root":"x"},"createSurface":{"surfaceId":"s"}},
			{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"x","component":{"Text":{}}}]}}]`,
			""},
		{"non_string_surface_id_never_matches", `[
			{"beginRendering":{"surfaceId":5,"root":"r"}},
			{"surfaceUpdate":{"surfaceId":"5","components":[{"id":"x","component":{"Text":{}}}]}}]`,
			""},
		{"other_surface_only_is_incremental", `[
			{"beginRendering":{"surfaceId":"a","root":"r"}},
			{"surfaceUpdate":{"surfaceId":"b","components":[{"id":"x","component":{"Text":{}}}]}}]`,
			""},
	}
	// Each payload also runs padded with messages that declare no root,
	// long enough for the lookups to go through the payload's root index.
	padding := strings.Repeat(`,{"version":"v0.9","deleteSurface":{"surfaceId":"zz"}}`, 10)
	for _, tt := range tests {
		for _, pad := range []string{"", padding} {
			name := tt.name
			if pad != "" {
				name += "/indexed"
			}
			t.Run(name, func(t *testing.T) {
				payload := strings.TrimSuffix(strings.TrimSpace(tt.payload), "]") + pad + "]"
				err := protocol.ValidateIntegrity(decode(t, payload), nil)
				if tt.wantMatch == "" {
					if err != nil {
						t.Fatalf("unexpected error: %v", err)
					}
					return
				}
				if !errors.Is(err, protocol.ErrMissingRoot) || !strings.Contains(err.Error(), tt.wantMatch) {
					t.Fatalf("err = %v, want ErrMissingRoot with %q", err, tt.wantMatch)
				}
			})
		}
	}
}

// A message with several kind keys reports the same surface every time:
// an integrity failure the surface of the update at fault, a schema
// failure the first kind key's in sorted order.
func TestValidationErrorSurfaceIsStable(t *testing.T) {
	strictS2C := map[string]any{"type": "object", "additionalProperties": false}
	cat, err := protocol.NewCatalog(protocol.V09, strictS2C, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		cat      *protocol.Catalog
		msg      string
		wantSurf string
	}{
		{"integrity_failure_names_the_update", nil, `{"createSurface":{"surfaceId":"a"},
			"updateComponents":{"surfaceId":"b","components":[{"id":"x","component":"Card","child":"x"}]}}`, "b"},
		{"schema_failure_names_first_kind", cat, `{"version":"v0.9","deleteSurface":{"surfaceId":"d"},
			"createSurface":{"surfaceId":"c"},"updateDataModel":{"surfaceId":"u"}}`, "c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msgs := decode(t, "["+tt.msg+"]")
			for range 30 {
				list := protocol.AsValidationErrors(tt.cat.Validate(msgs))
				if len(list) != 1 {
					t.Fatalf("want one error, got %v", list)
				}
				if got := list[0].SurfaceID; got != tt.wantSurf {
					t.Fatalf("SurfaceID = %q, want %q", got, tt.wantSurf)
				}
			}
		})
	}
}

// TestValidateJSONTrailingData checks that ValidateJSON rejects data after
// the payload's JSON value, naming its byte offset, and still accepts
// trailing whitespace.
func TestValidateJSONTrailingData(t *testing.T) {
	const msgs = `[{"version":"v0.9","deleteSurface":{"surfaceId":"s"}}]`
	tests := []struct {
		name    string
		payload string
		wantMsg string // "" means valid
	}{
		{name: "junk_word_after_array", payload: msgs + " xyz", wantMsg: `Invalid JSON: trailing data "xyz" after the JSON value at offset ` + strconv.Itoa(len(msgs)+1)},
		{name: "extra_closing_bracket", payload: msgs + "]", wantMsg: `Invalid JSON: trailing data "]" after the JSON value at offset ` + strconv.Itoa(len(msgs))},
		{name: "second_array", payload: msgs + "\n" + msgs, wantMsg: `after the JSON value at offset ` + strconv.Itoa(len(msgs)+1)},
		{name: "number_glued_to_letters", payload: `1x`, wantMsg: `Invalid JSON: trailing data "x" after the JSON value at offset 1`},
		{name: "truncated", payload: `[{`, wantMsg: `Invalid JSON: unexpected end of JSON input at offset 2`},
		{name: "trailing_whitespace", payload: msgs + " \n\t\r"},
	}
	cat := loadSimplified(t, "0.9")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := cat.ValidateJSON([]byte(tt.payload))
			if tt.wantMsg == "" {
				if err != nil {
					t.Fatalf("err = %v, want none", err)
				}
				return
			}
			list := protocol.AsValidationErrors(err)
			if len(list) != 1 || !errors.Is(err, protocol.ErrSchema) {
				t.Fatalf("err = %v, want one ErrSchema validation error", err)
			}
			if !strings.Contains(list[0].Message, tt.wantMsg) {
				t.Fatalf("Message = %q, want it to contain %q", list[0].Message, tt.wantMsg)
			}
		})
	}
}
