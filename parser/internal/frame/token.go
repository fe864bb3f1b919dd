package frame

import "unicode/utf8"

// Kind is what a Token is.
type Kind uint8

const (
	// None is no token: the split function needs more bytes (or, at EOF,
	// the input is done).
	None Kind = iota
	// Text is prose: Token.Bytes.
	Text
	// Start opens a block; its content begins at data[advance].
	Start
	// Data is the next bytes of the open block's content: Token.Bytes.
	Data
	// End closes the open block.
	End
)

func (k Kind) String() string {
	switch k {
	case None:
		return "none"
	case Text:
		return "text"
	case Start:
		return "start"
	case Data:
		return "data"
	case End:
		return "end"
	}
	return "kind?"
}

// Token is one piece of the framed stream. For Text and Data, Bytes is
// data[:advance] of the call that returned it (a subslice of the caller's
// buffer); for the other kinds it is nil.
type Token struct {
	Kind  Kind
	Bytes []byte
}

// SplitFunc is the signature of the split functions (the Split methods of
// Tags, Fences and Lines). See the package doc for the contract.
type SplitFunc func(data []byte, atEOF bool) (advance int, tok Token)

// body returns b as prose or as block content.
func body(inBlock bool, b []byte) Token {
	if inBlock {
		return Token{Kind: Data, Bytes: b}
	}
	return Token{Kind: Text, Bytes: b}
}

// partialRuneTail returns the length of an incomplete UTF-8 sequence at the
// end of data (0 to 3 bytes), which must wait for more bytes. It looks at
// most at the last 3 bytes.
func partialRuneTail(data []byte) int {
	for k := 1; k <= 3 && k <= len(data); k++ {
		c := data[len(data)-k]
		if c < 0x80 {
			return 0
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(data[len(data)-k:]) {
				return 0
			}
			return k
		}
	}
	return 0
}
