package parser

import (
	"encoding/json"
	"errors"
	"strings"
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
// every mode and through ParseResponse: the messages, and for a fence with
// no JSON a *SyntaxError (ParseResponse: respErr).
func TestFenceInsideTags(t *testing.T) {
	const m = `{"version":"v0.9","createSurface":{"surfaceId":"a","catalogId":"c"}}`
	tests := []struct {
		name    string
		input   string
		msgs    []string
		wantErr bool
		respErr error // ParseResponse's: a *SyntaxError, or a sentinel
	}{
		{"one-line fence with closing backticks", "<a2ui-json>```json [" + m + "] ```</a2ui-json>x", []string{m}, false, nil},
		{"one-line opening fence closed on the next line", "<a2ui-json>```json [" + m + "]\n```</a2ui-json>x", []string{m}, false, nil},
		{"fence glued to a bare object", "<a2ui-json>```json" + m + "</a2ui-json>x", []string{m}, false, nil},
		{"fence without info word on one line", "<a2ui-json>``` [" + m + "]```</a2ui-json>x", []string{m}, false, nil},
		{"multi-line fence", "<a2ui-json>\n```json\n[" + m + "]\n```\n</a2ui-json>x", []string{m}, false, nil},
		{"upper-case info word after a space, CRLF", "<a2ui-json>``` JSON\r\n[" + m + "]\r\n```\r\n</a2ui-json>x", []string{m}, false, nil},
		{"info string with more words", "<a2ui-json>```json title=ui\n[" + m + "]\n```</a2ui-json>x", []string{m}, false, nil},
		{"fence with garbage and no JSON", "<a2ui-json>```json garbage</a2ui-json>x", nil, true, &SyntaxError{}},
		{"empty fence", "<a2ui-json>```json\n```</a2ui-json>x", nil, true, ErrEmptyBlock},
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
		t.Run(tc.name+"/ParseResponse", func(t *testing.T) {
			parts, err := ParseResponse(tc.input)
			var se *SyntaxError
			switch want := tc.respErr.(type) {
			case nil:
				if err != nil {
					t.Fatal(err)
				}
			case *SyntaxError:
				if !errors.As(err, &se) {
					t.Fatalf("error %v, want a *SyntaxError", err)
				}
			default:
				if !errors.Is(err, want) {
					t.Fatalf("error %v, want %v", err, want)
				}
			}
			if _, msgs := flatten(parts); tc.respErr == nil && strings.Join(msgs, "\n") != strings.Join(tc.msgs, "\n") {
				t.Fatalf("messages = %q, want %q", msgs, tc.msgs)
			}
		})
	}
}
