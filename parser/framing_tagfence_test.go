package parser

import (
	"encoding/json"
	"errors"
	"testing"
)

// sortedJSON re-encodes a JSON message with sorted keys and no spaces, so
// that the exact bytes of complete mode and the re-encoded messages of the
// progressive modes compare.
func sortedJSON(t *testing.T, m string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(m), &v); err != nil {
		t.Fatalf("message %q: %v", m, err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestFenceInsideTags checks markdown fences inside <a2ui-json> tags, in
// every mode: the messages, and a *SyntaxError for a fence with no JSON.
func TestFenceInsideTags(t *testing.T) {
	const m = `{"version":"v0.9","createSurface":{"surfaceId":"a","catalogId":"c"}}`
	tests := []struct {
		name    string
		input   string
		msgs    []string
		wantErr bool
	}{
		{"one-line fence with closing backticks", "<a2ui-json>```json [" + m + "] ```</a2ui-json>x", []string{m}, false},
		{"one-line opening fence closed on the next line", "<a2ui-json>```json [" + m + "]\n```</a2ui-json>x", []string{m}, false},
		{"fence glued to a bare object", "<a2ui-json>```json" + m + "</a2ui-json>x", []string{m}, false},
		{"fence without info word on one line", "<a2ui-json>``` [" + m + "]```</a2ui-json>x", []string{m}, false},
		{"multi-line fence", "<a2ui-json>\n```json\n[" + m + "]\n```\n</a2ui-json>x", []string{m}, false},
		{"upper-case info word after a space, CRLF", "<a2ui-json>``` JSON\r\n[" + m + "]\r\n```\r\n</a2ui-json>x", []string{m}, false},
		{"info string with more words", "<a2ui-json>```json title=ui\n[" + m + "]\n```</a2ui-json>x", []string{m}, false},
		{"fence with garbage and no JSON", "<a2ui-json>```json garbage</a2ui-json>x", nil, true},
		{"empty fence", "<a2ui-json>```json\n```</a2ui-json>x", nil, true},
	}
	for _, tc := range tests {
		for _, mode := range []Mode{ModeComplete, ModeProgressive, ModeDelta} {
			t.Run(tc.name+"/"+mode.String(), func(t *testing.T) {
				opts := []Option{WithMode(mode)}
				parts, errs := collect(t, []string{tc.input}, opts...)
				text, msgs := flatten(parts)
				if text != "x" {
					t.Errorf("text = %q, want %q", text, "x")
				}
				if len(msgs) != len(tc.msgs) {
					t.Fatalf("messages = %q, want %q", msgs, tc.msgs)
				}
				for i := range msgs {
					if got, want := sortedJSON(t, msgs[i]), sortedJSON(t, tc.msgs[i]); got != want {
						t.Errorf("message %d = %s, want %s", i, got, want)
					}
				}
				if !tc.wantErr {
					checkErr(t, errs, nil)
				} else {
					var be *BlockError
					var se *SyntaxError
					if len(errs) != 1 || !errors.As(errs[0], &be) || !errors.As(errs[0], &se) {
						t.Fatalf("errors = %v, want one *BlockError with a *SyntaxError", errs)
					}
				}
				checkEverySplit(t, tc.input, opts...)
			})
		}
	}
}

func TestParseResponseFence(t *testing.T) {
	const m = `{"version":"v0.9","createSurface":{"surfaceId":"a","catalogId":"c"}}`
	tests := []struct {
		name    string
		input   string
		msgs    []string
		wantErr error
	}{
		{"one-line fence with closing backticks", "<a2ui-json>```json [" + m + "] ```</a2ui-json>", []string{m}, nil},
		{"one-line opening fence closed on the next line", "<a2ui-json>```json [" + m + "]\n```</a2ui-json>", []string{m}, nil},
		{"fence glued to a bare object", "<a2ui-json>```json" + m + "</a2ui-json>", []string{m}, nil},
		{"multi-line fence", "<a2ui-json>\n```json\n[" + m + "]\n```\n</a2ui-json>", []string{m}, nil},
		{"info string with more words", "<a2ui-json>```json title=ui\n[" + m + "]\n```</a2ui-json>", []string{m}, nil},
		{"fence with garbage", "<a2ui-json>```json garbage</a2ui-json>", nil, &SyntaxError{}},
		{"empty fence", "<a2ui-json>```json\n```</a2ui-json>", nil, ErrEmptyBlock},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parts, err := ParseResponse(tc.input)
			if tc.wantErr != nil {
				var se *SyntaxError
				if _, ok := tc.wantErr.(*SyntaxError); ok && !errors.As(err, &se) {
					t.Fatalf("error %v, want a *SyntaxError", err)
				}
				if _, ok := tc.wantErr.(*SyntaxError); !ok && !errors.Is(err, tc.wantErr) {
					t.Fatalf("error %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			_, msgs := flatten(parts)
			if len(msgs) != len(tc.msgs) || (len(msgs) > 0 && msgs[0] != tc.msgs[0]) {
				t.Fatalf("messages = %q, want %q", msgs, tc.msgs)
			}
		})
	}
}
