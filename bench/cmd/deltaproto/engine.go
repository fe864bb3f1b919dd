package main

import (
	"hash/maphash"
	"slices"
	"unicode/utf8"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

const (
	openTag  = "<a2ui-json>"
	closeTag = "</a2ui-json>"
)

// keyNames are the keys that matter, at depth 2 (message), 3 (body), 5
// (component), 7 (v0.8: a component's properties) or 8 (v0.8: its
// children); a key's class is its index + 1, or 0.
var keyNames = [...]string{"version", "createSurface", "updateComponents", "updateDataModel", "surfaceId", "components", "id", "component", "child", "children", "path", "value",
	"beginRendering", "surfaceUpdate", "dataModelUpdate", "root", "explicitList"}

const (
	kVersion, kCreate, kUpdate, kData, kSurfaceID, kComponents, kID, kComponent, kChild, kChildren, kPath, kValue uint8 = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
	kBegin, kSurfaceUpdate, kDataModel, kRoot, kExplicitList                                                      uint8 = 13, 14, 15, 16, 17
)

func classify(key []byte) uint8 {
	for i, n := range keyNames {
		if n == string(key) {
			return uint8(i + 1)
		}
	}
	return 0
}

// cuttable reports whether a string under key may be closed early, as the
// parser's cuttableKey.
func cuttable(key []byte) bool {
	switch string(key) {
	case "literalString", "valueString", "label", "hint", "caption", "altText", "text":
		return true
	}
	return false
}

// frame is an open container; keyA:keyB is (in buf) the key of the object
// member being read, and key its class.
type frame struct {
	open, key  byte
	wantKey    bool
	keyA, keyB int
}

type slot struct{ a, b int32 } // a child id in a component's bytes

// ref is a child reference of a component: the id in its bytes, and the
// entry of that id.
type ref struct {
	slot
	kid *entry
}

// entry is a component id of a surface: one that arrived (src holds its
// last healed bytes), or one only referenced so far.
type entry struct {
	s             *surface
	id            string
	src           []byte
	refs          []ref
	waiters       []*entry // parents to yield again when it arrives
	hash          uint64   // of the form last yielded
	parents       int32    // references from reachable components
	arrived       bool
	reach, queued bool
	phYielded     bool // its placeholder was yielded
	// missing: its children still missing when it was last yielded;
	// woke: how many of them arrived since (see wake).
	missing, woke int32
	deferred      bool // in engine.deferred
	// Progressive mode: its form last yielded, the entries whose
	// placeholders it names, and the snapshot that last wrote its own
	// placeholder (see snapshot).
	form    []byte
	phs     []*entry
	snapGen uint32
}

type surface struct {
	id, version string
	comps       map[string]*entry
	root        string   // the id of its root component
	reach       []*entry // its reachable entries (progressive mode)
	sorted      int      // reach[:sorted] is sorted by id (see sortReach)
}

// part is what a chunk yields, lent until the next feed.
type part struct {
	text string
	msgs [][]byte
}

type engine struct {
	inBlock       bool
	tagPos, textA int
	text          string

	buf                         []byte // the block, without whitespace outside strings
	stack                       []frame
	inStr, esc, isKey, inScalar bool
	pending                     uint8 // 1: a key awaits its colon, 2: a colon its value
	expect                      uint8 // what the grammar takes next (eListOpen...)
	hexLeft                     int8  // hex digits of a \u escape still to come
	strHigh                     bool  // the open string has a non-ASCII byte
	failed                      bool  // the block failed: the rest of it is skipped
	errs                        int   // blocks failed
	blockMsgs                   int   // messages the block began
	strStart, cutAt, healLen    int   // open string (or scalar); end of the last complete member; len(buf) at the last heal

	msgStart, verA, verB int
	rootA, rootB         int  // v0.8: the root a beginRendering names (-1: none)
	v08                  bool // the stream is of the v0.8 family
	msgKind              uint8
	cur                  *surface

	compStart, idA, idB, typeZ int // the open component (-1: none), its id, the end of its type
	listA, listD               int // the '[' of its open children list (-1: none), and its depth
	compSniffed, msgSniffed    int // the open component's and message's size when last healed (see grown)
	spaces                     int // the block's spaces outside strings, dropped from buf
	compSpaces, msgSpaces      int // spaces when the open component and message opened

	// The open data model message: its value object's '{' and its path
	// (-1: none), and what it yielded of its entries (see dataEntries).
	valueA, pathA, pathB int
	dataSent             bool
	dataLast             uint64 // progressive mode: hash of its message last yielded
	dataRec              map[string]uint64
	dents                []dataEntry
	slots                []slot
	hslots               []slot

	surfaces                               map[string]*surface
	queue, rest, ents, phs, walk, deferred []*entry
	slab                                   []entry
	wslab                                  []*entry
	tail, canon                            []byte
	cw                                     canonWriter

	out   []byte // the chunk's messages, bounded by offs in pairs
	offs  []int
	msgs  [][]byte
	parts []part
	seed  maphash.Seed

	cutBack          bool // heal a component cut where a string cannot be cut
	progressive      bool // yield snapshots (progressive mode), not changes
	snapGen          uint32
	scratch          []byte
	yields, outBytes int
}

func newEngine() *engine {
	return &engine{compStart: -1, listA: -1, valueA: -1, dataRec: map[string]uint64{}, healLen: -1, surfaces: map[string]*surface{}, seed: maphash.MakeSeed()}
}

// feed reads one chunk and returns what it yields.
func (k *engine) feed(chunk []byte) []part {
	k.out, k.offs, k.textA = k.out[:0], k.offs[:0], 0
	if k.text != "" {
		k.text = ""
	}
	i := 0
	if k.esc && len(chunk) > 0 { // an escape cut by the previous chunk
		k.escape(chunk[0])
		k.buf = append(k.buf, chunk[0])
		k.esc, i = false, 1
	}
	for ; i < len(chunk); i++ {
		c := chunk[i]
		if k.inStr {
			j := i
			for ; k.hexLeft > 0 && j < len(chunk); j++ { // a \u escape's digits
				if !jsonwire.IsHex(chunk[j]) {
					k.fail()
					break
				}
				k.hexLeft--
			}
			if k.failed {
				i = j
				continue
			}
			for j = jsonwire.PlainRun(chunk, j); j < len(chunk) && chunk[j] >= utf8.RuneSelf; j = jsonwire.PlainRun(chunk, j+1) {
				k.strHigh = true // checked when the string ends
			}
			k.add(chunk[i:j])
			if i = j; j == len(chunk) {
				break
			}
			switch c := chunk[j]; {
			case c == '"':
				k.buf = append(k.buf, c)
				k.inStr = false
				k.stringEnd()
			case c < 0x20:
				k.fail() // a control byte
			case j+1 < len(chunk):
				k.escape(chunk[j+1])
				k.buf = append(k.buf, c, chunk[j+1])
				i++
			default:
				k.buf = append(k.buf, c)
				k.esc = true
			}
			continue
		}
		if len(k.stack) == 0 {
			k.outside(chunk, i)
			continue
		}
		if c == '<' { // no JSON: the closing tag of a list not closed, or junk
			k.stack, k.inScalar, k.expect = k.stack[:0], false, eBlockDone
			k.outside(chunk, i)
			continue
		}
		if k.inScalar && (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '.' && c != '-' && c != '+' && c != 'E' {
			k.scalarEnd()
			if k.failed {
				continue
			}
		}
		switch top := &k.stack[len(k.stack)-1]; c {
		case ' ', '\t', '\n', '\r':
			k.spaces++
		case '"':
			switch k.expect {
			case eKeyOrClose, eKey:
				k.expect = eColon
			case eValueOrClose, eValue:
				if len(k.stack) == 1 {
					k.fail() // the list holds messages: objects
					continue
				}
				k.expect = eCommaOrClose
			default:
				k.fail()
				continue
			}
			k.isKey, k.inStr, k.strStart = top.wantKey, true, len(k.buf)
			k.buf = append(k.buf, c)
			if !k.isKey {
				k.pending = 0
			}
		case ':':
			if k.expect != eColon {
				k.fail()
				continue
			}
			k.expect = eValue
			k.buf = append(k.buf, c)
			top.wantKey, k.pending = false, 2
		case ',':
			if k.expect != eCommaOrClose {
				k.fail()
				continue
			}
			k.expect = eValue
			if top.open == '{' {
				k.expect = eKey
			}
			k.cutAt = len(k.buf)
			k.buf = append(k.buf, c)
			top.wantKey, k.pending = top.open == '{', 0
		case '{', '[':
			if k.expect != eValue && k.expect != eValueOrClose || c == '[' && len(k.stack) == 1 {
				k.fail()
				continue
			}
			k.open(c)
		case '}', ']':
			empty := eKeyOrClose // what an empty container's closer follows
			if c == ']' {
				empty = eValueOrClose
			}
			if top.open+2 != c || k.expect != eCommaOrClose && k.expect != empty {
				k.fail() // ('}' - '{' is 2, as ']' - '[')
				continue
			}
			k.buf = append(k.buf, c)
			k.close()
		default:
			if !k.inScalar {
				if k.expect != eValue && k.expect != eValueOrClose || len(k.stack) == 1 {
					k.fail()
					continue
				}
				k.expect = eCommaOrClose
				k.inScalar, k.strStart = true, len(k.buf)
			}
			k.buf = append(k.buf, c)
			k.pending = 0
		}
	}
	if !k.inBlock && k.textA < len(chunk) {
		k.text += string(chunk[k.textA:])
	}
	k.endOfChunk()
	k.parts, k.msgs = k.parts[:0], k.msgs[:0]
	for i := 0; i < len(k.offs); i += 2 {
		k.msgs = append(k.msgs, k.out[k.offs[i]:k.offs[i+1]])
		k.yields, k.outBytes = k.yields+1, k.outBytes+k.offs[i+1]-k.offs[i]
	}
	if len(k.msgs) > 0 || k.text != "" {
		k.parts = append(k.parts, part{text: k.text, msgs: k.msgs[:len(k.msgs):len(k.msgs)]})
	}
	return k.parts
}

// add appends b to buf storing only its length, not its pointer (a write
// barrier while the GC marks), unless it must grow.
func (k *engine) add(b []byte) {
	n := len(k.buf)
	if n+len(b) > cap(k.buf) {
		k.buf = slices.Grow(k.buf, len(b))
	}
	k.buf = k.buf[:n+len(b)]
	copy(k.buf[n:], b)
}

// outside handles chunk[i] outside the block's JSON, where only a tag (and
// in a block the list's '[') matters. A tag split across chunks leaves its
// first bytes in the prose already released.
func (k *engine) outside(chunk []byte, i int) {
	c, tag := chunk[i], openTag
	if k.inBlock {
		if c == '[' && k.expect == eListOpen {
			k.open(c)
			return
		}
		tag = closeTag
	}
	switch {
	case c == tag[k.tagPos]:
		k.tagPos++
	case c == tag[0]:
		k.tagPos = 1
	default:
		if k.tagPos = 0; k.inBlock && !k.failed && !jsonwire.IsSpace(c) {
			k.fail() // junk around the list
		}
	}
	if k.tagPos < len(tag) {
		return
	}
	k.tagPos = 0
	if k.inBlock {
		if !k.failed && k.blockMsgs == 0 {
			k.fail() // no message
		}
		k.inBlock, k.textA = false, i+1
		k.blockEnd()
		return
	}
	if a := i + 1 - len(openTag); a > k.textA {
		k.text += string(chunk[k.textA:a])
	}
	k.inBlock, k.textA = true, len(chunk)
	k.buf, k.stack, k.compStart, k.healLen, k.msgKind = k.buf[:0], k.stack[:0], -1, -1, 0
	k.expect, k.failed, k.blockMsgs = eListOpen, false, 0
}

func (k *engine) open(c byte) {
	d := len(k.stack)
	k.pending, k.inScalar = 0, false
	k.buf = append(k.buf, c)
	switch {
	case d == 1: // a message
		k.blockMsgs++
		k.msgStart, k.msgKind, k.verA, k.rootA, k.cur, k.msgSniffed, k.msgSpaces = len(k.buf)-1, 0, -1, -1, nil, 0, k.spaces
		k.valueA, k.pathA, k.dataSent = -1, -1, false
		clear(k.dataRec)
	case d == 2 && c == '{':
		// v0.8's kinds read as v0.9's: beginRendering starts a surface
		// (as createSurface), surfaceUpdate updates its components; its
		// data model messages are read whole (data08).
		switch k.msgKind = k.stack[1].key; k.msgKind {
		case kBegin:
			k.msgKind, k.v08 = kCreate, true
		case kSurfaceUpdate:
			k.msgKind, k.v08 = kUpdate, true
		case kDataModel:
			k.v08 = true
		}
	case d == 4 && c == '{' && k.msgKind == kUpdate && k.stack[2].key == kComponents:
		k.compStart, k.idA, k.typeZ, k.slots, k.listA, k.compSniffed, k.compSpaces = len(k.buf)-1, -1, -1, k.slots[:0], -1, 0, k.spaces
	case d == 3 && c == '{' && k.msgKind == kData && k.stack[2].key == kValue:
		k.valueA = len(k.buf) - 1
	case d == 5 && c == '[' && k.compStart >= 0 && k.stack[4].key == kChildren && !k.v08,
		d == 8 && c == '[' && k.compStart >= 0 && k.stack[7].key == kExplicitList && k.stack[6].key == kChildren && k.stack[4].key == kComponent:
		k.listA, k.listD = len(k.buf)-1, d
	case d == 6 && c == '{' && k.compStart >= 0 && k.v08 && k.stack[4].key == kComponent:
		k.typeZ = len(k.buf) // v0.8: its type's properties opened
	}
	k.stack = append(k.stack, frame{open: c, wantKey: c == '{'})
	k.cutAt = len(k.buf)
	k.expect = eValueOrClose
	if c == '{' {
		k.expect = eKeyOrClose
	}
}

func (k *engine) close() {
	d := len(k.stack) - 1
	k.stack, k.pending, k.inScalar = k.stack[:d], 0, false
	if k.expect = eCommaOrClose; d == 0 {
		k.expect = eBlockDone
	}
	if d == k.listD && k.listA >= 0 {
		k.listA = -1
	}
	if d == 4 && k.compStart >= 0 { // a component completed
		k.component(len(k.buf), false)
		k.compStart = -1
	} else if d == 1 {
		k.messageEnd()
	}
}

// stringEnd handles a string just closed: a key, or a value that matters.
func (k *engine) stringEnd() {
	if k.strHigh {
		if k.strHigh = false; jsonwire.InvalidUTF8At(k.buf[k.strStart+1:len(k.buf)-1]) >= 0 {
			k.fail()
			return
		}
	}
	d := len(k.stack)
	top := &k.stack[d-1]
	a, b := k.strStart+1, len(k.buf)-1
	if k.isKey {
		top.keyA, top.keyB, top.key, k.pending = a, b, 0, 1
		if d == 2 || d == 3 || d == 5 || d == 7 || d == 8 {
			top.key = classify(k.buf[a:b])
		}
		return
	}
	switch {
	case d == 2 && top.key == kVersion:
		k.verA, k.verB = a, b
	case d == 3 && top.key == kSurfaceID:
		k.surfaceID(k.buf[a:b])
	case d == 3 && top.key == kPath:
		k.pathA, k.pathB = a, b
	case d == 5 && k.compStart >= 0 && top.key == kID:
		k.idA, k.idB = a, b
	case d == 3 && top.key == kRoot:
		k.rootA, k.rootB = a, b
	case d == 5 && k.compStart >= 0 && top.key == kComponent:
		k.typeZ = b + 1
	case d == 5 && k.compStart >= 0 && top.key == kChild,
		d == 6 && k.compStart >= 0 && k.stack[4].key == kChildren && top.open == '[',
		d == 7 && k.compStart >= 0 && top.key == kChild && k.stack[4].key == kComponent,
		d == 9 && k.compStart >= 0 && top.open == '[' && k.stack[7].key == kExplicitList && k.stack[6].key == kChildren && k.stack[4].key == kComponent:
		k.slots = append(k.slots, slot{int32(a), int32(b)})
	}
}

// surfaceID creates the surface of a createSurface, or finds that of
// another message (one map lookup).
func (k *engine) surfaceID(sid []byte) {
	if k.cur = k.surfaces[string(sid)]; k.cur == nil || k.msgKind == kCreate {
		k.cur = &surface{id: string(sid), root: "root", comps: map[string]*entry{}}
		if k.verA >= 0 {
			k.cur.version = string(k.buf[k.verA:k.verB])
		}
		k.surfaces[k.cur.id] = k.cur
	}
}

func (k *engine) messageEnd() {
	switch {
	case k.msgKind == kCreate:
		if k.rootA >= 0 && k.cur != nil {
			k.cur.root = string(k.buf[k.rootA:k.rootB])
		}
		start := len(k.out)
		k.out, _ = k.cw.canonical(k.out, k.buf[k.msgStart:], 0)
		k.offs = append(k.offs, start, len(k.out))
	case k.msgKind == kUpdate:
		if k.progressive {
			k.release() // an update completed: large components are redone
		}
		k.flush()
	case k.msgKind == kData && k.cur != nil:
		k.dataEntries(len(k.buf), false, true)
	case k.msgKind == kDataModel && k.cur != nil:
		k.data08(len(k.buf), false)
	}
	k.msgKind, k.compStart = 0, -1
}

// healEnd returns where the healed form of the open objects ends in buf,
// whether an open string is closed there, and whether it cut back: at the
// end of the buffer (trailing space in a cut string and a trailing comma
// dropped, as the parser's healer does), unless that is inside a key, an
// uncuttable string or an unfinished literal, or after a key with no
// value; then at the end of the last complete member (cut).
func (k *engine) healEnd() (end int, str, cut bool) {
	n := len(k.buf)
	switch top := &k.stack[len(k.stack)-1]; {
	case k.inStr:
		if k.isKey || k.esc || top.open == '{' && !cuttable(k.buf[top.keyA:top.keyB]) {
			break
		}
		for r := n - 1; r > k.strStart && k.buf[r] >= utf8.RuneSelf; r-- {
			if utf8.RuneStart(k.buf[r]) { // never half a character
				if !utf8.FullRune(k.buf[r:n]) {
					n = r
				}
				break
			}
		}
		for n > k.strStart+1 && k.buf[n-1] == ' ' {
			n--
		}
		return n, true, false
	case k.pending != 0:
	case k.inScalar:
		if t := k.buf[k.strStart:]; t[len(t)-1] >= '0' && t[len(t)-1] <= '9' || jsonwire.LiteralLen(t, 0) == len(t) {
			return n, false, false
		}
	case k.buf[n-1] == ',':
		return n - 1, false, false
	default:
		return n, false, false
	}
	return k.cutAt, false, true
}

// heal appends to b the open objects from stack[from], cut at end of buf.
func (k *engine) heal(b []byte, start, end int, str bool, from int) []byte {
	if b = append(b, k.buf[start:end]...); str {
		b = append(b, '"')
	}
	for j := len(k.stack) - 1; j >= from; j-- {
		b = append(b, k.stack[j].open+2) // '[' + 2 is ']', '{' + 2 is '}'
	}
	return b
}

// grown reports whether the open object at buf[start] is to be healed at
// this chunk's end: always while it holds at most 1 KB, then once it grew
// by an eighth since it was last (so that healing a large object stays
// linear in its size), as the parser decides; sniffed is its size then.
func (k *engine) grown(sniffed *int, start, spaces int) bool {
	size := len(k.buf) - start + k.spaces - spaces // as read, spaces included
	if size > 1024 && size-*sniffed < size/8 {
		return false
	}
	*sniffed = size
	return true
}

func (k *engine) endOfChunk() {
	if k.inBlock && len(k.stack) >= 2 && len(k.buf) != k.healLen {
		k.healLen = len(k.buf)
		end, str, cut := k.healEnd()
		switch {
		case k.compStart >= 0:
			// Cut inside the component, the parser leaves it as it was
			// (-cutback: heal it back to its last complete member).
			if k.grown(&k.compSniffed, k.compStart, k.compSpaces) && (!cut || k.cutBack) {
				k.component(end, str)
			}
		case k.msgKind == kData && k.cur != nil:
			if k.grown(&k.msgSniffed, k.msgStart, k.msgSpaces) {
				k.dataEntries(len(k.buf), k.inScalar, false)
			}
		case k.msgKind == kDataModel && k.cur != nil:
			if k.grown(&k.msgSniffed, k.msgStart, k.msgSpaces) {
				k.data08(end, str)
			}
		}
	}
	k.flush()
}
