package jsontape

import (
	"iter"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// Tape is one JSON value (typically one A2UI message) parsed in a single
// validating pass into a flat list of tokens: one token per value, an
// object member being a key token followed by its value's tokens, token 0
// the whole value. Each token records where its text ends and the index
// of the token after its subtree, so reading a message never rescans its
// bytes, whatever the number of fields read.
//
// One tape serves every reader of a message: the processor reads the
// envelope, the components and their references from it, and the
// protocol's fast catalog check (protocoltape.ValidTape) decides schema
// validity and the limits on it, so a message is parsed once.
//
// Token indexes are ints; a negative index stands for "absent", and the
// kind predicates (IsString, IsObject, IsArray) are false for it. A Tape
// is reused by calling Parse again (its token storage is kept). A Tape is
// not safe for concurrent use; the strings it returns are substrings of
// the parsed text (or fresh strings, for escaped ones) and stay valid.
type Tape struct {
	src        string
	toks       []tapeToken
	escapedKey bool // some object key has an escape
	parsed     bool // the last Parse succeeded
}

// Forget drops the tape's reference to the text it parsed (its tokens
// then mean nothing), keeping its token storage for the next Parse: a
// tape kept for reuse then holds no caller's text alive, nor an alias of
// a buffer the caller rewrites.
func (tp *Tape) Forget() {
	tp.src, tp.parsed, tp.toks = "", false, tp.toks[:0]
}

// Kind is the kind of a tape token's value.
type Kind uint8

// Token kinds.
const (
	Null Kind = iota
	False
	True
	Number
	String
	Object
	Array
)

type tapeToken struct {
	kind  Kind
	esc   bool  // a string with escapes
	start int32 // offset of the value's first byte (of a string: after the opening quote)
	end   int32 // offset after the value's last byte (of a string: the closing quote)
	next  int32 // index of the token after this value's subtree
	n     int32 // members of an object, items of an array
}

// Len returns the number of tokens.
func (tp *Tape) Len() int { return len(tp.toks) }

// Kind returns token t's kind.
func (tp *Tape) Kind(t int) Kind { return tp.toks[t].kind }

// Next returns the index of the token after token t's subtree (for the
// key token of a member, that is its value's token).
func (tp *Tape) Next(t int) int { return int(tp.toks[t].next) }

// Count returns the number of members of an object token or items of an
// array token (0 for other kinds).
func (tp *Tape) Count(t int) int { return int(tp.toks[t].n) }

// IsString reports whether t is a token (t >= 0) holding a string.
func (tp *Tape) IsString(t int) bool { return t >= 0 && tp.toks[t].kind == String }

// IsObject reports whether t is a token (t >= 0) holding an object.
func (tp *Tape) IsObject(t int) bool { return t >= 0 && tp.toks[t].kind == Object }

// IsArray reports whether t is a token (t >= 0) holding an array.
func (tp *Tape) IsArray(t int) bool { return t >= 0 && tp.toks[t].kind == Array }

// Raw returns token t's JSON text (a substring of the parsed text).
func (tp *Tape) Raw(t int) string {
	k := &tp.toks[t]
	if k.kind == String {
		return tp.src[k.start-1 : k.end+1]
	}
	return tp.src[k.start:k.end]
}

// Span returns where token t's text is in the parsed text: of a string,
// after its opening quote and at its closing one; of another value, at its
// first byte and after its last.
func (tp *Tape) Span(t int) (start, end int) {
	k := &tp.toks[t]
	return int(k.start), int(k.end)
}

// Str returns string token t's value, unescaped: a substring of the
// parsed text when it has no escapes. Invalid surrogate escapes become
// U+FFFD, as in encoding/json.
func (tp *Tape) Str(t int) string {
	k := &tp.toks[t]
	if k.esc {
		return tp.unescaped(t)
	}
	return tp.src[k.start:k.end]
}

// Text returns string token t's text between its quotes and whether it
// has escapes (then Str gives its value). Unlike Str it always inlines,
// for loops that read many strings, nearly all without escapes:
//
//	s, esc := tp.Text(t)
//	if esc {
//		s = tp.Str(t)
//	}
func (tp *Tape) Text(t int) (s string, escaped bool) {
	k := &tp.toks[t]
	return tp.src[k.start:k.end], k.esc
}

// unescaped is Str for a string with escapes (kept apart so that Str
// inlines).
func (tp *Tape) unescaped(t int) string {
	k := &tp.toks[t]
	v, _ := jsonwire.Unescape(tp.src[k.start:k.end]) // validated by Parse
	return v
}

// Members iterates an object token's members in order: the key (unescaped)
// and the value's token.
func (tp *Tape) Members(obj int) iter.Seq2[string, int] {
	return func(yield func(string, int) bool) {
		end := int(tp.toks[obj].next)
		for j := obj + 1; j < end; {
			v := j + 1
			k := &tp.toks[j]
			key := tp.src[k.start:k.end]
			if k.esc {
				key = tp.unescaped(j)
			}
			if !yield(key, v) {
				return
			}
			j = int(tp.toks[v].next)
		}
	}
}

// Items iterates an array token's items in order: the index and the
// item's token.
func (tp *Tape) Items(arr int) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		end := int(tp.toks[arr].next)
		for j, i := arr+1, 0; j < end; i++ {
			if !yield(i, j) {
				return
			}
			j = int(tp.toks[j].next)
		}
	}
}

// Member returns the value token of an object's member key (the last one
// when the key repeats, as encoding/json reads it), or -1.
func (tp *Tape) Member(obj int, key string) int {
	found := -1
	end := int(tp.toks[obj].next)
	for j := obj + 1; j < end; j = int(tp.toks[j+1].next) {
		k := &tp.toks[j]
		if k.esc {
			if tp.unescaped(j) == key {
				found = j + 1
			}
		} else if tp.src[k.start:k.end] == key {
			found = j + 1
		}
	}
	return found
}
