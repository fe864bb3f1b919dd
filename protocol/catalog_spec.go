package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// CatalogSpec mirrors the "catalog" block of a conformance suite case (and
// the file given to `a2ui-stream --catalog FILE`). Each schema is either a
// string, a path to a JSON (or YAML) file resolved against the base
// directory given to LoadCatalog, or an inline object. A schema file is
// told apart as ParseCatalogSpec tells a block: JSON, read strictly, when
// it starts with '{' or '[', YAML otherwise.
//
// A block read by ParseCatalogSpec or CatalogSpecFromValue (a --catalog
// file, a suite case) must have Version, S2CSchema and CatalogSchema, and
// no other keys than the four below; a CatalogSpec built in Go and given to
// LoadCatalog may leave the schemas absent, with the meanings below.
type CatalogSpec struct {
	// Version is the protocol version the catalog follows ("0.8", "0.9",
	// "0.9.1", "0.10", "1.0"; a leading "v" is accepted).
	Version string `json:"version" yaml:"version"`
	// S2CSchema is the server-to-client message schema. Absent means any
	// message is accepted.
	S2CSchema any `json:"s2c_schema,omitempty" yaml:"s2c_schema,omitempty"`
	// CatalogSchema is the component catalog (catalogId, components, $defs,
	// styles). Absent means an empty catalog.
	CatalogSchema any `json:"catalog_schema,omitempty" yaml:"catalog_schema,omitempty"`
	// CommonTypesSchema is the shared type definitions referenced as
	// "common_types.json". Absent means {}.
	CommonTypesSchema any `json:"common_types_schema,omitempty" yaml:"common_types_schema,omitempty"`
}

// ParseCatalogSpec decodes a catalog block from JSON or YAML. A block whose
// first byte after an optional UTF-8 BOM and whitespace is '{' or '[' is
// read as JSON only, strictly: a syntax error or anything but whitespace
// after the value is a *JSONSyntaxError (errors.Is(err, ErrJSONSyntax))
// naming the byte offset at fault. Any other block is read as YAML.
func ParseCatalogSpec(data []byte) (CatalogSpec, error) {
	raw, err := decodeDocument(data)
	if err != nil {
		return CatalogSpec{}, &CatalogError{Err: err}
	}
	return CatalogSpecFromValue(raw)
}

// CatalogSpecFromValue builds a CatalogSpec from a decoded catalog block
// (e.g. one read from a conformance suite). Values are normalised to JSON
// types (numbers as json.Number).
//
// The block is checked strictly, so that a mistyped file fails instead of
// silently validating nothing: every key must be one of version,
// s2c_schema, catalog_schema and common_types_schema; version, s2c_schema
// and catalog_schema are required (common_types_schema is optional: v0.8
// has no common types, and a v0.9 schema that refers to missing common
// types fails to compile); and version must be a protocol version this
// package knows: 0.8, 0.9, 0.9.1, 0.10 or 1.0 (a leading "v" is accepted).
// Errors are *CatalogError (errors.Is(err, ErrCatalog)).
func CatalogSpecFromValue(v any) (CatalogSpec, error) {
	v, err := toJSONValue(v)
	if err != nil {
		return CatalogSpec{}, &CatalogError{Err: err}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return CatalogSpec{}, &CatalogError{Err: fmt.Errorf("catalog block must be an object, got %s", jsonTypeName(v))}
	}
	if err := checkSpecKeys(m); err != nil {
		return CatalogSpec{}, &CatalogError{Err: err}
	}
	ver, err := specVersion(m["version"])
	if err != nil {
		return CatalogSpec{}, &CatalogError{Err: err}
	}
	return CatalogSpec{
		Version:           ver,
		S2CSchema:         m["s2c_schema"],
		CatalogSchema:     m["catalog_schema"],
		CommonTypesSchema: m["common_types_schema"],
	}, nil
}

// catalogSpecKeys lists the keys of a catalog block, in documentation
// order, and whether each is required.
var catalogSpecKeys = []struct {
	name     string
	required bool
}{
	{"version", true},
	{"s2c_schema", true},
	{"catalog_schema", true},
	{"common_types_schema", false},
}

// catalogVersions lists the protocol versions a catalog block may name,
// oldest first: the known ones.
var catalogVersions = KnownVersions()

// checkSpecKeys rejects unknown keys (naming them) and missing or null
// required ones.
func checkSpecKeys(m map[string]any) error {
	var unknown []string
	for k := range m {
		known := false
		for _, sk := range catalogSpecKeys {
			if k == sk.name {
				known = true
				break
			}
		}
		if !known {
			unknown = append(unknown, strconv.Quote(k))
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		word := "key"
		if len(unknown) > 1 {
			word = "keys"
		}
		return fmt.Errorf("unknown %s %s (a catalog block has %s)", word, strings.Join(unknown, ", "), specKeyList())
	}
	for _, sk := range catalogSpecKeys {
		switch x := m[sk.name].(type) {
		case nil:
			if sk.required {
				return fmt.Errorf("missing %s (a catalog block has %s)", sk.name, specKeyList())
			}
		case string:
			if strings.TrimSpace(x) == "" {
				return fmt.Errorf("%s is empty", sk.name)
			}
		}
	}
	return nil
}

// specKeyList renders the catalog block's keys for error messages:
// "version, s2c_schema, catalog_schema and optionally common_types_schema".
func specKeyList() string {
	var req, opt []string
	for _, sk := range catalogSpecKeys {
		if sk.required {
			req = append(req, sk.name)
		} else {
			opt = append(opt, sk.name)
		}
	}
	s := strings.Join(req, ", ")
	if len(opt) > 0 {
		s += " and optionally " + strings.Join(opt, ", ")
	}
	return s
}

// specVersion checks a catalog block's version: a string (or a number, as
// YAML reads an unquoted 0.9) naming one of catalogVersions.
func specVersion(v any) (string, error) {
	var s string
	number := false
	switch x := v.(type) {
	case string:
		s = x
	case json.Number:
		s, number = x.String(), true
	default:
		return "", fmt.Errorf("version must be a string, got %s", jsonTypeName(v))
	}
	if ver, err := ParseVersion(s); err == nil {
		for _, known := range catalogVersions {
			if ver.Compare(known) == 0 {
				return s, nil
			}
		}
	}
	hint := ""
	if number {
		hint = `; it was read as a number, so write it as a string, e.g. "0.10"`
	}
	return "", fmt.Errorf("unsupported version %q (supported: %s)%s", s, versionList(), hint)
}

// versionList renders catalogVersions for error messages.
func versionList() string {
	parts := make([]string, len(catalogVersions))
	for i, v := range catalogVersions {
		parts[i] = string(v)
	}
	return strings.Join(parts, ", ")
}

// LoadCatalogFile reads a catalog block (JSON or YAML, as ParseCatalogSpec
// reads it) from path and loads it. Schema paths inside it are relative to
// the current directory, as with `a2ui-stream --catalog FILE`.
func LoadCatalogFile(path string) (*Catalog, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &CatalogError{Source: path, Err: err}
	}
	spec, err := ParseCatalogSpec(data)
	if err != nil {
		var ce *CatalogError
		if errors.As(err, &ce) && ce.Source == "" {
			ce.Source = path
		}
		return nil, err
	}
	return LoadCatalog(spec, ".")
}

// resolveSchema turns a spec field into a schema object: nil stays nil, a
// string is read from baseDir, an object is used as is.
func resolveSchema(field string, v any, baseDir string) (map[string]any, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		p := x
		if strings.TrimSpace(p) == "" {
			return nil, &CatalogError{Source: field, Err: errors.New("empty path")}
		}
		if !filepath.IsAbs(p) && baseDir != "" {
			p = filepath.Join(baseDir, p)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, &CatalogError{Source: field, Err: err}
		}
		doc, err := decodeDocument(data)
		if err != nil {
			return nil, &CatalogError{Source: field, Err: &fileError{path: p, err: err}}
		}
		m, ok := doc.(map[string]any)
		if !ok {
			return nil, &CatalogError{Source: field, Err: fmt.Errorf("%s: schema must be an object", p)}
		}
		return m, nil
	default:
		doc, err := toJSONValue(v)
		if err != nil {
			return nil, &CatalogError{Source: field, Err: err}
		}
		m, ok := doc.(map[string]any)
		if !ok {
			return nil, &CatalogError{Source: field, Err: fmt.Errorf("schema must be a path or an object, got %s", jsonTypeName(doc))}
		}
		return m, nil
	}
}

// toJSONValue normalises a decoded JSON or YAML value to the JSON data
// model used throughout this package: nil, bool, string, json.Number,
// []any and map[string]any.
func toJSONValue(v any) (any, error) {
	switch x := v.(type) {
	case nil, bool, string, json.Number:
		return x, nil
	case int:
		return json.Number(strconv.Itoa(x)), nil
	case int64:
		return json.Number(strconv.FormatInt(x, 10)), nil
	case uint64:
		return json.Number(strconv.FormatUint(x, 10)), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("number %v is not valid JSON", x)
		}
		return json.Number(strconv.FormatFloat(x, 'g', -1, 64)), nil
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			n, err := toJSONValue(item)
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, item := range x {
			n, err := toJSONValue(item)
			if err != nil {
				return nil, err
			}
			out[k] = n
		}
		return out, nil
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, item := range x {
			n, err := toJSONValue(item)
			if err != nil {
				return nil, err
			}
			out[fmt.Sprint(k)] = n
		}
		return out, nil
	default:
		return nil, fmt.Errorf("unsupported value of type %T", v)
	}
}

// jsonTypeName names the JSON type of a normalised value.
func jsonTypeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number, float64, int, int64:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}
