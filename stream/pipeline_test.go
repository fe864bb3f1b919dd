package stream

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/parser"
	"github.com/a2ui-stream/a2ui-stream/sinks"
)

// threeMessages is one block of three v0.9 messages.
const threeMessages = `Here you go.<a2ui-json>[` +
	`{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"Hi"}]}},` +
	`{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/n","value":1}}` +
	`]</a2ui-json> Bye.`

// TestOneBatchPerList feeds inputs at every split point and one byte at a
// time: in complete mode with the list policy, the batch and end events
// are identical to those of the whole input, one batch per list.
func TestOneBatchPerList(t *testing.T) {
	tests := []struct {
		name    string
		input   string
		batches int
	}{
		{"three messages in one block", threeMessages, 1},
		{"sample answer", string(sample(t)), 1},
		{"two blocks back to back", threeMessages[:len(threeMessages)-5] +
			`<a2ui-json>[{"version":"v0.9","deleteSurface":{"surfaceId":"s"}}]</a2ui-json>`, 2},
		{"pretty-printed block", "<a2ui-json>[\n  {\"version\": \"v0.9\",\n   \"createSurface\": {\"surfaceId\": \"p\", \"catalogId\": \"c\"}}\n]</a2ui-json>", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pl, rec := newTestPipeline(t)
			feedChunks(t, pl, "whole", []byte(tc.input), 0)
			want := rec.lines(sinks.KindBatch, sinks.KindEnd)
			if got := len(rec.lines(sinks.KindBatch)); got != tc.batches {
				t.Fatalf("whole input: %d batches, want %d:\n%s", got, tc.batches, strings.Join(want, "\n"))
			}
			for _, line := range rec.lines(sinks.KindBatch) {
				if strings.ContainsAny(line, "\n\r") {
					t.Fatalf("batch line spans lines: %q", line)
				}
			}
			in := []byte(tc.input)
			check := func(name string, chunks [][]byte) {
				pl, rec := newTestPipeline(t)
				ctx := context.Background()
				for _, c := range chunks {
					if err := pl.Feed(ctx, "whole", c); err != nil {
						t.Fatal(err)
					}
				}
				if err := pl.End(ctx, "whole"); err != nil {
					t.Fatal(err)
				}
				if got := rec.lines(sinks.KindBatch, sinks.KindEnd); !slices.Equal(got, want) {
					t.Fatalf("%s: batch and end events differ:\n got %q\nwant %q", name, got, want)
				}
				var text strings.Builder
				for _, l := range rec.lines(sinks.KindText) {
					text.WriteString(decode(t, l)["text"].(string))
				}
				if got, wantText := text.String(), proseOf(tc.input); got != wantText {
					t.Fatalf("%s: text %q, want %q", name, got, wantText)
				}
			}
			for i := 1; i < len(in); i++ {
				check(fmt.Sprintf("split at %d", i), [][]byte{in[:i], in[i:]})
			}
			var bytewise [][]byte
			for i := range in {
				bytewise = append(bytewise, in[i:i+1])
			}
			check("one byte at a time", bytewise)
		})
	}
}

// proseOf returns the input without its blocks.
func proseOf(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "<a2ui-json>")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		j := strings.Index(s[i:], "</a2ui-json>")
		s = s[i+j+len("</a2ui-json>"):]
	}
}

// TestYieldPolicyModes feeds the sample at every split point in the
// progressive and delta modes (default policy: yield): each list's last
// batch, and only it, has listEnd, and the surfaces end as in complete
// mode.
func TestYieldPolicyModes(t *testing.T) {
	in := sample(t)
	for _, mode := range []parser.Mode{parser.ModeProgressive, parser.ModeDelta} {
		t.Run(mode.String(), func(t *testing.T) {
			for i := 1; i < len(in); i += 7 {
				pl, rec := newTestPipeline(t, WithMode(mode))
				ctx := context.Background()
				for _, c := range [][]byte{in[:i], in[i:]} {
					if err := pl.Feed(ctx, "s", c); err != nil {
						t.Fatal(err)
					}
				}
				if err := pl.End(ctx, "s"); err != nil {
					t.Fatal(err)
				}
				ends := 0
				batches := rec.lines(sinks.KindBatch)
				for j, l := range batches {
					ev := decode(t, l)
					if ev["failed"].(interface{ String() string }).String() != "0" {
						t.Fatalf("split %d: batch %d has failures: %s", i, j, l)
					}
					if ev["listEnd"] == true {
						ends++
						if j != len(batches)-1 {
							t.Fatalf("split %d: listEnd on batch %d of %d", i, j+1, len(batches))
						}
					}
				}
				if ends != 1 {
					t.Fatalf("split %d: %d list ends, want 1:\n%s", i, ends, strings.Join(batches, "\n"))
				}
			}
		})
	}
}

// TestBlockFailure: a block that fails after applying messages gives its
// batch, with the error, then an error event; the next block still
// applies.
func TestBlockFailure(t *testing.T) {
	input := `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"a","catalogId":"c"}}, {bad</a2ui-json>` +
		`<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"b","catalogId":"c"}}]</a2ui-json>`
	for _, n := range []int{0, 1, 5, 16} {
		t.Run(fmt.Sprintf("chunk %d", n), func(t *testing.T) {
			pl, rec := newTestPipeline(t)
			feedChunks(t, pl, "s", []byte(input), n)
			var kinds []string
			for _, e := range rec.session("s") {
				kinds = append(kinds, string(e.Kind))
			}
			if want := []string{"batch", "error", "batch", "end"}; !slices.Equal(kinds, want) {
				t.Fatalf("events %v, want %v:\n%s", kinds, want, strings.Join(rec.lines(), "\n"))
			}
			lines := rec.lines()
			first, errEv := decode(t, lines[0]), decode(t, lines[1])
			if _, ok := first["error"]; !ok {
				t.Errorf("the cut list's batch has no error: %s", lines[0])
			}
			if errEv["reason"] != ReasonBlock || errEv["list"].(interface{ String() string }).String() != "0" {
				t.Errorf("error event %s, want reason block, list 0", lines[1])
			}
			if !strings.Contains(lines[2], `"surfacesCreated":["b"]`) {
				t.Errorf("second block not applied: %s", lines[2])
			}
			if !strings.Contains(lines[3], `"errors":1`) {
				t.Errorf("end event does not count the error: %s", lines[3])
			}
		})
	}
}

// TestFailedMessageKeepsList: a failing message is reported in the batch
// and the rest of the list applies.
func TestFailedMessageKeepsList(t *testing.T) {
	input := `<a2ui-json>[{"version":"v0.9","updateComponents":{"surfaceId":"nope","components":[]}},` +
		`{"version":"v0.9","createSurface":{"surfaceId":"a","catalogId":"c"}}]</a2ui-json>`
	var logs bytes.Buffer
	pl, rec := newTestPipeline(t, WithLogger(newTextLogger(&logs)))
	feedChunks(t, pl, "s", []byte(input), 3)
	batches := rec.lines(sinks.KindBatch)
	if len(batches) != 1 {
		t.Fatalf("%d batches, want 1", len(batches))
	}
	b := decode(t, batches[0])
	if b["applied"].(interface{ String() string }).String() != "1" || b["failed"].(interface{ String() string }).String() != "1" {
		t.Fatalf("batch %s, want 1 applied and 1 failed", batches[0])
	}
	if !strings.Contains(batches[0], `"code":"`) {
		t.Errorf("failure has no report: %s", batches[0])
	}
	if !strings.Contains(batches[0], `"ok":false,"error":{`) || !strings.Contains(batches[0], `,"message":{"version":"v0.9","updateComponents":{"surfaceId":"nope","components":[]}}}`) {
		t.Errorf("the failed result does not show its message: %s", batches[0])
	}
	if strings.Count(batches[0], `"surfaceId":"nope","components"`) != 1 {
		t.Errorf("the failed message is also among the applied ones: %s", batches[0])
	}
	for _, want := range []string{"stream: message failed", "session=s", "list=0", "index=0", "surfaceId=nope", "reason="} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, logs.String())
		}
	}
}
