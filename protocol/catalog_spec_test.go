package protocol_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

func TestParseCatalogSpec(t *testing.T) {
	tests := []struct {
		name        string
		body        string
		wantErr     string // substring; "" means the block must parse
		wantVersion string
	}{
		{name: "all_four_keys_json", wantVersion: "0.9",
			body: `{"version":"0.9","s2c_schema":"s2c.json","catalog_schema":"cat.json","common_types_schema":"common.json"}`},
		{name: "common_types_optional_yaml", wantVersion: "0.8",
			body: "version: \"0.8\"\ns2c_schema: s2c.json\ncatalog_schema: {catalogId: c}\n"},
		{name: "v_prefix", wantVersion: "v0.9.1",
			body: "version: v0.9.1\ns2c_schema: s2c.json\ncatalog_schema: cat.json\n"},
		{name: "unquoted_yaml_number", wantVersion: "0.9",
			body: "version: 0.9\ns2c_schema: s2c.json\ncatalog_schema: cat.json\n"},
		{name: "version_0_10", wantVersion: "0.10",
			body: "version: \"0.10\"\ns2c_schema: s2c.json\ncatalog_schema: cat.json\n"},
		{name: "version_1_0", wantVersion: "1.0",
			body: "version: \"1.0\"\ns2c_schema: s2c.json\ncatalog_schema: cat.json\n"},
		{name: "misspelled_s2c_schema",
			body:    "version: \"0.9\"\ns2cschema: s2c.json\ncatalog_schema: cat.json\n",
			wantErr: `unknown key "s2cschema" (a catalog block has version, s2c_schema, catalog_schema and optionally common_types_schema)`},
		{name: "two_unknown_keys_sorted",
			body:    `{"version":"0.9","s2c_schema":"a","catalog_schema":"b","zeta":1,"alpha":2}`,
			wantErr: `unknown keys "alpha", "zeta"`},
		{name: "version_only",
			body:    "version: \"0.9\"\n",
			wantErr: "missing s2c_schema"},
		{name: "missing_catalog_schema",
			body:    "version: \"0.9\"\ns2c_schema: s2c.json\n",
			wantErr: "missing catalog_schema"},
		{name: "null_s2c_schema",
			body:    "version: \"0.9\"\ns2c_schema:\ncatalog_schema: cat.json\n",
			wantErr: "missing s2c_schema"},
		{name: "empty_catalog_schema_path",
			body:    "version: \"0.9\"\ns2c_schema: s2c.json\ncatalog_schema: \"\"\n",
			wantErr: "catalog_schema is empty"},
		{name: "empty_common_types_schema_path",
			body:    `{"version":"0.9","s2c_schema":"a","catalog_schema":"b","common_types_schema":" "}`,
			wantErr: "common_types_schema is empty"},
		{name: "missing_version",
			body:    "s2c_schema: s2c.json\ncatalog_schema: cat.json\n",
			wantErr: "missing version"},
		{name: "unknown_version_0_7",
			body:    "version: \"0.7\"\ns2c_schema: s2c.json\ncatalog_schema: cat.json\n",
			wantErr: `unsupported version "0.7" (supported: 0.8, 0.9, 0.9.1, 0.10, 1.0)`},
		{name: "unknown_version_2_0",
			body:    "version: \"2.0\"\ns2c_schema: s2c.json\ncatalog_schema: cat.json\n",
			wantErr: `unsupported version "2.0"`},
		{name: "unquoted_0_10_read_as_0_1",
			body:    "version: 0.10\ns2c_schema: s2c.json\ncatalog_schema: cat.json\n",
			wantErr: `unsupported version "0.1" (supported: 0.8, 0.9, 0.9.1, 0.10, 1.0); it was read as a number, so write it as a string`},
		{name: "malformed_version",
			body:    "version: banana\ns2c_schema: s2c.json\ncatalog_schema: cat.json\n",
			wantErr: `unsupported version "banana"`},
		{name: "version_not_string",
			body:    "version: [0, 9]\ns2c_schema: s2c.json\ncatalog_schema: cat.json\n",
			wantErr: "version must be a string, got array"},
		{name: "not_an_object",
			body:    "[1, 2]",
			wantErr: "catalog block must be an object, got array"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec, err := protocol.ParseCatalogSpec([]byte(tt.body))
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("err = %v, want none", err)
				}
				if spec.Version != tt.wantVersion {
					t.Fatalf("Version = %q, want %q", spec.Version, tt.wantVersion)
				}
				if spec.S2CSchema == nil || spec.CatalogSchema == nil {
					t.Fatalf("schemas lost: %+v", spec)
				}
				return
			}
			var ce *protocol.CatalogError
			if !errors.Is(err, protocol.ErrCatalog) || !errors.As(err, &ce) {
				t.Fatalf("err = %v, want a *CatalogError", err)
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.wantErr) {
				t.Fatalf("err = %q, want it to contain %q", msg, tt.wantErr)
			}
			if !strings.HasPrefix(msg, "protocol: ") || strings.Count(msg, "protocol: ") != 1 {
				t.Fatalf("err = %q, want exactly one leading \"protocol: \" prefix", msg)
			}
		})
	}
}

func TestLoadCatalogFileStrict(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		wantErr string
	}{
		{"misspelled_key_names_file_and_key", "version: \"0.9\"\ns2cschema: x.json\ncatalog_schema: y.json\n", `unknown key "s2cschema"`},
		{"version_only_names_missing_key", "version: \"0.9\"\n", "missing s2c_schema"},
		{"unknown_version_names_supported", "version: \"0.7\"\ns2c_schema: x.json\ncatalog_schema: y.json\n", "supported: 0.8, 0.9, 0.9.1, 0.10, 1.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeTempFile(t, "cat.yaml", tt.body)
			_, err := protocol.LoadCatalogFile(p)
			if !errors.Is(err, protocol.ErrCatalog) {
				t.Fatalf("err = %v, want ErrCatalog", err)
			}
			want := "protocol: catalog " + p + ": "
			if msg := err.Error(); !strings.HasPrefix(msg, want) || !strings.Contains(msg, tt.wantErr) {
				t.Fatalf("err = %q, want prefix %q and %q", msg, want, tt.wantErr)
			}
		})
	}
}

// TestSuiteCatalogBlocksLoad checks that the strict checks accept every
// catalog block of the suites whose cases validate (streaming_parser and
// validator), and that each loads.
func TestSuiteCatalogBlocksLoad(t *testing.T) {
	dir := conformanceDir(t)
	for _, suite := range []string{"streaming_parser.yaml", "validator.yaml"} {
		t.Run(suite, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, "suites", suite))
			if err != nil {
				t.Fatal(err)
			}
			var cases []struct {
				Name    string `yaml:"name"`
				Catalog any    `yaml:"catalog"`
			}
			if err := yaml.Unmarshal(data, &cases); err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, c := range cases {
				if c.Catalog == nil {
					continue
				}
				n++
				spec, err := protocol.CatalogSpecFromValue(c.Catalog)
				if err != nil {
					t.Errorf("%s: %v", c.Name, err)
					continue
				}
				if _, err := protocol.LoadCatalog(spec, dir); err != nil {
					t.Errorf("%s: %v", c.Name, err)
				}
			}
			if n == 0 {
				t.Fatalf("no catalog blocks in %s", suite)
			}
		})
	}
}

// TestCatalogFileStrictJSON checks that a catalog file whose content starts
// with '{' or '[' (after whitespace and a UTF-8 BOM) is read as JSON only:
// trailing data after the value is an error naming the file and the byte
// offset where the junk starts, where a YAML fallback would accept it. A
// file starting with anything else is still read as YAML.
func TestCatalogFileStrictJSON(t *testing.T) {
	const block = `{"version":"0.9","s2c_schema":{},"catalog_schema":{"catalogId":"c"}}`
	const bom = "\ufeff"
	tests := []struct {
		name       string
		body       string
		wantOffset int    // byte offset of the error in the file; -1: must load
		wantReason string // substring of the error after the offset
	}{
		{name: "junk_word_after_object", body: block + " xyz", wantOffset: len(block) + 1, wantReason: `trailing data "xyz" after the JSON value`},
		{name: "extra_closing_brace", body: block + "}", wantOffset: len(block), wantReason: `trailing data "}" after the JSON value`},
		{name: "second_object_on_next_line", body: block + "\n{}\n", wantOffset: len(block) + 1, wantReason: `trailing data "{}\n" after the JSON value`},
		{name: "junk_after_leading_whitespace", body: "\n\t " + block + " ]", wantOffset: 3 + len(block) + 1, wantReason: `trailing data "]"`},
		{name: "junk_after_bom", body: bom + block + "x", wantOffset: len(bom) + len(block), wantReason: `trailing data "x"`},
		{name: "long_junk_is_shortened", body: block + strings.Repeat("z", 100), wantOffset: len(block), wantReason: `trailing data "` + strings.Repeat("z", 16) + `"... after`},
		{name: "long_multibyte_junk_cut_at_character", body: block + strings.Repeat("日", 10), wantOffset: len(block), wantReason: `trailing data "日日日日日"... after`},
		{name: "array_with_junk", body: `[1] ]`, wantOffset: 4, wantReason: `trailing data "]"`},
		{name: "yaml_flow_mapping_is_read_as_json", body: `{version: "0.9"}`, wantOffset: 1, wantReason: "invalid character 'v'"},
		{name: "truncated_json", body: `{"version":"0.9"`, wantOffset: 16, wantReason: "unexpected end of JSON input"},
		{name: "clean_json", body: block, wantOffset: -1},
		{name: "json_with_trailing_whitespace", body: block + " \r\n\t", wantOffset: -1},
		{name: "json_after_bom", body: bom + "\n" + block, wantOffset: -1},
		{name: "yaml_block", body: "version: \"0.9\"\ns2c_schema: {}\ncatalog_schema: {catalogId: c}\n", wantOffset: -1},
		{name: "yaml_after_bom", body: bom + "version: \"0.9\"\ns2c_schema: {}\ncatalog_schema: {catalogId: c}\n", wantOffset: -1},
		{name: "yaml_document_marker", body: "---\nversion: \"0.9\"\ns2c_schema: {}\ncatalog_schema: {catalogId: c}\n", wantOffset: -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeTempFile(t, "cat.json", tt.body)
			cat, err := protocol.LoadCatalogFile(p)
			checkLoadResult(t, cat, err, "protocol: catalog "+p+": ", tt.wantOffset, tt.wantReason)
		})
	}
}

// TestCatalogSchemaFileStrictJSON checks the same for the schema files the
// path fields of a catalog block name.
func TestCatalogSchemaFileStrictJSON(t *testing.T) {
	tests := []struct {
		name       string
		field      string
		body       string
		wantOffset int // -1: must load
		wantReason string
	}{
		{name: "s2c_schema_junk_word", field: "s2c_schema", body: `{"type":"array"} xyz`, wantOffset: 17, wantReason: `trailing data "xyz"`},
		{name: "catalog_schema_extra_brace", field: "catalog_schema", body: `{"catalogId":"c"}}`, wantOffset: 17, wantReason: `trailing data "}"`},
		{name: "common_types_schema_junk", field: "common_types_schema", body: "\ufeff{\"$defs\":{}}\n;", wantOffset: 16, wantReason: `trailing data ";"`},
		{name: "s2c_schema_clean_json", field: "s2c_schema", body: `{"type":"array"}`, wantOffset: -1},
		{name: "catalog_schema_yaml", field: "catalog_schema", body: "catalogId: c\ncomponents: {}\n", wantOffset: -1},
		{name: "common_types_schema_yaml", field: "common_types_schema", body: "$defs: {}\n", wantOffset: -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			schemaPath := writeTempFile(t, "schema.json", tt.body)
			dir := filepath.Dir(schemaPath)
			spec := protocol.CatalogSpec{
				Version:           "0.9",
				S2CSchema:         map[string]any{},
				CatalogSchema:     map[string]any{"catalogId": "c"},
				CommonTypesSchema: map[string]any{},
			}
			switch tt.field {
			case "s2c_schema":
				spec.S2CSchema = "schema.json"
			case "catalog_schema":
				spec.CatalogSchema = "schema.json"
			case "common_types_schema":
				spec.CommonTypesSchema = "schema.json"
			default:
				t.Fatalf("unknown field %q", tt.field)
			}
			cat, err := protocol.LoadCatalog(spec, dir)
			prefix := "protocol: catalog " + tt.field + ": " + schemaPath + ": "
			checkLoadResult(t, cat, err, prefix, tt.wantOffset, tt.wantReason)
		})
	}
}

// writeTempFile writes body to a file name in a new temporary directory
// and returns its path.
func writeTempFile(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkLoadResult checks a catalog load: with offset < 0 it must have
// loaded catalog "c"; otherwise it must have failed as checkJSONSyntaxError
// checks.
func checkLoadResult(t *testing.T, cat *protocol.Catalog, err error, prefix string, offset int, reason string) {
	t.Helper()
	if offset >= 0 {
		checkJSONSyntaxError(t, err, prefix, offset, reason)
		return
	}
	if err != nil {
		t.Fatalf("err = %v, want none", err)
	}
	if cat.CatalogID() != "c" {
		t.Fatalf("CatalogID = %q, want c", cat.CatalogID())
	}
}

// checkJSONSyntaxError checks that err is a *CatalogError wrapping a
// *JSONSyntaxError at offset, whose text starts with prefix, names the
// offset and contains reason, with one "protocol: " prefix only.
func checkJSONSyntaxError(t *testing.T, err error, prefix string, offset int, reason string) {
	t.Helper()
	var ce *protocol.CatalogError
	if !errors.Is(err, protocol.ErrCatalog) || !errors.As(err, &ce) {
		t.Fatalf("err = %v, want a *CatalogError", err)
	}
	var se *protocol.JSONSyntaxError
	if !errors.Is(err, protocol.ErrJSONSyntax) || !errors.As(err, &se) {
		t.Fatalf("err = %v, want a *JSONSyntaxError inside", err)
	}
	if se.Offset != offset {
		t.Fatalf("Offset = %d, want %d (err %v)", se.Offset, offset, err)
	}
	msg := err.Error()
	want := prefix + "invalid JSON at offset " + strconv.Itoa(offset) + ": "
	if !strings.HasPrefix(msg, want) || !strings.Contains(msg, reason) {
		t.Fatalf("err = %q, want prefix %q and %q", msg, want, reason)
	}
	if strings.Count(msg, "protocol: ") != 1 {
		t.Fatalf("err = %q, want exactly one \"protocol: \"", msg)
	}
}
