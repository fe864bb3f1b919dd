package deltaengine

import (
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// Key classes: the keys that matter, at depth 2 (message), 3 (body), or
// in a component (5 and deeper); 0 for the others.
const (
	kVersion uint8 = iota + 1
	kCreate
	kUpdate
	kData
	kSurfaceID
	kComponents
	kID
	kComponent
	kPath
	kValue
	kBegin
	kSurfaceUpdate
	kDataModel
	kDelete
	// The child fields, which the reference's placeholder walk rewrites,
	// from kChild to kComponentID; then the fields that are references
	// only (kRoot is also beginRendering's root).
	kChild
	kContentChild
	kEntryPointChild
	kChildren
	kExplicitList
	kComponentID
	kDetail
	kSummary
	kRoot
	kTemplate
)

// childField reports whether c is a child field's class.
func childField(c uint8) bool { return c >= kChild && c <= kComponentID }

func classify(key []byte) uint8 {
	switch string(key) {
	case "version":
		return kVersion
	case "createSurface":
		return kCreate
	case "updateComponents":
		return kUpdate
	case "updateDataModel":
		return kData
	case "surfaceId":
		return kSurfaceID
	case "components":
		return kComponents
	case "id":
		return kID
	case "component":
		return kComponent
	case "path":
		return kPath
	case "value":
		return kValue
	case "beginRendering":
		return kBegin
	case "surfaceUpdate":
		return kSurfaceUpdate
	case "dataModelUpdate":
		return kDataModel
	case "deleteSurface":
		return kDelete
	case "child":
		return kChild
	case "contentChild":
		return kContentChild
	case "entryPointChild":
		return kEntryPointChild
	case "children":
		return kChildren
	case "explicitList":
		return kExplicitList
	case "componentId":
		return kComponentID
	case "detail":
		return kDetail
	case "summary":
		return kSummary
	case "root":
		return kRoot
	case "template":
		return kTemplate
	}
	return 0
}

// manyKeys is the most keys an object of a component has that the parser
// reads in the stream's order (its maxFastKeys); one with more is read in
// its canonical form.
const manyKeys = 32

// CuttableKey reports whether key is one whose string values may be closed
// early ("healed") when a stream cuts them: prose-like values where a
// prefix is still meaningful. Ids, paths, surface ids and URLs are never
// cut. (A switch: it runs for every object key a scanner reads.) The
// parser's progressive engine heals by the same table.
func CuttableKey(key []byte) bool {
	switch string(key) {
	case "literalString", "valueString", "label", "hint", "caption", "altText", "text":
		return true
	}
	return false
}

// Data reads the next bytes of the open block's content (its markers
// removed). The bytes are not kept: the caller may reuse chunk.
func (k *Engine) Data(chunk []byte) {
	k.reset()
	if !k.inBlock || k.failed {
		if k.broken {
			k.skipBroken(chunk)
		}
		return
	}
	i := 0
	if k.esc && len(chunk) > 0 { // an escape cut by the previous chunk
		k.buf = append(k.buf, chunk[0])
		k.escape(chunk[0])
		k.esc, i = false, 1
	}
	for ; i < len(chunk); i++ {
		c := chunk[i]
		if k.inStr {
			j := i
			for ; k.hexLeft > 0 && j < len(chunk); j++ { // a \u escape's digits
				if !jsonwire.IsHex(chunk[j]) {
					k.failJSON(chunk[i : j+1])
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
				k.failJSON([]byte{c}) // a control byte
			case j+1 < len(chunk):
				k.buf = append(k.buf, c, chunk[j+1])
				k.escape(chunk[j+1])
				i++
			default:
				k.buf = append(k.buf, c)
				k.esc = true
			}
			continue
		}
		if k.failed {
			if k.broken {
				k.skipBroken(chunk[i:])
			}
			return
		}
		if k.lost {
			k.loose(c)
			continue
		}
		if len(k.stack) <= 1 && !k.lines {
			k.between(c)
			continue
		}
		if len(k.stack) == 0 {
			k.outsideList(c) // (a JSONL line's message ended)
			continue
		}
		if k.inScalar && !scalarByte(c) {
			if k.scalarEnd(c); k.failed {
				if k.broken {
					k.skipBroken(chunk[i:]) // (the fault is before c)
				}
				return
			}
		}
		switch top := &k.stack[len(k.stack)-1]; c {
		case ' ', '\t', '\n', '\r':
			j := i + 1 // (the run of them: an indented block's)
			for j < len(chunk) && (chunk[j] == ' ' || chunk[j] == '\n' || chunk[j] == '\t' || chunk[j] == '\r') {
				j++
			}
			k.spaces += j - i
			i = j - 1
		case '"':
			switch k.expect {
			case eKeyOrClose, eKey:
				k.expect = eColon
			case eValueOrClose, eValue:
				if len(k.stack) == 1 {
					k.failJSON([]byte{c}) // the list holds messages: objects
					continue
				}
				k.expect = eCommaOrClose
			default:
				k.failJSON([]byte{c})
				continue
			}
			k.isKey, k.inStr, k.strStart, k.strEsc = top.wantKey, true, len(k.buf), false
			k.buf = append(k.buf, c)
			if !k.isKey {
				k.pending = 0
			}
		case ':':
			if k.expect != eColon {
				k.failJSON([]byte{c})
				continue
			}
			k.expect = eValue
			k.buf = append(k.buf, c)
			top.wantKey, k.pending = false, 2
		case ',':
			if k.expect != eCommaOrClose {
				k.failJSON([]byte{c})
				continue
			}
			k.expect = eValue
			if top.open == '{' {
				k.expect = eKey
			}
			k.cutAt, k.comma, k.commaD = len(k.buf), len(k.buf), int32(len(k.stack))
			k.buf = append(k.buf, c)
			top.wantKey, k.pending = top.open == '{', 0
		case '{', '[':
			if k.expect != eValue && k.expect != eValueOrClose || c == '[' && len(k.stack) == 1 {
				if c == '{' && len(k.stack) > 1 && (k.expect == eCommaOrClose || k.expect == eKey) {
					k.loseCount(c) // an object where a key or a ',' was due
					continue
				}
				k.failJSON([]byte{c})
				continue
			}
			k.open(c)
		case '}', ']':
			empty := eKeyOrClose // what an empty container's closer follows
			if c == ']' {
				empty = eValueOrClose
			}
			if top.open+2 != c || k.expect != eCommaOrClose && k.expect != empty {
				// ('}' - '{' is 2, as ']' - '[')
				switch {
				case top.open+2 != c && (k.expect == eCommaOrClose || len(k.stack) == 1):
					k.loseCount(c) // a closer of the wrong kind after a value
				case top.open+2 != c:
					k.fail(&Fault{At: k.raw(len(k.buf)), Kind: FaultJSON, Msg: fmt.Sprintf("mismatched %q closes %q", c, top.open)})
					k.countBroken(c)
				default:
					k.failJSON([]byte{c})
				}
				continue
			}
			k.buf = append(k.buf, c)
			k.close()
		default:
			if !k.inScalar {
				if k.expect != eValue && k.expect != eValueOrClose || len(k.stack) == 1 {
					k.failJSON([]byte{c})
					continue
				}
				k.expect = eCommaOrClose
				k.inScalar, k.strStart = true, len(k.buf)
				if top.key == kPath && k.inDefinition(len(k.stack)) {
					k.odd = true // v0.8: a path that is no string (see definitionKey)
				}
			}
			k.buf = append(k.buf, c)
			k.pending = 0
		}
	}
}

// add appends b to buf storing only its length, not its pointer (a write
// barrier while the GC marks), unless it must grow.
func (k *Engine) add(b []byte) {
	n := len(k.buf)
	if n+len(b) > cap(k.buf) {
		k.buf = slices.Grow(k.buf, len(b))
	}
	k.buf = k.buf[:n+len(b)]
	copy(k.buf[n:], b)
}

func (k *Engine) open(c byte) {
	d := len(k.stack)
	if d >= k.maxDepth {
		k.failWith(&Fault{At: k.raw(len(k.buf)), Kind: FaultTooDeep})
		return
	}
	k.pending, k.inScalar = 0, false
	k.buf = append(k.buf, c)
	switch {
	case d == 1: // a message
		k.msgStart, k.msgKind, k.verA, k.rootA, k.cur, k.msgSniffed, k.msgSpaces = len(k.buf)-1, 0, -1, -1, nil, 0, k.spaces
		k.msgRaw = k.raw(k.msgStart)
		k.valueA, k.pathA, k.dataSent, k.ekStart = -1, -1, false, -1
		k.msgGen++
		k.openAt = -1
		if k.rx != nil {
			k.rx.nulls = k.rx.nulls[:0] // (see addNull)
		}
	case d == 2 && c == '{':
		// v0.8's kinds read as v0.9's: beginRendering starts a surface
		// (as createSurface), surfaceUpdate updates its components; its
		// data model messages are read whole (data08). A kind of the other
		// family than the stream's is read as a message of no kind (yielded
		// as it is); the reference reads updateDataModel after the others.
		switch kind := k.stack[1].key; {
		case !k.v08 && (kind == kCreate || kind == kUpdate || kind == kDelete || kind == kData && k.msgKind == 0):
			k.msgKind = kind
		case k.v08 && (kind == kDataModel || kind == kDelete):
			k.msgKind = kind
		case k.v08 && kind == kBegin:
			k.msgKind = kCreate
		case k.v08 && kind == kSurfaceUpdate:
			k.msgKind = kUpdate
		}
	case d == 4 && c == '{' && k.msgKind == kUpdate && k.stack[2].key == kComponents:
		k.compStart, k.idA, k.typeZ, k.typeA, k.slots, k.listA, k.compSniffed, k.compSpaces, k.odd, k.pathSeen, k.compEmpty = len(k.buf)-1, -1, -1, -1, k.slots[:0], -1, 0, k.spaces, false, false, -1
		k.phSlot = false
	case d == 3 && c == '{' && k.msgKind == kData && k.stack[2].key == kValue:
		k.valueA, k.dataFrom, k.openAt = len(k.buf)-1, len(k.buf), -1
	case d >= 5 && k.compStart >= 0:
		k.oddValue(c, d)
		if p := k.stack[d-1]; p.key == kPath && p.open == '{' && k.inDefinition(d) {
			k.odd = true // v0.8: a path that is no string (see definitionKey)
		}
		if p := k.stack[d-1]; c == '[' && p.open == '{' && (p.key == kChildren || p.key == kExplicitList) {
			k.listA, k.listD = len(k.buf)-1, int32(d) // a child list
		}
		if d == 5 && k.v08 && k.stack[4].key == kComponent && c == '{' {
			k.typeZ = len(k.buf) // v0.8: its definition opened (an empty one is held, see component)
		}
		if d == 6 && k.v08 && k.stack[4].key == kComponent && c == '{' {
			k.typeZ = len(k.buf) // v0.8: its type's properties opened
			if k.typeA < 0 {
				k.typeA, k.typeB = k.stack[5].keyA, k.stack[5].keyB
			}
			if k.stack[5].keyA == k.stack[5].keyB {
				k.odd = true // (the empty type has no references: see refs)
			}
		}
	}
	k.stack = append(k.stack, frame{open: c, wantKey: c == '{', start: len(k.buf) - 1})
	k.cutAt = len(k.buf)
	k.expect = eValueOrClose
	if c == '{' {
		k.expect = eKeyOrClose
	}
}

func (k *Engine) close() {
	d := len(k.stack) - 1
	f := &k.stack[d]
	if !k.found && f.open == '{' {
		k.found = k.valid(k.buf[f.start:])
	}
	if f.path && !f.pathOK && k.compStart >= 0 {
		k.odd = true // v0.8: a path that is no string
	}
	if f.open == '{' && f.start == len(k.buf)-2 && k.compStart >= 0 && k.compEmpty < 0 {
		k.compEmpty = int32(f.start) // (noted as it closes: component does not search for it at each heal)
	}
	k.stack, k.pending, k.inScalar = k.stack[:d], 0, false
	if k.expect = eCommaOrClose; d == 0 {
		k.expect = eBlockDone
	}
	if k.compStart >= 0 && k.v08 && k.buf[len(k.buf)-2] == '{' && (d == 5 && k.stack[4].key == kComponent || d == 7 && k.stack[6].key == kChildren) {
		k.odd = true // v0.8: an empty definition or children object, as the parser writes it
	}
	if d == int(k.listD) && k.listA >= 0 {
		if k.listA == len(k.buf)-2 {
			k.odd = true // an empty child list
		}
		k.listA = -1
	}
	if f.idKey && k.compStart >= 0 {
		k.nestedComponent(f.start)
	}
	if d == 4 && k.compStart >= 0 { // a component completed
		k.component(len(k.buf), false, true)
		k.compStart = -1
	} else if d == 1 {
		k.messageEnd()
	}
}

// stringEnd handles a string just closed: a key, or a value that matters.
func (k *Engine) stringEnd() {
	if k.strHigh {
		if k.strHigh = false; jsonwire.InvalidUTF8At(k.buf[k.strStart+1:len(k.buf)-1]) >= 0 {
			k.fail(k.utf8Fault())
			return
		}
	}
	d := len(k.stack)
	top := &k.stack[d-1]
	a, b := k.strStart+1, len(k.buf)-1
	if k.isKey {
		top.keyA, top.keyB, top.key, k.pending = a, b, 0, 1
		if d <= 3 || k.compStart >= 0 {
			top.key = classify(k.buf[a:b])
			if d == 2 && !k.famSet {
				k.setFamily(top.key)
			}
			if top.key == kID && d >= 6 && k.compStart >= 0 {
				top.idKey = true // (an object nested in a component: see nestedComponent)
			}
			if top.key >= kChild && k.compStart >= 0 && !k.commonKey(d, top.key) {
				k.odd = true
			}
			if d >= 5 && k.compStart >= 0 && !k.odd && k.escapedID(a, b) {
				k.odd = true // a key with an escape: decoded, as the parser reads it
			}
			if d >= 5 && k.compStart >= 0 && !k.odd {
				// A key given twice in the component: the last wins, as
				// the parser decodes it (the canonical form).
				bit := uint64(1) << ((uint(b-a)*7 + uint(k.buf[b-1])) & 63)
				if a == b {
					bit = 1
				}
				if top.seen&bit != 0 && k.keyTwice(top.start, a, b) {
					k.odd = true
				}
				top.seen |= bit
				if top.nkeys++; top.nkeys > manyKeys {
					k.odd = true // (the parser reads an object of many keys in its canonical form)
				}
			}
			if k.inDefinition(d) {
				k.definitionKey(top)
				if d == 6 && top.keys > 1 {
					k.odd = true // a definition's second type: read in canonical form, as the parser reads it
				}
			}
		}
		return
	}
	switch {
	case d == 2 && top.key == kVersion:
		k.verA, k.verB = a, b
	case d == 3 && top.key == kSurfaceID:
		was := k.cur
		k.surfaceID(k.buf[a:b])
		if k.cur != was {
			k.dataSlotNamed()
		}
	case d == 3 && top.key == kPath:
		same := k.pathA >= 0 && string(k.buf[k.pathA:k.pathB]) == string(k.buf[a:b])
		k.pathA, k.pathB = a, b
		if !same {
			k.dataSlotNamed() // (a path given again, the same, changes nothing)
		}
	case d == 5 && k.compStart >= 0 && top.key == kID:
		k.idA, k.idB, k.idEsc = a, b, k.strEsc
		if k.escapedID(a, b) {
			k.odd = true // (its parents name it as the canonical form writes it)
		}
	case d == 3 && top.key == kRoot:
		k.rootA, k.rootB = a, b
	case d == 5 && k.compStart >= 0 && top.key == kComponent && !k.v08: // (v0.8: a type that is no object is none)
		k.typeZ, k.typeA, k.typeB = b+1, a, b
	case k.compStart >= 0 && d >= 5:
		k.childString(d, top, a, b)
	}
}
