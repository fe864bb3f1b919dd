package parser

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// collect feeds chunks to a fresh parser and returns all parts and errors.
func collect(t testing.TB, chunks []string, opts ...Option) ([]Part, []error) {
	t.Helper()
	p, err := New(opts...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	var parts []Part
	var errs []error
	for _, c := range chunks {
		ps, err := p.Feed([]byte(c))
		parts = append(parts, ps...)
		if err != nil {
			errs = append(errs, err)
		}
	}
	ps, err := p.Close()
	parts = append(parts, ps...)
	if err != nil {
		errs = append(errs, err)
	}
	return parts, errs
}

// flatten joins the text of consecutive parts and lists messages in order,
// giving a chunking-independent view of a stream's output.
func flatten(parts []Part) (text string, msgs []string) {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
		for _, m := range p.Messages {
			msgs = append(msgs, string(m))
		}
	}
	return b.String(), msgs
}

func TestCompleteMode(t *testing.T) {
	tests := []struct {
		name    string
		opts    []Option
		input   string
		text    string
		msgs    []string
		wantErr error
	}{
		{
			name:  "text only",
			input: "Hello, world.",
			text:  "Hello, world.",
		},
		{
			name:  "one block with prose around",
			input: `Hi <a2ui-json>[{"a":1},{"b":"x}"}]</a2ui-json> bye`,
			text:  "Hi  bye",
			msgs:  []string{`{"a":1}`, `{"b":"x}"}`},
		},
		{
			name:  "exact bytes preserved",
			input: "<a2ui-json>[ {\"a\" : [1, 2],\n \"b\":{}} ]</a2ui-json>",
			msgs:  []string{"{\"a\" : [1, 2],\n \"b\":{}}"},
		},
		{
			name:  "bare object without list",
			input: `<a2ui-json>{"a":1}</a2ui-json>`,
			msgs:  []string{`{"a":1}`},
		},
		{
			name:  "markdown fence inside tags",
			input: "<a2ui-json>\n```json\n[{\"a\":1}]\n```\n</a2ui-json>",
			msgs:  []string{`{"a":1}`},
		},
		{
			name:  "escaped quotes and backslashes in strings",
			input: `<a2ui-json>[{"a":"q\"}\\","b":"\\\\"}]</a2ui-json>`,
			msgs:  []string{`{"a":"q\"}\\","b":"\\\\"}`},
		},
		{
			name:  "multi-byte characters",
			input: "18°C <a2ui-json>[{\"t\":\"18°C 日本\"}]</a2ui-json> 日本",
			text:  "18°C  日本",
			msgs:  []string{`{"t":"18°C 日本"}`},
		},
		{
			name:  "two blocks",
			input: `a<a2ui-json>[{"a":1}]</a2ui-json>b<a2ui-json>[{"b":2}]</a2ui-json>c`,
			text:  "abc",
			msgs:  []string{`{"a":1}`, `{"b":2}`},
		},
		{
			name:    "invalid json is a syntax error and text continues",
			input:   `x<a2ui-json>invalid json</a2ui-json>y`,
			text:    "xy",
			wantErr: &SyntaxError{},
		},
		{
			name:    "bad message does not lose the earlier one",
			input:   `<a2ui-json>[{"a":1},{"b":tru}]</a2ui-json>z`,
			text:    "z",
			msgs:    []string{`{"a":1}`},
			wantErr: &SyntaxError{},
		},
		{
			name:    "mismatched brackets",
			input:   `<a2ui-json>[{"a":[1}]</a2ui-json>`,
			wantErr: &SyntaxError{},
		},
		{
			name:    "too deep",
			opts:    []Option{WithMaxDepth(4)},
			input:   `<a2ui-json>[{"a":[[[[1]]]]}]</a2ui-json>ok<a2ui-json>[{"b":1}]</a2ui-json>`,
			text:    "ok",
			msgs:    []string{`{"b":1}`},
			wantErr: ErrTooDeep,
		},
		{
			name:    "too large",
			opts:    []Option{WithMaxBlockSize(10)},
			input:   `<a2ui-json>[{"a":"0123456789"}]</a2ui-json>ok`,
			text:    "ok",
			wantErr: ErrTooLarge,
		},
		{
			name:    "invalid utf-8 in json",
			input:   "<a2ui-json>[{\"a\":\"\xff\"}]</a2ui-json>",
			wantErr: ErrInvalidUTF8,
		},
		{
			name:    "stream ends inside a message",
			input:   `<a2ui-json>[{"a":1},{"b":`,
			msgs:    []string{`{"a":1}`},
			wantErr: ErrUnterminated,
		},
		{
			name:  "stream ends after the list without a closing tag",
			input: `<a2ui-json>[{"a":1}]`,
			msgs:  []string{`{"a":1}`},
		},
		{
			name:  "partial open tag at the end is text",
			input: `hello <a2ui-j`,
			text:  "hello <a2ui-j",
		},
		{
			name:  "fences framing",
			opts:  []Option{WithFraming(FramingFences)},
			input: "Look:\n```a2ui\n[{\"a\":\"```\"}]\n```\nDone",
			text:  "Look:\nDone",
			msgs:  []string{"{\"a\":\"```\"}"},
		},
		{
			name:  "jsonl framing",
			opts:  []Option{WithFraming(FramingJSONL)},
			input: "{\"a\":1}\n\n{\"b\":2}\r\n{\"c\":3}",
			msgs:  []string{`{"a":1}`, `{"b":2}`, `{"c":3}`},
		},
		{
			name:    "jsonl bad line does not lose the next",
			opts:    []Option{WithFraming(FramingJSONL)},
			input:   "{\"a\":1}\nnope\n{\"c\":3}\n",
			msgs:    []string{`{"a":1}`, `{"c":3}`},
			wantErr: &SyntaxError{},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkParsed(t, tc.input, tc.text, tc.msgs, tc.wantErr, tc.opts...)
		})
	}
}

// checkParsed feeds input whole and checks the text and messages it gives,
// and its error (see checkErr).
func checkParsed(t *testing.T, input, text string, msgs []string, wantErr error, opts ...Option) {
	t.Helper()
	parts, errs := collect(t, []string{input}, opts...)
	gotText, gotMsgs := flatten(parts)
	if gotText != text {
		t.Errorf("text = %q, want %q", gotText, text)
	}
	if strings.Join(gotMsgs, "|") != strings.Join(msgs, "|") {
		t.Errorf("messages = %q, want %q", gotMsgs, msgs)
	}
	checkErr(t, errs, wantErr)
}

func checkErr(t *testing.T, errs []error, want error) {
	t.Helper()
	if want == nil {
		if len(errs) > 0 {
			t.Fatalf("unexpected errors: %v", errs)
		}
		return
	}
	if len(errs) == 0 {
		t.Fatalf("no error, want %v", want)
	}
	for _, err := range errs {
		var be *BlockError
		if !errors.As(err, &be) {
			t.Errorf("error %v is not a *BlockError", err)
		}
		if !strings.HasPrefix(err.Error(), "parser: ") {
			t.Errorf("error %q lacks the package prefix", err)
		}
	}
	err := errs[0]
	if _, ok := want.(*SyntaxError); ok {
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("error %v is not a *SyntaxError", err)
		}
		return
	}
	if !errors.Is(err, want) {
		t.Fatalf("error %v, want %v", err, want)
	}
}

func TestSyntaxErrorOffset(t *testing.T) {
	input := "abc<a2ui-json>[{\"a\":\"\xff\"}]</a2ui-json>"
	_, errs := collect(t, []string{input})
	var se *SyntaxError
	if len(errs) != 1 || !errors.As(errs[0], &se) {
		t.Fatalf("errors = %v, want one *SyntaxError", errs)
	}
	if want := int64(strings.IndexByte(input, 0xff)); se.Offset != want {
		t.Fatalf("offset = %d, want %d", se.Offset, want)
	}
}

func TestPartsOwnership(t *testing.T) {
	chunk := []byte(`<a2ui-json>[{"a":1}]</a2ui-json>`)
	p, _ := New()
	parts, err := p.Feed(chunk)
	if err != nil || len(parts) != 1 {
		t.Fatalf("Feed = %v, %v", parts, err)
	}
	for i := range chunk {
		chunk[i] = 'x'
	}
	if got := string(parts[0].Messages[0]); got != `{"a":1}` {
		t.Fatalf("message changed with the caller's chunk: %q", got)
	}
}

func TestClosed(t *testing.T) {
	p, _ := New()
	if _, err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Feed([]byte("x")); !errors.Is(err, ErrClosed) {
		t.Fatalf("Feed after Close: %v", err)
	}
	if _, err := p.Close(); !errors.Is(err, ErrClosed) {
		t.Fatalf("Close after Close: %v", err)
	}
}

func TestOptionsValidated(t *testing.T) {
	for name, opt := range map[string]Option{
		"zero block size":       WithMaxBlockSize(0),
		"block size past 2 GiB": WithMaxBlockSize(pastBlockSizeLimit()),
		"negative depth":        WithMaxDepth(-1),
		"zero surfaces":         WithMaxSurfaces(0),
		"negative components":   WithMaxComponents(-1),
		"bad mode":              WithMode(Mode(9)),
		"bad framing":           WithFraming(Framing(9)),
		"nil logger":            WithLogger(nil),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := New(opt); err == nil || !strings.HasPrefix(err.Error(), "parser: ") {
				t.Fatalf("New: %v, want a parser error", err)
			}
		})
	}
}

// pastBlockSizeLimit is maxBlockSizeLimit+1 (negative where int has 32
// bits, which fails too).
func pastBlockSizeLimit() int {
	n := maxBlockSizeLimit
	return n + 1
}

// TestLimitOptionsSetTheirLimit checks that each limit option sets its own
// limit.
func TestLimitOptionsSetTheirLimit(t *testing.T) {
	if _, err := New(WithMaxBlockSize(maxBlockSizeLimit)); err != nil {
		t.Fatalf("the largest block size: %v", err)
	}
	p, err := New(WithMaxBlockSize(11), WithMaxDepth(12), WithMaxSurfaces(13), WithMaxComponents(14))
	if err != nil {
		t.Fatal(err)
	}
	got := [4]int{p.cfg.maxBlockSize, p.cfg.maxDepth, p.cfg.maxSurfaces, p.cfg.maxComps}
	if got != [4]int{11, 12, 13, 14} {
		t.Errorf("block size, depth, surfaces, components = %v, want [11 12 13 14]", got)
	}
}

func TestTextReleasedAtOnce(t *testing.T) {
	tests := []struct {
		name    string
		framing Framing
		chunk   string
		want    string
	}{
		{"plain text", FramingTags, "Hello", "Hello"},
		{"possible tag prefix held", FramingTags, "Hello <a2ui", "Hello "},
		{"lone angle bracket held", FramingTags, "a <", "a "},
		{"split rune held", FramingTags, "18\xc2", "18"},
		{"split three-byte rune held", FramingTags, "x\xe6\x97", "x"},
		{"fences: plain text", FramingFences, "Hello", "Hello"},
		{"fences: fence mentioned mid-line is released", FramingFences, "Hello ```a2ui", "Hello ```a2ui"},
		{"fences: possible fence at a line start is held", FramingFences, "Hello\n```a2", "Hello\n"},
		{"fences: complete fence marker waits for its line end", FramingFences, "Hello\n```a2ui \t", "Hello\n"},
		{"fences: possible indentation is held", FramingFences, "Hello\n   ", "Hello\n"},
		{"fences: four spaces are released", FramingFences, "Hello\n    ", "Hello\n    "},
		{"fences: other info word is released", FramingFences, "Hello\n```a2uiX", "Hello\n```a2uiX"},
		{"fences: text after the info word is released", FramingFences, "Hello\n```a2ui x", "Hello\n```a2ui x"},
		{"fences: split rune held", FramingFences, "18\xc2", "18"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := New(WithFraming(tc.framing))
			parts, err := p.Feed([]byte(tc.chunk))
			if err != nil {
				t.Fatal(err)
			}
			got, _ := flatten(parts)
			if got != tc.want {
				t.Fatalf("released %q, want %q", got, tc.want)
			}
		})
	}
}

func TestMessagesAttachToPrecedingText(t *testing.T) {
	p, _ := New()
	parts, err := p.Feed([]byte(`Hi <a2ui-json>[{"a":1},{"b":2}]</a2ui-json>`))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(parts)
	if want := `[{"text":"Hi ","a2ui":[{"a":1},{"b":2}]}]`; string(got) != want {
		t.Fatalf("parts = %s, want %s", got, want)
	}
}

// TestPartsSurviveLaterFeeds checks that what a call returns is the
// caller's: later calls do not change it, and writing to it (appending to
// its slices, overwriting its bytes) changes nothing the parser returns
// later.
func TestPartsSurviveLaterFeeds(t *testing.T) {
	stream := []byte("intro <a2ui-json>[" +
		`{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},` +
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["a","b"]},{"id":"a","component":"Text","text":"hello there"},{"id":"b","component":"Text","text":"again"}]}}` +
		"]</a2ui-json> middle <a2ui-json>[" +
		`{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/x","value":{"k":"v","n":1}}}` +
		"]</a2ui-json> end")
	for _, mode := range []Mode{ModeComplete, ModeProgressive, ModeDelta} {
		for _, chunk := range []int{1, 5, 64, len(stream)} {
			t.Run(fmt.Sprintf("%s/chunk=%d", mode, chunk), func(t *testing.T) {
				run := func(scribble bool) (got [][]Part, want []string) {
					p, err := New(WithMode(mode))
					if err != nil {
						t.Fatal(err)
					}
					feed := func(parts []Part, err error) {
						if err != nil {
							t.Fatal(err)
						}
						got = append(got, parts)
						want = append(want, fmt.Sprint(partsText(parts)))
						if scribble {
							for i := range parts {
								for _, m := range parts[i].Messages {
									for j := range m {
										m[j] = 'x'
									}
								}
								if parts[i].Messages != nil {
									parts[i].Messages = append(parts[i].Messages, json.RawMessage(`{"x":1}`))
								}
							}
							parts = append(parts, Part{Text: "scribble"})
							_ = parts
						}
					}
					for i := 0; i < len(stream); i += chunk {
						feed(p.Feed(stream[i:min(i+chunk, len(stream))]))
					}
					feed(p.Close())
					return got, want
				}
				got, want := run(false)
				for i, parts := range got {
					if s := fmt.Sprint(partsText(parts)); s != want[i] {
						t.Fatalf("call %d's parts changed after later calls:\nnow  %s\nthen %s", i, s, want[i])
					}
				}
				_, scribbled := run(true)
				for i := range want {
					if scribbled[i] != want[i] {
						t.Fatalf("call %d returned %s after the caller wrote to earlier parts, want %s", i, scribbled[i], want[i])
					}
				}
			})
		}
	}
}

// partsText renders parts for comparison.
func partsText(parts []Part) []string {
	var out []string
	for _, p := range parts {
		out = append(out, "T:"+p.Text)
		for _, m := range p.Messages {
			out = append(out, "M:"+string(m))
		}
	}
	return out
}
