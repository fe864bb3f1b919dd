package parser

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// Tests of WithBorrowedOutput: borrowed output is byte-identical, call by
// call, to owned output; its storage is really reused while owned output
// never changes; each message, Messages slice and []Part returned with it
// ends its capacity at its length; and the storage kept between calls
// stays bounded by maxBorrowBlock.

// borrowedInput is a stream the borrowed-output tests run in every mode
// and framing. opts are extra options (the tests add mode and framing).
type borrowedInput struct {
	name string
	opts []Option
	in   string
}

// borrowedInputs are small streams covering each message kind of v0.9 and
// v0.8, failing blocks and each framing; the tests also run splitInputs.
var borrowedInputs = []borrowedInput{
	{name: "v0.9 prose and tags blocks", in: `Here is your card. <a2ui-json>[` +
		`{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},` +
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` +
		`{"id":"root","component":"Column","children":["title","body","go"]},` +
		`{"id":"title","component":"Text","text":"Weather 18°C"},` +
		`{"id":"body","component":"Text","text":{"path":"/summary"}},` +
		`{"id":"go","component":"Button","child":"title","action":{"event":{"name":"go"}}}]}},` +
		`{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/summary","value":{"sky":"clear","wind":[3,4]}}}` +
		`]</a2ui-json> Between blocks. <a2ui-json>[` +
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"title","component":"Text","text":"Weather 19°C"}]}},` +
		`{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/summary/sky","value":"cloudy"}},` +
		`{"version":"v0.9","deleteSurface":{"surfaceId":"s"}}` +
		`]</a2ui-json> Bye.`},
	{name: "v0.9 two surfaces in one block", in: `<a2ui-json>[` +
		`{"version":"v0.9","createSurface":{"surfaceId":"a","catalogId":"c"}},` +
		`{"version":"v0.9","createSurface":{"surfaceId":"b","catalogId":"c"}},` +
		`{"version":"v0.9","updateComponents":{"surfaceId":"a","components":[{"id":"root","component":"Text","text":"on a"}]}},` +
		`{"version":"v0.9","updateComponents":{"surfaceId":"b","components":[{"id":"root","component":"Row","children":["x","y"]},{"id":"x","component":"Text","text":"x"},{"id":"y","component":"Text","text":"y"}]}},` +
		`{"version":"v0.9","updateDataModel":{"surfaceId":"b","value":{"n":1}}}` +
		`]</a2ui-json>`},
	{name: "v0.8 stream", in: `Booking form: <a2ui-json>[` +
		`{"beginRendering":{"surfaceId":"s","root":"root"}},` +
		`{"surfaceUpdate":{"surfaceId":"s","components":[` +
		`{"id":"root","component":{"Column":{"children":{"explicitList":["h","name","ok"]}}}},` +
		`{"id":"h","component":{"Text":{"text":{"literalString":"Book a table"},"usageHint":"h2"}}},` +
		`{"id":"name","component":{"TextField":{"label":{"literalString":"Name"},"text":{"path":"/name"}}}},` +
		`{"id":"ok","component":{"Button":{"child":"h","action":{"name":"book","context":[{"key":"who","value":{"path":"/name"}}]}}}}]}},` +
		`{"dataModelUpdate":{"surfaceId":"s","path":"/","contents":[{"key":"name","valueString":"Ada"},{"key":"party","valueNumber":4},{"key":"opts","valueMap":[{"key":"terrace","valueBoolean":true}]}]}}` +
		`]</a2ui-json> and later <a2ui-json>[` +
		`{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"name","valueString":"Grace"}]}},` +
		`{"deleteSurface":{"surfaceId":"s"}}` +
		`]</a2ui-json>.`},
	{name: "data model entries", in: `<a2ui-json>[` +
		`{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},` +
		`{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/d","value":{"a":1,"b":2,"c":3,"d":4,"e":{"f":5,"g":6},"h":[7],"i":9,"j":"ten"}}},` +
		`{"beginRendering":{"surfaceId":"v","root":"root"}},` +
		`{"dataModelUpdate":{"surfaceId":"v","path":"/","contents":[{"key":"a","valueNumber":1},{"key":"b","valueString":"two"},{"key":"c","valueBoolean":false},{"key":"d","valueNumber":4}]}}` +
		`]</a2ui-json>`},
	// Fed whole, progressive mode keeps only the last of the surface's
	// snapshots in the part, and delta mode drops repeats: the part's
	// Messages is compacted.
	{name: "v0.8 two surfaceUpdates of one surface in a call", in: `<a2ui-json>[` +
		`{"beginRendering":{"surfaceId":"s","root":"root"}},` +
		`{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Text":{"text":{"literalString":"a"}}}}]}},` +
		`{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Text":{"text":{"literalString":"b"}}}}]}}` +
		`]</a2ui-json>`},
	{name: "failing block then good block", in: `First <a2ui-json>[` +
		`{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},` +
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"ok so far"},{"id":"x",oops}]}}` +
		`]</a2ui-json> then <a2ui-json>[` +
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"recovered"}]}}` +
		`]</a2ui-json> done <a2ui-json>[{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":{"a":[1,2` +
		`</a2ui-json> end`},
	{name: "fences", opts: []Option{WithFraming(FramingFences)}, in: "Here:\n```a2ui\n[" +
		`{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},` +
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"t"},{"id":"t","component":"Text","text":"in a fence"}]}}` +
		"]\n```\nMore prose with ```a2ui mid-line.\n```a2ui\n" +
		`{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/k","value":"v"}}` +
		"\n```\nunclosed:\n```a2ui\n[" + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"trunc`},
	{name: "jsonl", opts: []Option{WithFraming(FramingJSONL)}, in: `{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}}` + "\n" +
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"line two 日本"}]}}` + "\n" +
		"not json\n" +
		`{"beginRendering":{"surfaceId":"v","root":"root"}}` + "\n" +
		`{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/a","value":[1,{"b":null}]}}` + "\n" +
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"no newline at the end"}]}}`},
}

// allBorrowedInputs returns borrowedInputs followed by splitInputs.
func allBorrowedInputs() []borrowedInput {
	out := slices.Clone(borrowedInputs)
	for _, s := range splitInputs {
		out = append(out, borrowedInput(s))
	}
	return out
}

var (
	allModes    = []Mode{ModeComplete, ModeProgressive, ModeDelta}
	allFramings = []Framing{FramingTags, FramingFences, FramingJSONL}
)

// chunking is a way of cutting an input into Feed calls.
type chunking struct {
	name string
	cut  func([]byte) [][]byte
}

func wholeInput(b []byte) [][]byte { return [][]byte{b} }

// chunkings returns the input fed whole and in chunks of each size.
func chunkings(sizes ...int) []chunking {
	out := []chunking{{"whole", wholeInput}}
	for _, n := range sizes {
		out = append(out, chunking{fmt.Sprintf("chunk%d", n), func(b []byte) [][]byte { return chunked(b, n) }})
	}
	return out
}

// modeOpts returns opts with the mode and framing set (after opts, so that
// they win over a framing in opts).
func modeOpts(opts []Option, m Mode, f Framing) []Option {
	return append(slices.Clip(opts), WithMode(m), WithFraming(f))
}

func mustNew(tb testing.TB, opts ...Option) *Parser {
	tb.Helper()
	p, err := New(opts...)
	if err != nil {
		tb.Fatalf("New: %v", err)
	}
	return p
}

// feedOrClose makes call i of a run over chunks: the Feed of chunks[i], or the
// Close when i == len(chunks).
func feedOrClose(p *Parser, chunks [][]byte, i int) ([]Part, error) {
	if i < len(chunks) {
		return p.Feed(chunks[i])
	}
	return p.Close()
}

// callName names call i of a run over chunks, for failure messages.
func callName(chunks [][]byte, i int) string {
	if i == len(chunks) {
		return fmt.Sprintf("call %d (Close)", i)
	}
	at := 0
	for _, c := range chunks[:i] {
		at += len(c)
	}
	chunk, more := chunks[i], ""
	if len(chunk) > 60 {
		chunk, more = chunk[:60], "..."
	}
	return fmt.Sprintf("call %d (Feed of bytes [%d,%d) %q%s)", i, at, at+len(chunks[i]), chunk, more)
}

// callOutput is a deep copy of what one Feed or Close call returned, taken
// before a later call may overwrite borrowed output.
type callOutput struct {
	Parts []Part // nil-ness of the slice and of each Messages is kept
	Err   string
	// Errs lists the call's failures, in order (a joined error unwrapped).
	Errs []errorCopy
}

// errorCopy holds the fields of one failure; Block is -1 for an error that
// is not a *BlockError.
type errorCopy struct {
	Block  int
	Offset int64
	Before int
	Cause  string
	Type   string // the cause's dynamic type
}

// copyCall deep-copies a call's result.
func copyCall(parts []Part, err error) callOutput {
	var c callOutput
	if parts != nil {
		c.Parts = make([]Part, len(parts))
		for i, pt := range parts {
			c.Parts[i].Text = pt.Text
			if pt.Messages != nil {
				c.Parts[i].Messages = make([]json.RawMessage, len(pt.Messages))
				for j, m := range pt.Messages {
					c.Parts[i].Messages[j] = bytes.Clone(m)
				}
			}
		}
	}
	if err == nil {
		return c
	}
	c.Err = err.Error()
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	for _, e := range errs {
		ec := errorCopy{Block: -1, Cause: e.Error(), Type: fmt.Sprintf("%T", e)}
		var be *BlockError
		if errors.As(e, &be) {
			ec = errorCopy{Block: be.Block, Offset: be.Offset, Before: be.Before, Cause: be.Err.Error(), Type: fmt.Sprintf("%T", be.Err)}
		}
		c.Errs = append(c.Errs, ec)
	}
	return c
}

// String renders the output for failure messages.
func (c callOutput) String() string {
	var b strings.Builder
	if c.Parts == nil {
		b.WriteString("parts: nil\n")
	}
	for i, pt := range c.Parts {
		fmt.Fprintf(&b, "part %d: text=%q", i, pt.Text)
		if pt.Messages == nil {
			b.WriteString(" messages=nil")
		}
		b.WriteByte('\n')
		for j, m := range pt.Messages {
			fmt.Fprintf(&b, "  msg %d (%d bytes): %s\n", j, len(m), m)
		}
	}
	if c.Err != "" {
		fmt.Fprintf(&b, "err: %s\n", c.Err)
	}
	for _, e := range c.Errs {
		fmt.Fprintf(&b, "  %+v\n", e)
	}
	return b.String()
}

// compareOwnedBorrowed feeds chunks, then Close, to an owned and a borrowed
// parser built with opts, in lockstep, and reports the first call whose
// borrowed output, copied before the next call, differs from the owned
// output.
func compareOwnedBorrowed(tb testing.TB, opts []Option, chunks [][]byte) error {
	tb.Helper()
	owned := mustNew(tb, opts...)
	borrowed := mustNew(tb, append(slices.Clip(opts), WithBorrowedOutput())...)
	for i := 0; i <= len(chunks); i++ {
		want := copyCall(feedOrClose(owned, chunks, i))
		got := copyCall(feedOrClose(borrowed, chunks, i))
		if !reflect.DeepEqual(got, want) {
			return fmt.Errorf("%s: borrowed output differs from owned:\nborrowed:\n%s\nowned:\n%s", callName(chunks, i), got, want)
		}
	}
	return nil
}

// corpusPrefix returns the first n bytes of a corpus stream.
func corpusPrefix(tb testing.TB, name string, n int) []byte {
	tb.Helper()
	data := readCorpus(tb, name)
	return data[:min(n, len(data))]
}

func TestBorrowedOutputMatchesOwned(t *testing.T) {
	t.Parallel() // long: runs beside the other long tests, after the sequential ones (the heap measurements among them)
	for _, tc := range allBorrowedInputs() {
		in := []byte(tc.in)
		for _, m := range allModes {
			for _, f := range allFramings {
				opts := modeOpts(tc.opts, m, f)
				t.Run(fmt.Sprintf("%s/%s/%s", tc.name, m, f), func(t *testing.T) {
					for _, ch := range chunkings(1, 3, 16) {
						if err := compareOwnedBorrowed(t, opts, ch.cut(in)); err != nil {
							t.Errorf("%s: %v", ch.name, err)
						}
					}
					for i := 0; i <= len(in); i++ {
						if err := compareOwnedBorrowed(t, opts, [][]byte{in[:i], in[i:]}); err != nil {
							t.Fatalf("split at %d: %v", i, err)
						}
					}
				})
			}
		}
	}
	// The first 20 KB of each corpus in the tags framing, cut wherever that
	// falls: in both corpora, inside a block, which Close then ends.
	for _, name := range []string{"stream_v09.txt", "stream_v08.txt"} {
		for _, m := range allModes {
			for _, ch := range chunkings(7, 16) {
				t.Run(fmt.Sprintf("corpus %s/%s/%s", name, m, ch.name), func(t *testing.T) {
					in := corpusPrefix(t, name, 20<<10)
					if err := compareOwnedBorrowed(t, modeOpts(nil, m, FramingTags), ch.cut(in)); err != nil {
						t.Fatal(err)
					}
				})
			}
		}
	}
}

// overlaps reports whether a and b share at least one byte of storage.
func overlaps(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	a0, b0 := uintptr(unsafe.Pointer(unsafe.SliceData(a))), uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return a0 < b0+uintptr(len(b)) && b0 < a0+uintptr(len(a))
}

// retained is a message as a call returned it, with a copy taken then.
type retained struct {
	call int
	orig json.RawMessage
	copy json.RawMessage
}

// retainAll feeds chunks, then Close, to p and returns every message
// returned, each with a copy taken before the next call, failing on errors.
func retainAll(tb testing.TB, p *Parser, chunks [][]byte) []retained {
	tb.Helper()
	var out []retained
	for i := 0; i <= len(chunks); i++ {
		parts, err := feedOrClose(p, chunks, i)
		if err != nil {
			tb.Fatalf("%s: %v", callName(chunks, i), err)
		}
		for _, pt := range parts {
			for _, m := range pt.Messages {
				out = append(out, retained{call: i, orig: m, copy: bytes.Clone(m)})
			}
		}
	}
	return out
}

// reusedStream is a progressive-mode stream whose every chunk yields a
// snapshot of root with a different text.
var reusedStream = []string{
	`<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},` +
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"first"}]}}`,
	`,{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"second"}]}}`,
	`,{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"third"}]}}`,
	`]</a2ui-json> bye`,
}

func TestBorrowedOutputIsReused(t *testing.T) {
	var chunks [][]byte
	for _, s := range reusedStream {
		chunks = append(chunks, []byte(s))
	}
	t.Run("borrowed storage is reused", func(t *testing.T) {
		msgs := retainAll(t, mustNew(t, WithMode(ModeProgressive), WithBorrowedOutput()), chunks)
		calls := map[int]bool{}
		for _, r := range msgs {
			calls[r.call] = true
		}
		if len(calls) < 3 {
			t.Fatalf("messages in %d calls, want at least 3 for the test to mean anything", len(calls))
		}
		aliased, changed := false, false
		for i, a := range msgs {
			for _, b := range msgs[i+1:] {
				if b.call > a.call && overlaps(a.orig, b.orig) {
					aliased = true
				}
			}
			if !bytes.Equal(a.orig, a.copy) {
				changed = true
			}
		}
		if !aliased {
			t.Error("no message of a later call uses the storage of an earlier call's message")
		}
		if !changed {
			t.Error("no message returned by an earlier call was overwritten by a later call")
		}
	})
	// Owned output never changes and never shares storage, in any mode,
	// framing or chunking.
	inputs := append(allBorrowedInputs(), borrowedInput{name: "reused stream", in: strings.Join(reusedStream, "")})
	for _, tc := range inputs {
		for _, m := range allModes {
			for _, f := range allFramings {
				for _, ch := range chunkings(1, 3, 16) {
					t.Run(fmt.Sprintf("owned/%s/%s/%s/%s", tc.name, m, f, ch.name), func(t *testing.T) {
						checkOwnedKept(t, modeOpts(tc.opts, m, f), ch.cut([]byte(tc.in)))
					})
				}
			}
		}
	}
}

// checkOwnedKept checks that the owned output of a run is still what each
// call returned after the run, and that no two messages share storage.
func checkOwnedKept(t *testing.T, opts []Option, chunks [][]byte) {
	p := mustNew(t, opts...)
	var kept [][]Part
	var copies []callOutput
	for i := 0; i <= len(chunks); i++ {
		parts, err := feedOrClose(p, chunks, i)
		kept = append(kept, parts)
		copies = append(copies, copyCall(parts, err))
	}
	var all []json.RawMessage
	for i := range kept {
		if got := copyCall(kept[i], nil); !reflect.DeepEqual(got.Parts, copies[i].Parts) {
			t.Errorf("%s: owned output changed after later calls:\nnow:\n%s\nreturned:\n%s", callName(chunks, i), got, copies[i])
		}
		for _, pt := range kept[i] {
			all = append(all, pt.Messages...)
		}
	}
	for i, a := range all {
		for j, b := range all[i+1:] {
			if overlaps(a, b) {
				t.Fatalf("owned messages %d and %d share storage:\n%s\n%s", i, i+1+j, a, b)
			}
		}
	}
}

// framing returns the framing set by the input's options.
func (b borrowedInput) framing() Framing {
	return splitInput{opts: b.opts}.framing()
}

// TestBorrowedIdleCallLendsNothing: after a call that yields, the next
// call takes back what the first lent; one that completes nothing then
// leaves nothing lent, so that the calls after it skip the emitter's
// start (startBorrowed), as most calls inside a block complete nothing.
func TestBorrowedIdleCallLendsNothing(t *testing.T) {
	for _, mode := range []Mode{ModeComplete, ModeProgressive, ModeDelta} {
		t.Run(mode.String(), func(t *testing.T) {
			p, err := New(WithMode(mode), WithBorrowedOutput())
			if err != nil {
				t.Fatal(err)
			}
			const msg = `{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}}`
			parts, err := p.Feed([]byte("<a2ui-json>[" + msg + ","))
			if err != nil || len(parts) == 0 {
				t.Fatalf("the first call yielded %v, %v; want the createSurface", parts, err)
			}
			if parts, err = p.Feed([]byte(`{"version":"v0.9",`)); err != nil || len(parts) != 0 {
				t.Fatalf("the second call yielded %v, %v; want nothing", parts, err)
			}
			if p.out.lentAny() {
				t.Errorf("after a call that completed nothing, the emitter still lends parts (%d), messages (%d) or bytes (%d)",
					len(p.out.lent), len(p.out.msgs), len(p.out.store.buf))
			}
		})
	}
}
