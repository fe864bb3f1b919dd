package processor

import (
	"encoding/json"
	"sort"
	"strings"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/a2ui-stream/a2ui-stream/internal/jsontape"
	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// Processor applies lists of A2UI messages to a group of surfaces.
//
// A Processor is not safe for concurrent use: one goroutine owns it (a
// renderer's UI loop, a gateway's per-session worker). Batch callbacks run
// synchronously on that goroutine, inside ProcessList.
type Processor struct {
	opts     options
	surfaces map[string]*Surface
	seq      uint64
	subs     []*subscription
	catalogs map[string]bool // allowed catalog ids; nil means any

	// The text of the message being applied: the chunk holding it (a copy
	// the surfaces may keep), its id (unique per copy) and address.
	cur      string
	curID    uint64
	curBase  uintptr
	chunkSeq uint64 // the last id given to a chunk

	*work // scratch, while a list is applied

	open *List // the list begun with BeginList and not ended, if any
}

type subscription struct{ fn func(Batch) }

// work is the scratch of applying a list: the message's tape, the update
// being checked and the topology checks' marks. Processors borrow one
// from workPool for each list, so that the scratch, grown to the sizes
// messages need, outlives a processor (a gateway may run one per session).
type work struct {
	tp jsontape.Tape // the message being applied

	// The components of the update being applied (see parseComponents):
	// records, what the checks know of them, their references, the index
	// of their ids, the chunks they point into (pend[0] is the message's;
	// the others are components' own, see relocate) and scratch.
	upd       []comp
	uinfo     []updInfo
	urefs     []span    // the ids of the update's references
	urefx     []refInfo // where they sit, with wantWhere (see refField)
	wantWhere bool
	uidx      idIndex
	pend      []string
	esc       []byte
	chunkMap  []int32

	// How the update was parsed (for the texts of topology errors).
	updV08       bool
	updRefFields protocol.RefFieldsFunc

	epoch   uint32     // topology walk marks (see prepareMarks)
	marks   []nodeMark // by graph node
	stack   []walkFrame
	reach   []int32 // reachability search
	changed []int32 // nodes whose height the update changes
}

var workPool = sync.Pool{New: func() any { return new(work) }}

// release drops the work's references to a list's text and returns it to
// the pool.
func (w *work) release() {
	_ = w.tp.Parse("0") // forget the last message
	clear(w.pend[:cap(w.pend)])
	w.pend = w.pend[:0]
	w.updRefFields = nil
	workPool.Put(w)
}

// New returns an empty processor.
func New(opts ...Option) (*Processor, error) {
	o := defaultOptions()
	for _, opt := range opts {
		if opt == nil {
			continue
		}
		if err := opt(&o); err != nil {
			return nil, err
		}
	}
	p := &Processor{opts: o, surfaces: make(map[string]*Surface)}
	if len(o.catalogIDs) > 0 {
		p.catalogs = make(map[string]bool, len(o.catalogIDs))
		for _, id := range o.catalogIDs {
			p.catalogs[id] = true
		}
	}
	return p, nil
}

// OnBatch registers fn to be called once per list, with the list's Batch,
// at the end of every ProcessList (never per message). Callbacks run in
// registration order on the caller's goroutine and must not modify the
// Batch, which all callbacks share. The returned function unregisters fn.
func (p *Processor) OnBatch(fn func(Batch)) (cancel func()) {
	s := &subscription{fn: fn}
	p.subs = append(p.subs, s)
	return func() {
		for i, x := range p.subs {
			if x == s {
				p.subs = append(p.subs[:i:i], p.subs[i+1:]...)
				return
			}
		}
	}
}

// ProcessList applies a list of messages in order. Each message is
// validated and applied on its own: one that fails changes nothing, is
// reported in the Batch (and logged), and the rest of the list still
// applies. The returned Batch is also given to every OnBatch callback. An
// empty list yields a Batch with no results.
//
// The processor keeps no reference to msgs: what it holds is copied.
func (p *Processor) ProcessList(msgs []json.RawMessage) Batch {
	return p.ProcessListFrom("", msgs)
}

// sharedCopyMax is the size up to which a list's messages share one copy.
const sharedCopyMax = 16 << 10

// maxChunk bounds a shared copy (offsets into it are 32-bit).
const maxChunk = 1 << 30

// ProcessListFrom is ProcessList for a list sent by a given agent: surfaces
// the list creates are recorded as that agent's, for ClientDataModelFor.
func (p *Processor) ProcessListFrom(agent string, msgs []json.RawMessage) Batch {
	p.mustBeIdle()
	p.seq++
	p.work = workPool.Get().(*work)
	b := Batch{Seq: p.seq, Agent: agent, Results: make([]Result, len(msgs))}
	var t tracker
	// One copy of the list's small messages (the state keeps substrings of
	// it); a large message gets its own, so that the state never pins a
	// large message it does not use (e.g. one that failed).
	total := 0
	for _, m := range msgs {
		if len(m) <= sharedCopyMax {
			total += len(m)
		}
	}
	var (
		shared   string
		sharedID uint64
		off      int
	)
	for i, m := range msgs {
		r := &b.Results[i]
		r.Index = i
		var msg string
		if len(m) <= sharedCopyMax {
			if off+len(m) > len(shared) {
				// The next shared copy: the rest of the list's small
				// messages, up to maxChunk bytes (offsets into a chunk
				// are 32-bit).
				var sb strings.Builder
				sb.Grow(min(total, maxChunk))
				for _, m := range msgs[i:] {
					if len(m) <= sharedCopyMax {
						if sb.Len()+len(m) > maxChunk {
							break
						}
						total -= len(m)
						sb.Write(m)
					}
				}
				shared, off = sb.String(), 0
				p.chunkSeq++
				sharedID = p.chunkSeq
			}
			msg = shared[off : off+len(m)]
			off += len(m)
			p.setSource(shared, sharedID)
		} else {
			msg = string(m)
			p.chunkSeq++
			p.setSource(msg, p.chunkSeq)
		}
		p.applyResult(msg, agent, &t, &b, r)
	}
	p.work.release()
	p.work, p.cur = nil, ""
	p.finishBatch(&b, &t)
	return b
}

// applyResult applies msg, the list's message r.Index, and records its
// outcome in r and b (logging a failure).
func (p *Processor) applyResult(msg, agent string, t *tracker, b *Batch, r *Result) {
	kind, sid, merr := p.apply(msg, agent, t)
	r.Type, r.SurfaceID = kind, sid
	if merr == nil {
		r.OK = true
		b.Applied++
		return
	}
	merr.Index, merr.Kind = r.Index, kind
	if merr.SurfaceID == "" {
		merr.SurfaceID = sid
	}
	rep := merr.Report()
	r.Err, r.Error = merr, &rep
	b.Failed++
	p.opts.logger.Warn("processor: message failed",
		"seq", b.Seq, "index", r.Index, "kind", string(kind), "surfaceId", merr.SurfaceID,
		"path", rep.Path, "error", merr.Err)
}

// finishBatch sets b's net changes and hands b to the callbacks.
func (p *Processor) finishBatch(b *Batch, t *tracker) {
	b.Changes = t.changes()
	for _, s := range p.subs {
		s.fn(*b)
	}
}

// ProcessJSON decodes one list, a JSON array of messages, and applies it
// with ProcessList. Input that is not a JSON array fails with ErrNotArray
// and changes nothing (no Batch is produced, and callbacks do not run).
func (p *Processor) ProcessJSON(list []byte) (Batch, error) {
	msgs, err := SplitList(list)
	if err != nil {
		return Batch{}, err
	}
	return p.ProcessList(msgs), nil
}

// maxCheckedDepth is the nesting (of the element itself, the list's level
// not counted) up to which SplitList checks an element's syntax (the check
// recurses): the protocol's depth limit. A deeper element fails as a
// message anyway (its decoding stops at the limit), so it is split off
// unchecked.
const maxCheckedDepth = protocol.MaxComponentDepth

// SplitList splits a JSON array into its elements without decoding them.
// The elements alias list. Input that is not a JSON array fails with
// ErrNotArray. The array is scanned without recursion, so nesting of any
// depth is safe. An element is checked to be valid JSON only when it is
// nested no deeper than the protocol allows (protocol.MaxComponentDepth):
// a deeper one is returned unchecked, may not be valid JSON, and fails as
// its own message in ProcessList (as a syntax or recursion-limit error)
// while the others apply.
func SplitList(list []byte) ([]json.RawMessage, error) {
	trimmed := jsonwire.TrimSpace(list)
	if len(trimmed) < 2 || trimmed[0] != '[' || trimmed[len(trimmed)-1] != ']' {
		return nil, ErrNotArray
	}
	inner := trimmed[1 : len(trimmed)-1]
	msgs := []json.RawMessage{}
	if len(jsonwire.TrimSpace(inner)) == 0 {
		return msgs, nil
	}
	// add appends the element inner[start:end] nested depth levels deep.
	add := func(start, end, depth int) bool {
		e := jsonwire.TrimSpace(inner[start:end])
		if len(e) == 0 || (depth <= maxCheckedDepth && !gjson.ValidBytes(e)) {
			return false
		}
		msgs = append(msgs, json.RawMessage(e[:len(e):len(e)]))
		return true
	}
	start, depth, deepest := 0, 0, 0
	for i := 0; i < len(inner); i++ {
		switch inner[i] {
		case '"':
			end := jsonwire.StringEnd(inner, i+1)
			if end == len(inner) {
				return nil, ErrNotArray
			}
			i = end
		case '[', '{':
			depth++
			deepest = max(deepest, depth)
		case ']', '}':
			if depth--; depth < 0 {
				return nil, ErrNotArray
			}
		case ',':
			if depth == 0 {
				if !add(start, i, deepest) {
					return nil, ErrNotArray
				}
				start, deepest = i+1, 0
			}
		}
	}
	if depth != 0 || !add(start, len(inner), deepest) {
		return nil, ErrNotArray
	}
	return msgs, nil
}

// Surface returns a surface by id (see Surface for how long it is valid).
func (p *Processor) Surface(id string) (*Surface, bool) {
	s, ok := p.surfaces[id]
	return s, ok
}

// SurfaceIDs lists the live surfaces, sorted.
func (p *Processor) SurfaceIDs() []string {
	ids := make([]string, 0, len(p.surfaces))
	for id := range p.surfaces {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Seq is the sequence number of the last Batch (0 before the first list).
func (p *Processor) Seq() uint64 { return p.seq }

// catalogAllowed reports whether a surface may name catalog id.
func (p *Processor) catalogAllowed(id string) bool {
	return p.catalogs == nil || p.catalogs[id]
}

// catalogFor picks the catalog that validates a message: the one the
// surface (or createSurface) names, else the first of the family.
func (p *Processor) catalogFor(family protocol.Family, catalogID string) *protocol.Catalog {
	var first *protocol.Catalog
	for _, c := range p.opts.catalogs {
		if c.Family() != family {
			continue
		}
		if catalogID != "" && c.CatalogID() == catalogID {
			return c
		}
		if first == nil {
			first = c
		}
	}
	return first
}

// refFields returns the reference fields the topology checks use for a
// surface: its catalog's when one is configured.
func (p *Processor) refFields(family protocol.Family, catalogID string) protocol.RefFieldsFunc {
	if c := p.catalogFor(family, catalogID); c != nil {
		return c.RefFields
	}
	return nil
}
