package processor

import (
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// checkTopology runs the protocol's topology checks for a component update
// on the surface's component graph as it would be after the update:
// duplicate ids within the update, then self-references, cycles and the
// depth limit below the root. Components not reachable from the root (or
// all of them, before the root exists) are still checked for cycles. With
// WithStrictTopology the root must exist, every reference must resolve and
// every component must be reachable from the root.
func (p *Processor) checkTopology(s *Surface, comps []*Component, rootID string) *MessageError {
	refs := p.refFields(s.family, s.catalogID)
	msgSkels := make([]map[string]any, len(comps))
	replaced := make(map[string]*Component, len(comps))
	for i, c := range comps {
		msgSkels[i] = c.skel
		replaced[c.ID] = c
	}
	if len(comps) > 1 {
		if err := protocol.CheckIntegrity("", msgSkels, refs, true); err != nil {
			return topologyFailure(err)
		}
	}

	merged := make([]map[string]any, 0, len(s.order)+len(comps))
	for _, id := range s.order {
		if c, ok := replaced[id]; ok {
			merged = append(merged, c.skel)
			delete(replaced, id)
			continue
		}
		merged = append(merged, s.components[id].skel)
	}
	for _, c := range comps {
		if _, ok := replaced[c.ID]; ok {
			merged = append(merged, c.skel)
			delete(replaced, c.ID)
		}
	}

	strict := p.opts.strictTopology
	if strict {
		if rootID == "" {
			// v0.8 before beginRendering: the root is not known yet.
			strict = false
		} else if err := protocol.CheckIntegrity(rootID, merged, refs, false); err != nil {
			return topologyFailure(err)
		}
	}
	hasRoot := false
	if rootID != "" {
		for _, m := range merged {
			if m["id"] == rootID {
				hasRoot = true
				break
			}
		}
	}
	if !hasRoot {
		if _, err := protocol.AnalyzeTopology("", merged, refs, protocol.TopologyOptions{}); err != nil {
			return topologyFailure(err)
		}
		return nil
	}
	visited, err := protocol.AnalyzeTopology(rootID, merged, refs, protocol.TopologyOptions{RaiseOnOrphans: strict})
	if err != nil {
		return topologyFailure(err)
	}
	var rest []map[string]any
	for _, m := range merged {
		if id, _ := m["id"].(string); !visited[id] {
			rest = append(rest, m)
		}
	}
	if len(rest) > 0 {
		if _, err := protocol.AnalyzeTopology("", rest, refs, protocol.TopologyOptions{}); err != nil {
			return topologyFailure(err)
		}
	}
	return nil
}

func topologyFailure(err error) *MessageError {
	return &MessageError{Path: "/components", Err: firstValidationError(err)}
}
