package parser

// The placeholders of the progressive modes: the loading_<id> components
// that stand in for children not yet arrived, and the walk that puts them
// in the components that reference such children.

import (
	"bytes"
	"slices"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// Encodings of a placeholder component up to its id.
const (
	placeholderV09 = `{"children":[],"component":"Row","id":`
	placeholderV08 = `{"component":{"Row":{"children":{"explicitList":[]}}},"id":`
)

// appendPlaceholderJSON appends the encoding of placeholder id (the
// encoding of e.placeholder(id), keys sorted) without building the map.
func (e *progressiveEngine) appendPlaceholderJSON(b []byte, id string) []byte {
	b = appendJSONString(e.appendPlaceholderStart(b), id)
	return append(b, '}')
}

// appendPlaceholderStart appends the encoding of a placeholder up to its
// id.
func (e *progressiveEngine) appendPlaceholderStart(b []byte) []byte {
	if e.fam == protocol.FamilyV09 {
		return append(b, placeholderV09...)
	}
	return append(b, placeholderV08...)
}

// appendChildPlaceholderJSON is appendPlaceholderJSON for the placeholder
// of child id ("loading_" + id), without building its name.
func (e *progressiveEngine) appendChildPlaceholderJSON(b []byte, id string) []byte {
	b = e.appendPlaceholderStart(b)
	if plainString(id) {
		b = append(b, `"loading_`...)
		b = append(b, id...)
		return append(b, `"}`...)
	}
	at := len(b) + 1 // after the opening quote
	b = appendJSONString(b, id)
	// The quoted id moves right to make room for the prefix.
	n := len(b)
	b = append(b, "loading_"...)
	copy(b[at+len("loading_"):], b[at:n])
	copy(b[at:], "loading_")
	return append(b, '}')
}

// placeholder returns the family's loading placeholder component.
func (e *progressiveEngine) placeholder(id string) map[string]any {
	if e.fam == protocol.FamilyV09 {
		return map[string]any{"id": id, "component": "Row", "children": []any{}}
	}
	return map[string]any{"id": id, "component": map[string]any{"Row": map[string]any{"children": map[string]any{"explicitList": []any{}}}}}
}

// placeholderSet builds processed copies of components for one snapshot,
// collecting the placeholders they need (each once, in first-use order).
type placeholderSet struct {
	e       *progressiveEngine
	s       *surfaceState
	extra   []string // placeholder ids, each once, in first-use order
	waits   []string // missing child ids
	waitN   []int    // placements of each missing child's placeholder
	usesBuf bool
	// noArrival: none of the children the component waited for when it
	// was last processed arrived since (they are still missing).
	noArrival bool
	extraJS   [][]byte // encodings of extra
}

// processFast returns the processed form of a component: its bytes,
// with the ids of children that have not arrived turned into placeholder
// ids. shared reports that the result is fc.src itself.
func (p *placeholderSet) processFast(fc *fastComp, out []byte) ([]byte, bool) {
	miss := p.e.missScratch[:0]
	missing := 0
	var fields uint8 // child fields of the missing slots, as bits
	var known, still, gone uint64
	if fc.arrivedIn == p.s {
		known = fc.arrived
		if p.noArrival {
			still = fc.missing
		}
	}
	for i := range fc.slots {
		var ok bool
		switch {
		case fc.slots[i].field == cfRef:
			ok = true // a reference the processing leaves as it is
		case i < 64 && known&(1<<i) != 0:
			ok = true
		case i < 64 && still&(1<<i) != 0:
		default:
			_, ok = p.s.comps[string(fc.slotID(i))]
			if ok && i < 64 {
				known |= 1 << i
			}
		}
		miss = append(miss, !ok)
		if !ok {
			if i < 64 {
				gone |= 1 << i
			}
			missing++
			fields |= 1 << fc.slots[i].field
		}
	}
	p.e.missScratch = miss
	fc.arrivedIn, fc.arrived, fc.missing = p.s, known, gone
	// An empty list makes the processed form depend on the buffer: the
	// lists the stream is still filling get the loading_children_<id>
	// placeholder (no missing child waits for it).
	open := p.e.openScratch[:0]
	var openPH *phName
	if len(fc.empty) > 0 {
		p.usesBuf = true
		nOpen := 0
		for _, l := range fc.empty {
			open = append(open, p.e.listStillOpen(l.listField()))
			if open[len(open)-1] {
				missing++
				nOpen++
				fields |= 1 << l.field
			}
		}
		p.e.openScratch = open
		if nOpen > 0 {
			b := append(append(p.e.phScratch[:0], "children_"...), fc.id...)
			p.e.phScratch = b
			openPH = p.e.names.placeholder(b, p.e.appendChildPlaceholderJSON)
		}
	}
	if missing == 0 && (fc.more == nil || fc.more.edits == nil) {
		return fc.src, true
	}
	// Placeholders in the order the reference's walk meets them: by child
	// field, then in list order; each once (a placeholder and its missing
	// child go together), counting the placements of each child.
	if fc.pns == nil {
		fc.pns = make([]*phName, len(fc.slots))
	}
	p.e.epoch++
	epoch := p.e.epoch
	// At most one placeholder per missing slot: grow the lists once.
	p.growLists(missing)
	if fc.nested {
		// (In the walk's order, entry_nested.go.)
		for _, ev := range fc.walkOrder() {
			if ev < 0 {
				p.placeOpen(open[-1-ev], openPH, epoch)
			} else if miss[ev] {
				p.placeMissing(fc, int(ev), epoch)
			}
		}
	}
	for f := range uint8(cfNestedList + 1) {
		if fields&(1<<f) == 0 || fc.nested {
			continue
		}
		for j, l := range fc.empty {
			if l.field == f {
				p.placeOpen(open[j], openPH, epoch)
			}
		}
		for i, sl := range fc.slots {
			if sl.field == f && miss[i] {
				p.placeMissing(fc, i, epoch)
			}
		}
	}
	if out == nil {
		n := len(fc.src) + missing*len("loading_")
		if openPH != nil {
			n += len(fc.empty) * (len(openPH.ph) + 2)
		}
		out = make([]byte, 0, n)
	}
	last, j, k := 0, 0, 0
	for i, sl := range fc.slots {
		if !miss[i] {
			continue
		}
		// The open lists and path edits before this slot (slots, lists
		// and edits are in byte order).
		for ; j < len(fc.empty) && fc.empty[j].at < sl.a; j++ {
			out, last, k = fc.putEdits(out, last, k, int(fc.empty[j].at))
			out, last = fc.putOpenList(out, last, j, open[j], openPH)
		}
		if fc.more != nil {
			out, last, k = fc.putEdits(out, last, k, int(sl.a))
		}
		out = append(out, fc.src[last:sl.a]...)
		out = append(out, "loading_"...)
		last = int(sl.a)
	}
	for ; j < len(fc.empty); j++ {
		out, last, k = fc.putEdits(out, last, k, int(fc.empty[j].at))
		out, last = fc.putOpenList(out, last, j, open[j], openPH)
	}
	out, last, _ = fc.putEdits(out, last, k, len(fc.src))
	return append(out, fc.src[last:]...), false
}

// growLists makes room for missing more elements in p's four lists: in
// arrays of that size allocated at once (listRows) when none has room
// and all are empty, as when a component first has missing children (up
// to 8), else each in its own.
func (p *placeholderSet) growLists(missing int) {
	if missing <= 8 && len(p.extra)+len(p.extraJS)+len(p.waits)+len(p.waitN) == 0 &&
		cap(p.extra) < missing && cap(p.extraJS) < missing && cap(p.waits) < missing && cap(p.waitN) < missing {
		p.extra, p.extraJS, p.waits, p.waitN = listRows(max(2, missing))
		return
	}
	p.extra, p.extraJS = slices.Grow(p.extra, missing), slices.Grow(p.extraJS, missing)
	p.waits, p.waitN = slices.Grow(p.waits, missing), slices.Grow(p.waitN, missing)
}

// placeOpen adds, for an empty list the stream is still filling (open),
// the placeholder ph of its component's open lists. (A list with no
// slots: it is the field's only placement. All its open lists take one
// placeholder, added once; so does a child named children_<id>, see
// emptyClash: idx -1 says no child waits for it yet.)
func (p *placeholderSet) placeOpen(open bool, ph *phName, epoch uint64) {
	if open && ph.mark != epoch {
		ph.mark, ph.idx = epoch, -1
		p.extra = append(p.extra, ph.ph)
		p.extraJS = append(p.extraJS, ph.js)
	}
}

// placeMissing adds the placeholder of fc's slot i, a missing child (once
// per processing, epoch), and counts its placement.
func (p *placeholderSet) placeMissing(fc *fastComp, i int, epoch uint64) {
	pn := fc.pns[i]
	if pn == nil {
		pn = p.e.names.placeholder(fc.slotID(i), p.e.appendChildPlaceholderJSON)
		fc.pns[i] = pn
	}
	switch {
	case pn.mark != epoch:
		pn.mark = epoch
		p.extra = append(p.extra, pn.ph)
		p.extraJS = append(p.extraJS, pn.js)
	case pn.idx >= 0:
		p.waitN[pn.idx]++
		return
	}
	pn.idx = int32(len(p.waits))
	p.waits = append(p.waits, pn.id())
	p.waitN = append(p.waitN, 1)
}

// putOpenList writes, after out (which holds fc.src up to last), the bytes
// up to empty list j and, when it is open, the placeholder ph in it.
func (fc *fastComp) putOpenList(out []byte, last, j int, open bool, ph *phName) ([]byte, int) {
	if !open {
		return out, last
	}
	at := int(fc.empty[j].at)
	out = append(out, fc.src[last:at]...)
	return appendJSONString(out, ph.ph), at
}

// listStillOpen is the reference's check that an empty child list is a
// list still arriving: the last `"field"` in the buffered message is
// followed by a '[' with no ']' before it. The answer is kept per field
// (openList) and brought up to date from the bytes buffered since the last
// call, so that a component with an empty list, processed again at every
// chunk while its message arrives, costs linear work in the message, not
// a search of the whole buffer each time (quadratic).
func (e *progressiveEngine) listStillOpen(field string) bool {
	c, term := &e.openLists[0], keyChildren
	if field == "explicitList" {
		c, term = &e.openLists[1], keyExplicitList
	}
	buf := e.sc.buf
	if !c.set || c.gen != e.sc.msgGen || len(buf) < c.scanned {
		// (While msgGen stays, buf only grows.)
		*c = openList{set: true, gen: e.sc.msgGen, after: -1, open: -1}
	}
	// A key that ends in the new bytes is the last one.
	from := max(0, c.scanned-len(term)+1)
	c.examined += len(buf) - from
	if k := bytes.LastIndex(buf[from:], term); k >= 0 {
		c.after = from + k + len(term)
		c.open, c.closed, c.read = -1, false, c.after
	}
	c.scanned = len(buf)
	if c.after < 0 {
		return false
	}
	if c.open < 0 {
		// The first '[' after the key, and whether a ']' came before it.
		rest := buf[c.read:]
		c.examined += len(rest)
		if k := bytes.IndexByte(rest, '['); k >= 0 {
			c.open, rest = c.read+k, rest[:k]
		}
		c.closed = c.closed || bytes.IndexByte(rest, ']') >= 0
		c.read = len(buf)
	}
	return c.open >= 0 && !c.closed
}

// openList is listStillOpen's record for one field in the message of
// generation gen: buf[:scanned] was searched for the field's key, the last
// one ends at after (-1: none), and buf[after:read] was read for the first
// '[' (open, -1 until found) and a ']' before it (closed). examined
// counts the bytes searched, for tests.
type openList struct {
	set                        bool
	gen                        uint64
	scanned, after, open, read int
	closed                     bool
	examined                   int
}

var (
	keyChildren     = []byte(`"children"`)
	keyExplicitList = []byte(`"explicitList"`)
)

// idSignature is one bit of 64 chosen by an id's length and last byte: ids
// with distinct signatures are distinct, which spares most comparisons
// when looking for repeats among a few ids.
func idSignature(id string) uint64 {
	h := uint(len(id))
	if len(id) > 0 {
		h += uint(id[len(id)-1]) * 7
	}
	return 1 << (h & 63)
}
