package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/processor"
)

// TestApplyAcceptsBOM: a first line that begins with a UTF-8 byte order
// mark is read as a list; the mark is not taken for part of it.
func TestApplyAcceptsBOM(t *testing.T) {
	const list = `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}}]`
	for _, tt := range []struct{ name, input string }{
		{"first_line", "\xef\xbb\xbf" + list + "\n"},
		{"first_line_then_more", "\xef\xbb\xbf" + list + "\n[]\n"},
		{"bom_then_space", "\xef\xbb\xbf  " + list},
		{"bom_alone_is_a_blank_line", "\xef\xbb\xbf\n" + list},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tt.input, "apply")
			if code != 0 || !strings.Contains(out, `"applied":1,"failed":0`) || strings.Contains(out, `"error"`) {
				t.Errorf("exit %d, output %s, stderr %s", code, out, errOut)
			}
		})
	}
}

// TestApplyListErrors: a line that is not a list says what is wrong with
// it and at which byte of the line.
func TestApplyListErrors(t *testing.T) {
	tests := []struct {
		name, line, want string
	}{
		{"bad_key", `[{bad}]`, "line 1 is not a JSON array of messages: invalid character 'b' looking for beginning of object key string (at byte 2)"},
		{"unclosed", `[1,2`, "line 1 is not a JSON array of messages: the line ends before the array is closed (at byte 4)"},
		{"trailing_comma", `  [1,]`, "invalid character ']' looking for beginning of value (at byte 5)"},
		{"after_the_array", `[1] x`, "invalid character 'x' after top-level value (at byte 4)"},
		{"prose", `not a list`, "it begins with 'n', not '[' (at byte 0)"},
		{"object", ` {"a":1}`, "it is a JSON object, not an array (at byte 1)"},
		{"string", `"s"`, "it is a JSON string, not an array (at byte 0)"},
		{"number", `12`, "it is a JSON number, not an array (at byte 0)"},
		{"unclosed_object", `{"a":`, "the line ends inside a JSON value (at byte 5)"},
		{"control_byte", "\x01", "it begins with byte 0x01, not '[' (at byte 0)"},
		{"bom_on_a_later_line", "[]\n\xef\xbb\xbf[]", "line 2 is not a JSON array of messages: it begins with a byte order mark (only the input's first line may) (at byte 0)"},
		{"offset_counts_the_bom", "\xef\xbb\xbf[{bad}]", "line 1 is not a JSON array of messages: invalid character 'b' looking for beginning of object key string (at byte 5)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, code := runCLI(t, tt.line+"\n", "apply")
			if code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			if !strings.Contains(out, `"error":"a2ui-stream apply: `) || !strings.Contains(out, tt.want) {
				t.Errorf("output %s\nwant an error with %q", out, tt.want)
			}
		})
	}
}

// TestListErrorUnwraps: the error wraps the processor's.
func TestListErrorUnwraps(t *testing.T) {
	e := newListError(0, []byte("[1,2"), 0, processor.ErrNotArray)
	if !errors.Is(e, processor.ErrNotArray) || e.Offset != 4 || e.Line != 1 {
		t.Errorf("%+v", e)
	}
}
