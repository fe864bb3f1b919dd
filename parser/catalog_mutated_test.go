package parser

import (
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/speccatalog"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// v09Mutated is the v0.9 basic catalog with its server-to-client and
// common types schemas changed by mutate.
func v09Mutated(t testing.TB, mutate func(s2c, common map[string]any)) *protocol.Catalog {
	t.Helper()
	spec := speccatalog.BasicV09Spec(t)
	s2c, common := readSchema(t, spec.S2CSchema), readSchema(t, spec.CommonTypesSchema)
	mutate(s2c, common)
	spec.S2CSchema, spec.CommonTypesSchema = s2c, common
	cat, err := protocol.LoadCatalog(spec, "")
	if err != nil {
		t.Fatal(err)
	}
	return cat
}
