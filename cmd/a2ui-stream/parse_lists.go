package main

import (
	"bufio"
	"fmt"

	"github.com/a2ui-stream/a2ui-stream/parser"
)

// listLines writes the lines of "parse --emit lists": one per A2UI block
// that yielded messages, the JSON array of those messages, gathered across
// Feed calls until the part that ends the block (parser.Part.ListEnd; with
// parser.WithListEnds a marker part when the block ends in a call that
// yields none of its messages). Text is left out. A block that fails is not
// ended that way but by its *parser.BlockError: the messages it yielded
// before failing, if any, are written as a list, then the {"error":…}
// line. A list longer than max bytes (apply reads lists up to
// maxListBytes) is dropped and an error line written in its place, so a
// block's messages are held in bounded memory.
type listLines struct {
	max     int    // the longest list written
	pending []byte // "[" and the compacted messages of the open block
	count   int    // messages in pending
	open    bool   // a block's messages are being gathered
	list    int    // the open block's index
	tooLong bool   // the open block's messages passed max bytes and are dropped
}

func (l *listLines) write(out *bufio.Writer, parts []parser.Part, err error, last bool) error {
	werr := interleave(parts, err, func(pt parser.Part) error {
		return l.part(out, pt)
	}, func(e error) error {
		if err := l.flush(out); err != nil {
			return err
		}
		return writeErrorLine(out, e.Error())
	})
	if werr != nil || !last {
		return werr
	}
	return l.flush(out)
}

// part gathers the messages of pt, and writes the list when pt ends it.
func (l *listLines) part(out *bufio.Writer, pt parser.Part) error {
	if len(pt.Messages) == 0 && !pt.ListEnd {
		return nil // text only: not part of any list
	}
	if l.open && pt.List != l.list {
		// A new block although the open one was not marked ended: the
		// open one ended all the same.
		if err := l.flush(out); err != nil {
			return err
		}
	}
	if !l.open {
		l.open, l.list, l.count, l.tooLong = true, pt.List, 0, false
		l.pending = append(l.pending[:0], '[')
	}
	for _, m := range pt.Messages {
		if l.tooLong {
			break
		}
		if l.count > 0 {
			l.pending = append(l.pending, ',')
		}
		l.pending = appendJSONMessage(l.pending, m)
		l.count++
		if len(l.pending) > l.max {
			l.tooLong = true
			l.pending = nil // free it; the block's later messages are dropped too
		}
	}
	if pt.ListEnd {
		return l.flush(out)
	}
	return nil
}

// flush writes the open block's list, if any.
func (l *listLines) flush(out *bufio.Writer) error {
	if !l.open {
		return nil
	}
	l.open = false
	if l.tooLong {
		return writeErrorLine(out, fmt.Sprintf("a2ui-stream parse: the messages of block %d make a list longer than %d bytes; dropped", l.list, l.max))
	}
	l.pending = append(l.pending, ']', '\n')
	_, err := out.Write(l.pending)
	return err
}

// writeErrorLine writes {"error":msg} and a newline.
func writeErrorLine(out *bufio.Writer, msg string) error {
	_, err := out.Write(append(appendError(out.AvailableBuffer(), msg), '\n'))
	return err
}
