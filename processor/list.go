package processor

import "encoding/json"

// List is a list of messages applied one at a time, as they arrive, with
// one Batch for the whole list at its end: what a consumer of a streamed
// list uses to keep the state current while the renderer repaints once per
// list. Begin one with BeginList.
//
// Each message is validated and applied on its own, exactly as
// ProcessListFrom applies it (a failing message changes nothing and the
// rest still applies); End returns the Batch that ProcessListFrom would
// have returned for the same messages, and runs the OnBatch callbacks. A
// List belongs to its Processor's goroutine.
type List struct {
	p     *Processor
	agent string
	b     Batch
	t     tracker
}

// BeginList starts a list sent by agent ("" for none; see
// ProcessListFrom). Apply its messages in order, then End it. At most one
// list is open on a Processor at a time: calling BeginList, ProcessList or
// ProcessListFrom while one is open is a programming error and panics.
func (p *Processor) BeginList(agent string) *List {
	p.mustBeIdle()
	p.seq++
	l := &List{p: p, agent: agent, b: Batch{Seq: p.seq, Agent: agent}}
	p.open = l
	return l
}

// mustBeIdle panics when a list begun with BeginList is still open.
func (p *Processor) mustBeIdle() {
	if p.open != nil {
		panic("processor: a list begun with BeginList is still open")
	}
}

// Len returns the number of messages applied to the list so far.
func (l *List) Len() int { return len(l.b.Results) }

// Apply validates and applies the list's next message and returns its
// Result (also recorded for the Batch). The processor keeps no reference
// to m. Apply after End panics.
func (l *List) Apply(m json.RawMessage) Result {
	p := l.p
	if p == nil || p.open != l {
		panic("processor: Apply on an ended list")
	}
	p.work = workPool.Get().(*work)
	msg := string(m)
	p.chunkSeq++
	p.setSource(msg, p.chunkSeq)
	l.b.Results = append(l.b.Results, Result{Index: len(l.b.Results)})
	r := &l.b.Results[len(l.b.Results)-1]
	p.applyResult(msg, l.agent, &l.t, &l.b, r)
	p.work.release()
	p.work, p.cur = nil, ""
	return *r
}

// End closes the list and returns its Batch, which the OnBatch callbacks
// also receive. A second End returns the same Batch without calling them
// again.
func (l *List) End() Batch {
	if p := l.p; p != nil {
		if l.b.Results == nil {
			l.b.Results = []Result{}
		}
		p.finishBatch(&l.b, &l.t)
		p.open, l.p = nil, nil
	}
	return l.b
}
