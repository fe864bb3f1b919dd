package frame

import (
	"strings"
	"testing"
)

// workInputs are large inputs whose every byte a naive split function
// would examine again at each 1-byte chunk: held tag prefixes, incomplete
// UTF-8 sequences, and line starts that stay possible fences for up to
// MaxFenceLine bytes.
var workInputs = []struct {
	name string
	in   string
}{
	{"tag prefixes in prose and blocks", strings.Repeat("<a2ui-jso 日本 ", 2000) + "<a2ui-json>" + strings.Repeat("</a2ui-jso ", 2000) + "</a2ui-json>"},
	{"long fence-like lines in prose and blocks", strings.Repeat("```a2ui"+strings.Repeat(" ", 56)+"x\n", 300) +
		"```a2ui\n" + strings.Repeat("   "+strings.Repeat("`", 61)+"x\n", 300) + strings.Repeat("`", 80) + "\n```\n"},
	{"JSONL", strings.Repeat(`{"a":"日本"}`+"\n", 2000)},
}

// oneByte feeds in one byte at a time to split through buf, as feed does
// but without checks, and returns the number of tokens. It allocates
// nothing when buf has room for in.
func oneByte(split func([]byte, bool) (int, Token), in string, buf []byte) int {
	buf = buf[:0]
	tokens := 0
	for i := 0; i <= len(in); i++ {
		atEOF := i == len(in)
		if !atEOF {
			buf = append(buf, in[i])
		}
		for len(buf) > 0 || atEOF {
			adv, tok := split(buf, atEOF)
			if tok.Kind == None {
				break
			}
			tokens++
			buf = append(buf[:0], buf[adv:]...)
		}
	}
	return tokens
}

// TestLinearWork feeds large inputs one byte at a time and checks that
// every framing examines each byte a bounded number of times: at most
// twice, fed whole or byte by byte (a split function that scanned its
// held-back bytes again would examine up to MaxFenceLine times as many).
// It counts bytes examined, not time.
func TestLinearWork(t *testing.T) {
	for _, tc := range workInputs {
		t.Run(tc.name, func(t *testing.T) {
			buf := make([]byte, 0, len(tc.in))
			var tags Tags
			var fences Fences
			var lines Lines
			for _, s := range []struct {
				name  string
				split SplitFunc
				work  *int64
			}{
				{"tags", tags.Split, &tags.work},
				{"fences", fences.Split, &fences.work},
				{"lines", lines.Split, &lines.work},
			} {
				oneByte(s.split, tc.in, buf)
				if limit := 2 * int64(len(tc.in)); *s.work > limit {
					t.Errorf("%s: %d bytes examined for %d bytes of input, want at most %d", s.name, *s.work, len(tc.in), limit)
				}
				if *s.work < int64(len(tc.in))/2 {
					t.Errorf("%s: %d bytes examined for %d bytes of input: the count misses work", s.name, *s.work, len(tc.in))
				}
			}
		})
	}
}

// TestNoAllocation checks that the split functions allocate nothing, fed
// one byte at a time.
func TestNoAllocation(t *testing.T) {
	in := tagsCases[len(tagsCases)-2].in + fencesCases[1].in + linesCases[1].in
	buf := make([]byte, 0, len(in))
	var tags Tags
	var fences Fences
	var lines Lines
	for name, run := range map[string]func(){
		"tags":   func() { tags = Tags{}; oneByte(tags.Split, in, buf) },
		"fences": func() { fences = Fences{}; oneByte(fences.Split, in, buf) },
		"lines":  func() { lines = Lines{}; oneByte(lines.Split, in, buf) },
	} {
		if n := testing.AllocsPerRun(20, run); n != 0 {
			t.Errorf("%s: %v allocations per run of %d bytes", name, n, len(in))
		}
	}
}
