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
	text    []byte // the chunk's prose
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
	t.text = t.text[:0]
	for len(data) > 0 {
		marker := openTag
		if t.inBlock {
			marker = closeTag
		}
		end, found := findMarker(data, marker)
		if t.inBlock {
			t.k.Data(data[:end])
		} else {
			t.text = append(t.text, data[:end]...)
		}
		if !found {
			t.held = append(t.held, data[end:]...)
			break
		}
		if t.inBlock = !t.inBlock; t.inBlock {
			t.k.Begin()
		} else {
			t.k.End()
		}
		data = data[end+len(marker):]
	}
	msgs := t.k.Flush()
	t.parts = t.parts[:0]
	if len(msgs) > 0 || len(t.text) > 0 {
		t.parts = append(t.parts, part{text: string(t.text), msgs: msgs})
	}
	return t.parts
}

// findMarker returns where marker starts in data (found), or, when data
// holds none, where the proper prefix of marker that data ends with
// starts (len(data) for none). '<' starts both markers and occurs nowhere
// else in them, so only the bytes from a '<' on are compared.
func findMarker(data []byte, marker string) (int, bool) {
	for from := 0; ; {
		j := bytes.IndexByte(data[from:], '<')
		if j < 0 {
			return len(data), false
		}
		j += from
		rest := data[j:]
		if len(rest) >= len(marker) {
			if string(rest[:len(marker)]) == marker {
				return j, true
			}
		} else if string(rest) == marker[:len(rest)] {
			return j, false
		}
		from = j + 1
	}
}
