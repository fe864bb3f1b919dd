package protocol

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// BaseSchemaURL is the base URI given to a server-to-client schema that has
// no "$id"; "catalog.json" and "common_types.json" resolve next to it.
const BaseSchemaURL = "https://a2ui.org/"

// payloadSchemaURL names the generated wrapper schema (an array of
// messages). The host is reserved, so it never collides with a real schema.
const payloadSchemaURL = "https://a2ui-stream.invalid/payload.json"

// Catalog is a loaded, compiled component catalog: the protocol version it
// follows, its message and component schemas, and what the topology checks
// need to know about its components (reference and required fields).
//
// A Catalog is immutable after loading and safe for concurrent use.
type Catalog struct {
	version   Version
	family    Family
	catalogID string

	s2c         map[string]any
	catalog     map[string]any
	commonTypes map[string]any

	// schema validates a JSON array of messages, with the catalog's
	// errors; compiled over reportOneOfs's rewrite of the catalog, it
	// checks a discriminated oneOf's alternatives only where the
	// dispatch fails.
	schema *jsonschema.Schema
	// quick decides validity only, much faster: it is compiled over a
	// catalog whose discriminated oneOfs dispatch on "component"
	// (dispatchOneOfs) and is wrapped in not/not so that no error trees are
	// built. Valid payloads, the common case, take only this pass; invalid
	// ones are re-validated with schema for the report (unless
	// schemaDispatches: then schema alone decides).
	quick *jsonschema.Schema
	// schemaDispatches reports that schema was compiled over
	// reportOneOfs's rewrite: on a valid payload it then costs about what
	// quick does (the components are checked by their dispatch, without
	// error trees), so ValidateSchema runs it alone, and an invalid
	// payload is validated once instead of twice.
	schemaDispatches bool
	// fast is the quick catalog compiled for validity checks on a
	// message's bytes (see ValidMessageJSON); nil when the schemas use a
	// keyword it does not implement.
	fast *fastSchema
	// typeSchemaURLs holds, when the catalog's anyComponent was
	// synthesised (withAnyComponent), the locations of its component-type
	// schema; an enum failure there reads "Unknown component type: X".
	typeSchemaURLs map[string]bool

	names    []string
	refs     map[string]refFields
	required map[string][]string

	// plans caches the plans of one-component messages by wrapper (see
	// componentPlan).
	plans wrapperCache[componentPlan]
	// lists caches the plans of messages of components known valid alone,
	// by wrapper (see listPlan).
	lists wrapperCache[listPlan]
}

type refFields struct{ single, list []string }

// LoadCatalog loads the schemas a spec names (paths relative to baseDir;
// the conformance suites use a2ui/conformance/) and compiles the combined
// payload schema:
//
//   - v0.8: the catalog's components (and styles) are injected into the
//     server-to-client schema wherever it leaves "component" (or "styles")
//     open with additionalProperties: true, and the result is closed.
//   - v0.9 family (0.9, 0.9.1, 0.10, 1.0, ...): the server-to-client schema
//     refers to "catalog.json" and "common_types.json"; those names resolve,
//     next to the schema's $id, to the catalog and common types given
//     (the catalog also answers to its catalogId when that is a URL).
//     A catalog without "$defs.anyComponent" gets one synthesised that
//     checks each component against "#/components/<its type>" and reports
//     an unknown type as "Unknown component type: X" (see withAnyComponent).
//
// Errors are *CatalogError (errors.Is(err, ErrCatalog)).
func LoadCatalog(spec CatalogSpec, baseDir string) (*Catalog, error) {
	v, err := ParseVersion(spec.Version)
	if err != nil {
		return nil, &CatalogError{Source: "version", Err: err}
	}
	s2c, err := resolveSchema("s2c_schema", spec.S2CSchema, baseDir)
	if err != nil {
		return nil, err
	}
	cat, err := resolveSchema("catalog_schema", spec.CatalogSchema, baseDir)
	if err != nil {
		return nil, err
	}
	common, err := resolveSchema("common_types_schema", spec.CommonTypesSchema, baseDir)
	if err != nil {
		return nil, err
	}
	return NewCatalog(v, s2c, cat, common)
}

// NewCatalog builds a Catalog from already-decoded schemas (JSON data model:
// map[string]any, []any, string, bool, nil and json.Number or float64). Nil
// schemas mean: s2c accepts any message, an empty catalog, no common types.
// The maps are deep-copied; the caller may reuse them.
func NewCatalog(version Version, s2c, catalog, commonTypes map[string]any) (*Catalog, error) {
	fam := version.Family()
	if fam == FamilyUnknown {
		return nil, &CatalogError{Source: "version", Err: fmt.Errorf("unknown protocol version %q", version)}
	}
	c := &Catalog{version: version, family: fam}
	var err error
	if c.s2c, err = copyObject(s2c); err != nil {
		return nil, &CatalogError{Source: "s2c_schema", Err: err}
	}
	if c.catalog, err = copyObject(catalog); err != nil {
		return nil, &CatalogError{Source: "catalog_schema", Err: err}
	}
	if c.commonTypes, err = copyObject(commonTypes); err != nil {
		return nil, &CatalogError{Source: "common_types_schema", Err: err}
	}
	if id, ok := c.catalog["catalogId"].(string); ok {
		c.catalogID = id
	}
	if err := c.compile(); err != nil {
		return nil, err
	}
	c.indexComponents()
	return c, nil
}

// Version is the protocol version the catalog follows, as given.
func (c *Catalog) Version() Version { return c.version }

// Family is the rule family of the catalog's version.
func (c *Catalog) Family() Family { return c.family }

// CatalogID is the catalog's "catalogId", or "" when it has none.
func (c *Catalog) CatalogID() string { return c.catalogID }

// ComponentNames lists the catalog's component types, sorted. The slice is
// a copy.
func (c *Catalog) ComponentNames() []string {
	return append([]string(nil), c.names...)
}

// HasComponent reports whether the catalog defines a component type.
func (c *Catalog) HasComponent(name string) bool {
	i := sort.SearchStrings(c.names, name)
	return i < len(c.names) && c.names[i] == name
}

// RefFields reports which properties of a component type hold component
// ids: single (one id, e.g. "child") and list (e.g. "children"), sorted.
// Unknown types give nil, nil. It has the RefFieldsFunc signature, so
// c.RefFields can be passed to AnalyzeTopology. The slices must not be
// modified. A nil *Catalog returns nil, nil.
func (c *Catalog) RefFields(componentType string) (single, list []string) {
	if c == nil {
		return nil, nil
	}
	r := c.refs[componentType]
	return r.single, r.list
}

// RequiredFields lists the required properties of a component type (other
// than "component"), sorted; nil for unknown types or a nil *Catalog. The
// slice must not be modified.
func (c *Catalog) RequiredFields(componentType string) []string {
	if c == nil {
		return nil
	}
	return c.required[componentType]
}

// compile builds c.schema (the payload schema, used for error reports;
// its discriminated oneOfs try their dispatch first, see reportOneOfs)
// and c.quick (a validity-only twin; see dispatchOneOfs).
func (c *Catalog) compile() error {
	cat := c.catalog
	if c.family == FamilyV09 {
		if cat == nil {
			cat = map[string]any{}
		}
		var synthesised bool
		if cat, synthesised = withAnyComponent(cat); synthesised {
			c.typeSchemaURLs = map[string]bool{}
			for _, u := range c.catalogURLs() {
				c.typeSchemaURLs[u+componentTypePointer] = true
			}
		}
	}
	// The report schema fails exactly where the catalog does, with the
	// same errors, at a fraction of the cost (see reportOneOfs). Should it
	// not compile, the catalog as given decides (and names the error).
	var sch *jsonschema.Schema
	var err error
	if c.family == FamilyV09 {
		if reportCat, changed := reportOneOfs(cat); changed {
			sch, _ = c.compileWith(reportCat, false)
			c.schemaDispatches = sch != nil
		}
	}
	if sch == nil {
		if sch, err = c.compileWith(cat, false); err != nil {
			return err
		}
	}
	c.schema = sch
	quickCat := cat
	if c.family == FamilyV09 {
		quickCat = dispatchOneOfs(cat)
	}
	if c.quick, err = c.compileWith(quickCat, true); err != nil {
		return err
	}
	return nil
}

// compileWith compiles the payload schema over the given catalog document.
// With quick, the result only decides validity: it is wrapped in
// not/not, which makes the validator skip building error trees.
func (c *Catalog) compileWith(catalog map[string]any, quick bool) (*jsonschema.Schema, error) {
	s2c := c.s2c
	if s2c == nil {
		s2c = map[string]any{}
	}
	common := c.commonTypes
	if common == nil {
		common = map[string]any{}
	}
	base := c.schemaBase()
	commonURL := siblingURL(base, "common_types.json")
	comp := jsonschema.NewCompiler()
	comp.DefaultDraft(jsonschema.Draft2020)
	comp.UseLoader(noLoader{})
	comp.UseRegexpEngine(func(s string) (jsonschema.Regexp, error) { return schemaRegexp(s) })

	added := map[string]string{} // url -> spec field, to name a failing schema
	var resources []fastResource
	add := func(url string, doc map[string]any, what string) error {
		key := strings.TrimSuffix(url, "#")
		if _, dup := added[key]; dup {
			return nil
		}
		added[key] = what
		if what != "payload" {
			resources = append(resources, fastResource{url: url, doc: doc})
		}
		if err := comp.AddResource(url, doc); err != nil {
			return &CatalogError{Source: what, Err: err}
		}
		return nil
	}

	if c.family == FamilyV08 {
		src := map[string]any{}
		if comps, ok := catalog["components"]; ok {
			src["component"] = comps
		}
		if styles, ok := catalog["styles"]; ok {
			src["styles"] = styles
		}
		s2c = injectProperties(s2c, src).(map[string]any)
	}
	s2cURL := base
	if err := add(s2cURL, s2c, "s2c_schema"); err != nil {
		return nil, err
	}
	if err := add(commonURL, common, "common_types_schema"); err != nil { // add skips a URL it has
		return nil, err
	}
	if c.family == FamilyV09 {
		cat := catalog
		if cat == nil {
			cat = map[string]any{}
		}
		// A catalog that refers to "common_types.json" beside itself (as
		// the v1.0 basic catalog does) finds the common types there too.
		for _, base := range []any{cat["$id"], c.catalogID} {
			if s, ok := base.(string); ok && isAbsURL(s) {
				if err := add(siblingURL(s, "common_types.json"), common, "common_types_schema"); err != nil {
					return nil, err
				}
			}
		}
		for _, u := range c.catalogURLs() {
			if err := add(u, cat, "catalog_schema"); err != nil {
				return nil, err
			}
		}
	}
	var wrapper map[string]any = map[string]any{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"type":    "array",
		"items":   map[string]any{"$ref": s2cURL},
	}
	if quick {
		wrapper = map[string]any{
			"$schema": "https://json-schema.org/draft/2020-12/schema",
			"not":     map[string]any{"not": wrapper},
		}
	}
	if err := add(payloadSchemaURL, wrapper, "payload"); err != nil {
		return nil, err
	}
	sch, err := comp.Compile(payloadSchemaURL)
	if err != nil {
		source := "schema"
		msg := err.Error()
		best := -1
		for url, what := range added {
			if i := strings.Index(msg, strconv.Quote(url+"#")); i >= 0 && (best < 0 || i < best) {
				best, source = i, what
			}
		}
		return nil, &CatalogError{Source: source, Err: err}
	}
	if quick {
		// nil when the schemas use something the fast validator lacks.
		c.fast, _ = compileFastSchema(s2cURL, resources)
	}
	return sch, nil
}

// schemaBase is the base URI of the server-to-client schema: its "$id"
// when that is an absolute URL, else BaseSchemaURL.
func (c *Catalog) schemaBase() string {
	if id, ok := c.s2c["$id"].(string); ok && isAbsURL(id) {
		return id
	}
	return BaseSchemaURL
}

// catalogURLs lists the URLs a v0.9-family catalog document answers to:
// "catalog.json" next to the server-to-client schema, and its catalogId
// when that is an absolute URL.
func (c *Catalog) catalogURLs() []string {
	urls := []string{siblingURL(c.schemaBase(), "catalog.json")}
	if isAbsURL(c.catalogID) {
		urls = append(urls, c.catalogID)
	}
	return urls
}

// injectProperties returns a copy of schema in which every object-valued
// property named k (k in src) that declares additionalProperties: true gets
// src[k]'s entries merged into its "properties" and additionalProperties
// turned to false. This is how a v0.8 catalog's components are spliced into
// the generic server-to-client schema.
func injectProperties(schema any, src map[string]any) any {
	switch x := schema.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, v := range x {
			node, isObj := v.(map[string]any)
			extra, has := src[k]
			if isObj && node["additionalProperties"] == true && has {
				n := make(map[string]any, len(node)+1)
				for nk, nv := range node {
					n[nk] = nv
				}
				n["additionalProperties"] = false
				props := map[string]any{}
				if old, ok := node["properties"].(map[string]any); ok {
					for pk, pv := range old {
						props[pk] = pv
					}
				}
				if em, ok := extra.(map[string]any); ok {
					for pk, pv := range em {
						props[pk] = pv
					}
				}
				n["properties"] = props
				out[k] = n
				continue
			}
			out[k] = injectProperties(v, src)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, v := range x {
			out[i] = injectProperties(v, src)
		}
		return out
	}
	return schema
}

// siblingURL replaces the last path segment of base with name.
func siblingURL(base, name string) string {
	if i := strings.LastIndexByte(base, '/'); i >= 0 {
		return base[:i+1] + name
	}
	return name
}

func isAbsURL(s string) bool {
	i := strings.Index(s, "://")
	if i <= 0 {
		return false
	}
	for _, r := range s[:i] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}

// noLoader refuses every external reference: a catalog must be
// self-contained (no network or file access while compiling).
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("unresolved schema reference %s (only s2c_schema, catalog_schema and common_types_schema are available)", url)
}

func copyObject(m map[string]any) (map[string]any, error) {
	if m == nil {
		return nil, nil
	}
	v, err := toJSONValue(m)
	if err != nil {
		return nil, err
	}
	return v.(map[string]any), nil
}
