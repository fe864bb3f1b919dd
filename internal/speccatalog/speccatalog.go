// Package speccatalog loads the A2UI specification's catalogs from the
// shared reference data (see internal/shareddata), for tests and
// benchmarks: the v0.9 basic catalog and the v0.8 standard catalog. Where
// the data is absent the test is skipped (failed under CI), as
// shareddata.Path does. Safe for concurrent use.
package speccatalog

import (
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// BasicV09Spec is the specification's v0.9 basic catalog (its
// anyComponent is a oneOf over its eighteen component types), with the
// v0.9 server-to-client schema and common types.
func BasicV09Spec(tb testing.TB) protocol.CatalogSpec {
	tb.Helper()
	dir := shareddata.Path(tb, "a2ui", "specification", "v0_9")
	return protocol.CatalogSpec{
		Version:           "0.9",
		S2CSchema:         dir + "/json/server_to_client.json",
		CatalogSchema:     dir + "/catalogs/basic/catalog.json",
		CommonTypesSchema: dir + "/json/common_types.json",
	}
}

// StandardV08Spec is the specification's v0.8 standard catalog, with the
// v0.8 server-to-client schema.
func StandardV08Spec(tb testing.TB) protocol.CatalogSpec {
	tb.Helper()
	dir := shareddata.Path(tb, "a2ui", "specification", "v0_8", "json")
	return protocol.CatalogSpec{
		Version:       "0.8",
		S2CSchema:     dir + "/server_to_client.json",
		CatalogSchema: dir + "/standard_catalog_definition.json",
	}
}

// BasicV09 loads BasicV09Spec.
func BasicV09(tb testing.TB) *protocol.Catalog {
	tb.Helper()
	return load(tb, BasicV09Spec(tb))
}

// StandardV08 loads StandardV08Spec.
func StandardV08(tb testing.TB) *protocol.Catalog {
	tb.Helper()
	return load(tb, StandardV08Spec(tb))
}

func load(tb testing.TB, spec protocol.CatalogSpec) *protocol.Catalog {
	tb.Helper()
	cat, err := protocol.LoadCatalog(spec, "")
	if err != nil {
		tb.Fatalf("speccatalog: load the v%s catalog %v: %v", spec.Version, spec.CatalogSchema, err)
	}
	return cat
}
