package parser

import (
	"bytes"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// dataReader follows a data model message (v0.9 family: updateDataModel;
// v0.8: dataModelUpdate) while it arrives, so that sniffing it does not
// decode the whole message again after every chunk. It reads each byte of
// the message once, checking it is valid JSON as far as it goes (the
// grammar jsonDecoder accepts), and keeps what a decoding of the healed
// message would give that does not depend on where it is cut: the members
// of the message, of its body and of the body's data ("value" or
// "contents") that are complete, each data entry already encoded. Only
// the member still arriving is decoded at a sniff.
//
// The bytes of an open message only grow, so what the reader learnt stays
// true as long as the buffer was not cut since (the scanner's msgGen is the
// same); after a cut (a new message), the reader starts again.
type dataReader struct {
	fs     int    // offset of the message's '{' in the buffer
	pos    int    // offset of the next byte to read
	gen    uint64 // the scanner's msgGen when the reader started
	active bool
	failed bool // not valid JSON at the byte read last (see freeze)
	v08    bool
	// end is the end of the bytes read: the buffer's, or (frozen) the
	// last comma before the byte that made the message invalid JSON.
	end    int
	frozen bool
	none   bool // frozen with no comma before that byte: nothing heals

	stack []drFrame

	// The token being read.
	lex  uint8
	esc  uint8             // string: 1 after a backslash, 2..5 in a \u escape
	num  jsonwire.NumState // number grammar state
	lit  string
	litI int
	tok  int // offset of the string token's quote

	// The last comma between members or elements, and the number of
	// containers open there; strComma: the last comma in the string
	// being read (-1: none).
	comma, commaDepth int
	strComma          int

	// body is the open body (stack[1] when its role is roleBody); cbody
	// the last complete one, valid when cbodyOK (the message's last body
	// member was an object).
	body, cbody dataBody
	cbodyOK     bool
	// cont is the open data (stack[2] when its role is roleContents).
	cont dataContents

	// mayCut's answer for the string at tok, once known for good.
	cutSet, cutOK bool
	cutTok        int
	// latest's answer for the data latestID with latestN elements.
	latestIdx []int
	latestID  uint64
	latestN   int
	latestSup int // of the contents' superseded elements

	ids     uint64      // the last data id given
	checked dataChecked // what the last sniff left equal to the record

	enc     []byte       // scratch for encodings
	changed []dataEntry  // scratch: the entries a sniff yields
	recIdx  []int32      // scratch: the indices in the data of the complete ones
	kept    []dataEntry  // scratch: those left by the delta reduction
	acc     []dataEntry  // scratch: the entries a v0.8 delta yield accumulates
	list    []string     // scratch: the v0.8 entries a sniff yields
	check   []dataElem   // scratch: the v0.8 elements a sniff compares
	flat    []flatMember // scratch for flatElement
	canon   []byte       // scratch: a canonical encoding (canonElement)
	msg     []byte       // scratch: a complete message, canonical (yieldEncoded)
	pruned  []byte       // scratch: prunedContents's message
	encs    []keyedEnc   // scratch: the entries dedupeEncoded compares
	cw      canonWriter
	hb      []byte // scratch: the healed member arriving

	links []*keyRecord // the records linked to its data (see keyRecord)
}

// drFrame is an open container of the message.
type drFrame struct {
	open byte  // '{' or '['
	st   uint8 // drObjStart ...
	role uint8 // roleMsg ...
	mkey uint8 // the class of the current member's key (message and body)
	key  string
	val  int // offset of the current member's value
	n    int // complete members
}

// Container states.
const (
	drObjStart uint8 = iota // after '{'
	drObjKey                // after ',': a key must follow
	drObjColon              // after a key
	drObjValue              // after ':'
	drObjAfter              // after a member's value
	drArrStart              // after '['
	drArrValue              // after ','
	drArrAfter              // after an element
)

// Roles of a container.
const (
	roleOther    uint8 = iota
	roleMsg            // the message
	roleBody           // the message's body (an object)
	roleContents       // the body's data: "value" (an object) or "contents" (an object or a list)
)

// Member key classes.
const (
	mkOther    uint8 = iota
	mkBody           // the message kind key
	mkSurface        // "surfaceId" in the body
	mkPath           // "path" in the body
	mkContents       // "value" or "contents" in the body
)

// Tokens.
const (
	lexNone uint8 = iota
	lexKey
	lexStr
	lexNum
	lexLit
)

// dataBody is what is known of a body object: its last surfaceId and path
// members and its last complete data member (valid when contOK: it was an
// object, or for v0.8 an object or a list).
type dataBody struct {
	sid, path memberValue
	cont      dataContents
	contOK    bool
}

// memberValue is the decoded value of a member, when it has one.
type memberValue struct {
	set bool
	v   any
}

// dataChecked is what a sniff left equal to the record of yielded data:
// at generation gen of the record (progressiveEngine.dataGen), the record
// d of slot holds the value of each of the first n entries (elements) of
// the data with id (repl replacements), but for key openKey, where it
// holds the value of the entry arriving then (when open). A later sniff
// of the same data at the same generation compares only the rest.
type dataChecked struct {
	gen     int
	slot    dataSlot
	d       *keyRecord
	id      uint64
	repl, n int
	open    bool
	openKey string
}

// from is the index of the first entry (element) of c a sniff at
// generation gen for slot must compare, and the record of the slot when
// known.
func (k *dataChecked) from(c *dataContents, gen int, slot dataSlot) (int, *keyRecord) {
	if k.id == 0 || k.id != c.id || k.repl != c.repl || k.gen != gen || k.slot != slot {
		return 0, nil
	}
	return k.n, k.d
}

func (b *dataBody) reset() {
	b.sid, b.path = memberValue{}, memberValue{}
	b.cont.reset(false, 0)
	b.contOK = false
}

// sync makes the reader follow the message starting at fs in buf (cut
// last at the scanner's msgGen gen) and reads the bytes that arrived.
//
// A message that is not valid JSON so far (the reference's reading of a
// block whose bracket count is lost, see lostCount) is read up to the
// comma where healing it succeeds: see freeze.
func (r *dataReader) sync(buf []byte, gen uint64, fs int, v08 bool) {
	if !r.active || r.gen != gen || r.fs != fs || r.v08 != v08 || r.end > len(buf) {
		r.start(gen, fs, v08)
	}
	if r.frozen {
		return
	}
	if x := r.read(buf); x >= 0 {
		r.freeze(buf, x)
	}
}

// freeze handles the byte at x that made the message invalid JSON. Its
// healings from the end of the buffer back to x are not valid JSON (healing
// appends closers to a text, or drops a trailing comma and space), so the
// healed message is that of the text cut at the last comma before x, as
// the reader gives it for a buffer ending there; it stays so while the
// buffer grows. The one exception is a comma at x right after an opening
// bracket: the text before it heals (the bracket is closed), so the
// healed message is that text's, whatever arrives after the comma.
func (r *dataReader) freeze(buf []byte, x int) {
	st := drObjAfter
	if len(r.stack) > 0 {
		st = r.stack[len(r.stack)-1].st
	}
	cut := -1
	switch {
	case buf[x] == ',' && (st == drObjStart || st == drArrStart):
		cut = x
	default:
		if c := bytes.LastIndexByte(buf[r.fs:x], ','); c >= 0 {
			cut = r.fs + c
		}
	}
	r.start(r.gen, r.fs, r.v08)
	r.frozen = true
	if cut < 0 {
		r.none = true
		return
	}
	if r.read(buf[:cut]) >= 0 {
		// (Unreachable: the text before x is valid.)
		r.none = true
	}
}

func (r *dataReader) start(gen uint64, fs int, v08 bool) {
	r.unlinkAll(gen, false)
	r.active, r.failed, r.v08 = true, false, v08
	r.frozen, r.none = false, false
	r.gen, r.fs, r.pos, r.end = gen, fs, fs, fs
	clear(r.stack)
	r.stack = r.stack[:0]
	r.lex, r.esc = lexNone, 0
	r.comma, r.commaDepth, r.strComma = -1, 0, -1
	r.body.reset()
	r.cbody.reset()
	r.cbodyOK = false
	r.cont.reset(false, 0)
	r.checked = dataChecked{}
	r.cutSet = false
}

// read reads buf[r.pos:]. It returns the offset of the byte that made
// the message invalid JSON, or -1.
func (r *dataReader) read(buf []byte) int {
	i := r.pos
	for ; i < len(buf); i++ {
		if r.failed {
			return i - 1
		}
		c := buf[i]
		switch r.lex {
		case lexKey, lexStr:
			switch {
			case r.esc == 1:
				switch {
				case c == 'u':
					r.esc = 2
				case jsonwire.IsEscape(c):
					r.esc = 0
				default:
					r.failed = true
				}
			case r.esc > 1:
				if !jsonwire.IsHex(c) {
					r.failed = true
				} else if r.esc++; r.esc == 6 {
					r.esc = 0
				}
			case c == '\\':
				r.esc = 1
			case c == '"':
				r.stringEnd(buf, i)
			case c == ',' && r.lex == lexStr:
				r.strComma = i
			case c < 0x20:
				r.failed = true
			}
			continue
		case lexNum:
			if next, ok := r.num.Next(c); ok {
				r.num = next
				continue
			}
			if !r.num.Complete() {
				r.failed = true
				continue
			}
			r.lex = lexNone
			r.valueEnd(buf, i)
			if r.failed {
				continue
			}
		case lexLit:
			if c != r.lit[r.litI] {
				r.failed = true
				continue
			}
			r.litI++
			if r.litI == len(r.lit) {
				r.lex = lexNone
				r.valueEnd(buf, i+1)
			}
			continue
		}
		r.structural(buf, i, c)
	}
	if r.failed {
		return i - 1
	}
	r.pos, r.end = len(buf), len(buf)
	return -1
}

// structural handles a byte outside any token.
func (r *dataReader) structural(buf []byte, i int, c byte) {
	if jsonwire.IsSpace(c) {
		return
	}
	if len(r.stack) == 0 {
		if c == '{' && i == r.fs {
			r.stack = append(r.stack, drFrame{open: '{', st: drObjStart, role: roleMsg})
			return
		}
		r.failed = true
		return
	}
	top := &r.stack[len(r.stack)-1]
	switch top.st {
	case drObjStart, drObjKey:
		if c == '"' {
			r.lex, r.esc, r.tok = lexKey, 0, i
			return
		}
		if c == '}' && top.st == drObjStart {
			r.close(buf, i)
			return
		}
	case drObjColon:
		if c == ':' {
			top.st = drObjValue
			return
		}
	case drArrStart, drArrValue, drObjValue:
		if c == ']' && top.st == drArrStart {
			r.close(buf, i)
			return
		}
		if r.valueStart(top, i, c) {
			return
		}
	case drObjAfter, drArrAfter:
		switch {
		case c == ',':
			r.comma, r.commaDepth = i, len(r.stack)
			if top.st == drObjAfter {
				top.st = drObjKey
			} else {
				top.st = drArrValue
			}
			return
		case c == '}' && top.st == drObjAfter, c == ']' && top.st == drArrAfter:
			r.close(buf, i)
			return
		}
	}
	r.failed = true
}

// valueStart starts the value of top's current member at buf[i] = c.
func (r *dataReader) valueStart(top *drFrame, i int, c byte) bool {
	top.val = i
	switch {
	case c == '{' || c == '[':
		role := roleOther
		switch {
		case top.role == roleMsg && top.mkey == mkBody && c == '{':
			role = roleBody
			r.unlinkData(r.body.cont.id)
			r.body.reset()
		case top.role == roleBody && top.mkey == mkContents && (c == '{' || r.v08):
			role = roleContents
			r.ids++
			r.unlinkData(r.cont.id)
			r.cont.reset(c == '[', r.ids)
		}
		st := drObjStart
		if c == '[' {
			st = drArrStart
		}
		r.stack = append(r.stack, drFrame{open: c, st: st, role: role})
	case c == '"':
		r.lex, r.esc, r.tok, r.strComma = lexStr, 0, i, -1
	case c == 't' || c == 'f' || c == 'n':
		r.lex, r.lit, r.litI = lexLit, jsonwire.Literal(c), 1
	default:
		num, ok := jsonwire.NumStart.Next(c)
		if !ok {
			return false
		}
		r.lex, r.num = lexNum, num
	}
	return true
}

// stringEnd handles the closing quote of a string at buf[i].
func (r *dataReader) stringEnd(buf []byte, i int) {
	if r.lex == lexStr {
		r.lex = lexNone
		r.valueEnd(buf, i+1)
		return
	}
	r.lex = lexNone
	top := &r.stack[len(r.stack)-1]
	top.st = drObjColon
	raw := buf[r.tok : i+1]
	top.mkey = mkOther
	switch top.role {
	case roleMsg, roleBody:
		k := raw[1 : len(raw)-1]
		if bytes.IndexByte(raw, '\\') >= 0 {
			k = []byte(keyString(raw))
		}
		switch {
		case top.role == roleMsg && r.v08 && string(k) == kDataModelUpdate, top.role == roleMsg && !r.v08 && string(k) == kUpdateDataModel:
			top.mkey = mkBody
		case top.role == roleBody && string(k) == "surfaceId":
			top.mkey = mkSurface
		case top.role == roleBody && string(k) == "path":
			top.mkey = mkPath
		case top.role == roleBody && r.v08 && string(k) == "contents", top.role == roleBody && !r.v08 && string(k) == "value":
			top.mkey = mkContents
		}
	case roleContents:
		top.key = keyString(raw)
	}
}

// close handles the '}' or ']' at buf[i] that closes the top container.
func (r *dataReader) close(buf []byte, i int) {
	f := r.stack[len(r.stack)-1]
	r.stack = r.stack[:len(r.stack)-1]
	if len(r.stack) == 0 {
		// The message itself closed: not the open message the reader
		// was asked about.
		r.failed = true
		return
	}
	top := &r.stack[len(r.stack)-1]
	switch f.role {
	case roleBody:
		r.body, r.cbody = r.cbody, r.body
		r.cbodyOK = true
		top.st, top.n = drObjAfter, top.n+1
		return
	case roleContents:
		r.body.cont, r.cont = r.cont, r.body.cont
		r.body.contOK = true
		top.st, top.n = drObjAfter, top.n+1
		return
	}
	r.valueEnd(buf, i+1)
}

// valueEnd completes the value of the top container's current member,
// buf[top.val:end].
func (r *dataReader) valueEnd(buf []byte, end int) {
	top := &r.stack[len(r.stack)-1]
	switch top.role {
	case roleMsg:
		if top.mkey == mkBody {
			r.cbodyOK = false
		}
	case roleBody:
		switch top.mkey {
		case mkSurface, mkPath:
			v, ok := decodeValue(buf[top.val:end])
			if !ok {
				r.failed = true
				return
			}
			if top.mkey == mkSurface {
				r.body.sid = memberValue{true, v}
			} else {
				r.body.path = memberValue{true, v}
			}
		case mkContents:
			r.body.contOK = false
		}
	case roleContents:
		if !r.member(buf[top.val:end], top.key, &r.cont) {
			r.failed = true
			return
		}
	}
	top.n++
	if top.open == '{' {
		top.st = drObjAfter
	} else {
		top.st = drArrAfter
	}
}

// member reads a complete entry or element of the data and records it.
func (r *dataReader) member(b []byte, key string, c *dataContents) bool {
	if c.list {
		el, ok := r.readElement(b)
		if !ok {
			return false
		}
		if el.key != "" && el.hasVal && len(r.links) > 0 {
			// The records linked to c keep the value this one replaces.
			if j, ok := c.valAt(el.key); ok {
				old := c.elem(j)
				r.pinEntry(c, j, old.key, old.cmp)
			}
		}
		c.addElem(el)
		return true
	}
	if canonicalScalar(b) {
		r.addEntry(c, key, view(b))
		return true
	}
	// The bytes of a complete member are valid UTF-8 (the scanner checked
	// them), so its two encodings are the same: its canonical encoding.
	enc, ok := r.cw.canonical(r.enc[:0], b)
	r.enc = enc
	if !ok {
		return false
	}
	r.addEntry(c, key, view(enc))
	return true
}
