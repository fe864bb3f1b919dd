package frame

import (
	"bytes"
	"unicode/utf8"
)

// Markers of the tags framing.
const (
	TagOpen  = "<a2ui-json>"
	TagClose = "</a2ui-json>"
)

// tagFirst is the first byte of both tags. It occurs nowhere else in
// them, so a mismatch at byte n of a candidate tag rules out a tag
// starting at any of its bytes 1 to n-1 (TestTagMarkersFirstByteOnce).
const tagFirst = '<'

// Tags splits the tags framing: prose, and blocks between TagOpen and
// TagClose. The zero value is ready to use, outside a block.
type Tags struct {
	inBlock bool
	// seen is the number of bytes at the start of data that the previous
	// call examined and held back: a proper prefix of the marker looked
	// for when prefix is set, else (outside a block) an incomplete UTF-8
	// sequence. A whole marker (seen == its length) was found by the
	// previous call after the prose it returned.
	seen   int
	prefix bool
	work   int64 // bytes examined, for the linearity test
}

// AllData reports whether Split(data, false) would return all of data as
// one Data token and change nothing but its work count: a block is open,
// nothing is held back, and no byte of data may begin the closing tag. A
// caller may then skip the call and take data as block content. It is
// small enough to be inlined: a parser's fast path for the common case of a
// chunk inside a block.
func (s *Tags) AllData(data []byte) bool {
	return s.inBlock && s.seen == 0 && bytes.IndexByte(data, tagFirst) < 0
}

// Split is the SplitFunc of the tags framing. Its common case (nothing
// held back, no '<' in data, and outside a block data ending in ASCII)
// costs one IndexByte and no further call.
func (s *Tags) Split(data []byte, atEOF bool) (int, Token) {
	if s.seen != 0 || atEOF || len(data) == 0 {
		return s.split(data, atEOF)
	}
	j := bytes.IndexByte(data, tagFirst)
	if j < 0 && (s.inBlock || data[len(data)-1] < utf8.RuneSelf) {
		s.work += int64(len(data))
		return len(data), body(s.inBlock, data)
	}
	return s.scan(data, atEOF, 0, j)
}

// split is Split when bytes are held back, at EOF or for empty data.
func (s *Tags) split(data []byte, atEOF bool) (int, Token) {
	if len(data) == 0 {
		if atEOF && s.inBlock {
			s.inBlock = false
			return 0, Token{Kind: End}
		}
		return 0, Token{}
	}
	marker := TagOpen
	if s.inBlock {
		marker = TagClose
	}
	seen, prefix := s.seen, s.prefix
	s.seen, s.prefix = 0, false
	if seen > len(data) {
		seen, prefix = 0, false // not the bufio contract: examine anew
	}
	i := seen
	if prefix {
		// data[:seen] is marker[:seen]: go on matching from there.
		n := seen + matchLen(data[seen:], marker[seen:])
		s.work += int64(n - seen)
		switch {
		case n == len(marker):
			return s.marker(n)
		case n == len(data) && !atEOF:
			s.seen, s.prefix = n, true
			return 0, Token{}
		}
		i = n // no marker starts in data[:n]
	}
	return s.scan(data, atEOF, i, bytes.IndexByte(data[i:], tagFirst))
}

// scan looks for the marker in data from i, where nothing is held back;
// j is the index in data[i:] of the next '<', or -1.
func (s *Tags) scan(data []byte, atEOF bool, i, j int) (int, Token) {
	marker := TagOpen
	if s.inBlock {
		marker = TagClose
	}
	for j >= 0 {
		i += j
		n := matchLen(data[i:], marker)
		s.work += int64(j + n)
		if n == len(marker) {
			if i == 0 {
				return s.marker(n)
			}
			s.seen, s.prefix = n, true // found: the next call returns it
			return i, body(s.inBlock, data[:i])
		}
		if i+n == len(data) && !atEOF {
			// A marker may begin here: hold it back.
			s.seen, s.prefix = n, true
			if i == 0 {
				return 0, Token{}
			}
			return i, body(s.inBlock, data[:i])
		}
		i += n
		j = bytes.IndexByte(data[i:], tagFirst)
	}
	s.work += int64(len(data) - i)
	k := 0
	if !s.inBlock && !atEOF {
		k = partialRuneTail(data)
	}
	s.seen = k
	if k == len(data) {
		return 0, Token{}
	}
	return len(data) - k, body(s.inBlock, data[:len(data)-k])
}

// marker returns the token of a whole marker of n bytes at data[0].
func (s *Tags) marker(n int) (int, Token) {
	s.inBlock = !s.inBlock
	if s.inBlock {
		return n, Token{Kind: Start}
	}
	return n, Token{Kind: End}
}

// matchLen returns the length of the common prefix of b and marker.
func matchLen(b []byte, marker string) int {
	n := min(len(b), len(marker))
	for i := 0; i < n; i++ {
		if b[i] != marker[i] {
			return i
		}
	}
	return n
}
