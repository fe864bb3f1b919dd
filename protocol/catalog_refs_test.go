package protocol_test

import (
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
	"github.com/a2ui-stream/a2ui-stream/internal/speccatalog"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// TestHasOwnRefFieldsOnCorpus: for every component of the corpora whose
// type has no reference fields of its own in the specification's catalog
// and whose fields hold no array of objects, ComponentRefs finds the same
// references with the catalog as without one; and types with fields of
// their own exist in the v0.9 catalog (the check is not vacuous there; the
// v0.8 standard catalog has none). Then every type of the
// catalog, built with its reference fields set: HasOwnRefFields says
// whether the references differ.
func TestHasOwnRefFieldsOnCorpus(t *testing.T) {
	specs := []struct {
		corpus  string
		wantOwn int // types with reference fields of their own, at least
		spec    protocol.CatalogSpec
	}{
		{"stream_v09.txt", 1, speccatalog.BasicV09Spec(t)},
		{"stream_v08.txt", 0, speccatalog.StandardV08Spec(t)},
	}
	block := regexp.MustCompile(`(?s)<a2ui-json>(.*?)</a2ui-json>`)
	for _, sp := range specs {
		t.Run(sp.corpus, func(t *testing.T) {
			cat, err := protocol.LoadCatalog(sp.spec, "")
			if err != nil {
				t.Fatal(err)
			}
			own := 0
			for _, name := range cat.ComponentNames() {
				if cat.HasOwnRefFields(name) {
					own++
				}
			}
			if own < sp.wantOwn {
				t.Fatalf("%d types with reference fields of their own, want at least %d (a Modal's trigger and content)", own, sp.wantOwn)
			}
			data, err := os.ReadFile(shareddata.Path(t, "corpus", sp.corpus))
			if err != nil {
				t.Fatal(err)
			}
			checked := 0
			for _, m := range block.FindAllSubmatch(data, -1) {
				var msgs []map[string]any
				if json.Unmarshal(m[1], &msgs) != nil {
					continue
				}
				for _, msg := range msgs {
					comps, _, _ := protocol.MessageComponents(msg)
					for _, c := range comps {
						typ, ok := protocol.ComponentType(c)
						if !ok || cat.HasOwnRefFields(typ) || holdsObjectArray(c) {
							continue
						}
						with := protocol.ComponentRefs(nil, c, cat.RefFields)
						without := protocol.ComponentRefs(nil, c, nil)
						if !reflect.DeepEqual(with, without) {
							t.Fatalf("%s component %v: refs %v with the catalog, %v without", typ, c["id"], with, without)
						}
						checked++
					}
				}
			}
			if checked == 0 {
				t.Fatal("no component checked")
			}
			// Every type, with each reference field holding an id (a list
			// of one for a list field): the references agree exactly when
			// the type has no fields of its own.
			for _, typ := range cat.ComponentNames() {
				single, list := cat.RefFields(typ)
				props := map[string]any{}
				for _, k := range single {
					props[k] = "x"
				}
				for _, k := range list {
					props[k] = []any{"y"}
				}
				c := map[string]any{"id": "c", "component": typ}
				if sp.spec.Version == "0.8" {
					c["component"] = map[string]any{typ: props}
				} else {
					for k, v := range props {
						c[k] = v
					}
				}
				same := reflect.DeepEqual(protocol.ComponentRefs(nil, c, cat.RefFields), protocol.ComponentRefs(nil, c, nil))
				if same == cat.HasOwnRefFields(typ) {
					t.Errorf("%s: references the same with and without the catalog: %v; HasOwnRefFields: %v", typ, same, cat.HasOwnRefFields(typ))
				}
			}
			t.Logf("%d components checked; %d of %d types have fields of their own", checked, own, len(cat.ComponentNames()))
		})
	}
}

// holdsObjectArray reports whether a value in c (or, v0.8, in its
// definition) is an array holding an object.
func holdsObjectArray(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			if holdsObjectArray(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if _, ok := e.(map[string]any); ok {
				return true
			}
			if holdsObjectArray(e) {
				return true
			}
		}
	}
	return false
}
