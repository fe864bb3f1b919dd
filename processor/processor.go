package processor

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

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

	tp      protocol.Tape // the message being applied
	epoch   uint64        // topology walk marks (see checkTopology)
	stack   []walkFrame
	reach   []*Component          // reachability search
	changed []*Component          // components whose height the update changes
	upd     map[string]*Component // the update being checked, by id
	updCap  int                   // the most entries upd has held
}

type subscription struct{ fn func(Batch) }

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

// ProcessListFrom is ProcessList for a list sent by a given agent: surfaces
// the list creates are recorded as that agent's, for ClientDataModelFor.
func (p *Processor) ProcessListFrom(agent string, msgs []json.RawMessage) Batch {
	p.seq++
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
	var sb strings.Builder
	sb.Grow(total)
	for _, m := range msgs {
		if len(m) <= sharedCopyMax {
			sb.Write(m)
		}
	}
	shared := sb.String()
	off := 0
	for i, m := range msgs {
		r := &b.Results[i]
		r.Index = i
		var msg string
		if len(m) <= sharedCopyMax {
			msg = shared[off : off+len(m)]
			off += len(m)
		} else {
			msg = string(m)
		}
		kind, sid, merr := p.apply(msg, agent, &t)
		r.Type, r.SurfaceID = kind, sid
		if merr == nil {
			r.OK = true
			b.Applied++
			continue
		}
		merr.Index, merr.Kind = i, kind
		if merr.SurfaceID == "" {
			merr.SurfaceID = sid
		}
		rep := merr.Report()
		r.Err, r.Error = merr, &rep
		b.Failed++
		p.opts.logger.Warn("processor: message failed",
			"seq", b.Seq, "index", i, "kind", string(kind), "surfaceId", merr.SurfaceID,
			"path", rep.Path, "error", merr.Err)
	}
	b.Changes = t.changes()
	for _, s := range p.subs {
		s.fn(b)
	}
	return b
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

// SplitList splits a JSON array into its elements without decoding them.
// The elements alias list.
func SplitList(list []byte) ([]json.RawMessage, error) {
	trimmed := bytes.TrimSpace(list)
	if len(trimmed) == 0 || trimmed[0] != '[' || !gjson.ValidBytes(trimmed) {
		return nil, ErrNotArray
	}
	var msgs []json.RawMessage
	gjson.ParseBytes(trimmed).ForEach(func(_, v gjson.Result) bool {
		// v.Index is the element's offset in trimmed when gjson knows it.
		if end := v.Index + len(v.Raw); v.Index > 0 && end <= len(trimmed) {
			msgs = append(msgs, json.RawMessage(trimmed[v.Index:end:end]))
		} else {
			msgs = append(msgs, json.RawMessage(v.Raw))
		}
		return true
	})
	if msgs == nil {
		msgs = []json.RawMessage{}
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
