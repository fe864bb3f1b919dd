package parser

import (
	"bytes"
	"strings"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// HasParts reports whether response holds at least one complete
// <a2ui-json>…</a2ui-json> block.
func HasParts(response string) bool {
	i := strings.Index(response, string(tagOpen))
	return i >= 0 && strings.Contains(response[i+len(tagOpen):], string(tagClose))
}

// ParseResponse parses a whole model response (not streamed) into parts: the
// trimmed text before each block together with the block's messages, and a
// last part for trailing text. Each block's payload may be wrapped in a
// markdown fence and is repaired by FixPayload.
//
// It fails with ErrNotFound when the response has no complete block, with
// ErrEmptyBlock for a block with nothing in it, and with a *SyntaxError (its
// Offset relative to the response) for JSON that cannot be repaired.
func ParseResponse(response string) ([]Part, error) {
	if !HasParts(response) {
		return nil, ErrNotFound
	}
	var parts []Part
	rest, base := response, 0
	for {
		i := strings.Index(rest, string(tagOpen))
		if i < 0 {
			break
		}
		j := strings.Index(rest[i+len(tagOpen):], string(tagClose))
		if j < 0 {
			break
		}
		contentStart := i + len(tagOpen)
		content := rest[contentStart : contentStart+j]
		payload, start := stripFence([]byte(content))
		msgs, err := FixPayload(payload)
		if err != nil {
			if se, ok := err.(*SyntaxError); ok {
				se.Offset += int64(base + contentStart + start)
			}
			return nil, err
		}
		parts = append(parts, Part{Text: strings.TrimSpace(rest[:i]), Messages: msgs})
		adv := contentStart + j + len(tagClose)
		rest, base = rest[adv:], base+adv
	}
	if t := strings.TrimSpace(rest); t != "" {
		parts = append(parts, Part{Text: t})
	}
	return parts, nil
}

// stripFence removes a markdown code fence around a payload, with the rule
// the streaming scanner applies: a leading fence marker runs from its first
// backtick to the end of its line or up to the first '[' or '{', excluded
// (so ```json [ … ] ``` on one line is a fenced payload), and a trailing run
// of backticks goes. A marker followed by neither is kept without its
// backticks, for FixPayload to report. start is where payload begins in b.
func stripFence(b []byte) (payload []byte, start int) {
	trimLeft := func(cut string) {
		t := bytes.TrimLeft(b, cut)
		start += len(b) - len(t)
		b = t
	}
	skipSpace := func() {
		i := jsonwire.SkipSpace(b, 0)
		start += i
		b = b[i:]
	}
	skipSpace()
	if len(b) > 0 && b[0] == '`' {
		if i := fenceMarkerEnd(b); i >= 0 {
			start += i
			b = b[i:]
		} else {
			trimLeft("`")
		}
	}
	skipSpace()
	// b starts with no whitespace: TrimSpace trims its end only.
	return jsonwire.TrimSpace(bytes.TrimRight(jsonwire.TrimSpace(b), "`")), start
}
