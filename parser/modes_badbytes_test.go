package parser

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Messages of the bad-bytes inputs: the progressive modes yield each of
// them once, whole, when it completes, as complete mode does.
const (
	bbCreate = `{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}}`
	bbDelete = `{"version":"v0.9","deleteSurface":{"surfaceId":"s"}}`
	bbNext   = `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"t","catalogId":"c"}}]</a2ui-json>`
)

// badByteInputs are blocks with bytes the grammar rejects, each followed by
// prose and a good block. Every mode must give each the same verdict.
var badByteInputs = []struct{ name, block string }{
	{"nul_between_messages", "[" + bbCreate + "\x00," + bbDelete + "]"},
	{"junk_between_messages", "[" + bbCreate + " junk," + bbDelete + "]"},
	{"junk_before_the_list", "junk[" + bbCreate + "]"},
	{"bom_before_the_list", "\xef\xbb\xbf[" + bbCreate + "," + bbDelete + "]"},
	{"bom_between_messages", "[" + bbCreate + ",\xef\xbb\xbf" + bbDelete + "]"},
	{"non_ascii_between_messages", "[" + bbCreate + " é," + bbDelete + "]"},
	{"nul_between_tokens", "[" + bbCreate + `,{"version":` + "\x00" + `"v0.9","deleteSurface":{"surfaceId":"s"}}]`},
	{"bom_between_tokens", "[" + bbCreate + `,{"version"` + "\xef\xbb\xbf" + `:"v0.9","deleteSurface":{"surfaceId":"s"}}]`},
	{"control_byte_between_tokens", "[" + bbCreate + `,{"version":"v0.9",` + "\x01" + `"deleteSurface":{"surfaceId":"s"}}]`},
	{"del_between_tokens", "[" + bbCreate + `,{"version":"v0.9"` + "\x7f" + `,"deleteSurface":{"surfaceId":"s"}}]`},
	{"control_byte_in_a_string", "[" + bbCreate + `,{"version":"v0.9","deleteSurface":{"surfaceId":"s` + "\x01" + `"}}]`},
	{"nul_in_a_key", "[" + bbCreate + `,{"ver` + "\x00" + `sion":"v0.9","deleteSurface":{"surfaceId":"s"}}]`},
	{"bad_escape", "[" + bbCreate + `,{"version":"v0.9","deleteSurface":{"surfaceId":"\q"}}]`},
	{"bare_word_value", "[" + bbCreate + `,{"version":v0.9,"deleteSurface":{"surfaceId":"s"}}]`},
	{"comma_before_the_list", ",[" + bbCreate + "]"},
	{"comma_opening_an_object", "[" + bbCreate + `,{,"version":"v0.9","deleteSurface":{"surfaceId":"s"}}]`},
	{"double_comma_in_an_object", "[" + bbCreate + `,{"version":"v0.9",,"deleteSurface":{"surfaceId":"s"}}]`},
	{"trailing_comma_in_an_object", "[" + bbCreate + `,{"version":"v0.9","deleteSurface":{"surfaceId":"s"},}]`},
	{"trailing_comma_in_an_array", "[" + bbCreate + `,{"version":"v0.9","deleteSurface":{"surfaceId":"s","x":[1,]}}]`},
	{"bracket_before_the_list", "][" + bbCreate + "]"},
	{"bracket_after_the_list", "[" + bbCreate + "]]"},
	{"bracket_for_a_value", "[" + bbCreate + `,{"version":]}]`},
	{"trailing_junk_after_the_list", "[" + bbCreate + "," + bbDelete + "] junk"},
	{"trailing_nul_after_the_list", "[" + bbCreate + "," + bbDelete + "]\x00"},
	{"invalid_utf8_in_a_string", "[" + bbCreate + `,{"version":"v0.9","deleteSurface":{"surfaceId":"` + "\xff" + `"}}]`},
	{"invalid_utf8_between_messages", "[" + bbCreate + "\xff," + bbDelete + "]"},
	{"bad_byte_in_an_unfinished_message", "[" + bbCreate + `,{"version":` + "\x00" + `"v0.9"`},
	{"non_ascii_character_for_a_value", "[" + bbCreate + `,{"version":` + "°" + `,"deleteSurface":{"surfaceId":"s"}}]`},
	{"three_byte_character_for_a_value", "[" + bbCreate + `,{"version":"v0.9","deleteSurface":{"surfaceId":` + "€" + `}}]`},
	{"truncated_character_at_the_block_end", "[" + bbCreate + `,{"version":"v0.9","deleteSurface":{"surfaceId":"` + "\xc3"},
	{"too_deep_in_a_message", "[" + bbCreate + `,{"a":` + strings.Repeat("[", DefaultMaxDepth) + strings.Repeat("]", DefaultMaxDepth) + "}]"},
}

// badByteStream is the stream of a bad-bytes input.
func badByteStream(block string) []byte {
	return []byte("Hi <a2ui-json>" + block + "</a2ui-json> then " + bbNext)
}

// TestModesAgreeOnBadBytes feeds each bad-bytes input to the three modes
// whole, split in two at every byte and one byte at a time, and requires
// one trace from all of them: the same messages (compared as JSON values)
// before the error, the same error text and offset, the same messages
// after.
func TestModesAgreeOnBadBytes(t *testing.T) {
	for _, tc := range badByteInputs {
		t.Run(tc.name, func(t *testing.T) {
			in := badByteStream(tc.block)
			want := modeTrace(t, ModeComplete, [][]byte{in})
			if !slices.ContainsFunc(want, func(s string) bool { return len(s) > 6 && s[:6] == "error " }) {
				t.Fatalf("complete mode accepts the input: %q", want)
			}
			for _, mode := range []Mode{ModeComplete, ModeProgressive, ModeDelta} {
				check := func(how string, chunks [][]byte) {
					if got := modeTrace(t, mode, chunks); !slices.Equal(got, want) {
						t.Fatalf("%s, %s:\n got %q\nwant %q", mode, how, got, want)
					}
				}
				check("one feed", [][]byte{in})
				for k := 1; k < len(in); k++ {
					check(fmt.Sprintf("split at %d", k), [][]byte{in[:k], in[k:]})
				}
				check("one byte at a time", chunked(in, 1))
			}
		})
	}
}

// TestLostCountKeepsTheReferenceReading pins the one exception to
// TestModesAgreeOnBadBytes, which the streaming conformance suite's own
// inputs require: a block whose first fault is a lost count of brackets is
// read through by the progressive modes, as the reference reads it, while
// complete mode fails it.
func TestLostCountKeepsTheReferenceReading(t *testing.T) {
	for _, tc := range []struct{ name, block string }{
		{"wrong_closer_after_a_value", "[" + bbCreate + `,{"version":"v0.9","deleteSurface":{"surfaceId":"s"]}]`},
		{"object_where_a_key_is_due", "[" + bbCreate + `,{"version":"v0.9",{"version":"v0.9","deleteSurface":{"surfaceId":"s"}}]`},
		{"extra_brace_after_the_list", "[" + bbCreate + "," + bbDelete + "]}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := badByteStream(tc.block)
			complete := modeTrace(t, ModeComplete, [][]byte{in})
			if !slices.ContainsFunc(complete, func(s string) bool { return len(s) > 6 && s[:6] == "error " }) {
				t.Fatalf("complete mode accepts the input: %q", complete)
			}
			for _, mode := range []Mode{ModeProgressive, ModeDelta} {
				want := modeTrace(t, mode, [][]byte{in})
				if slices.ContainsFunc(want, func(s string) bool { return len(s) > 6 && s[:6] == "error " }) {
					t.Fatalf("%s fails the block: %q", mode, want)
				}
				if got := modeTrace(t, mode, chunked(in, 1)); !slices.Equal(got, want) {
					t.Fatalf("%s, one byte at a time:\n got %q\nwant %q", mode, got, want)
				}
			}
		})
	}
}

// modeTrace runs chunks through a parser in mode and returns, in stream
// order, each message ("msg " and its JSON value, re-encoded) and each
// block error ("error " and its text, then "offset " and its syntax
// error's offset).
func modeTrace(t *testing.T, mode Mode, chunks [][]byte) []string {
	t.Helper()
	p, err := New(WithMode(mode))
	if err != nil {
		t.Fatal(err)
	}
	var tr []string
	collect := func(parts []Part, err error) {
		errs := BlockErrors(err)
		k := 0
		errsBefore := func(n int) {
			for ; k < len(errs); k++ {
				var be *BlockError
				if !errors.As(errs[k], &be) {
					t.Fatalf("%s: not a *BlockError: %v", mode, errs[k])
				}
				if be.Before > n {
					return
				}
				tr = append(tr, "error "+be.Error())
				var se *SyntaxError
				if errors.As(be, &se) {
					tr = append(tr, fmt.Sprintf("offset %d", se.Offset))
				}
			}
		}
		for i, pt := range parts {
			errsBefore(i)
			for _, m := range pt.Messages {
				var v any
				if err := json.Unmarshal(m, &v); err != nil {
					t.Fatalf("%s: message is not JSON: %v: %s", mode, err, m)
				}
				b, _ := json.Marshal(v)
				tr = append(tr, "msg "+string(b))
			}
		}
		errsBefore(len(parts))
		if k < len(errs) {
			t.Fatalf("%s: error placed after the call's %d parts: %v", mode, len(parts), errs[k])
		}
	}
	for _, c := range chunks {
		collect(p.Feed(c))
	}
	collect(p.Close())
	return tr
}

// noValidJSON is the progressive modes' error for a block none of which
// parsed (the reference's), which complete mode does not give.
const noValidJSON = "No valid JSON object found in A2UI block."

// checkVerdictsAgree checks, on input cut into chunks of n bytes, that the
// progressive and delta modes give each block complete mode's verdict on
// its bytes: the same error, text and offset, for a block with bytes the
// grammar rejects (complete mode's *SyntaxError other than
// ErrUnterminated), and no syntax error of their own for the others
// (beyond the progressive modes' documented readings: a block that ends
// inside a message, a block of which nothing parsed). A block the
// progressive modes fail first for a reason of their own (a validation or
// limit error) is left out, and so is an input with a block read through a
// lost count of brackets (the parser's doc: read as the reference reads it).
func checkVerdictsAgree(t *testing.T, n int, in []byte) {
	chunks := chunked(in, n)
	want, _ := blockVerdicts(t, ModeComplete, chunks)
	for _, mode := range []Mode{ModeProgressive, ModeDelta} {
		got, lost := blockVerdicts(t, mode, chunks)
		if lost > 0 {
			return
		}
		for b := range max(len(want), len(got)) {
			w, g := verdictAt(want, b), verdictAt(got, b)
			var gse, wse *SyntaxError
			if g != nil && !errors.As(g, &gse) {
				continue // the progressive modes' own failure
			}
			errors.As(w, &wse)
			switch {
			case wse != nil && !errors.Is(w, ErrUnterminated):
				if g == nil || g.Error() != w.Error() || gse.Offset != wse.Offset {
					t.Fatalf("%s, chunks of %d, block %d: error %v, complete mode's %v", mode, n, b, g, w)
				}
			case g != nil && gse.Msg != noValidJSON && (w == nil || g.Error() != w.Error()):
				t.Fatalf("%s, chunks of %d, block %d: error %v, complete mode's %v", mode, n, b, g, w)
			}
		}
	}
}

// blockVerdicts runs chunks through a parser in mode and returns each
// block's error (nil for a block that did not fail), by block index, and
// the number of blocks the engine read through a lost count.
func blockVerdicts(t *testing.T, mode Mode, chunks [][]byte) ([]error, int) {
	t.Helper()
	p, err := New(WithMode(mode))
	if err != nil {
		t.Fatal(err)
	}
	var out []error
	collect := func(_ []Part, err error) {
		for _, e := range BlockErrors(err) {
			var be *BlockError
			if !errors.As(e, &be) {
				t.Fatalf("%s: not a *BlockError: %v", mode, e)
			}
			for len(out) <= be.Block {
				out = append(out, nil)
			}
			if out[be.Block] != nil {
				t.Fatalf("%s: block %d failed twice: %v, %v", mode, be.Block, out[be.Block], e)
			}
			out[be.Block] = be
		}
	}
	for _, c := range chunks {
		collect(p.Feed(c))
	}
	collect(p.Close())
	lost := 0
	if e, ok := p.eng.(*incremental); ok {
		lost = e.k.LostBlocks()
	}
	return out, lost
}

func verdictAt(errs []error, b int) error {
	if b < len(errs) {
		return errs[b]
	}
	return nil
}
