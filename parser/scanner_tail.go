package parser

import (
	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// Tail mode
//
// The progressive modes run the validating scanner over every segment
// (scan_grammar.go) for its verdict only: they use none of the
// messages it returns. In tail mode (scanner.tail) it keeps no bytes of a
// message that passes the grammar. Of a message that breaks it, it keeps
// only the tail, from the byte it rejected (looseAt) to the message's end,
// and gives, from that tail and the grammar's state at looseAt, exactly the
// error complete mode's check gives from the whole message (messageError):
//
//   - UTF-8 first, over the whole message. The bytes before looseAt passed
//     the grammar, which accepts only UTF-8: they are UTF-8 up to the
//     character looseAt is in. If the grammar rejected a continuation byte
//     (looseVs vsUTF8), the first invalid byte is that character's lead, at
//     looseAt minus the continuation bytes read (auxEnd-aux) minus one.
//     Otherwise looseAt starts a character, and the first invalid byte, if
//     any, is the tail's.
//   - Then JSON syntax. The grammar accepts exactly what encoding/json
//     accepts, so encoding/json rejects the same byte; its error text names
//     the byte and the state of its scanner there, which the grammar's
//     state at looseAt determines (looseVs, the innermost container
//     looseTop, and aux, auxEnd or num). tailError gives encoding/json a
//     short text that leads to that state (grammarPrefix) followed by the
//     rejected byte, and moves the error's offset to looseAt.
//
// Two other ways were set aside. The progressive scanner's own buffer
// holds the message's bytes before looseAt at best (it reads no byte from
// looseAt on, and in a message list it may have cut what it yielded),
// while the UTF-8 check needs the bytes after looseAt too. Keeping the
// message's bytes until it ends costs a copy of every message that spans
// segments: the copy this mode saves.

// tailNext ends next in tail mode, once the message in progress was
// scanned up to seg[i] (seg[0] at stream offset off) (its end, when end is set), from seg[start]. It
// keeps the bytes of a loose message from its rejected byte, and at the
// message's end gives its error.
func (s *scanner) tailNext(seg []byte, off int64, start, i int, end bool) (int, []byte, error) {
	if s.loose {
		if len(s.buf) == 0 {
			// It turned loose in this segment: keep from the rejected byte.
			start = int(s.looseAt - off)
		}
		s.keep(seg[start:i])
	}
	if !end {
		return i, nil, nil
	}
	s.inMsg = false
	if !s.loose {
		return i, nil, nil
	}
	s.loose = false
	s.looseMsgs++
	err := s.tailError(s.buf)
	s.buf = s.buf[:0]
	return i, nil, err
}

// tailError gives the error of a loose message from its tail, the bytes
// from its rejected byte to its end (see the top of this file).
func (s *scanner) tailError(tail []byte) error {
	if s.looseVs == vsUTF8 {
		return &SyntaxError{Offset: s.looseAt - 1 - int64(s.auxEnd-s.aux), Msg: "invalid UTF-8", Err: ErrInvalidUTF8}
	}
	if pos := jsonwire.InvalidUTF8At(tail); pos >= 0 {
		return &SyntaxError{Offset: s.looseAt + int64(pos), Msg: "invalid UTF-8", Err: ErrInvalidUTF8}
	}
	p := append(s.grammarPrefix(), tail[0])
	return jsonError(p, s.looseAt-int64(len(p)-1))
}

// grammarPrefix returns a JSON text after which encoding/json's scanner is
// in the state that gives, for any byte the grammar rejects in state
// looseVs, the same error as the message's bytes before looseAt.
func (s *scanner) grammarPrefix() []byte {
	switch s.looseVs {
	case vsValue:
		return []byte(`[0,`) // not '[': it takes a ']'
	case vsKeyOrEnd:
		return []byte(`{`)
	case vsKey:
		return []byte(`{"":0,`)
	case vsColon:
		return []byte(`{""`)
	case vsAfter:
		if s.looseTop == '[' {
			return []byte(`[""`)
		}
		return []byte(`{"":""`)
	case vsStr:
		return []byte(`["`)
	case vsEsc:
		return []byte(`["\`)
	case vsHex:
		return append([]byte(`["\u`), "0000"[s.aux:]...)
	case vsNumber:
		switch s.num {
		case jsonwire.NumMinus:
			return []byte(`[-`)
		case jsonwire.NumDot:
			return []byte(`[0.`)
		case jsonwire.NumE:
			return []byte(`[0e`)
		}
		return []byte(`[0e+`) // NumESign
	}
	// vsLit: the literal's first byte and those of literals up to aux.
	first, from := byte('t'), uint8(0)
	switch {
	case s.aux >= 7:
		first, from = 'n', 7
	case s.aux >= 3:
		first, from = 'f', 3
	}
	return append([]byte{'[', first}, literals[from:s.aux]...)
}
