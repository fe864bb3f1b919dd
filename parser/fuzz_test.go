package parser

import (
	"testing"
)

// FuzzCompleteChunking checks that the parser never panics and that
// complete-mode output (text, messages, errors) does not depend on where the
// input is cut.
func FuzzCompleteChunking(f *testing.F) {
	for _, tc := range splitInputs {
		f.Add(tc.in, uint16(3), uint8(tc.framing()))
	}
	f.Add(`<a2ui-json>[{"a":[[[[[[[[[[[[1]]]]]]]]]]]]}]</a2ui-json>`, uint16(1), uint8(0))
	f.Fuzz(func(t *testing.T, in string, step uint16, framing uint8) {
		opts := []Option{WithFraming(Framing(framing % 3)), WithMaxDepth(8)}
		want := render(collect(t, []string{in}, opts...))
		n := int(step%64) + 1
		var chunks []string
		for i := 0; i < len(in); i += n {
			chunks = append(chunks, in[i:min(i+n, len(in))])
		}
		if got := render(collect(t, chunks, opts...)); got != want {
			t.Fatalf("chunks of %d:\n%s\nwant:\n%s", n, got, want)
		}
	})
}

func (s splitInput) framing() Framing {
	for _, o := range s.opts {
		var c config
		if o(&c) == nil && c.framing != 0 {
			return c.framing
		}
	}
	return FramingTags
}
