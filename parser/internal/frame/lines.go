package frame

import "bytes"

// Lines splits the JSONL framing: every line is a block (an empty line
// too: the block reader decides what an empty block is), its '\n' the
// block's closing markup; there is no prose. A block opens at the first
// byte of its line, so a stream that ends with '\n' has no block after it,
// and a last line with no '\n' is closed at EOF. The zero value is ready
// to use. Nothing is ever held back.
type Lines struct {
	inBlock bool
	work    int64 // bytes examined, for the linearity test
}

// Split is the SplitFunc of the JSONL framing.
func (s *Lines) Split(data []byte, atEOF bool) (int, Token) {
	if len(data) == 0 {
		if atEOF && s.inBlock {
			s.inBlock = false
			return 0, Token{Kind: End}
		}
		return 0, Token{}
	}
	if !s.inBlock {
		s.inBlock = true
		return 0, Token{Kind: Start}
	}
	i := bytes.IndexByte(data, '\n')
	switch {
	case i < 0:
		s.work += int64(len(data))
		return len(data), Token{Kind: Data, Bytes: data}
	case i > 0:
		s.work += int64(i)
		return i, Token{Kind: Data, Bytes: data[:i]}
	}
	s.work++
	s.inBlock = false
	return 1, Token{Kind: End}
}
