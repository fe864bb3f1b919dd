package parser

import (
	"fmt"
	"strings"
	"testing"
)

// splitInputs are streams whose output must not depend on chunking.
type splitInput struct {
	name string
	opts []Option
	in   string
}

var splitInputs = []splitInput{
	{"prose and two blocks", nil, "Hello <a2ui-json>[{\"a\":\"x\\\"}\"},{\"b\":[1,{\"c\":null}]}]</a2ui-json> and <a2ui-json>\n```json\n[{\"d\":true}]\n```\n</a2ui-json> bye"},
	{"multi-byte text and strings", nil, "18°C 日本 <a2ui-json>[{\"t\":\"18°C 日本 🎉\"}]</a2ui-json> 🎉 end"},
	{"almost-tags in prose", nil, "a < b <a2ui <a2ui-jso <a2ui-json>[{\"x\":\"</a2ui\"}]</a2ui-json><</a2ui-json>"},
	{"broken block then good block", nil, "x<a2ui-json>[{\"a\":1},oops]</a2ui-json>y<a2ui-json>[{\"b\":2}]</a2ui-json>z"},
	{"escapes at every position", nil, `<a2ui-json>[{"a":"\\","b":"\\\"","c":"\u00e9\n"}]</a2ui-json>`},
	{"fences", []Option{WithFraming(FramingFences)}, "Look ```a2ui\n[{\"a\":\"`\"}]\n```\nok ```a2ui\n{\"b\":1}\n```"},
	{"jsonl", []Option{WithFraming(FramingJSONL)}, "{\"a\":1}\n{\"b\":\"日本\"}\nbad\n{\"c\":[3]}\n"},
	{"fences by the CommonMark rules", []Option{WithFraming(FramingFences)}, "Wrap UI in ```a2ui fences.\n  ```a2ui \r\n[{\"a\":1}]\n   ```\nmid ```a2uiX\n```a2ui\n{\"b\":\"日本\"}\n````\nend"},
	{"one-line fence inside tags", nil, "<a2ui-json>```json [{\"a\":1}] ```</a2ui-json>x<a2ui-json>```json garbage</a2ui-json>y"},
	{"block over the size limit", []Option{WithMaxBlockSize(20)}, "a<a2ui-json>[{\"a\":1},{\"b\":\"0123456789\"}]</a2ui-json>b"},
}

// render gives a chunking-independent summary of a run: the joined text, the
// messages in order, and the error classes in order.
func render(parts []Part, errs []error) string {
	text, msgs := flatten(parts)
	var b strings.Builder
	fmt.Fprintf(&b, "text=%q\n", text)
	for _, m := range msgs {
		fmt.Fprintf(&b, "msg=%s\n", m)
	}
	for _, err := range errs {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				fmt.Fprintf(&b, "err=%v\n", e)
			}
			continue
		}
		fmt.Fprintf(&b, "err=%v\n", err)
	}
	return b.String()
}

func TestSplitPoints(t *testing.T) {
	for _, tc := range splitInputs {
		t.Run(tc.name, func(t *testing.T) {
			want := render(collect(t, []string{tc.in}, tc.opts...))
			for i := 0; i <= len(tc.in); i++ {
				got := render(collect(t, []string{tc.in[:i], tc.in[i:]}, tc.opts...))
				if got != want {
					t.Fatalf("split at %d:\n%s\nwant:\n%s", i, got, want)
				}
			}
			var bytes []string
			for i := 0; i < len(tc.in); i++ {
				bytes = append(bytes, tc.in[i:i+1])
			}
			if got := render(collect(t, bytes, tc.opts...)); got != want {
				t.Fatalf("one byte at a time:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
