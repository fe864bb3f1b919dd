package protocol_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

func conformanceDir(t testing.TB) string {
	t.Helper()
	return shareddata.Path(t, "a2ui", "conformance")
}

func loadSimplified(t testing.TB, version string) *protocol.Catalog {
	t.Helper()
	spec := protocol.CatalogSpec{
		Version:           version,
		S2CSchema:         "test_data/simplified_s2c_v09.json",
		CatalogSchema:     "test_data/simplified_catalog_v09.json",
		CommonTypesSchema: "test_data/simplified_common_types_v09.json",
	}
	if strings.HasPrefix(version, "0.8") {
		spec = protocol.CatalogSpec{
			Version:       version,
			S2CSchema:     "test_data/simplified_s2c_v08.json",
			CatalogSchema: "test_data/simplified_catalog_v08.json",
		}
	}
	cat, err := protocol.LoadCatalog(spec, conformanceDir(t))
	if err != nil {
		t.Fatalf("LoadCatalog(%s): %v", version, err)
	}
	return cat
}

func TestCatalogAccessors(t *testing.T) {
	cat := loadSimplified(t, "0.9")
	if got := cat.CatalogID(); got != "test_catalog" {
		t.Errorf("CatalogID = %q", got)
	}
	if cat.Version() != protocol.V09 || cat.Family() != protocol.FamilyV09 {
		t.Errorf("Version = %q family %v", cat.Version(), cat.Family())
	}
	wantNames := []string{"AudioPlayer", "Card", "Column", "Container", "List", "Row", "Text"}
	if got := cat.ComponentNames(); !reflect.DeepEqual(got, wantNames) {
		t.Errorf("ComponentNames = %v, want %v", got, wantNames)
	}
	if !cat.HasComponent("Card") || cat.HasComponent("Nope") {
		t.Error("HasComponent wrong")
	}
	refTests := []struct {
		typ          string
		single, list []string
	}{
		{"Card", []string{"child"}, nil},
		{"Column", nil, []string{"children"}},
		{"Container", nil, []string{"children"}},
		{"List", nil, []string{"children"}}, // inside allOf
		{"Text", nil, nil},
		{"Unknown", nil, nil},
	}
	for _, tt := range refTests {
		single, list := cat.RefFields(tt.typ)
		if !reflect.DeepEqual(single, tt.single) || !reflect.DeepEqual(list, tt.list) {
			t.Errorf("RefFields(%s) = %v %v, want %v %v", tt.typ, single, list, tt.single, tt.list)
		}
	}
	reqTests := []struct {
		typ  string
		want []string
	}{
		{"Card", []string{"child"}},
		{"AudioPlayer", []string{"url"}}, // inside allOf, "component" excluded
		{"Text", []string{"text"}},
		{"Unknown", nil},
	}
	for _, tt := range reqTests {
		if got := cat.RequiredFields(tt.typ); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("RequiredFields(%s) = %v, want %v", tt.typ, got, tt.want)
		}
	}
	var nilCat *protocol.Catalog
	if s, l := nilCat.RefFields("Card"); s != nil || l != nil {
		t.Error("nil catalog RefFields not empty")
	}
}

// Every version of the v0.9 family takes the v0.9 rules, version preserved.
func TestCatalogVersionFamilies(t *testing.T) {
	valid := []any{map[string]any{"version": "v0.9", "createSurface": map[string]any{"surfaceId": "s", "catalogId": "c"}}}
	for _, v := range []string{"0.9", "0.9.1", "0.10", "1.0", "v0.9.1"} {
		t.Run(v, func(t *testing.T) {
			cat := loadSimplified(t, v)
			if cat.Family() != protocol.FamilyV09 {
				t.Fatalf("family = %v", cat.Family())
			}
			if string(cat.Version()) != strings.TrimPrefix(v, "v") {
				t.Fatalf("version = %q", cat.Version())
			}
			if err := cat.Validate(valid); err != nil {
				t.Fatalf("valid payload: %v", err)
			}
			bad := []any{map[string]any{"version": "v0.9", "updateComponents": map[string]any{"surfaceId": "s",
				"components": []any{map[string]any{"id": "root", "component": "Card", "child": "root"}}}}}
			if err := cat.Validate(bad); !errors.Is(err, protocol.ErrSelfReference) {
				t.Fatalf("self reference: got %v", err)
			}
		})
	}
	cat := loadSimplified(t, "0.8")
	if cat.Family() != protocol.FamilyV08 {
		t.Fatalf("0.8 family = %v", cat.Family())
	}
}

func TestLoadCatalogFile(t *testing.T) {
	dir := conformanceDir(t)
	s2c := filepath.Join(dir, "test_data", "simplified_s2c_v08.json")
	tmp := t.TempDir()
	files := map[string]string{
		"catalog.json": `{"version":"0.8","s2c_schema":` + quote(s2c) + `,"catalog_schema":{"catalogId":"c","components":{"Text":{"type":"object","properties":{"text":{"type":"string"}}}}}}`,
		"catalog.yaml": "version: \"0.8\"\ns2c_schema: " + quote(s2c) + "\ncatalog_schema:\n  catalogId: c\n  components:\n    Text:\n      type: object\n      properties:\n        text: {type: string}\n",
	}
	payload := []any{map[string]any{"surfaceUpdate": map[string]any{"surfaceId": "s", "components": []any{
		map[string]any{"id": "root", "component": map[string]any{"Text": map[string]any{"text": 5}}}}}}}
	for name, body := range files {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(tmp, name)
			if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			cat, err := protocol.LoadCatalogFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if cat.CatalogID() != "c" || !cat.HasComponent("Text") {
				t.Fatalf("catalog id %q components %v", cat.CatalogID(), cat.ComponentNames())
			}
			err = cat.Validate(payload)
			if !errors.Is(err, protocol.ErrSchema) || !strings.Contains(err.Error(), "5 is not of type 'string'") {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

func quote(s string) string {
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + `"`
}

func TestLoadCatalogErrors(t *testing.T) {
	dir := conformanceDir(t)
	tests := []struct {
		name string
		spec protocol.CatalogSpec
		want string
	}{
		{"bad_version", protocol.CatalogSpec{Version: "banana"}, "malformed version"},
		{"missing_file", protocol.CatalogSpec{Version: "0.9", S2CSchema: "test_data/nope.json"}, "nope.json"},
		{"empty_path", protocol.CatalogSpec{Version: "0.9", S2CSchema: map[string]any{}, CommonTypesSchema: ""}, "catalog common_types_schema: empty path"},
		{"blank_path", protocol.CatalogSpec{Version: "0.9", S2CSchema: " "}, "catalog s2c_schema: empty path"},
		{"schema_not_object", protocol.CatalogSpec{Version: "0.9", S2CSchema: []any{"x"}}, "schema must be a path or an object"},
		{"unresolvable_ref", protocol.CatalogSpec{Version: "0.9", S2CSchema: map[string]any{"$ref": "https://example.com/elsewhere.json"}}, "elsewhere.json"},
		{"invalid_schema", protocol.CatalogSpec{Version: "0.9", S2CSchema: map[string]any{"type": 12}}, "s2c_schema"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := protocol.LoadCatalog(tt.spec, dir)
			var ce *protocol.CatalogError
			if !errors.Is(err, protocol.ErrCatalog) || !errors.As(err, &ce) {
				t.Fatalf("err = %v, want a CatalogError", err)
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "protocol: ") {
				t.Fatalf("err = %q, want it to contain %q", err, tt.want)
			}
		})
	}
	if _, err := protocol.LoadCatalogFile(filepath.Join(t.TempDir(), "missing.yaml")); !errors.Is(err, protocol.ErrCatalog) {
		t.Fatalf("missing file: %v", err)
	}
}
