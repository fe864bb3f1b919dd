package parser

import (
	"strings"
	"testing"
)

// TestTooLargeIndependentOfChunking checks that, in complete mode, a block
// over the maximum block size yields every message that completes within the
// limit, then fails with ErrTooLarge, however it is chunked.
func TestTooLargeIndependentOfChunking(t *testing.T) {
	const c = `{"version":"v0.9","createSurface":{"surfaceId":"a","catalogId":"c"}}` // 70 bytes
	u := `{"version":"v0.9","updateComponents":{"surfaceId":"a","components":[` +
		strings.Repeat(`{"id":"t","component":"Text","text":"hello"},`, 6) + `{"id":"root","component":"Column","children":["t"]}]}}`
	limit := len("[" + c) // the first message ends at the limit's last byte
	tests := []struct {
		name    string
		opts    []Option
		input   string
		msgs    []string
		wantErr error
	}{
		{
			name:    "message within the limit is yielded before the error",
			opts:    []Option{WithMaxBlockSize(limit + 20)},
			input:   "a<a2ui-json>[" + c + "," + u + "]</a2ui-json>b",
			msgs:    []string{c},
			wantErr: ErrTooLarge,
		},
		{
			name:    "message ending on the limit's last byte is yielded",
			opts:    []Option{WithMaxBlockSize(limit)},
			input:   "a<a2ui-json>[" + c + "," + u + "]</a2ui-json>b",
			msgs:    []string{c},
			wantErr: ErrTooLarge,
		},
		{
			name:    "message crossing the limit is not yielded",
			opts:    []Option{WithMaxBlockSize(limit - 1)},
			input:   "a<a2ui-json>[" + c + "," + u + "]</a2ui-json>b",
			wantErr: ErrTooLarge,
		},
		{
			name:  "block of exactly the limit passes",
			opts:  []Option{WithMaxBlockSize(len("[" + c + "]"))},
			input: "a<a2ui-json>[" + c + "]</a2ui-json>b",
			msgs:  []string{c},
		},
		{
			name:  "fenced block of exactly the limit passes (the newline before the fence does not count)",
			opts:  []Option{WithMaxBlockSize(len("[" + c + "]")), WithFraming(FramingFences)},
			input: "a\n```a2ui\n[" + c + "]\n```\nb",
			msgs:  []string{c},
		},
		{
			name:  "whitespace after the JSON past the limit does not count",
			opts:  []Option{WithMaxBlockSize(len("[" + c + "]"))},
			input: "a<a2ui-json>[" + c + "]\n \t\r\n</a2ui-json>b",
			msgs:  []string{c},
		},
		{
			name:    "content after whitespace past the limit fails",
			opts:    []Option{WithMaxBlockSize(len("[" + c + "]"))},
			input:   "a<a2ui-json>[" + c + "]   x</a2ui-json>b",
			msgs:    []string{c},
			wantErr: ErrTooLarge,
		},
		{
			name:    "next block after the failed one is read",
			opts:    []Option{WithMaxBlockSize(limit)},
			input:   "a<a2ui-json>[" + c + "," + u + "]</a2ui-json>b<a2ui-json>[" + c + "]</a2ui-json>",
			msgs:    []string{c, c},
			wantErr: ErrTooLarge,
		},
		{
			name:    "too deep before the limit stays too deep",
			opts:    []Option{WithMaxBlockSize(40), WithMaxDepth(8)},
			input:   "a<a2ui-json>[" + strings.Repeat(`{"a":`, 20) + "1" + strings.Repeat("}", 20) + "]</a2ui-json>b",
			wantErr: ErrTooDeep,
		},
		{
			name:    "fences framing",
			opts:    []Option{WithMaxBlockSize(limit), WithFraming(FramingFences)},
			input:   "a\n```a2ui\n[" + c + "," + u + "]\n```\nb",
			msgs:    []string{c},
			wantErr: ErrTooLarge,
		},
		{
			name:    "jsonl framing",
			opts:    []Option{WithMaxBlockSize(len(c) + 1), WithFraming(FramingJSONL)},
			input:   c + " " + c + "\n" + c + "\n",
			msgs:    []string{c, c},
			wantErr: ErrTooLarge,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parts, errs := collect(t, []string{tc.input}, tc.opts...)
			_, msgs := flatten(parts)
			if strings.Join(msgs, "|") != strings.Join(tc.msgs, "|") {
				t.Errorf("messages = %q, want %q", msgs, tc.msgs)
			}
			checkErr(t, errs, tc.wantErr)
			checkEverySplit(t, tc.input, tc.opts...)
		})
	}
}
