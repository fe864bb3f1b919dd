package parser

import (
	"encoding/json"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// pframe is one open container.
type pframe struct {
	open    byte     // '{' or '['
	key     keyClass // the key it is the value of (keyOther if none)
	start   int      // offset of the opening byte in buf
	flags   uint8
	sniffed int // size when last healed
}

// progScan is the byte-level state of the progressive scanner: a loose
// structural tokenizer that, like the reference, tracks only strings and
// brackets and tolerates anything else. It reads only bytes complete
// mode's grammar accepted, unless the block lost count of its brackets
// (scan_grammar.go).
type progScan struct {
	buf []byte
	// msgGen counts resetMsg calls. Every cut of buf comes with one, so
	// while it stays the same buf only grows: its bytes so far stay.
	msgGen uint64
	stack  []pframe
	// compLow is a stack index below which no frame has both the "id"
	// and "component" flags: sniffComponents looks at the frames from
	// there up only (the outer ones, the block's list and the message's
	// objects, are none). Pushes raise it past frames without flags,
	// pops lower it to the stack's length, keyFound lowers it to a frame
	// given either flag.
	compLow int
	inList  bool

	inStr    bool
	esc      bool
	strStart int      // offset of the open string's quote in buf
	strSig   bool     // bytes of the open string can change a healed result
	strIsVal bool     // the open string is a value (after ':')
	strKey   keyClass // its key when it is a value

	afterStr    bool // a string closed and only whitespace followed
	afterStrAdj bool // ... and nothing at all followed
	prevColon   bool
	valKey      keyClass
	valKeyCut   bool
	lastStrA    int // content bounds of the last closed string
	lastStrB    int

	// Facts about the buffered message (reset when it completes).
	bufSurface  string
	bufRoot     string
	bufVersion  string
	hasBufRoot  bool
	compTok     bool                // a "components" string token
	dataTokV08  bool                // a "dataModelUpdate" token
	dataTokV09  bool                // an "updateDataModel" token
	known       map[int]knownObject // components decoded in the buffered message
	stubs       int                 // fast components among known
	knownMax    int                 // the most entries known had in the block
	foundValid  bool
	content     bool // the block has a byte other than whitespace
	sig         bool // a significant byte arrived since the last sniff
	blockOff    int64
	off         int64 // stream offset of the byte being scanned
	blockOffSet bool

	utf8need byte
	utf8lo   byte
	utf8hi   byte
}

func (s *progScan) init() {
	s.stack = make([]pframe, 0, 16)
}

// push opens container f (a frame without flags).
func (s *progScan) push(f pframe) {
	if s.compLow == len(s.stack) {
		s.compLow++
	}
	s.stack = append(s.stack, f)
}

// pop closes the innermost container.
func (s *progScan) pop() {
	s.stack = s.stack[:len(s.stack)-1]
	s.compLow = min(s.compLow, len(s.stack))
}

// resetBlock drops the state of the current block.
func (s *progScan) resetBlock() {
	s.buf = s.buf[:0]
	s.stack, s.compLow = s.stack[:0], 0
	s.inList, s.inStr, s.esc = false, false, false
	s.afterStr, s.afterStrAdj, s.prevColon = false, false, false
	s.resetMsg()
	s.foundValid, s.content = false, false
	clear(s.known)
	s.sig = false
	s.blockOffSet = false
	s.utf8need = 0
}

// resetMsg forgets what was learnt from the buffered message.
func (s *progScan) resetMsg() {
	s.msgGen++
	s.bufSurface, s.bufRoot, s.hasBufRoot, s.bufVersion = "", "", false, ""
	s.compTok, s.dataTokV08, s.dataTokV09 = false, false, false
	s.stubs = 0
	clear(s.known)
}

// scan feeds seg through the scanner, dispatching completed objects.
func (e *progressiveEngine) scan(seg []byte, off int64) error {
	s := &e.sc
	if !s.blockOffSet {
		s.blockOff, s.blockOffSet = off, true
	}
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		if len(s.stack) == 0 {
			// (What lies between messages is the grammar's to judge, UTF-8
			// included: a fence marker may hold any byte.)
			// Outside any message: only an opening bracket matters.
			if !jsonwire.IsSpace(c) {
				s.content = true
			}
			if c == '[' || c == '{' {
				s.buf = append(s.startBuf(), c)
				s.push(pframe{open: c, start: 0})
				s.inList = c == '['
				s.resetMsg()
				s.sig = true
			}
			continue
		}
		if c >= 0x80 || s.utf8need != 0 {
			if !s.utf8step(c) {
				return &SyntaxError{Offset: off + int64(i), Msg: "invalid UTF-8", Err: ErrInvalidUTF8}
			}
		}
		if s.inStr {
			// Fast path through plain string content (a control byte,
			// which only a block that lost count lets through, takes the
			// byte path below, to the same effect).
			j := i
			if !s.esc && jsonwire.IsPlain(c) { // (a quote or backslash: no run)
				j = jsonwire.PlainRun(seg, i)
			}
			if j > i {
				s.buf = append(s.buf, seg[i:j]...)
				if s.strSig {
					s.sig = true
				}
				i = j - 1
				continue
			}
			s.buf = append(s.buf, c)
			switch {
			case s.esc:
				s.esc = false
			case c == '\\':
				s.esc = true
			case c == '"':
				s.inStr = false
				s.sig = true
				e.stringClosed()
				continue
			}
			if s.strSig {
				s.sig = true
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			s.buf = append(s.buf, c)
			s.afterStrAdj = false
			continue
		case '"':
			s.buf = append(s.buf, c)
			s.inStr, s.esc = true, false
			s.strStart = len(s.buf) - 1
			s.strIsVal = s.prevColon
			s.strKey = s.valKey
			switch {
			case s.prevColon:
				s.strSig = s.valKeyCut
			default:
				s.strSig = s.stack[len(s.stack)-1].open == '['
			}
			s.prevColon, s.afterStr = false, false
			s.sig = true
		case ':':
			s.buf = append(s.buf, c)
			if s.afterStr {
				e.keyFound()
			} else {
				s.valKey, s.valKeyCut = keyOther, false
			}
			s.prevColon = true
			s.afterStr = false
			s.sig = true
		case '{', '[':
			if len(s.stack) >= e.maxDepth {
				return &SyntaxError{Offset: off + int64(i), Msg: "JSON nested too deep", Err: ErrTooDeep}
			}
			fk := keyOther
			if s.prevColon {
				fk = s.valKey
			}
			s.push(pframe{open: c, key: fk, start: len(s.buf)})
			s.buf = append(s.buf, c)
			s.prevColon, s.afterStr = false, false
			s.sig = true
		case '}':
			s.prevColon, s.afterStr = false, false
			s.sig = true
			f := s.stack[len(s.stack)-1]
			s.pop()
			s.buf = append(s.buf, '}')
			if err := e.objectClosed(f); err != nil {
				return err
			}
			if len(s.stack) > 0 {
				e.resniff()
			}
		case ']':
			s.prevColon, s.afterStr = false, false
			if s.stack[len(s.stack)-1].open != '[' {
				continue // a stray ']' is dropped, as the reference does
			}
			s.sig = true
			s.pop()
			s.buf = append(s.buf, ']')
			if len(s.stack) == 0 {
				// The list closed; what was read stays current until the
				// next message starts, as in the reference.
				s.inList = false
				continue
			}
			e.resniff()
		default:
			s.buf = append(s.buf, c)
			s.prevColon, s.afterStr = false, false
			s.sig = true
		}
	}
	s.off = off + int64(len(seg))
	return nil
}

// utf8step advances the incremental UTF-8 validator by one byte.
func (s *progScan) utf8step(c byte) bool {
	if s.utf8need == 0 {
		if c < 0x80 {
			return true
		}
		size, lo, hi := jsonwire.UTF8Lead(c)
		if size == 0 {
			return false
		}
		s.utf8need, s.utf8lo, s.utf8hi = byte(size-1), lo, hi
		return true
	}
	if c < s.utf8lo || c > s.utf8hi {
		return false
	}
	s.utf8need--
	s.utf8lo, s.utf8hi = 0x80, 0xBF
	return true
}

// objectClosed handles a '}' that closed frame f (already popped).
func (e *progressiveEngine) objectClosed(f pframe) error {
	s := &e.sc
	if f.open != '{' {
		return nil
	}
	topLevel := len(s.stack) == 0 || (s.inList && len(s.stack) == 1 && s.stack[0].open == '[')
	isComp := f.flags&(flagID|flagComponent) == flagID|flagComponent
	isProto := s.inList && f.flags&e.kindFlags() != 0
	var err error
	parsed := false
	if isComp && !topLevel && e.fam != protocol.FamilyUnknown && s.isComponentElement(e.bodyKey()) {
		switch e.cs.scanAt(s.buf[f.start:], e.fam == protocol.FamilyV08, s.msgGen, f.start) {
		case compInvalid:
			return nil
		case compSkip:
			// (Not registered: the enclosing message decodes it when it
			// closes, and addComponents skips it.)
			if !s.foundValid && json.Valid(s.buf[f.start:]) {
				s.foundValid = true
			}
			return nil
		case compFast:
			renderable := e.renderable()
			// Read at byte level; the enclosing message reuses it.
			s.foundValid = true
			sc := e.state(e.surface)
			ent := e.csEntry(sc)
			var fc *fastComp
			if !e.cs.emptyObj && renderable {
				fc = e.growFast(sc, ent)
			}
			if fc == nil {
				fc = e.fastResult(ent)
			}
			e.disown(fc) // shared with the enclosing message from now on
			s.remember(f.start, fc)
			s.stubs++
			if !fc.emptyObj && renderable {
				e.putFastEnt(sc, fc, ent)
				e.dirty = true
			}
			return nil
		}
	}
	if (topLevel || isProto) && !isComp && s.stubs == 0 && f.flags&(flagDataV08|flagDataV09) != 0 {
		// A data model message is read in its canonical encoding.
		if parsed, err = e.completeData(s.buf[f.start:]); parsed {
			s.foundValid = true
		}
	}
	if !parsed && (topLevel || isComp || isProto) {
		var obj map[string]any
		var ok bool
		if s.stubs > 0 && !topLevel {
			// Only the top-level message may read byte-level components.
			obj, ok = decodeObject(s.buf[f.start:])
		} else {
			obj, ok = decodeObjectKnown(s.buf[f.start:], f.start, s.known)
			if ok && s.stubs > 0 && !e.stubsHandled(obj, isComp) {
				obj, ok = decodeObject(s.buf[f.start:])
			}
		}
		if ok {
			parsed = true
			s.foundValid = true
			if isComp && truthy(obj["id"]) && truthy(obj["component"]) {
				// The enclosing message reuses this decoding.
				s.remember(f.start, obj)
				e.handlePartialComponent(obj)
			} else if topLevel || isProto {
				err = e.handleMessage(obj)
			}
		}
	} else if !s.foundValid && json.Valid(s.buf[f.start:]) {
		s.foundValid = true
	}
	// A completed top-level message is dropped from the buffer. One that
	// does not parse stays (until the block ends), as in the reference,
	// where what was read from it still counts.
	if topLevel && parsed {
		if len(s.stack) == 0 {
			s.buf = s.buf[:0]
		} else {
			s.buf = s.buf[:1]
		}
		s.resetMsg()
	}
	return err
}

// isComponentElement reports whether the object just closed (already
// popped) is an element of the "components" list of an updateComponents
// body of a top-level message.
func (s *progScan) isComponentElement(bodyKey keyClass) bool {
	n := len(s.stack)
	if n < 3 {
		return false
	}
	arr, body, msg := s.stack[n-1], s.stack[n-2], n-3
	if arr.open != '[' || arr.key != keyComponents || body.open != '{' || body.key != bodyKey || s.stack[msg].open != '{' {
		return false
	}
	if s.inList {
		return msg == 1 && s.stack[0].open == '['
	}
	return msg == 0
}

// bodyKey is the key of the component message body of the family.
func (e *progressiveEngine) bodyKey() keyClass {
	if e.fam == protocol.FamilyV08 {
		return keySurfaceUpdate
	}
	return keyUpdateComponents
}

// stubsHandled reports whether a top-level message decoded with byte-level
// components in it is handled by the updateComponents path, the only one
// that reads them; otherwise it must be decoded again in full.
func (e *progressiveEngine) stubsHandled(obj map[string]any, isComp bool) bool {
	if isComp && truthy(obj["id"]) && truthy(obj["component"]) {
		return false
	}
	if e.fam == protocol.FamilyUnknown {
		return false // (components are read under a family's rules)
	}
	if e.fam == protocol.FamilyV08 {
		// handleV08 reads a surfaceUpdate's components (now or, pending,
		// later) unless the message is also one it yields whole.
		_, su := obj[kSurfaceUpdate]
		_, br := obj[kBeginRendering]
		_, ds := obj[kDeleteSurface]
		return su && !br && !ds
	}
	_, uc := obj[kUpdateComponents]
	_, cs := obj[kCreateSurface]
	return uc && !cs
}

// fastResult returns the component e.cs just read, reusing the one its
// entry ent (see csEntry) holds when it has the same bytes.
func (e *progressiveEngine) fastResult(ent *compEntry) *fastComp {
	c := &e.cs
	if ent != nil && ent.fast != nil && string(ent.fast.src) == string(c.out) {
		return ent.fast
	}
	return c.result(&e.names)
}

// kindFlags are the flags of the message kinds the reference recognises as
// protocol messages inside a list, for the current family.
func (e *progressiveEngine) kindFlags() uint8 {
	switch e.fam {
	case protocol.FamilyV08:
		return flagKindV08
	case protocol.FamilyV09:
		return flagKindV09
	}
	return flagKindV08 | flagKindV09
}

// truthy is Python truthiness for decoded JSON values.
func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case json.Number:
		f, err := x.Float64()
		return err != nil || f != 0
	case map[string]any:
		return len(x) > 0
	case []any:
		return len(x) > 0
	}
	return true
}
