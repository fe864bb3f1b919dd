package main

import (
	"bytes"

	"github.com/a2ui-stream/a2ui-stream/internal/deltaengine"
)

// Markers of the tags framing.
const (
	openTag  = "<a2ui-json>"
	closeTag = "</a2ui-json>"
)

// part is what a chunk yields, lent until the next feed.
type part struct {
	text string
	msgs [][]byte
}

// tags splits model output in the tags framing as the parser's framer
// does (the first marker found, inside a block's strings too; a proper
// prefix of it at a chunk's end held back until the next chunk says),
// and hands each block's content to the engine.
type tags struct {
	k       *deltaengine.Engine
	inBlock bool
	held    []byte // a proper prefix of the marker looked for
	work    []byte
	parts   []part
}

func newTags(o deltaengine.Options) *tags { return &tags{k: deltaengine.New(o)} }

// feed reads one chunk and returns what it yields.
func (t *tags) feed(chunk []byte) []part {
	data := chunk
	if len(t.held) > 0 {
		t.work = append(append(t.work[:0], t.held...), chunk...)
		data, t.held = t.work, t.held[:0]
	}
	var text []byte
	for len(data) > 0 {
		marker := openTag
		if t.inBlock {
			marker = closeTag
		}
		j := bytes.Index(data, []byte(marker))
		end := j
		if j < 0 {
			end = len(data) - heldPrefix(data, marker)
		}
		if t.inBlock {
			t.k.Data(data[:end])
		} else {
			text = append(text, data[:end]...)
		}
		if j < 0 {
			t.held = append(t.held, data[end:]...)
			break
		}
		if t.inBlock = !t.inBlock; t.inBlock {
			t.k.Begin()
		} else {
			t.k.End()
		}
		data = data[j+len(marker):]
	}
	msgs := t.k.Flush()
	t.parts = t.parts[:0]
	if len(msgs) > 0 || len(text) > 0 {
		t.parts = append(t.parts, part{text: string(text), msgs: msgs})
	}
	return t.parts
}

// heldPrefix is the length of the longest proper prefix of marker that
// data ends with.
func heldPrefix(data []byte, marker string) int {
	for n := min(len(marker)-1, len(data)); n > 0; n-- {
		if string(data[len(data)-n:]) == marker[:n] {
			return n
		}
	}
	return 0
}
