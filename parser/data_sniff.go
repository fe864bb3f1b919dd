package parser

import (
	"bytes"

	"github.com/a2ui-stream/a2ui-stream/internal/deltaengine"
)

// Sniffing data model updates (the reference's "sniffing"): while a
// dataModelUpdate (v0.8) or updateDataModel (v0.9 family) message is still
// arriving, the engine heals it after each chunk, as the reference does,
// and yields the top-level data entries that are new or changed since they
// were last yielded.
//
// The outcome is the reference's: that of decoding the healed message,
// where a healed message that is not valid JSON is cut back at its last
// comma, again and again, until a prefix heals into an object. The data
// model reader (dataReader) gives that outcome without decoding the
// message: it follows the message byte by byte as it arrives and keeps
// its complete data entries encoded, so that a sniff only decodes the
// entry still arriving. It reads every shape the reference sniffs: a
// message, a data model object nested in one (sniffed as a message of its
// own), a string cut inside an escape, and a message that is not valid
// JSON (a block whose bracket count is lost, read the reference's way).

// surfaceOr is s when it is not empty, else the current surface, else
// "default".
func (e *progressiveEngine) surfaceOr(s string) string {
	if s != "" {
		return s
	}
	if e.surface != "" {
		return e.surface
	}
	return defaultSurface
}

// sniffData sniffs the open objects with the data model key of flag,
// innermost first: it yields the entries of a v0.8 dataModelUpdate
// (flagDataV08), or the changed top-level entries of a v0.9
// updateDataModel value (flagDataV09), still arriving.
func (e *progressiveEngine) sniffData(flag uint8) {
	s := &e.sc
	for i := len(s.stack) - 1; i >= 0; i-- {
		f := &s.stack[i]
		if f.open != '{' || f.flags&flag == 0 || !s.shouldSniff(f) {
			continue
		}
		e.sniffDataRead(i, flag == flagDataV08)
	}
	if e.data != nil {
		e.data.dropSniffScratch()
	}
	for _, r := range e.nested {
		r.dropSniffScratch()
	}
}

// Where healing a message gives valid JSON (the cut), and what the healed
// message holds there (resolve); what a sniff yields is in data_yield.go.

// dataCut is where the healed data model message ends: at the end of the
// buffer (open: with the member arriving there; inStr: a string closed by
// healing), or at a comma, with the containers open there.
type dataCut struct {
	pos, depth  int
	open, inStr bool
}

// healedText is the healed text a sniff read, without a copy of it: the
// message's first n bytes from fs (the scanner's message generation gen),
// then tail, what healing added (a closing quote, closers). The bytes of
// an open message only grow while its generation stays, so the message's
// bytes of an earlier sniff are still in the buffer.
type healedText struct {
	gen   uint64
	fs, n int
	tail  []byte
}

// same reports whether t and u (of the message in buf) are the same text.
func (t *healedText) same(u *healedText, buf []byte) bool {
	if t.gen != u.gen || t.fs != u.fs || t.n+len(t.tail) != u.n+len(u.tail) {
		return false
	}
	if t.n > u.n {
		t, u = u, t
	}
	// t's message bytes are a prefix of u's: t's tail is the rest of u.
	k := u.n - t.n
	return string(t.tail[:k]) == string(buf[t.fs+t.n:t.fs+u.n]) && string(t.tail[k:]) == string(u.tail)
}

// dataView is what a decoding of the healed message at a cut gives that
// sniffing reads.
type dataView struct {
	body      bool // the message has a body object
	sid, path memberValue
	cont      *dataContents // the body's data (nil: none, or not an object or list)
	// The entry or element arriving at the cut: its key (an entry's) and
	// healed bytes.
	open    bool
	openKey string
	openHB  []byte
	empty   bool // the healed message is {}
}

// sniffDataRead sniffs the data model message at stack index i with the
// data model reader: the block's message (or list element), or a data model
// object nested in it, which the reference sniffs as a message of its own
// (each has its reader, see nestedReader).
func (e *progressiveEngine) sniffDataRead(i int, v08 bool) {
	s := &e.sc
	if !(i == 0 && !s.inList || i == 1 && s.inList && s.stack[0].open == '[') {
		// The reader of a nested object is the data helper for its sniff.
		top := e.data
		e.data = e.nested[e.nestedReader(i)]
		defer func() { e.data = top }()
	}
	r := e.reader()
	r.sync(s.buf, s.msgGen, s.stack[i].start, v08)
	if r.none {
		return
	}
	buf := s.buf[:r.end]
	// Where healing the message gives valid JSON: healed whole, or cut back
	// at the last comma between members or elements (the commas after it
	// are in keys or in strings that may not be cut, where it fails).
	var cut dataCut
	var h []byte // the message's text up to the cut, trailing space stripped
	f := deltaengine.RStripSpace(buf[r.fs:])
	closes := r.lex != lexStr || r.mayCut(f) // healing would close the string
	switch {
	case closes && r.lex == lexStr && r.esc != 0:
		// Cut inside an escape: cut back at the last comma of the string
		// where it may be cut, else as below.
		if c := r.stringCut(buf); c >= 0 {
			cut = dataCut{pos: c, depth: len(r.stack), open: true, inStr: true}
			h = deltaengine.RStripSpace(buf[r.fs:c])
			break
		}
		if r.comma < 0 {
			return
		}
		cut = dataCut{pos: r.comma, depth: r.commaDepth}
		h = deltaengine.RStripSpace(buf[r.fs:r.comma])
	case closes && r.endHeals():
		cut = dataCut{pos: len(buf), depth: len(r.stack), open: r.lex == lexStr || r.lex == lexNum, inStr: r.lex == lexStr}
		h = f
	case r.comma < 0:
		// No prefix heals: the decoding finds nothing.
		return
	default:
		cut = dataCut{pos: r.comma, depth: r.commaDepth}
		h = deltaengine.RStripSpace(buf[r.fs:r.comma])
	}
	text := healedText{gen: r.gen, fs: r.fs}
	text.n, text.tail = r.healedTail(h, cut, e.dataTail[:0])
	e.dataTail = text.tail
	if e.dataLastGen == e.dataGen && e.dataLastSurface == e.surface && e.dataLast.same(&text, buf) {
		return
	}
	var v dataView
	if !r.resolve(buf, cut, &v) {
		return
	}
	e.dataLast, e.dataTail = text, e.dataLast.tail
	e.dataLastSurface = e.surface
	if v.empty {
		return
	}
	if v08 {
		e.sniffedReadV08(&v)
	} else {
		e.sniffedReadV09(&v)
	}
	e.dataLastGen = e.dataGen
}

// nestedReader is the index in e.nested of the reader of the data model
// object nested at stack index i: its own, a stale one, or a new one.
func (e *progressiveEngine) nestedReader(i int) int {
	s := &e.sc
	fs := s.stack[i].start
	k := -1
	for j, r := range e.nested {
		if r.gen == s.msgGen && r.fs == fs {
			return j
		}
		if k < 0 && (r.gen != s.msgGen || !s.openAt(r.fs)) {
			k = j
		}
	}
	if k < 0 {
		k = len(e.nested)
		e.nested = append(e.nested, &dataReader{})
	}
	return k
}

// openAt reports whether an open object starts at fs.
func (s *progScan) openAt(fs int) bool {
	for _, f := range s.stack {
		if f.start == fs {
			return true
		}
	}
	return false
}

// stringCut is the last comma of the string value being read (cut inside
// an escape) where the string may be cut, or -1.
func (r *dataReader) stringCut(buf []byte) int {
	for c := r.strComma; c > r.tok; c = r.tok + 1 + bytes.LastIndexByte(buf[r.tok+1:c], ',') {
		if mayCutString(deltaengine.RStripSpace(buf[r.fs:c]), r.tok-r.fs) {
			return c
		}
	}
	return -1
}

// endHeals reports whether the message read so far heals (closed at the
// end of the buffer) into valid JSON.
func (r *dataReader) endHeals() bool {
	switch r.lex {
	case lexKey, lexLit:
		return false
	case lexStr:
		return r.esc == 0
	case lexNum:
		return r.num.Complete()
	}
	st := r.stack[len(r.stack)-1].st
	return st != drObjColon && st != drObjValue
}

// healedTail returns the length of the message's text h (up to the cut,
// trailing space stripped) that the healed message keeps, and appends to
// tail what healing adds after it: closeAt's work, without a copy of h.
func (r *dataReader) healedTail(h []byte, cut dataCut, tail []byte) (int, []byte) {
	if cut.inStr {
		tail = append(tail, '"')
	} else if n := len(h); n > 0 && h[n-1] == ',' {
		h = deltaengine.RStripSpace(h[:n-1])
	}
	return len(h), r.appendClosers(tail, 0, cut.depth)
}

// closeAt closes h, healed text that ends at the cut: the string cut
// there, or else a trailing comma dropped, then the containers
// stack[from:cut.depth].
func (r *dataReader) closeAt(h []byte, cut dataCut, from int) []byte {
	if cut.inStr {
		h = append(h, '"')
	} else if n := len(h); n > 0 && h[n-1] == ',' {
		h = deltaengine.RStripSpace(h[:n-1])
	}
	return r.appendClosers(h, from, cut.depth)
}

// mayCut is mayCutString for the string arriving at the end of f (the
// message, trailing space stripped). Its answer depends on the bytes
// before the string, and on its content only through whether that starts
// with a link prefix ("https://" and shorter): once the content is longer
// than any, the answer is kept for the rest of the string.
func (r *dataReader) mayCut(f []byte) bool {
	if r.cutSet && r.cutTok == r.tok {
		return r.cutOK
	}
	q := r.tok - r.fs
	ok := mayCutString(f, q)
	if len(f)-q-1 >= maxLinkPrefix {
		r.cutSet, r.cutTok, r.cutOK = true, r.tok, ok
	}
	return ok
}

// maxLinkPrefix bounds the length of the prefixes mayCutString looks for
// at the start of a string.
const maxLinkPrefix = 16

// appendClosers closes the containers stack[from:to], innermost first.
func (r *dataReader) appendClosers(h []byte, from, to int) []byte {
	for j := to - 1; j >= from; j-- {
		if r.stack[j].open == '{' {
			h = append(h, '}')
		} else {
			h = append(h, ']')
		}
	}
	return h
}

// healedMember is the value of the member of stack[l] arriving at the
// cut, healed as the whole message is (valid until the next call).
func (r *dataReader) healedMember(buf []byte, l int, cut dataCut) []byte {
	r.hb = r.closeAt(append(r.hb[:0], deltaengine.RStripSpace(buf[r.stack[l].val:cut.pos])...), cut, l+1)
	return r.hb
}

// resolve fills v with what the healed message at the cut holds: the last
// body member (the one arriving at the cut, if any, else the last
// complete one), its last surfaceId, path and data members, and the data's
// complete entries and the one arriving.
func (r *dataReader) resolve(buf []byte, cut dataCut, v *dataView) bool {
	st := r.stack[:cut.depth]
	// incl reports whether the member of st[l] arriving is in the cut.
	incl := func(l int) bool { return l < len(st)-1 || l == len(st)-1 && cut.open }
	v.empty = st[0].n == 0 && !incl(0)
	switch {
	case len(st) >= 2 && st[1].role == roleBody:
		b := &r.body
		v.body, v.sid, v.path = true, b.sid, b.path
		if b.contOK {
			v.cont = &b.cont
		}
		if !incl(1) {
			break
		}
		switch st[1].mkey {
		case mkSurface, mkPath:
			val, ok := decodeValue(r.healedMember(buf, 1, cut))
			if !ok {
				return false
			}
			if st[1].mkey == mkSurface {
				v.sid = memberValue{true, val}
			} else {
				v.path = memberValue{true, val}
			}
		case mkContents:
			v.cont = nil
			if len(st) < 3 || st[2].role != roleContents {
				break
			}
			v.cont = &r.cont
			if incl(2) {
				v.open, v.openKey, v.openHB = true, st[2].key, r.healedMember(buf, 2, cut)
			}
		}
	case incl(0) && st[0].mkey == mkBody:
		// The body arriving is not an object.
	case r.cbodyOK:
		b := &r.cbody
		v.body, v.sid, v.path = true, b.sid, b.path
		if b.contOK {
			v.cont = &b.cont
		}
	}
	return true
}
