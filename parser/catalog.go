package parser

import (
	"slices"
	"sync"
	"unsafe"

	"github.com/a2ui-stream/a2ui-stream/internal/protocoltape"
	"github.com/a2ui-stream/a2ui-stream/protocol"
	"github.com/buger/jsonparser"
)

// Catalog validation of decoded messages. The catalog's fast validator
// reads a message's encoding without decoding it again and builds no
// report; a message it finds certainly valid needs only the integrity
// checks on top (Validate is the schema, then those). The schema library
// runs, on the decoded values, only where the fast validator cannot tell,
// or where an invalid message's report is needed. The comparison encoding
// is the one read, so that a string with invalid UTF-8 (written \xHH,
// which is not JSON) goes to the schema library, which sees the string as
// it is; a component read at byte level is its bytes there (invalid UTF-8
// in them, raw, fails the fast validator's parse as \xHH does). A catalog
// does not select another component path: the byte-level reader takes a
// type's reference fields of its own (compScanner.catalogRead,
// entry_refs.go), and renderable checks a v0.8 definition's required
// properties.

// validate is e.cat.Validate([]any{msg}) (nil without a catalog): the
// error, with its report, of an invalid message. Without strict there are
// no root or orphan checks, as the reference validates a complete message
// before handling it. A valid message is judged on what the engine has:
// the fast verdict on its encoding, where a component read at byte level
// is its bytes, and the integrity checks on its components' ids and
// references (integrityOK). Only a message those cannot pass is decoded
// again in full (withoutStubs), for the integrity checks or the schema
// library and their report.
func (e *progressiveEngine) validate(msg map[string]any, strict bool) error {
	if e.cat == nil {
		return nil
	}
	err := e.judge(msg, strict)
	if validateSeen != nil {
		validateSeen(e, msg, strict, err)
	}
	return err
}

// validateSeen, set by tests only, sees each of validate's judgements.
var validateSeen func(e *progressiveEngine, msg map[string]any, strict bool, err error)

// judge is validate with a catalog.
func (e *progressiveEngine) judge(msg map[string]any, strict bool) error {
	valid, decided := e.fastVerdict(msg)
	if valid && decided && e.integrityOK(msg) {
		return nil
	}
	msg = e.withoutStubs(msg)
	if valid && decided {
		return protocol.ValidateIntegrity([]any{msg}, e.cat.RefFields, protocol.WithStrictIntegrity(strict))
	}
	return e.cat.Validate([]any{msg}, protocol.WithStrictIntegrity(strict))
}

// valid reports whether e.cat.Validate([]any{msg}) would pass (true
// without a catalog), for callers that need only the verdict.
func (e *progressiveEngine) valid(msg map[string]any, strict bool) bool {
	if e.cat == nil {
		return true
	}
	valid, decided := e.fastVerdict(msg)
	switch {
	case !decided:
		return e.cat.Validate([]any{msg}, protocol.WithStrictIntegrity(strict)) == nil
	case !valid:
		return false
	}
	return protocol.ValidateIntegrity([]any{msg}, e.cat.RefFields, protocol.WithStrictIntegrity(strict)) == nil
}

// componentValid is the catalog's verdict on the component message of
// ent's processed form, as a component is validated on its own while its
// update arrives (no root or orphan checks). It is judged on its bytes:
// of the integrity checks only self-reference can fail for a message of
// one component, and the references are the raw ones (its own id, if it
// is one, never missing) plus its placeholders.
func (e *progressiveEngine) componentValid(s *surfaceState, ent *compEntry) bool {
	valid, decided := e.componentFormVerdict(s.id, ent)
	ent.judged = 0
	if valid && decided {
		ent.judged = e.closing.epoch // (componentVerdict's wrapper)
	}
	if decided {
		return valid && !ent.selfRef && !slices.Contains(ent.phs, ent.id)
	}
	pval, _ := decodeObject(ent.pjson)
	return e.valid(e.componentMessage(s.id, []any{pval}), false)
}

// componentFormVerdict is componentVerdict on ent's current form, given
// again from a verdict kept on an earlier form when they differ only in
// what it did not read (keptVerdict).
func (e *progressiveEngine) componentFormVerdict(sid string, ent *compEntry) (valid, decided bool) {
	e.componentVerdicts(sid) // (the wrapper, e.closing)
	cs := e.catScratch()
	if valid, ok := cs.verdictAgain(ent, ent.pjson, e.closing.epoch); ok {
		if keptVerdictGiven != nil {
			keptVerdictGiven(e.openComponentMessage(), e.closeComponentMessage(sid), ent.pjson, valid)
		}
		return valid, true
	}
	valid, decided, _ = e.componentVerdict(sid, ent.pjson, "", &cs.unread)
	if decided {
		cs.keepVerdict(ent, ent.pjson, &cs.unread, e.closing.epoch, valid)
	}
	return valid, decided
}

// keptVerdictGiven, set by tests, sees each verdict a keptVerdict gives
// again: the wrapper, the component and the verdict.
var keptVerdictGiven func(open, close, comp []byte, valid bool)

// placeholderValid is the catalog's verdict on the component message of
// placeholder ph alone: the fast verdict on its bytes (a placeholder
// references nothing, so no integrity check can fail), else the schema
// library on the decoded message. Placeholders differ only in
// their id, a JSON string: where the verdict does not read it, it is the
// surface's for all of them (closingEnc.ph).
func (e *progressiveEngine) placeholderValid(sid, ph string) bool {
	e.componentVerdicts(sid)
	if c := &e.closing; c.ph == 1 || c.ph == -1 {
		return c.ph == 1
	}
	valid, decided, free := e.componentVerdict(sid, e.placeholderJSON(ph), "id", nil)
	if decided {
		if c := &e.closing; c.ph == 0 {
			switch {
			case !free:
				c.ph = 2 // the id matters
			case valid:
				c.ph = 1
			default:
				c.ph = -1
			}
		}
		return valid
	}
	return e.valid(e.componentMessage(sid, []any{e.placeholder(ph)}), false)
}

// componentVerdict is the catalog's MessageVerdict on the component
// message of comp (a component's encoding) about surface sid: judged on
// comp alone (protocoltape.ComponentVerdict, with key and unread as
// there), or where that cannot tell, on the message's bytes (then free is
// false and unread is left as it is).
func (e *progressiveEngine) componentVerdict(sid string, comp []byte, key string, unread *protocoltape.Unread) (valid, decided, free bool) {
	judge := e.componentVerdicts(sid)
	if verdictAsked != nil {
		verdictAsked(e.openComponentMessage(), e.closeComponentMessage(sid), comp, key)
	}
	if valid, decided, free = judge(unsafe.String(unsafe.SliceData(comp), len(comp)), key, unread); decided {
		return valid, decided, free
	}
	cs := e.catScratch()
	b := append(cs.buf[:0], e.openComponentMessage()...)
	b = append(b, comp...)
	cs.buf = append(b, e.closeComponentMessage(sid)...)
	valid, decided = e.verdict(cs.buf)
	cs.trim()
	return valid, decided, false
}

// catalogScratch is what only an engine with a catalog uses, made on
// first use (an engine's size counts per stream).
type catalogScratch struct {
	buf      []byte              // a message's encoding, for the verdicts
	unread   protocoltape.Unread // what a verdict did not read
	kept     [keptVerdicts]keptVerdict
	nextKept int // the kept verdict to replace next
}

// catScratch returns e's catalogScratch.
func (e *progressiveEngine) catScratch() *catalogScratch {
	if e.catS == nil {
		e.catS = catScratchPool.Get().(*catalogScratch)
	}
	return e.catS
}

// releaseCatScratch hands e's catalogScratch to the next block of any
// stream (an idle stream holds none of it), forgetting its kept verdicts
// and their entries.
func (e *progressiveEngine) releaseCatScratch() {
	cs := e.catS
	if cs == nil {
		return
	}
	e.catS = nil
	for i := range cs.kept {
		cs.kept[i].ent, cs.kept[i].epoch = nil, 0
	}
	cs.nextKept = 0
	catScratchPool.Put(cs)
}

// catScratchPool holds the catalogScratches of idle streams.
var catScratchPool = sync.Pool{New: func() any { return new(catalogScratch) }}

// trim lets a large encoding buffer go.
func (cs *catalogScratch) trim() {
	if cap(cs.buf) > maxCatBuf {
		cs.buf = nil
	}
}

// verdictAsked, set by tests, sees each component message the engine asks
// a verdict on: its wrapper and component, and key.
var verdictAsked func(open, close, comp []byte, key string)

// componentVerdicts returns the catalog's verdict on the component
// messages about surface sid, kept with their closing (closingEnc).
func (e *progressiveEngine) componentVerdicts(sid string) protocoltape.ComponentVerdict {
	closing := e.closeComponentMessage(sid)
	if c := &e.closing; c.judge == nil {
		c.judge, c.ph = protocoltape.ComponentVerdicts(e.cat, e.openComponentMessage(), closing), 0
	}
	return e.closing.judge
}

// fastVerdict is the catalog's fast verdict on msg's encoding.
func (e *progressiveEngine) fastVerdict(msg map[string]any) (valid, decided bool) {
	valid, decided = e.listVerdict(msg)
	if listSeen != nil {
		listSeen(e, msg, valid, decided)
	}
	if decided {
		return valid, decided
	}
	cs := e.catScratch()
	cs.buf = appendCmp(cs.buf[:0], msg)
	valid, decided = e.verdict(cs.buf)
	cs.trim()
	return valid, decided
}

// verdict is the catalog's MessageVerdict on msg's bytes, read in place
// (MessageVerdict keeps no reference to its text once it returns, and msg
// does not change during the call).
func (e *progressiveEngine) verdict(msg []byte) (valid, decided bool) {
	return e.cat.MessageVerdict(unsafe.String(unsafe.SliceData(msg), len(msg)))
}

// maxCatBuf bounds the encoding buffer kept between calls.
const maxCatBuf = 64 << 10

// withoutStubs returns msg, decoded again in full when the message being
// read holds components read at byte level (their *fastComp stubs are
// opaque to the schema library and to the integrity checks).
func (e *progressiveEngine) withoutStubs(msg map[string]any) map[string]any {
	if e.sc.stubs == 0 {
		return msg
	}
	if m, ok := decodeObject(appendJSON(nil, msg)); ok {
		return m
	}
	return msg
}

// renderable is the catalog's say on the component e.cs just read at byte
// level (true without a catalog): whether a v0.8 definition has the
// required properties of its type (its first type: the smallest name).
// (A type's reference fields of its own are the reader's, see
// compScanner.catalogRead.)
func (e *progressiveEngine) renderable() bool {
	if e.cat == nil || e.fam != protocol.FamilyV08 {
		return true
	}
	// A v0.8 definition read at byte level has a type, an object of
	// properties, first; one with more types is in canonical encoding
	// (entry_nested.go), so its first is the smallest name.
	name, props := leadingDefinition(e.cs.out)
	if len(name) == 0 {
		var vt jsonparser.ValueType
		err := jsonparser.ObjectEach(e.cs.out, func(k, v []byte, t jsonparser.ValueType, _ int) error {
			if len(name) == 0 {
				name, props, vt = k, v, t
			}
			return nil
		}, "component")
		if err != nil {
			return false
		}
		if vt != jsonparser.Object {
			return true // (no properties to check: a "path" first, see objPath)
		}
	}
	for _, req := range e.cat.RequiredFields(typeName(name)) {
		if firstKey(props, req) {
			continue // (models write the required properties first)
		}
		if _, _, _, err := jsonparser.Get(props, req); err != nil {
			return false
		}
	}
	return true
}

// firstKey reports whether object obj's first key is key, as written
// without whitespace or escapes: a key jsonparser.Get finds, without
// reading its value to its end.
func firstKey(obj []byte, key string) bool {
	n := len(key)
	return len(obj) > n+3 && obj[0] == '{' && obj[1] == '"' && string(obj[2:2+n]) == key && obj[2+n] == '"' && obj[3+n] == ':'
}

// validEncoded is valid for a data model message the data model reader
// encoded (the values' output encodings): the fast verdict on the bytes
// (a data model message has no components, so the integrity checks are
// CheckLimits, which the verdict includes), else the schema library on
// the decoded message.
func (e *progressiveEngine) validEncoded(msg []byte) bool {
	valid, decided := e.verdict(msg)
	if decided {
		return valid
	}
	m, ok := decodeObject(msg)
	return ok && e.valid(m, false)
}
