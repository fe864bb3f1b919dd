package parser

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
)

// The corpora are written in the tags framing. The golden hashes of the
// fences and JSONL framings are taken on versions of them derived here,
// turn by turn, by a fixed rewrite that does not depend on the parser:
//
//   - fences (goldenFences): each <a2ui-json> becomes a "```a2ui" line and
//     each </a2ui-json> a "```" line. A newline is put before the marker
//     unless it already starts a line (after prose ending in a space, or
//     after block content not ending in a newline), and after the closing
//     marker unless a newline follows it already. The prose and the block
//     content are otherwise unchanged, so a turn yields the same messages,
//     byte for byte, as in the tags framing; prose gains the line breaks
//     around the fences. (The corpora hold no backtick at all: no prose
//     line can be read as a fence.)
//   - JSONL (goldenJSONL): the prose is dropped, since a JSONL stream has
//     none (a prose line would be a failed block); each block's array is
//     split into its messages (encoding/json, RawMessage: the bytes as
//     they are), and each message is written on a line of its own with
//     its newlines removed (25 blocks per corpus are pretty-printed; the
//     indentation stays, as whitespace inside the message), "\n" after
//     each.
//
// TestGoldenFramingsDerived checks that a derived turn yields, in complete
// mode, the messages of the original turn (for JSONL, without their
// newlines) and no error, so that a rewrite that lost the blocks cannot
// pass for one that kept them, and that the rewrite of the turns in one
// piece, as the benchmarks do it, is that of the turns one by one.

// goldenFramings are the framings with golden hashes, and the suffix of
// the name of a corpus derived for each (goldenFramed).
var goldenFramings = []struct {
	framing Framing
	suffix  string
}{
	{FramingTags, ""}, {FramingFences, "_fences"}, {FramingJSONL, "_jsonl"},
}

// goldenFramed rewrites a corpus turn for framing f.
func goldenFramed(t testing.TB, f Framing, turn []byte) []byte {
	t.Helper()
	switch f {
	case FramingTags:
		return turn
	case FramingFences:
		return goldenFences(t, turn)
	case FramingJSONL:
		return goldenJSONL(t, turn)
	}
	t.Fatalf("no derived corpus for %v", f)
	return nil
}

// goldenBlocks cuts a tags-framed turn into prose and block contents,
// alternating: prose, block, prose, ..., prose.
func goldenBlocks(t testing.TB, turn []byte) [][]byte {
	t.Helper()
	var out [][]byte
	for rest := turn; ; {
		i := bytes.Index(rest, tagOpen)
		if i < 0 {
			return append(out, rest)
		}
		j := bytes.Index(rest[i:], tagClose)
		if j < 0 {
			t.Fatalf("unclosed block in a corpus turn: %.40q", rest[i:])
		}
		out = append(out, rest[:i], rest[i+len(tagOpen):i+j])
		rest = rest[i+j+len(tagClose):]
	}
}

func goldenFences(t testing.TB, turn []byte) []byte {
	t.Helper()
	cut := goldenBlocks(t, turn)
	var out []byte
	for k, s := range cut {
		if k%2 == 0 { // prose
			if k > 0 && !bytes.HasPrefix(s, []byte("\n")) {
				out = append(out, '\n')
			}
			out = append(out, s...)
			continue
		}
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out, '\n')
		}
		out = append(out, "```a2ui\n"...)
		out = append(out, s...)
		if len(s) == 0 || s[len(s)-1] != '\n' {
			out = append(out, '\n')
		}
		out = append(out, "```"...)
	}
	return out
}

func goldenJSONL(t testing.TB, turn []byte) []byte {
	t.Helper()
	var out []byte
	for _, msg := range goldenJSONLMessages(t, turn) {
		out = append(out, msg...)
		out = append(out, '\n')
	}
	return out
}

// goldenJSONLMessages is the messages of a tags-framed turn's blocks, each
// without its newlines.
func goldenJSONLMessages(t testing.TB, turn []byte) [][]byte {
	t.Helper()
	var out [][]byte
	for k, s := range goldenBlocks(t, turn) {
		if k%2 == 0 {
			continue
		}
		var msgs []json.RawMessage
		if err := json.Unmarshal(s, &msgs); err != nil {
			t.Fatalf("a corpus block is not a JSON array: %v", err)
		}
		for _, m := range msgs {
			out = append(out, bytes.ReplaceAll(m, []byte("\n"), nil))
		}
	}
	return out
}

// goldenMessages parses in whole in complete mode and returns the messages.
func goldenMessages(t *testing.T, in []byte, opts ...Option) [][]byte {
	t.Helper()
	p, err := New(append([]Option{WithMode(ModeComplete)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	parts, err := p.Feed(in)
	if err != nil {
		t.Fatal(err)
	}
	end, err := p.Close()
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, part := range append(parts, end...) {
		for _, m := range part.Messages {
			out = append(out, m)
		}
	}
	return out
}

func TestGoldenFramingsDerived(t *testing.T) {
	for _, corpus := range []string{"stream_v09", "stream_v08"} {
		turns := corpusTurns(t, corpus)
		for _, fr := range goldenFramings[1:] {
			t.Run(corpus+fr.suffix, func(t *testing.T) {
				for i, turn := range turns {
					want := goldenMessages(t, turn)
					if len(want) == 0 {
						t.Fatalf("turn %d: no message in the tags framing", i)
					}
					if fr.framing == FramingJSONL {
						want = goldenJSONLMessages(t, turn)
					}
					got := goldenMessages(t, goldenFramed(t, fr.framing, turn), WithFraming(fr.framing))
					if !slices.EqualFunc(got, want, bytes.Equal) {
						t.Fatalf("turn %d: %d messages, want %d; derived input:\n%s", i, len(got), len(want),
							fmt.Sprintf("%.300s", goldenFramed(t, fr.framing, turn)))
					}
				}
				// The benchmarks rewrite the corpus in one piece.
				var each []byte
				for _, turn := range turns {
					each = append(each, goldenFramed(t, fr.framing, turn)...)
				}
				if whole := goldenFramed(t, fr.framing, bytes.Join(turns, nil)); !bytes.Equal(whole, each) {
					t.Errorf("the rewrite of the turns in one piece (%d bytes) is not that of the turns one after the other (%d bytes)", len(whole), len(each))
				}
			})
		}
	}
}
