package parser

// A component's own "componentId" (v0.9, or a v0.8 definition's
// properties), which the processing rewrites (it is a child field) but
// which is no reference: a string id there is a child slot. The generic
// path read such a component, and wrote it with sorted keys: it is kept
// in its canonical encoding (compScanner.sorted).
//
// The other top-level reference fields protocol.ComponentRefs reads
// besides the child fields ("detail", "summary", "root", "template") still
// take the generic path: read at byte level, reachability counted a
// string "template" as a reference and a component still arriving got
// placeholders for them, where the generic path did neither (a review's
// differential run against the tree before, session 12; see
// TestRefShapesMatchGeneric).

// ownComponentID reads the value at b[i], at nesting depth depth, of the
// component's own componentId (a cfOwnID slot when it is a string).
func (c *compScanner) ownComponentID(b []byte, i int, depth int) (int, bool) {
	c.sorted = true
	switch b[i] {
	case '"':
		return c.slot(b, i, cfOwnID)
	case '[':
		// (Processed as a list of child ids.)
		c.slow = true
		return i, false
	}
	// A componentId or a child in an object, which would be read, takes
	// the generic path (value).
	return c.value(b, i, depth)
}
