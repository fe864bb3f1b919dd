package deltaengine

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// FaultKind says what a Fault is.
type FaultKind uint8

// Kinds of Fault.
const (
	// FaultJSON: a message's bytes break the JSON grammar; Msg is
	// encoding/json's text for the first bad byte, at At.
	FaultJSON FaultKind = iota + 1
	// FaultUTF8: a message's string holds invalid UTF-8 at At.
	FaultUTF8
	// FaultByte: Byte, at At, is no message's (InList: between messages,
	// else before the list).
	FaultByte
	// FaultUnterminated: the block ended inside a message that broke the
	// grammar; At is the message's start.
	FaultUnterminated
	// FaultNothing: no object closed in the block; At is 0.
	FaultNothing
	// FaultTooDeep: the bracket at At opens more containers than
	// Options.MaxDepth.
	FaultTooDeep
	// FaultFenceOnly: the block holds a markdown fence (at At) and no
	// message.
	FaultFenceOnly
)

// Fault is why a block failed for its bytes (see Engine.Err), as the
// parser's complete mode judges them: one grammar, one verdict, one
// offset. At is an offset in the block's content (its markers removed).
type Fault struct {
	At     int
	Kind   FaultKind
	Msg    string
	Byte   byte
	InList bool
}

func (f *Fault) Error() string {
	switch f.Kind {
	case FaultUTF8:
		return fmt.Sprintf("deltaengine: invalid UTF-8 at %d", f.At)
	case FaultByte:
		return fmt.Sprintf("deltaengine: unexpected byte %q at %d", f.Byte, f.At)
	case FaultUnterminated:
		return fmt.Sprintf("deltaengine: block ended inside an unfinished message (at %d)", f.At)
	case FaultNothing:
		return "deltaengine: no valid JSON object in the block"
	case FaultTooDeep:
		return fmt.Sprintf("deltaengine: nesting too deep at %d", f.At)
	case FaultFenceOnly:
		return fmt.Sprintf("deltaengine: a markdown fence (at %d) and no message", f.At)
	}
	return fmt.Sprintf("deltaengine: %s (at %d)", f.Msg, f.At)
}

// raw is the offset in the block's content of buf[j], for a j after every
// byte dropped so far (spaces outside strings, commas between messages).
func (k *Engine) raw(j int) int { return j + k.spaces }

// jsonFault is the fault of the open message, whose bytes so far are
// buf[msgStart:] followed by next: invalid UTF-8 in them, else
// encoding/json's error on them.
func (k *Engine) jsonFault(next []byte) *Fault {
	r := k.rare()
	msg := append(append(r.cbuf[:0], k.buf[k.msgStart:]...), next...)
	r.cbuf = msg
	whole := msg
	if i := cutRune(msg); i >= 0 {
		whole = msg[:i] // (a character the break cuts may be whole in the message)
	}
	if pos := jsonwire.InvalidUTF8At(whole); pos >= 0 {
		// As complete mode checks a message: its UTF-8 first.
		return &Fault{At: k.raw(k.msgStart + pos), Kind: FaultUTF8}
	}
	var v any
	var se *json.SyntaxError
	if err := json.Unmarshal(msg, &v); errors.As(err, &se) {
		return &Fault{At: k.raw(k.msgStart + int(se.Offset) - 1), Kind: FaultJSON, Msg: se.Error()}
	}
	return &Fault{At: k.raw(len(k.buf)), Kind: FaultJSON, Msg: "invalid JSON"}
}

// utf8Fault is the fault of the string just closed at buf[strStart:],
// which holds invalid UTF-8.
func (k *Engine) utf8Fault() *Fault {
	pos := jsonwire.InvalidUTF8At(k.buf[k.strStart+1 : len(k.buf)-1])
	return &Fault{At: k.raw(k.strStart + 1 + pos), Kind: FaultUTF8}
}

// Limit is why a block failed when a message passed a bound of
// Options.MaxSurfaces ("surfaces") or Options.MaxComponents
// ("components") for surface SurfaceID.
type Limit struct {
	What      string
	Max       int
	SurfaceID string
}

func (l *Limit) Error() string {
	return fmt.Sprintf("deltaengine: surface %q: more than %d %s", l.SurfaceID, l.Max, l.What)
}
