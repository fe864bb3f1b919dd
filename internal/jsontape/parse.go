package jsontape

import (
	"errors"
	"math/bits"
	"unicode/utf8"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// maxTapeBytes bounds a parsed text (token offsets are 32-bit).
const maxTapeBytes = 1<<31 - 1

// errTapeFull is tapeParser.run's signal that the token buffer is full:
// the caller grows it and calls run again, which resumes where it stopped.
var errTapeFull = errors.New("jsontape: tape full")

// Parse validates src as one JSON value (RFC 8259, UTF-8, surrounding
// whitespace allowed) with no value nested more than MaxDepth containers
// deep, and fills the tape with its tokens. Errors: a *SyntaxError
// (ErrSyntax), or a *DepthError (ErrDepth). After an error the tape's
// tokens mean nothing. On a tape already used, Parse allocates nothing
// unless the text has more tokens than any before.
func (tp *Tape) Parse(src string) error {
	tp.src, tp.escapedKey, tp.parsed = src, false, false
	toks := tp.toks[:cap(tp.toks)]
	tp.toks = toks[:0]
	if len(src) > maxTapeBytes {
		return &SyntaxError{0, "text too large"}
	}
	if want := len(src)/6 + 8; len(toks) < want {
		toks = make([]tapeToken, want)
	}
	p := tapeParser{i: jsonwire.SkipSpace(src, 0)}
	nt := 0
	for {
		var err error
		if nt, err = p.run(src, toks, nt); err == nil {
			break
		}
		if err != errTapeFull {
			// UTF-8 is checked inside strings only (anywhere else a
			// byte above 0x7F is a syntax error): a text that is not
			// UTF-8 is reported as such whatever error came first.
			if at := jsonwire.InvalidUTF8At(src); at >= 0 {
				return &SyntaxError{at, "invalid UTF-8"}
			}
			return err
		}
		// Double the buffer, but never beyond what the rest of the text
		// can hold (a token takes at least two bytes, separator
		// included).
		size := min(2*len(toks), nt+(len(src)-p.i)/2+2)
		toks = append(make([]tapeToken, 0, size), toks[:nt]...)[:size]
	}
	tp.toks, tp.escapedKey, tp.parsed = toks[:nt], p.escapedKey, true
	return nil
}

// tapeParser is the state of a parse that tapeParser.run keeps between
// its calls (it returns when the token buffer is full).
type tapeParser struct {
	open       [MaxDepth + 1]int32 // token indexes of the open containers, outermost first
	depth      int                 // number of open containers
	n          int32               // values so far in the innermost open container
	obj        bool                // the innermost open container is an object
	key        bool                // the string being scanned is an object key
	atKey      bool                // run stopped where an object member starts
	escapedKey bool                // an object key has an escape
	i          int                 // offset of the next value
}

// run writes the tokens of the JSON value s, from the parser's state on,
// into toks from index nt on, and returns the number of tokens. It is one
// loop over the text with an explicit stack of open containers, and calls
// no function but to return: its state (offset, token count, innermost
// container) then stays in registers, which a function call per value
// (or a slice growing inside the loop) would make it spill. So it stops,
// with errTapeFull, before it could run out of room for tokens; the caller
// grows toks and calls it again. Strings are checked for UTF-8 as they are
// scanned; the other bytes of a valid value are ASCII.
//
// A container's token counts its values in its n field once closed; while
// a nested container is open, its parent's count so far waits there.
func (p *tapeParser) run(s string, toks []tapeToken, nt int) (int, error) {
	var (
		depth, n, obj = p.depth, p.n, p.obj
		i             = p.i
		c             byte // the byte at s[i]
	)
	if p.atKey {
		goto key
	}

value: // a value (an array's item or the root) starts at s[i]
	// Room for its token; a member's key makes room for both its own
	// and its value's, and a container's for its own.
	if nt >= len(toks) {
		p.depth, p.n, p.obj, p.i, p.atKey = depth, n, obj, i, false
		return nt, errTapeFull
	}

memberValue: // a value starts at s[i], depth containers deep
	if i >= len(s) {
		return 0, syntaxError(i, "unexpected end of input")
	}
	if depth > MaxDepth {
		return 0, &DepthError{i}
	}
	if c = s[i]; c == '"' {
		p.key = false
		goto str
	}
	switch c {
	case '{', '[':
		if depth > 0 {
			toks[p.open[depth-1]].n = n
		}
		p.open[depth] = int32(nt)
		depth++
		obj = c == '{'
		if obj {
			toks[nt].set(Object, int32(i), 0, 0)
		} else {
			toks[nt].set(Array, int32(i), 0, 0)
		}
		nt++
		n = 0
		if i++; i < len(s) && s[i] <= ' ' {
			i = jsonwire.SkipSpace(s, i)
		}
		if i < len(s) && s[i] == c+2 { // '}' or ']'
			i++
			goto closed
		}
		if obj {
			goto key
		}
		goto value
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		j, st := jsonwire.ScanNumber(s, i, jsonwire.NumStart)
		if !st.Complete() {
			return 0, syntaxError(i, "invalid number")
		}
		toks[nt].set(Number, int32(i), int32(j), int32(nt+1))
		nt++
		i = j
	case 't', 'f', 'n':
		k := jsonwire.LiteralLen(s, i)
		if k == 0 {
			return 0, syntaxError(i, "invalid literal")
		}
		kind := Null
		if c == 't' {
			kind = True
		} else if c == 'f' {
			kind = False
		}
		toks[nt].set(kind, int32(i), int32(i+k), int32(nt+1))
		nt++
		i += k
	default:
		return 0, unexpectedCharError(i, c)
	}

more: // a value ended at s[i-1]
	if depth == 0 {
		if i = jsonwire.SkipSpace(s, i); i != len(s) {
			return 0, syntaxError(i, "unexpected data after the JSON value")
		}
		return nt, nil
	}
	n++
	if i < len(s) && s[i] <= ' ' {
		i = jsonwire.SkipSpace(s, i)
	}
	if i < len(s) {
		if c = s[i]; c == ',' {
			if i++; i < len(s) && s[i] <= ' ' {
				i = jsonwire.SkipSpace(s, i)
			}
			if obj {
				goto key
			}
			goto value
		}
		if c == '}' && obj || c == ']' && !obj {
			i++
			goto closed
		}
	}
	if obj {
		return 0, syntaxError(i, "expected ',' or '}'")
	}
	return 0, syntaxError(i, "expected ',' or ']'")

closed: // the innermost open container ended at s[i-1], with n values
	depth--
	{
		t := &toks[p.open[depth]]
		t.end, t.next, t.n = int32(i), int32(nt), n
	}
	if depth > 0 {
		parent := &toks[p.open[depth-1]]
		n, obj = parent.n, parent.kind == Object
	}
	goto more

key: // an object member starts at s[i]
	if nt+2 > len(toks) {
		p.depth, p.n, p.obj, p.i, p.atKey = depth, n, obj, i, true
		return nt, errTapeFull
	}
	if i >= len(s) || s[i] != '"' {
		return 0, syntaxError(i, "expected a string key")
	}
	p.key = true

str: // a string opens at s[i] (a key if p.key): its token is written as
	// it is scanned, its end last
	toks[nt].set(String, int32(i+1), 0, int32(nt+1))
	i++
	for {
		// Eight bytes at a time (one load) up to the closing quote, while
		// none before it is '\\', a control character or non-ASCII: the
		// quote's position depends on the quote mask alone, the others
		// only decide a branch.
		for i+8 <= len(s) {
			b := s[i : i+8]
			w := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
				uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
			quotes := jsonwire.QuoteBytes(w)
			if jsonwire.OtherStopBytes(w)&(quotes&-quotes-1) != 0 {
				goto slow // a stop byte other than '"' comes first
			}
			if quotes != 0 {
				i += bits.TrailingZeros64(quotes) >> 3
				goto strEnd
			}
			i += 8
		}
	slow:
		for i < len(s) && jsonwire.IsPlain(s[i]) {
			i++
		}
		if i >= len(s) {
			return 0, syntaxError(i, "unterminated string")
		}
		switch c = s[i]; {
		case c == '"':
			goto strEnd
		case c == '\\':
			toks[nt].esc = true
			if p.key {
				p.escapedKey = true
			}
			if i+1 >= len(s) {
				return 0, syntaxError(i, "unterminated escape")
			}
			k := jsonwire.EscapeLen(s, i)
			if k == 0 {
				if s[i+1] == 'u' {
					return 0, syntaxError(i, "invalid \\u escape")
				}
				return 0, syntaxError(i, "invalid escape")
			}
			i += k
		case c >= utf8.RuneSelf:
			// One UTF-8 sequence, checked as utf8.ValidString does.
			size := jsonwire.UTF8SeqLen(s, i)
			if size == 0 {
				return 0, errNotUTF8
			}
			i += size
		default:
			return 0, syntaxError(i, "control character in string")
		}
	}
strEnd: // the string's closing quote is s[i]
	toks[nt].end = int32(i)
	nt++
	i++
	if !p.key {
		goto more
	}
	if i >= len(s) || s[i] != ':' {
		if i = jsonwire.SkipSpace(s, i); i >= len(s) || s[i] != ':' {
			return 0, syntaxError(i, "expected ':'")
		}
	}
	if i++; i < len(s) && s[i] <= ' ' {
		i = jsonwire.SkipSpace(s, i)
	}
	goto memberValue
}

// set overwrites the token field by field: a composite literal would be
// built on the stack and copied with wide loads that stall on the narrow
// stores just made.
func (t *tapeToken) set(kind Kind, start, end, next int32) {
	t.kind, t.esc, t.start, t.end, t.next, t.n = kind, false, start, end, next, 0
}

// errNotUTF8 stands for a text that is not UTF-8 inside tapeParser.run
// (Parse reports it as a *SyntaxError).
var errNotUTF8 = errors.New("jsontape: invalid UTF-8")

func syntaxError(offset int, reason string) error { return &SyntaxError{offset, reason} }
