package a2a

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Messages of a form, as a model writes them, and a block whose JSON is
// broken (a member without its colon).
const (
	formCreate = `{"version":"v0.9.1","createSurface":{"surfaceId":"form","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}`
	formUpdate = `{"version":"v0.9.1","updateComponents":{"surfaceId":"form","components":[{"id":"root","component":"Text","text":"Name"}]}}`
	formData   = `{"version":"v0.9.1","updateDataModel":{"surfaceId":"form","path":"/name","value":"Ada"}}`
	brokenList = `[{"version":"v0.9.1","updateDataModel":{"surfaceId":"form","path":"/name" "value":"Ada"}}]`
)

func block(list string) string { return "<a2ui-json>" + list + "</a2ui-json>" }

// badBlockAnswers are answers with a block that does not parse, next to
// blocks that do.
var badBlockAnswers = []struct{ name, answer string }{
	{name: "good_then_broken", answer: "Here is the form.\n" + block("["+formCreate+","+formUpdate+"]") + "\nAnd the data:\n" + block(brokenList) + "\nDone."},
	{name: "broken_then_good", answer: "First:\n" + block(brokenList) + "\nThen:\n" + block("["+formCreate+","+formUpdate+"]") + "\nDone."},
	{name: "good_broken_good", answer: block("["+formCreate+"]") + " a " + block(brokenList) + " b " + block("["+formUpdate+","+formData+"]") + " c"},
	{name: "broken_after_a_good_message_in_one_block", answer: "Form: " + block("["+formCreate+`,{"version":"v0.9.1","updateComponents":{"surfaceId":"form",]`) + " end"},
	{name: "smart_quotes_and_a_broken_block", answer: "A “quote” " + block(`[{“version”: “v0.9.1”, “createSurface”: {“surfaceId”: “form”, “catalogId”: “c”},},]`) + " " + block(`[{"version": ]`) + " Z"},
	{name: "unterminated_last_block", answer: "Form: " + block("["+formCreate+"]") + " and <a2ui-json>[" + formUpdate},
	{name: "rejected_update_then_good", answer: "x " + block("["+formData+"]") + " y " + block("["+formCreate+","+formData+"]") + " z"},
}

// replyForm is what a reply says, whatever its grouping and chunking: its
// A2UI messages, one by one ("M" and the message), and between them the
// prose of its text parts, joined, without whitespace ("T" and the prose;
// none when empty): a whole reply trims the prose around each block.
func replyForm(t *testing.T, parts []Part) []string {
	t.Helper()
	var out []string
	var prose strings.Builder
	flush := func() {
		if p := noSpace(prose.String()); p != "" {
			out = append(out, "T "+p)
		}
		prose.Reset()
	}
	for _, p := range parts {
		if p.Kind == KindText {
			prose.WriteString(p.Text)
			continue
		}
		flush()
		msgs, err := Messages([]Part{p})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			out = append(out, "M "+string(m))
		}
	}
	flush()
	return out
}

// wholeParts answers answer through a non-streaming request to a server
// built with opts.
func wholeParts(t *testing.T, answer string, opts ...Option) []Part {
	t.Helper()
	var reply rpcReply
	body := serve(t, newServer(t, StaticRunner(answer), opts...), rpcBody(A2A10, false))
	if err := json.Unmarshal(body, &reply); err != nil {
		t.Fatalf("reply %s: %v", body, err)
	}
	return replyParts(t, reply)
}

// replayedParts streams answer, replayed in chunks of n bytes, through a
// server built with opts, and returns the parts of its events.
func replayedParts(t *testing.T, answer string, n int, opts ...Option) []Part {
	t.Helper()
	s := newServer(t, &ReplayRunner{Output: []byte(answer), ChunkSize: n}, opts...)
	return eventParts(sseEvents(t, serve(t, s, rpcBody(A2A10, true)), A2A10))
}

// replayAnswers are the recorded answers of the package and the
// repository: the replay file, the examples, and the tests' answers.
func replayAnswers(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{"streamedAnswer": streamedAnswer, "streamAnswer": streamAnswer}
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, filepath.Join("testdata", "answer.txt"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = string(b)
	}
	for _, a := range repairAnswers {
		out["repair_"+a.name] = a.answer
	}
	for _, a := range badBlockAnswers {
		out["bad_"+a.name] = a.answer
	}
	return out
}

// TestWholeReplyIsTheStreamedReply checks that a non-streaming reply says
// what the streamed reply of the same answer says, at any chunk size:
// the same messages, in the same places among the prose, whatever the
// grouping of the messages into parts (one per message, one per block in
// a whole reply, one per chunk's yield in a stream) and the whitespace
// around the blocks, which a whole reply trims. Answers with broken blocks
// included: both keep every message that parses.
func TestWholeReplyIsTheStreamedReply(t *testing.T) {
	optSets := map[string][]Option{
		"parts":     nil,
		"grouped":   {WithGroupedMessages(true)},
		"artifacts": {WithArtifactEvents(true)},
	}
	for name, answer := range replayAnswers(t) {
		for optName, opts := range optSets {
			t.Run(name+"/"+optName, func(t *testing.T) {
				want := replyForm(t, wholeParts(t, answer, opts...))
				if !strings.Contains(strings.Join(want, "\n"), "M ") {
					t.Fatalf("whole reply %q has no message: the case is broken", want)
				}
				for _, n := range []int{1, 3, 16, 64, len(answer)} {
					got := replyForm(t, replayedParts(t, answer, n, opts...))
					if strings.Join(got, "\n") != strings.Join(want, "\n") {
						t.Fatalf("chunks of %d bytes: streamed reply\n%s\nwant the whole reply's\n%s", n, strings.Join(got, "\n"), strings.Join(want, "\n"))
					}
				}
			})
		}
	}
}

// TestSendKeepsValidBlocks is the regression test of a whole reply that
// answered with the raw text of the answer, markup included, when one of
// its blocks did not parse: it keeps the blocks that parse, as data
// parts, and drops the broken one from the prose.
func TestSendKeepsValidBlocks(t *testing.T) {
	data := func(m string) string {
		return `{"data":` + m + `,"mediaType":"application/a2ui+json","metadata":{"mimeType":"application/a2ui+json"}}`
	}
	tests := []struct{ name, answer, want string }{
		{name: "good then broken", answer: badBlockAnswers[0].answer,
			want: `[{"text":"Here is the form."},` + data(formCreate) + `,` + data(formUpdate) + `,{"text":"And the data:"},{"text":"Done."}]`},
		{name: "broken then good", answer: badBlockAnswers[1].answer,
			want: `[{"text":"First:"},{"text":"Then:"},` + data(formCreate) + `,` + data(formUpdate) + `,{"text":"Done."}]`},
		{name: "good message before the break of its block", answer: badBlockAnswers[3].answer,
			want: `[{"text":"Form:"},` + data(formCreate) + `,{"text":"end"}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustJSON(t, wholeParts(t, tt.answer))
			if got != tt.want {
				t.Errorf("parts\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestSendFallsBackWhenNoBlockParses checks the fallback the conformance
// suite asks for: an answer none of whose blocks parsed is answered with
// its text, unchanged; a streamed reply sends its prose.
func TestSendFallsBackWhenNoBlockParses(t *testing.T) {
	answer := "Chart:\n" + block(brokenList) + "\nand " + block(`[{"a": {`) + "\nOops."
	if got, want := mustJSON(t, wholeParts(t, answer)), `[{"text":`+mustJSONString(answer)+`}]`; got != want {
		t.Errorf("whole reply\n got %s\nwant %s", got, want)
	}
	if got := replyForm(t, replayedParts(t, answer, 5)); strings.Join(got, "\n") != "T Chart:andOops." {
		t.Errorf("streamed reply %q, want the prose", got)
	}
}
