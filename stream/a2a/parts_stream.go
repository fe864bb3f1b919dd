package a2a

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"

	"github.com/a2ui-stream/a2ui-stream/parser"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// PartOptions says how parsed model output becomes A2A parts.
type PartOptions struct {
	// Version selects the MIME type of data parts (see NewDataPart); empty
	// means the current protocol, protocol.MIMEType.
	Version protocol.Version
	// Shape is the wire shape of the parts (default ShapeV03).
	Shape Shape
	// GroupMessages puts the messages of one parsed block in a single data
	// part holding their list, the shape the extension specification
	// describes from v0.9. By default each message travels in a data part of
	// its own, the shape the reference SDKs and sample clients exchange. It
	// does not apply to v0.8 (Version 0.8), whose extension specification
	// carries one message per data part.
	GroupMessages bool
	// Fallback is the text ResponseParts answers with when the response does
	// not parse. Nil means the response itself; a pointer to "" means no
	// part at all.
	Fallback *string
	// Logger receives parse errors (default: discarded).
	Logger *slog.Logger
}

// FromParserParts converts parsed parts to A2A parts: a text part for each
// non-empty text, then the data part(s) for its messages (see
// PartOptions.GroupMessages). Messages are not copied: the data parts of a
// parser built with parser.WithBorrowedOutput are valid only until its
// next Feed or Close, as the parser's own parts are.
func FromParserParts(pp []parser.Part, o PartOptions) []Part {
	var out []Part
	for _, p := range pp {
		if p.Text != "" {
			out = append(out, NewTextPart(p.Text, o.Shape))
		}
		if len(p.Messages) == 0 {
			continue
		}
		if o.GroupMessages && o.Version.Family() != protocol.FamilyV08 {
			out = append(out, NewDataPart(joinList(p.Messages), o.Version, o.Shape))
			continue
		}
		for _, m := range p.Messages {
			out = append(out, NewDataPart(m, o.Version, o.Shape))
		}
	}
	return out
}

func joinList(msgs []json.RawMessage) json.RawMessage {
	n := 2
	for _, m := range msgs {
		n += len(m) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, '[')
	for i, m := range msgs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, m...)
	}
	return append(b, ']')
}

// ChunkParts feeds the next chunk of a model's streamed answer to p and
// returns the A2A parts it completes: the parser alone, with no processor
// (the Server runs answers through a stream.Pipeline instead, see the
// package doc). An error reports blocks that failed in
// this chunk (see parser.Parser.Feed); it is also logged, and the parts
// completed before and after the failure are still returned. Call
// CloseParts at the end of the stream. With a parser built with
// parser.WithBorrowedOutput, the data parts are valid until the next
// ChunkParts or CloseParts call (see FromParserParts).
func ChunkParts(p *parser.Parser, chunk []byte, o PartOptions) ([]Part, error) {
	pp, err := p.Feed(chunk)
	logErr(o.Logger, "a2a: dropped part of a streamed response", err)
	return FromParserParts(pp, o), err
}

// CloseParts closes p and returns the A2A parts still pending.
func CloseParts(p *parser.Parser, o PartOptions) ([]Part, error) {
	pp, err := p.Close()
	logErr(o.Logger, "a2a: streamed response ended badly", err)
	return FromParserParts(pp, o), err
}

// ResponseParts parses a whole model answer into A2A parts. Prose with no
// A2UI block becomes one text part holding the answer unchanged. An answer
// whose A2UI does not parse yields the fallback text part (by default the
// answer itself) and the error, which is also logged.
func ResponseParts(response string, o PartOptions) ([]Part, error) {
	pp, err := parser.ParseResponse(response)
	switch {
	case errors.Is(err, parser.ErrNotFound):
		if len(bytes.TrimSpace([]byte(response))) == 0 {
			return nil, nil
		}
		return []Part{NewTextPart(response, o.Shape)}, nil
	case err != nil:
		logErr(o.Logger, "a2a: model response did not parse; answering with the fallback text", err)
		fb := response
		if o.Fallback != nil {
			fb = *o.Fallback
		}
		if fb == "" {
			return nil, err
		}
		return []Part{NewTextPart(fb, o.Shape)}, err
	}
	return FromParserParts(pp, o), nil
}

func logErr(l *slog.Logger, msg string, err error) {
	if err != nil && l != nil {
		l.Warn(msg, "err", err)
	}
}
