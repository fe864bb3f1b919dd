package perf

import "bytes"

// The floor: a bare JSON boundary scan. It finds where each top-level
// message of every <a2ui-json> block starts and ends, and does nothing
// else: no copy, no extraction, no validation, no output. Whatever parses
// the same stream has to look at the same bytes at least this way, so its
// throughput, taken in the same run at the same chunk size, is the speed
// limit a parser's figure is quoted against.

const (
	openTag  = "<a2ui-json>"
	closeTag = "</a2ui-json>"
)

// Scanner states.
const (
	inProse  = iota // outside any block
	inOpen          // matching the opening tag
	inJSON          // in a block, outside strings
	inString        // in a JSON string
	inClose         // matching the closing tag
)

// byte classes inside a block, outside strings: the bytes that change the
// state (anything else is skipped without a branch per kind).
var jsonStop = func() (t [256]bool) {
	for _, c := range []byte(`{}[]"<`) {
		t[c] = true
	}
	return
}()

// byte classes inside a string.
var stringStop = func() (t [256]bool) {
	t['"'], t['\\'] = true, true
	return
}()

// Boundary is one message the scanner found: its bytes are
// stream[Start:End], from its opening '{' (or '[') to its closing brace.
// Block counts the blocks from 0.
type Boundary struct {
	Start, End int64
	Block      int
}

// Scanner finds the boundaries of the top-level A2UI messages in model
// output fed to it in chunks of any size (a chunk may end anywhere: inside
// a tag, a string or an escape). It recognises only the tag framing
// (<a2ui-json>…</a2ui-json>). Malformed JSON is not detected: the scanner
// counts brackets and skips strings, nothing more.
//
// The zero Scanner is ready to use. A Scanner is not safe for concurrent
// use.
type Scanner struct {
	state  uint8
	escape bool  // a backslash ended the last chunk inside a string
	tag    int   // bytes of the tag matched so far
	depth  int   // bracket depth inside the block (the list is depth 1)
	start  int64 // stream offset of the open message's first byte
	off    int64 // stream offset of the next chunk's first byte

	// Messages and Blocks count the messages and blocks found so far.
	Messages, Blocks int
	// Record, when set, makes Write append every message's Boundary to
	// Found (the floor measurement leaves it off).
	Record bool
	Found  []Boundary
}

// Offset returns the number of bytes written so far.
func (s *Scanner) Offset() int64 { return s.off }

// Write scans the next chunk of the stream.
func (s *Scanner) Write(p []byte) {
	st, depth, tag := s.state, s.depth, s.tag
	i, n := 0, len(p)
	if s.escape && n > 0 {
		s.escape, i = false, 1 // the escaped byte opened this chunk
	}
	for i < n {
		switch st {
		case inProse:
			j := bytes.IndexByte(p[i:], '<')
			if j < 0 {
				i = n
				continue
			}
			i += j + 1
			st, tag = inOpen, 1
		case inOpen:
			c := p[i]
			switch {
			case c == openTag[tag]:
				tag++
				i++
				if tag == len(openTag) {
					st, depth = inJSON, 0
				}
			case c == '<':
				tag = 1
				i++
			default:
				st = inProse // not a tag: prose again, c read there
			}
		case inJSON:
			for i < n && !jsonStop[p[i]] {
				i++
			}
			if i == n {
				continue
			}
			switch p[i] {
			case '"':
				st = inString
			case '{', '[':
				depth++
				if depth == 2 {
					s.start = s.off + int64(i)
				}
			case '}', ']':
				depth--
				if depth == 1 {
					s.found(s.off + int64(i) + 1)
				}
			case '<':
				if depth == 0 {
					st, tag = inClose, 1
				}
			}
			i++
		case inString:
			for i < n && !stringStop[p[i]] {
				i++
			}
			switch {
			case i == n:
			case p[i] == '"':
				st = inJSON
				i++
			case i+1 < n: // a backslash and the byte it escapes
				i += 2
			default: // a backslash ends the chunk
				s.escape, i = true, n
			}
		case inClose:
			if p[i] == closeTag[tag] {
				tag++
				if tag == len(closeTag) {
					st = inProse
					s.Blocks++
				}
			} else {
				st = inJSON // not the closing tag: read on as JSON
				continue
			}
			i++
		}
	}
	s.state, s.depth, s.tag = st, depth, tag
	s.off += int64(n)
}

// found counts the message that ends before stream offset end.
func (s *Scanner) found(end int64) {
	s.Messages++
	if s.Record {
		s.Found = append(s.Found, Boundary{Start: s.start, End: end, Block: s.Blocks})
	}
}

// ScanBoundaries scans data in chunks of chunk bytes and returns the
// boundaries of its messages and the number of blocks that closed.
func ScanBoundaries(data []byte, chunk int) ([]Boundary, int) {
	s := Scanner{Record: true}
	feedChunks(data, chunk, s.Write)
	return s.Found, s.Blocks
}

// feedChunks calls write with data cut into chunks of chunk bytes (the
// last one shorter); a chunk of 0 or less feeds data whole.
func feedChunks(data []byte, chunk int, write func([]byte)) {
	if chunk <= 0 {
		chunk = len(data)
	}
	for i := 0; i < len(data); i += chunk {
		write(data[i:min(i+chunk, len(data))])
	}
}
