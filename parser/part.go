package parser

import "encoding/json"

// Part is one completed piece of model output: prose, A2UI messages, or both
// (the prose that preceded a block together with the messages the block
// produced in the same Feed call).
//
// A Part and everything it references belong to the caller: the parser never
// reads or writes them after returning them. With WithBorrowedOutput, the
// []Part array a call returns, each part's Messages slice and the messages'
// bytes are lent until the next Feed or Close call instead (Text is always
// the caller's): keep a part by appending its Clone to a slice of your own.
type Part struct {
	// Text is prose outside A2UI blocks, exactly as the model produced it.
	// It is empty for a part that only carries messages.
	Text string `json:"text,omitempty"`
	// Messages holds A2UI messages in order, each a complete JSON object.
	// It is nil for a text-only part.
	Messages []json.RawMessage `json:"a2ui,omitempty"`
	// List is the index, from 0 in stream order, of the block (the list
	// of messages) that Messages came from. A part's messages always come
	// from one block. It is 0 for a text-only part.
	List int `json:"-"`
	// ListEnd reports that block List ended with this part: no message of
	// it follows. It is set on the part holding the block's last messages
	// when the block ends in the same Feed or Close call; otherwise, with
	// WithListEnds, the call in which the block ends returns a marker part
	// for it (no Text, nil Messages, List and ListEnd set). A block that
	// fails never ends this way: its *BlockError (whose Block is List)
	// reports it instead. In JSONL framing a line is a block.
	ListEnd bool `json:"-"`
}

// IsListEnd reports whether p is a list-end marker (see WithListEnds): a
// part that carries neither text nor messages, only the end of block
// p.List.
func (p Part) IsListEnd() bool { return p.ListEnd && p.Messages == nil && p.Text == "" }

// HasMessages reports whether the part carries A2UI messages.
func (p Part) HasMessages() bool { return p.Messages != nil }

// Clone returns a copy of p whose Messages slice and message bytes are its
// own: what a caller of a parser with WithBorrowedOutput keeps past the
// next Feed or Close call. Store the copy in a slice of your own, not back
// into the returned []Part, which is lent too.
func (p Part) Clone() Part {
	if p.Messages == nil {
		return p
	}
	n := 0
	for _, m := range p.Messages {
		n += len(m)
	}
	buf := make([]byte, 0, n)
	msgs := make([]json.RawMessage, len(p.Messages))
	for i, m := range p.Messages {
		a := len(buf)
		buf = append(buf, m...)
		msgs[i] = buf[a:len(buf):len(buf)]
	}
	p.Messages = msgs
	return p
}
