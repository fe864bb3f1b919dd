package parser

// A complete data model message, read in its canonical encoding (see
// data_canon.go) instead of decoded into maps: the reference's handling
// of a complete message (handleV08 and handleV09 for a data model
// message), its de-duplication against the records of the data yielded
// (dedupeEncoded), the catalog's verdict and the yield (in delta mode,
// the reduction, reduceEncoded). Messages of other kinds are decoded
// (handleMessage) and reach the same yield encoded (yieldMessage).

import (
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// completeData handles the complete message src (from its '{') when it is
// a data model message of the family's kind alone, and reports whether it
// did: a message of another kind or of several kinds, or one that is not
// valid JSON, is left to the decoding path.
func (e *progressiveEngine) completeData(src []byte) (bool, error) {
	var kind string
	switch e.fam {
	case protocol.FamilyV08:
		kind = kDataModelUpdate
	case protocol.FamilyV09:
		kind = kUpdateDataModel
	default:
		return false, nil
	}
	r := e.reader()
	defer r.dropLargeScratch()
	msg, ok := r.cw.canonical(r.msg[:0], src)
	r.msg = msg
	if !ok {
		return false, nil
	}
	l := &e.lay
	l.read(msg)
	defer l.done()
	has := false
	for _, m := range l.top {
		if _, fl := classifyKey(msg[m.a+1 : m.k-1]); fl&(flagKindV08|flagKindV09) != 0 {
			if string(msg[m.a+1:m.k-1]) != kind {
				return false, nil
			}
			has = true
		}
	}
	if !has {
		return false, nil
	}
	// handleV08 and handleV09: the loose verdict, the surface (the
	// message's surfaceId, else the current one), then the yield.
	if err := e.validateEncoded(msg, false); err != nil {
		return true, err
	}
	sid := e.surface
	if s, ok := canonString(l.get("surfaceId")); ok {
		sid = s
	}
	e.setSurface(sid)
	if err := e.takeLimitErr(); err != nil {
		return true, err
	}
	if e.fam == protocol.FamilyV09 {
		e.kindSeen = true
		return true, e.yieldEncoded(nil)
	}
	if e.deleted[orUnknown(e.surface)] != 0 {
		return true, nil // ignored, as the reference does
	}
	e.kindSeen = true
	if err := e.yieldEncoded(nil); err != nil {
		return true, err
	}
	return true, e.yieldReachable(false)
}

// yieldEncoded is yieldMessage for the message e.lay holds, in its
// canonical encoding (m: its decoding, when the caller has it): the
// reference's de-duplication of data model messages (progressive mode's;
// delta mode reduces every message itself, see data_delta.go, a v0.8 one
// progressive mode skips with its contents as sniffing yields them), the
// catalog's strict verdict, then the yield.
func (e *progressiveEngine) yieldEncoded(m map[string]any) error {
	defer e.lay.done()
	if !e.dedupeEncoded() {
		if e.dstate == nil {
			return nil
		}
		if e.prunedContents() {
			m = nil
		}
	}
	var err error // (nil without a catalog)
	if m != nil {
		err = e.validate(m, true)
	} else {
		err = e.validateEncoded(e.lay.msg, true)
	}
	if err != nil {
		return err
	}
	if e.dstate != nil {
		e.reduceEncoded(e.sc.msgGen)
		return nil
	}
	e.emitCopy(e.lay.msg)
	return nil
}

// emitCopy places a copy of the encoded message msg in the current part.
func (e *progressiveEngine) emitCopy(msg []byte) {
	e.emitRaw(append(e.out.store.alloc(len(msg)), msg...), false, "")
}

// validateEncoded is validate for a data model message in its canonical
// encoding: the catalog's verdict on the bytes (a data model message has
// no components, so the integrity checks are CheckLimits, which the
// verdict includes). An invalid message, or one the verdict cannot tell,
// is decoded for the schema library, whose error report is on the decoded
// values.
func (e *progressiveEngine) validateEncoded(msg []byte, strict bool) error {
	if e.cat == nil {
		return nil
	}
	if valid, decided := e.verdict(msg); valid && decided {
		return nil
	}
	m, _ := decodeObject(msg)
	return e.cat.Validate([]any{m}, protocol.WithStrictIntegrity(strict))
}

// maxKeptScratch bounds the scratch buffers of a complete message that the
// reader keeps until the block's end (see dropLargeScratch).
const maxKeptScratch = 64 << 10

// dropLargeScratch drops the scratch buffers a large complete message
// grew (its canonical copy, the members of an object being sorted and
// their offsets, the pruned contents): they would stay, as large as the
// message, until the block's end.
func (r *dataReader) dropLargeScratch() {
	for _, b := range []*[]byte{&r.msg, &r.cw.tmp, &r.pruned, &r.canon} {
		if cap(*b) > maxKeptScratch {
			*b = nil
		}
	}
	if cap(r.cw.mem) > maxKeptScratch/24 { // 24 bytes a member
		r.cw.mem = nil
	}
}

// dropSniffScratch drops the scratch lists of the entries a sniff yields
// when larger than a stream keeps idle: a sniff of a large message yields
// a part of its entries (an eighth of them, and more, as sniffs come less
// often while it grows), which the lists would hold between chunks.
func (r *dataReader) dropSniffScratch() {
	r.changed, r.recIdx = dropLarge(r.changed, keepScratch), dropLarge(r.recIdx, keepScratch)
	r.kept, r.list, r.check = dropLarge(r.kept, keepScratch), dropLarge(r.list, keepScratch), dropLarge(r.check, keepScratch)
}
