package protocol

// HasOwnRefFields reports whether the catalog gives a component type
// reference fields of its own (RefFields): a name that is not a well-known
// reference name, or a well-known name of the other kind (a list name
// among the single fields, or the reverse). When it reports false,
// ComponentRefs finds the same references with the catalog as without one
// in a component of that type whose reference fields hold ids or lists of
// ids; an array of objects under a list field is read differently (with
// the catalog, not for their "child"). A type the catalog does not define
// has none (false); neither has any type of a nil *Catalog. A stream
// reader uses it to read such components without decoding them.
func (c *Catalog) HasOwnRefFields(componentType string) bool {
	single, list := c.RefFields(componentType)
	for _, k := range single {
		if !heuristicSingleRefs[k] {
			return true
		}
	}
	for _, k := range list {
		if !heuristicListRefs[k] {
			return true
		}
	}
	return false
}
