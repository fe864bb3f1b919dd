package protocol

// WellKnownRefs reports whether the reference fields the catalog gives a
// component type (RefFields) are all well-known reference names, each of
// the same kind (a single-reference name among the single fields, a list
// name among the list fields): then ComponentRefs finds the same
// references in a component of that type with the catalog as without one.
// A type the catalog does not define has no fields of its own (true); so
// does a nil *Catalog. A stream reader uses it to read such components
// without decoding them.
func (c *Catalog) WellKnownRefs(componentType string) bool {
	single, list := c.RefFields(componentType)
	for _, k := range single {
		if !heuristicSingleRefs[k] {
			return false
		}
	}
	for _, k := range list {
		if !heuristicListRefs[k] {
			return false
		}
	}
	return true
}
