package parser

import (
	"math"
	"unicode/utf8"
	"unsafe"

	"github.com/a2ui-stream/a2ui-stream/internal/protocoltape"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// listVerdict is the catalog's fast verdict on a complete component
// message, msg, judged on what the engine knows of its components when
// it can tell without reading them (decided false: it cannot, and the
// caller encodes the message and judges it). It can when msg is exactly
// a component message as closeComponentMessage ends them, in the wrapper
// of e.closing, and each of its components is a byte-level one that is
// valid and decided alone in that wrapper: its bytes are what its entry
// judged so as its processed form when last processed (compEntry.judged),
// or, for a few, judged so now (closingEnc.judge). Then the verdict is the
// wrapper's on their number (protocoltape.ListVerdict).
func (e *progressiveEngine) listVerdict(msg map[string]any) (valid, decided bool) {
	c := &e.closing
	if !c.ok || c.epoch == 0 || c.epoch == noWrapper || c.fam != e.fam {
		return false, false
	}
	list, ok := e.closedList(msg, c)
	if !ok {
		return false, false
	}
	s := e.seen[c.sid]
	if s == nil || s.comps == nil {
		return false, false
	}
	fresh, size := 0, len(c.enc)
	for _, item := range list {
		fc, ok := item.(*fastComp)
		if !ok {
			return false, false
		}
		if size += len(fc.src) + 1; size > maxListBytes {
			return false, false
		}
		if ent := s.comps[fc.id]; ent != nil && ent.judged == c.epoch && !ent.stale && string(ent.pjson) == string(fc.src) {
			continue
		}
		// Not judged as it is (e.g. its entry is still to be processed):
		// judged alone now, for a few of them.
		if fresh++; fresh > maxFreshVerdicts {
			return false, false
		}
		if c.judge == nil { // (not componentVerdicts: c is the message's wrapper, kept as it is)
			c.judge, c.ph = protocoltape.ComponentVerdicts(e.cat, e.openComponentMessage(), c.enc), 0
		}
		if valid, decided, _ := c.judge(unsafe.String(unsafe.SliceData(fc.src), len(fc.src)), "", nil); !valid || !decided {
			return false, false
		}
	}
	if c.list == nil {
		c.list = protocoltape.ListVerdicts(e.cat, e.openComponentMessage(), c.enc)
	}
	return c.list(len(list))
}

// maxListBytes bounds the messages listVerdict judges, well within the
// size of a text the catalog's tape parser takes (2 GiB).
const maxListBytes = 1 << 30

// maxFreshVerdicts bounds the components of a message listVerdict judges
// alone (past it, the message's path is as cheap).
const maxFreshVerdicts = 8

// closedList returns the components of msg when its comparison encoding
// (appendCmp) is the family's opening (openComponentMessage), the list
// of n >= 1 components, and the end c.enc: a message of exactly the
// wrapper's members, whose surface id and version encode as c's (the
// same strings, whose comparison encoding is their JSON encoding: no
// invalid UTF-8, which it writes raw).
func (e *progressiveEngine) closedList(msg map[string]any, c *closingEnc) ([]any, bool) {
	kind, n := kSurfaceUpdate, 1
	if e.fam == protocol.FamilyV09 {
		kind, n = kUpdateComponents, 2
		if v, ok := msg["version"].(string); !ok || v != c.ver || !utf8.ValidString(v) {
			return nil, false
		}
	} else if e.fam != protocol.FamilyV08 {
		return nil, false
	}
	body, ok := msg[kind].(map[string]any)
	if !ok || len(msg) != n || len(body) != 2 {
		return nil, false
	}
	if sid, ok := body["surfaceId"].(string); !ok || sid != c.sid || !utf8.ValidString(sid) {
		return nil, false
	}
	list, ok := body["components"].([]any)
	return list, ok && len(list) > 0
}

// nextWrapper numbers a wrapper closeComponentMessage encodes, after the
// last one (e.closing.epoch): 1, 2, ..., and noWrapper for all once the
// numbers run out (no verdict is taken as recorded in it).
func (e *progressiveEngine) nextWrapper() uint32 {
	return min(e.closing.epoch, noWrapper-1) + 1
}

// noWrapper is the number of the wrappers past the last one numbered.
const noWrapper = math.MaxUint32

// listSeen, set by tests only, sees each of listVerdict's answers.
var listSeen func(e *progressiveEngine, msg map[string]any, valid, decided bool)
