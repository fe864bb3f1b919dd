package parser

import (
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/parser/internal/frame"
)

// fenceMsg is an A2UI message for the framing tests.
const fenceMsg = `{"version":"v0.9","deleteSurface":{"surfaceId":"a"}}`

func TestFencesFraming(t *testing.T) {
	m := fenceMsg
	tests := []struct {
		name    string
		input   string
		text    string
		msgs    []string
		wantErr error
	}{
		{
			name:  "prose mentioning the fence mid-line stays prose",
			input: "Wrap UI in ```a2ui fences.\nMore prose here.\n```a2ui\n[" + m + "]\n```\nEnd\n",
			text:  "Wrap UI in ```a2ui fences.\nMore prose here.\nEnd\n",
			msgs:  []string{m},
		},
		{
			name:  "fences indented by up to three spaces",
			input: "Intro\n  ```a2ui\n  [" + m + "]\n   ```\noutro",
			text:  "Intro\noutro",
			msgs:  []string{m},
		},
		{
			name:  "info word a2uiX is not an a2ui fence",
			input: "Example:\n```a2uiX\nhello\n```\nEnd\n",
			text:  "Example:\n```a2uiX\nhello\n```\nEnd\n",
		},
		{
			name:  "info word a2ui-json is not an a2ui fence",
			input: "```a2ui-json\n[" + m + "]\n```\n",
			text:  "```a2ui-json\n[" + m + "]\n```\n",
		},
		{
			name:  "text after the info word is not an a2ui fence",
			input: "```a2ui x\n[" + m + "]\n```\n",
			text:  "```a2ui x\n[" + m + "]\n```\n",
		},
		{
			name:  "four spaces of indentation is not a fence",
			input: "    ```a2ui\n[" + m + "]\n```\n",
			text:  "    ```a2ui\n[" + m + "]\n```\n",
		},
		{
			name:  "tab indentation is not a fence",
			input: "\t```a2ui\n[" + m + "]\n```\n",
			text:  "\t```a2ui\n[" + m + "]\n```\n",
		},
		{
			name:  "trailing whitespace and CRLF on fence lines",
			input: "a\r\n```a2ui \t\r\n[" + m + "]\r\n```  \r\nb",
			text:  "a\r\nb",
			msgs:  []string{m},
		},
		{
			name:  "closing fence with more backticks",
			input: "```a2ui\n[" + m + "]\n`````\nx",
			text:  "x",
			msgs:  []string{m},
		},
		{
			name:  "backticks with an info word do not close the block",
			input: "```a2ui\n{\"a\":1}\n```json\n{\"b\":2}\n```\nz",
			text:  "z",
			msgs:  []string{`{"a":1}`, `{"b":2}`},
		},
		{
			name:  "closing fence indented four spaces does not close the block",
			input: "```a2ui\n{\"a\":1}\n    ```\n{\"b\":2}\n```\nz",
			text:  "z",
			msgs:  []string{`{"a":1}`, `{"b":2}`},
		},
		{
			name:  "two backticks do not close the block",
			input: "```a2ui\n{\"a\":1}\n``\n```\nz",
			text:  "z",
			msgs:  []string{`{"a":1}`},
		},
		{
			name:  "closing fence at the end of the stream",
			input: "```a2ui\n[" + m + "]\n```",
			msgs:  []string{m},
		},
		{
			name:  "opening fence at the end of the stream opens an empty block",
			input: "x\n```a2ui  ",
			text:  "x\n",
		},
		{
			name:  "partial opening fence at the end of the stream is text",
			input: "x\n```a2u",
			text:  "x\n```a2u",
		},
		{
			name:  "block ends with the stream",
			input: "x\n```a2ui\n[" + m + "]",
			text:  "x\n",
			msgs:  []string{m},
		},
		{
			name:    "block ends with the stream inside a message",
			input:   "```a2ui\n[" + m + ",{\"a\":",
			msgs:    []string{m},
			wantErr: ErrUnterminated,
		},
		{
			name:  "two blocks",
			input: "a\n```a2ui\n[" + m + "]\n```\nb\n```a2ui\n{\"b\":1}\n```\nc",
			text:  "a\nb\nc",
			msgs:  []string{m, `{"b":1}`},
		},
		{
			name:    "a backtick line with more on it does not close the block",
			input:   "```a2ui\n[{\"a\":\"\n```\"}]\n```\nz",
			text:    "z",
			wantErr: &SyntaxError{},
		},
		{
			name:  "fence line longer than the limit is not a fence",
			input: "```a2ui" + strings.Repeat(" ", frame.MaxFenceLine) + "\n[" + m + "]\n",
			text:  "```a2ui" + strings.Repeat(" ", frame.MaxFenceLine) + "\n[" + m + "]\n",
		},
		{
			name:  "fence line at the limit is a fence",
			input: "```a2ui" + strings.Repeat(" ", frame.MaxFenceLine-7) + "\n[" + m + "]\n",
			msgs:  []string{m},
		},
		{
			name:  "multi-byte text around fences",
			input: "日本\n```a2ui\n[{\"t\":\"18°C 日本\"}]\n```\n🎉 end",
			text:  "日本\n🎉 end",
			msgs:  []string{`{"t":"18°C 日本"}`},
		},
		{
			name:    "broken block then good block",
			input:   "x\n```a2ui\n[{\"a\":1},oops]\n```\ny\n```a2ui\n[{\"b\":2}]\n```\nz",
			text:    "x\ny\nz",
			msgs:    []string{`{"a":1}`, `{"b":2}`},
			wantErr: &SyntaxError{},
		},
	}
	opts := []Option{WithFraming(FramingFences)}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkParsed(t, tc.input, tc.text, tc.msgs, tc.wantErr, opts...)
			checkEverySplit(t, tc.input, opts...)
		})
	}
}

// TestFencesBlockMessageAtOnce checks that a message completed inside a
// fenced block is yielded by the Feed that completes it, while a possible
// closing fence is held.
func TestFencesBlockMessageAtOnce(t *testing.T) {
	p, _ := New(WithFraming(FramingFences))
	parts, err := p.Feed([]byte("```a2ui\n{\"a\":1}\n``"))
	if err != nil {
		t.Fatal(err)
	}
	if _, msgs := flatten(parts); len(msgs) != 1 || msgs[0] != `{"a":1}` {
		t.Fatalf("messages = %q, want the completed one", msgs)
	}
	parts, err = p.Feed([]byte("`\nafter"))
	if err != nil {
		t.Fatal(err)
	}
	if text, _ := flatten(parts); text != "after" {
		t.Fatalf("text = %q, want %q", text, "after")
	}
}

// TestFencesFramingEveryMode checks that the fences framing delimits blocks
// the same way for every mode.
func TestFencesFramingEveryMode(t *testing.T) {
	const c = `{"version":"v0.9","createSurface":{"surfaceId":"a","catalogId":"c"}}`
	tests := []struct {
		name, input, text string
		msgs              int
	}{
		{"indented fences after prose that mentions one", "Use ```a2ui fences.\n  ```a2ui\n  [" + c + "]\n  ```\noutro", "Use ```a2ui fences.\noutro", 1},
		{"info word a2uiX is prose", "```a2uiX\n[" + c + "]\n```\n", "```a2uiX\n[" + c + "]\n```\n", 0},
	}
	for _, tc := range tests {
		for _, mode := range []Mode{ModeComplete, ModeProgressive, ModeDelta} {
			t.Run(tc.name+"/"+mode.String(), func(t *testing.T) {
				opts := []Option{WithFraming(FramingFences), WithMode(mode)}
				parts, errs := collect(t, []string{tc.input}, opts...)
				text, msgs := flatten(parts)
				if text != tc.text || len(msgs) != tc.msgs {
					t.Fatalf("text %q and %d messages, want %q and %d", text, len(msgs), tc.text, tc.msgs)
				}
				checkErr(t, errs, nil)
				checkEverySplit(t, tc.input, opts...)
			})
		}
	}
}
