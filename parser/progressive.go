package parser

import (
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// progressiveEngine implements ModeProgressive (and, with delta set,
// ModeDelta). It follows the reference streaming parser's observable
// behaviour (google/A2UI agent SDK) while doing the work incrementally:
//
//   - one pass over each byte keeps a stack of open containers with their
//     start offsets in the buffered text of the message in progress, and
//     flags on each object for the keys that matter ("id", "component",
//     message kinds); surface id, root and version values are picked up as
//     they complete instead of by searching the buffer;
//   - at the end of each Feed, only the open objects that can be a
//     component (they have "id" and "component" keys) or a data model
//     update are healed and decoded, and only when a byte that can change
//     the healed result arrived since the last time;
//   - the bytes of a top-level message are dropped once it completes.
//
// The family rules (v0.8, or the v0.9 family: 0.9, 0.9.1, 0.10, 1.0) come
// from the catalog's version; without a catalog, from the first message
// kind seen.
type progressiveEngine struct {
	cat      *protocol.Catalog
	refs     protocol.RefFieldsFunc
	fam      protocol.Family
	famFixed bool // family fixed by the catalog
	maxDepth int
	delta    bool

	// Default version string of constructed v0.9-family messages.
	defaultVersion string

	sc   progScan
	heal healer

	// Stream state (survives blocks).
	surface       string // current surface ("" = none)
	rootIDs       map[string]string
	defaultRoot   string
	hasDefault    bool
	unboundRoot   string
	hasUnbound    bool
	kindSeen      bool
	seen          map[string]*surfaceComps // surface -> components
	yieldedStart  map[string]bool
	deleted       map[string]bool
	pending       map[string][]map[string]any
	dataYielded   map[string]map[string]any // surface -> data key -> last value
	surfaceVer    map[string]string
	dirty         bool
	dirtySurfaces map[string]bool

	// Per Feed: messages emitted, finalised in feedEnd.
	emitted []emission
	out     *emitter

	dstate *deltaState
}

// surfaceComps holds the components seen for one surface, in arrival order.
type surfaceComps struct {
	byID  map[string]map[string]any
	order []string
	// yielded tracks, per component id, the JSON of its last yielded
	// processed form.
	yielded map[string]string
}

func newSurfaceComps() *surfaceComps {
	return &surfaceComps{byID: map[string]map[string]any{}, yielded: map[string]string{}}
}

func (s *surfaceComps) put(id string, c map[string]any) {
	if _, ok := s.byID[id]; !ok {
		s.order = append(s.order, id)
	}
	s.byID[id] = c
}

func newProgressiveEngine(cfg *config) (engine, error) {
	e := &progressiveEngine{
		cat:           cfg.catalog,
		maxDepth:      cfg.maxDepth,
		delta:         cfg.mode == ModeDelta,
		rootIDs:       map[string]string{},
		seen:          map[string]*surfaceComps{},
		yieldedStart:  map[string]bool{},
		deleted:       map[string]bool{},
		pending:       map[string][]map[string]any{},
		dataYielded:   map[string]map[string]any{},
		surfaceVer:    map[string]string{},
		dirtySurfaces: map[string]bool{},
	}
	if e.maxDepth <= 0 {
		e.maxDepth = DefaultMaxDepth
	}
	e.defaultVersion = "v0.9"
	if e.cat != nil {
		e.refs = e.cat.RefFields
		e.setFamily(e.cat.Family())
		e.famFixed = true
		if e.fam == protocol.FamilyV09 {
			e.defaultVersion = "v" + string(e.cat.Version())
		}
	}
	if e.delta {
		e.dstate = newDeltaState()
	}
	e.sc.init()
	return e, nil
}

// setFamily fixes the family rules.
func (e *progressiveEngine) setFamily(f protocol.Family) {
	e.fam = f
	if f == protocol.FamilyV09 {
		e.defaultRoot, e.hasDefault = "root", true
	}
}

// --- surface and root bookkeeping (the reference's properties) ---

func (e *progressiveEngine) setSurface(s string) {
	e.surface = s
	if s != "" {
		if e.hasUnbound {
			e.rootIDs[s] = e.unboundRoot
			e.hasUnbound = false
		}
		if u := e.seen[""]; u != nil && len(u.order) > 0 {
			dst := e.comps(s)
			for _, id := range u.order {
				dst.put(id, u.byID[id])
			}
			delete(e.seen, "")
		}
	}
}

func (e *progressiveEngine) rootID() (string, bool) {
	if e.surface != "" {
		if r, ok := e.rootIDs[e.surface]; ok {
			return r, true
		}
		return e.defaultRoot, e.hasDefault
	}
	if e.hasUnbound {
		return e.unboundRoot, true
	}
	return e.defaultRoot, e.hasDefault
}

func (e *progressiveEngine) setRoot(r string) {
	if e.surface != "" {
		e.rootIDs[e.surface] = r
		return
	}
	e.unboundRoot, e.hasUnbound = r, true
}

// resniff applies the surface id and root last seen in the buffered
// message, as the reference re-reads them after every delimiter.
func (e *progressiveEngine) resniff() {
	e.setSurface(e.sc.bufSurface)
	if e.sc.hasBufRoot {
		e.setRoot(e.sc.bufRoot)
	}
}

func (e *progressiveEngine) comps(surface string) *surfaceComps {
	c := e.seen[surface]
	if c == nil {
		c = newSurfaceComps()
		e.seen[surface] = c
	}
	return c
}

// --- engine interface ---

func (e *progressiveEngine) blockStart(out *emitter) error {
	e.out = out
	e.sc.resetBlock()
	return nil
}

func (e *progressiveEngine) blockData(seg []byte, off int64, out *emitter) error {
	e.out = out
	if err := e.scan(seg, off); err != nil {
		return err
	}
	return e.endOfChunk()
}

func (e *progressiveEngine) blockEnd(out *emitter) error {
	e.out = out
	if e.sc.utf8need != 0 {
		return &SyntaxError{Offset: e.sc.off, Msg: "invalid UTF-8 (truncated sequence)", Err: ErrInvalidUTF8}
	}
	found := e.sc.foundValid
	start := e.sc.blockOff
	e.sc.resetBlock()
	if !found {
		return &SyntaxError{Offset: start, Msg: "No valid JSON object found in A2UI block."}
	}
	return nil
}

func (e *progressiveEngine) feedEnd(out *emitter) error {
	e.out = out
	e.finishFeed(out)
	return nil
}

func (e *progressiveEngine) reset() {
	e.sc.resetBlock()
	e.dirty = false
}
