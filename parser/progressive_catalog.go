package parser

import "github.com/a2ui-stream/a2ui-stream/protocol"

// Catalog validation of decoded messages. The catalog's fast validator
// reads a message's encoding without decoding it again and builds no
// report; a message it finds certainly valid needs only the integrity
// checks on top (Validate is the schema, then those). The schema library
// runs, on the decoded values, only where the fast validator cannot tell,
// or where an invalid message's report is needed. The comparison encoding
// is the one read, so that a string with invalid UTF-8 (written \xHH,
// which is not JSON) goes to the schema library, which sees the string as
// it is.

// validate is e.cat.Validate([]any{msg}) (nil without a catalog): the
// error, with its report, of an invalid message.
func (e *progressiveEngine) validate(msg map[string]any, strict bool) error {
	if e.cat == nil {
		return nil
	}
	if valid, decided := e.fastVerdict(msg); valid && decided {
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

// fastVerdict is the catalog's fast verdict on msg's encoding.
func (e *progressiveEngine) fastVerdict(msg map[string]any) (valid, decided bool) {
	e.catBuf = appendCmp(e.catBuf[:0], msg)
	valid, decided = e.cat.MessageVerdict(string(e.catBuf))
	if cap(e.catBuf) > maxCatBuf {
		e.catBuf = nil
	}
	return valid, decided
}

// maxCatBuf bounds the encoding buffer kept between calls.
const maxCatBuf = 64 << 10
