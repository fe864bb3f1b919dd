// Package frame splits streamed model output into prose and A2UI blocks:
// the tags framing (<a2ui-json>…</a2ui-json>), the fences framing (```a2ui
// fences, as CommonMark reads them) and JSONL (every line a block).
//
// Each framing is a split function in the style of bufio.SplitFunc, a
// method of a small stateful value (Tags, Fences, Lines):
//
//	advance, tok := s.Split(data, atEOF)
//
// data is the buffered input the caller has not consumed yet. The split
// function returns how many bytes of data to consume and a Token: prose
// (Text), the opening of a block (Start), block content (Data) or the
// closing of a block (End). A token of Kind None with advance 0 means "need
// more bytes": it is not an error, and framing has no errors (any input is
// prose and blocks). Markup (tags, fence lines, JSONL line ends) is consumed
// by Start and End tokens and appears in no token's bytes.
//
// The caller keeps bufio's contract: after a call that advances n bytes,
// the next call is given data[n:] followed by any new bytes; after "need
// more", the same bytes followed by any more (asked again with no new
// byte, it answers "need more" again at once), or the same bytes with
// atEOF set. At EOF the split function consumes everything: it
// returns tokens until the input is empty and no block is open, then None.
// A split function remembers how far it has examined the bytes it held
// back (a resume offset, and for fences the match state of the line being
// held) and never examines them again, so the work is linear in the input
// however small the chunks. Given data that breaks the contract it stays
// safe (no panic, no hang) but its tokens are unspecified.
//
// Ownership: Token.Bytes is a subslice of data, owned by the caller: it
// stays valid while the caller leaves those bytes in place. A split
// function keeps no reference to data after it returns (only counts and
// match states), and allocates nothing.
//
// Prose is released as early as possible: only bytes that may begin a
// marker (a tag prefix, a line start that can still become a fence line)
// or an incomplete UTF-8 sequence at the end of data are held back. Block
// content is released up to a possible closing marker; a split UTF-8
// sequence inside a block is the block reader's business.
package frame
