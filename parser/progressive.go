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
//   - the bytes of a top-level message are dropped once it completes;
//   - components of the common shapes are kept as their
//     compact bytes and never decoded (entry_read.go): healing
//     reuses the scanner's state, the processed form is the bytes with
//     missing child ids rewritten, and snapshots and deltas are assembled
//     from these cached encodings.
//
// The family rules (v0.8, or the v0.9 family: 0.9, 0.9.1, 0.10, 1.0) come
// from the catalog's version; without a catalog, from the first message
// kind seen. Constructed v0.9-family messages carry the version string of
// the message being read, else of the surface's createSurface, else "v" +
// the catalog's version.
//
// Where the reference is plainly wrong the engine does better, without
// changing what the conformance suite observes: bare message objects (no
// list) are read; components and yielded data are kept per surface (and
// per data path); a sniffed updateDataModel keeps its "path"; a v0.8
// deleteSurface of a rendered surface is yielded and one that arrives
// before beginRendering is dropped; deleting a surface forgets its state.
//
// Work stays linear in the input: an open object larger than sniffFull is
// healed again only after growing by an eighth, and a component with many
// placeholders is redone only when an eighth of them resolved (or its
// update completed).
//
// The engine's files, by stage (framing is the Parser's, parser.go and
// internal/frame):
//
//   - scan: scan_grammar.go (complete mode's grammar, read first),
//     scan.go (the pass over each byte, messages as they complete),
//     scan_keys.go (what keys and string values tell: kinds, a
//     message's surface, root and version), scan_open.go (the open
//     component or data model message at a call's end), heal.go,
//     scan_pool.go; decode.go and encode.go are a message's maps (the
//     components in them are byte-level forms: see entry_decoded.go);
//   - entries: messages.go (complete messages), entries.go (a surface's
//     components), entry_read.go, entry_grammar.go, entry_template.go,
//     entry_resume.go and entry_canon.go (a component read at byte
//     level), entry_refs.go (reference-only fields, a catalog's own),
//     entry_nested.go (child fields below the top level),
//     entry_paths.go (v0.8 data-binding paths), entry_decoded.go (one
//     that arrives decoded), entry_process.go and entry_regrow.go (its
//     processed form, with placeholders), catalog.go, limits.go;
//   - reachability: reach.go, reach_topology.go, reach_targets.go
//     (what a surface knows of each id referenced or waited for);
//   - data model: data_sniff.go, data_scan.go, data_index.go,
//     data_elem.go (a message as it arrives), data_complete.go and
//     data_canon.go (a complete message, on its bytes), data_record.go
//     and data_keyrec.go (what was yielded), data_yield.go, data_delta.go;
//   - writers: write_snapshot.go (snapshots, and delta mode's changes),
//     write_emit.go;
//   - between blocks: release.go, release_freeze.go (a surface at rest
//     kept compact), release_scratch.go.
type progressiveEngine struct {
	cat      *protocol.Catalog
	refs     protocol.RefFieldsFunc
	fam      protocol.Family
	maxDepth int

	// Default version string of constructed v0.9-family messages.
	defaultVersion string

	sc    progScan
	val   scanner // complete mode's grammar, read first (scan_grammar.go)
	lost  int     // blocks read through a lost count (for tests)
	heal  healer
	cs    compScanner // byte-level component reader
	names idNames     // interned ids of byte-level components
	epoch uint64      // processing epoch (see processFast)

	// Stream state (survives blocks).
	surface      string // current surface ("" = none)
	rootIDs      map[string]string
	defaultRoot  string
	unboundRoot  string
	seen         map[string]*surfaceState // surface -> components
	yieldedStart map[string]bool
	// gate caches what yieldReachable reads of rootIDs and yieldedStart for
	// one surface; every write to those maps drops it (gate.ok = false).
	gate        surfaceGate
	deleted     map[string]uint64 // deleted v0.8 surface -> its deletion's number (see rememberDeleted)
	pending     map[string][]map[string]any
	dataYielded map[string]map[string]*dataRecord // surface -> path -> record of the data yielded (see dataState)
	surfaceVer  map[string]string

	// The input of the last data model sniff, to skip decoding it again
	// while it does not change (dataGen counts changes to dataYielded).
	dataLast        healedText
	dataTail        []byte // scratch: the healed text's tail
	dataLastSurface string
	dataLastGen     int
	dataGen         int
	data            *dataReader   // data helper: the open data model message, read incrementally (see reader)
	nested          []*dataReader // readers of data model objects nested in a message (see nestedReader)
	dataIDs         uint64        // the last data id given by a released reader

	// Per Feed: the v0.8 surfaceUpdate snapshots placed, de-duplicated in
	// feedEnd.
	suSnaps []suSnapshot
	suSeen  map[string]struct{} // scratch for finishFeed
	out     *emitter

	phSeen map[string]struct{}
	// Components met while the family was unknown (see
	// handlePartialComponent).
	famWaiting []famWait
	catS       *catalogScratch // with a catalog (see catScratch)
	msgBuf     []byte          // scratch: a decoded message, encoded (yieldMessage)
	lay        msgLayout       // the layout of the complete message being yielded (yieldEncoded)

	openLists [2]openList // listStillOpen's records: "children", "explicitList"

	deferredN int // surfaces whose snapshot is held back (at least; see flushDeferred)

	phsOld []string // scratch for process

	deltaEnts []*compEntry // scratch for emitDelta
	deltaPhs  []string
	deltaPhJS [][]byte

	// waitPool is the chunk first registrations of missing children take
	// their slot from (see addWaiter).
	waitPool []waitRef
	closing  closingEnc // see closeComponentMessage

	cur         *surfaceState // cache of state(curID)
	curID       string
	missScratch []bool // scratch for processFast
	openScratch []bool // scratch for processFast
	phScratch   []byte // scratch for processFast: a placeholder's child id

	dstate *deltaState

	// Memory bounds (limits.go).
	maxSurfaces  int
	maxComps     int
	held         map[string]struct{} // surfaces state is kept for
	deletedOrder []deletion          // deletions, oldest first (see rememberDeleted)
	deletions    uint64              // deletions numbered so far
	lastHeld     string              // a member of held ("": none known)
	limitErr     *LimitError         // a refusal not yet returned

	// Releasing a block's state (release.go).
	// recUsed lists the records of yielded data used since the last
	// release (see boundRecords).
	recUsed []*dataRecord
	// processed lists the components processed since the last release,
	// processedIn their surfaces (see releaseNames).
	processed   []*compEntry
	processedIn []*surfaceState
	inUse       []*surfaceState // surfaces used since the last release (see freeze)
	freezeSc    freezeScratch   // freeze's scratch
	scratch     *blockScratch   // the pooled set the scratch lists came from (see takeScratch)
	freezes     int             // tests: surfaces frozen (see freeze)
	thaws       int             // tests: surfaces thawed
	frozenWork  int             // tests: components frozen and thawed

	// Flags, together (a bool between wider fields takes eight bytes:
	// the engine is allocated per stream).
	famFixed      bool // family fixed by the catalog
	delta         bool
	grammarBroken bool // the message in progress broke the grammar: sc reads no more of the block
	countLost     bool // the block lost count of its brackets: sc alone reads the rest of it
	hasDefault    bool // defaultRoot is set
	hasUnbound    bool // unboundRoot is set
	kindSeen      bool
	dirty         bool
	forceYield    bool // yield held-back snapshots (block end)
	unbound       bool // e.seen may hold the surface "" (see unboundState)
	inBlock       bool // a block is open
	release       bool // a block ended since the last release
	keepIdle      bool // tests: never release a block's state
}

func newProgressiveEngine(cfg *config) (engine, error) {
	e := &progressiveEngine{
		cat:          cfg.catalog,
		maxDepth:     cfg.maxDepth,
		maxSurfaces:  cfg.maxSurfaces,
		maxComps:     cfg.maxComps,
		held:         map[string]struct{}{},
		delta:        cfg.mode == ModeDelta,
		rootIDs:      map[string]string{},
		seen:         map[string]*surfaceState{},
		yieldedStart: map[string]bool{},
		deleted:      map[string]uint64{},
		pending:      map[string][]map[string]any{},
		dataYielded:  map[string]map[string]*dataRecord{},
		surfaceVer:   map[string]string{},
		dataLastGen:  -1,
	}
	if e.maxDepth <= 0 {
		e.maxDepth = DefaultMaxDepth
	}
	if e.maxSurfaces <= 0 {
		e.maxSurfaces = DefaultMaxSurfaces
	}
	if e.maxComps <= 0 {
		e.maxComps = DefaultMaxComponents
	}
	e.defaultVersion = "v0.9"
	if e.cat != nil {
		e.refs = e.cat.RefFields
		e.cs.cat = e.cat
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
	e.val = newScanner(e.maxDepth)
	e.val.tail = true // it reports errors, no message (scanner_tail.go)
	return e, nil
}

// setFamily fixes the family rules.
func (e *progressiveEngine) setFamily(f protocol.Family) {
	e.fam = f
	if f == protocol.FamilyV09 {
		e.defaultRoot, e.hasDefault = "root", true
	}
	if f != protocol.FamilyUnknown && len(e.famWaiting) > 0 {
		// The components met while the family was unknown, in the order
		// they were met.
		ws := e.famWaiting
		e.famWaiting = nil
		for _, w := range ws {
			e.putPartial(w.surface, w.comp)
		}
	}
}

// --- surface and root bookkeeping (the reference's properties) ---

func (e *progressiveEngine) setSurface(s string) {
	e.surface = s
	if !e.admitSurface(s) {
		return
	}
	if s != "" {
		if e.hasUnbound {
			e.rootIDs[s] = e.unboundRoot
			e.hasUnbound, e.gate.ok = false, false
		}
		if u := e.unboundState(); u != nil && len(u.order) > 0 {
			dst := e.state(s)
			for _, id := range u.order {
				e.putFast(dst, u.comps[id].fast)
			}
			delete(e.seen, "")
			e.cur = nil
		}
	}
}

// unboundState returns the state of the surface "" (components met
// before any surface id), or nil.
func (e *progressiveEngine) unboundState() *surfaceState {
	if !e.unbound {
		return nil
	}
	u := e.seen[""]
	e.unbound = u != nil
	return u
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

// surfaceGate is the cached answer of rootIDs and yieldedStart for surface
// sid (see progressiveEngine.gate).
type surfaceGate struct {
	ok, hasRoot, started bool
	sid, root            string
}

// gateOf returns rootIDs[sid] (and whether it is set) and yieldedStart[sid].
func (e *progressiveEngine) gateOf(sid string) *surfaceGate {
	g := &e.gate
	if !g.ok || g.sid != sid {
		r, has := e.rootIDs[sid]
		*g = surfaceGate{ok: true, hasRoot: has, started: e.yieldedStart[sid], sid: sid, root: r}
	}
	return g
}

func (e *progressiveEngine) setRoot(r string) {
	if e.surface != "" {
		if e.admitSurface(e.surface) {
			e.rootIDs[e.surface], e.gate.ok = r, false
		}
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

// --- engine interface ---

func (e *progressiveEngine) blockStart(out *emitter) error {
	e.out = out
	e.sc.resetBlock()
	e.resetGrammar()
	e.inBlock = true
	e.takeScratch()
	return nil
}

func (e *progressiveEngine) blockData(seg []byte, off int64, out *emitter) error {
	e.out = out
	good, gerr := e.grammar(seg, off)
	if good > 0 {
		if err := e.scan(seg[:good], off); err != nil {
			return err
		}
		if err := e.endOfChunk(); err != nil {
			return err
		}
	}
	return gerr
}

func (e *progressiveEngine) blockEnd(out *emitter) error {
	e.out = out
	e.blockDone()
	// The records of yielded data are bounded at every block end, also
	// where no call ends between blocks (JSONL, whose next block opens
	// with the next line's first byte).
	defer e.boundRecords()
	gerr := e.grammarEnd()
	if err := e.flushDeferred(); err != nil {
		e.sc.resetBlock()
		return err
	}
	if gerr != nil {
		return gerr
	}
	if e.sc.utf8need != 0 {
		// (Only after lostCount: the grammar rejects a truncated character.)
		return &SyntaxError{Offset: e.sc.off, Msg: "invalid UTF-8 (truncated sequence)", Err: ErrInvalidUTF8}
	}
	found, content := e.sc.foundValid, e.sc.content
	start := e.sc.blockOff
	e.sc.resetBlock()
	if !found && content {
		return &SyntaxError{Offset: start, Msg: "No valid JSON object found in A2UI block."}
	}
	return nil
}

func (e *progressiveEngine) feedEnd(out *emitter) error {
	e.out = out
	e.finishFeed(out)
	e.releaseIdle(out)
	return nil
}

func (e *progressiveEngine) blockFailed(out *emitter) {
	// The snapshots and components held back (see yieldReachable) would
	// otherwise come out at the end of a later block, or never. (A pending
	// limit error was taken by the call that failed.)
	e.out = out
	e.flushDeferred()
	e.reset()
}

// reset drops all per-block state.
func (e *progressiveEngine) reset() {
	e.sc.resetBlock()
	e.resetGrammar()
	e.limitErr = nil
	e.dirty = false
	e.blockDone()
	e.boundRecords()
}
