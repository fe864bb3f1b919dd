package a2a

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/parser"
)

// repairAnswers are model answers whose A2UI blocks need the payload
// fixer's repairs (typographic quotes, trailing commas), and a few that
// need none, each with the prose outside its blocks.
var repairAnswers = []struct {
	name   string
	answer string
}{
	{name: "smart_double_quotes",
		answer: "Hi <a2ui-json>[{“version”: “v0.9”, “deleteSurface”: {“surfaceId”: “s”}}]</a2ui-json> bye"},
	{name: "smart_single_quotes_in_a_string",
		answer: `Note <a2ui-json>[{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/t","value":"It’s ‘fine’"}}]</a2ui-json>`},
	{name: "ascii_quote_inside_smart_string",
		answer: `<a2ui-json>{“version”: “v0.9”, “updateDataModel”: {“surfaceId”: “s”, “path”: “/q”, “value”: “say "hi" ok”}}</a2ui-json>`},
	{name: "smart_quotes_inside_ascii_string_stay",
		answer: `<a2ui-json>[{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/q","value":"say \"“hi”\" ”"}}]</a2ui-json>`},
	{name: "trailing_commas",
		answer: "Form: <a2ui-json>[{\"version\":\"v0.9\",\"deleteSurface\":{\"surfaceId\":\"s\",},} ,\n\t]</a2ui-json> done"},
	{name: "comma_inside_string_kept",
		answer: `<a2ui-json>[{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/c","value":"a,}"}}]</a2ui-json>`},
	{name: "fenced_block_with_smart_quotes",
		answer: "Here:\n<a2ui-json>\n```json “fence”, ‘info’\n[{“version”: “v0.9”, “deleteSurface”: {“surfaceId”: “s”},},]\n```\n</a2ui-json>\nok"},
	{name: "two_blocks_prose_keeps_its_quotes",
		answer: "He said “look” <a2ui-json>[{“version”: “v0.9”, “createSurface”: {“surfaceId”: “s”, “catalogId”: “c”}}]</a2ui-json> and ‘then’, <a2ui-json>[{“version”: “v0.9”, “deleteSurface”: {“surfaceId”: “s”}}]</a2ui-json> “end”"},
	{name: "v08_smart_quotes",
		answer: "<a2ui-json>[{“beginRendering”: {“surfaceId”: “s”, “root”: “r”}}, {“surfaceUpdate”: {“surfaceId”: “s”, “components”: [{“id”: “r”, “component”: {“Text”: {“text”: {“literalString”: “It’s ”}}}}]}}]</a2ui-json>"},
	{name: "valid_json_unchanged",
		answer: `A <a2ui-json>[{"version":"v0.9","deleteSurface":{"surfaceId":"x"}}]</a2ui-json> B`},
}

// serve runs one JSON-RPC request through s and returns the recorded body.
func serve(t *testing.T, s *Server, body string) []byte {
	t.Helper()
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body)))
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
	}
	return rec.Body.Bytes()
}

// chunksRunner yields its chunks in order.
func chunksRunner(chunks []string) Runner {
	return RunnerFunc(func(ctx context.Context, _ *Request, yield func([]byte) error) error {
		for _, c := range chunks {
			if err := yield([]byte(c)); err != nil {
				return err
			}
		}
		return nil
	})
}

// streamedReply streams answer in the given chunks through a server with
// default options and returns the messages and the joined text of the
// events' parts.
func streamedReply(t *testing.T, chunks []string) (msgs []string, text string) {
	t.Helper()
	s, err := NewServer(chunksRunner(chunks))
	if err != nil {
		t.Fatal(err)
	}
	var parts []Part
	for _, ev := range sseEvents(t, serve(t, s, rpcBody(A2A10, true)), A2A10) {
		parts = append(parts, ev.parts...)
	}
	return partsMessages(t, parts)
}

// wholeReply answers answer through a non-streaming request and returns
// the messages and the joined text of the reply's parts.
func wholeReply(t *testing.T, answer string) (msgs []string, text string) {
	t.Helper()
	s, err := NewServer(StaticRunner(answer))
	if err != nil {
		t.Fatal(err)
	}
	var reply rpcReply
	decodeJSONInto(t, serve(t, s, rpcBody(A2A10, false)), &reply)
	if reply.Error != nil {
		t.Fatal(reply.Error)
	}
	var res struct {
		Message struct {
			Parts []Part `json:"parts"`
		} `json:"message"`
	}
	decodeJSONInto(t, reply.Result, &res)
	return partsMessages(t, res.Message.Parts)
}

func decodeJSONInto(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
}

func partsMessages(t *testing.T, parts []Part) (msgs []string, text string) {
	t.Helper()
	m, err := Messages(parts)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range m {
		msgs = append(msgs, string(x))
	}
	var sb strings.Builder
	for _, p := range parts {
		sb.WriteString(p.Text)
	}
	return msgs, sb.String()
}

// proseOf is answer without its <a2ui-json> blocks.
func proseOf(answer string) string {
	var sb strings.Builder
	for {
		i := strings.Index(answer, "<a2ui-json>")
		if i < 0 {
			break
		}
		j := strings.Index(answer[i:], "</a2ui-json>")
		if j < 0 {
			break
		}
		sb.WriteString(answer[:i])
		answer = answer[i+j+len("</a2ui-json>"):]
	}
	sb.WriteString(answer)
	return sb.String()
}

// TestStreamedReplyRepaired checks that a streamed reply gets the payload
// repairs of a whole one: however the answer is chunked (every split in
// two, and one byte at a time), the streamed events carry exactly the
// messages of the non-streamed reply, and the prose around the blocks
// unchanged (typographic quotes included).
func TestStreamedReplyRepaired(t *testing.T) {
	for _, tt := range repairAnswers {
		t.Run(tt.name, func(t *testing.T) {
			want, _ := wholeReply(t, tt.answer)
			if len(want) == 0 {
				t.Fatalf("whole reply has no message: the case is broken")
			}
			wantText := proseOf(tt.answer)
			check := func(how string, chunks []string) {
				t.Helper()
				got, text := streamedReply(t, chunks)
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Fatalf("%s: streamed messages\n%s\nwant the whole reply's\n%s", how, strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
				if text != wantText {
					t.Fatalf("%s: streamed text %q, want %q", how, text, wantText)
				}
			}
			check("one chunk", []string{tt.answer})
			for i := 1; i < len(tt.answer); i++ {
				check("split at "+strconv.Itoa(i), []string{tt.answer[:i], tt.answer[i:]})
			}
			bytewise := make([]string, len(tt.answer))
			for i := 0; i < len(tt.answer); i++ {
				bytewise[i] = tt.answer[i : i+1]
			}
			check("one byte at a time", bytewise)
		})
	}
}

// TestStreamRepairer checks what the repairer passes on at each chunk: the
// repaired block bytes at once, and only what decides a repair held back.
// It also checks that every split of the input in two gives the same bytes
// as one chunk.
func TestStreamRepairer(t *testing.T) {
	spaces := strings.Repeat(" \n", 2<<10+1) // past any small bound
	tests := []struct {
		name      string
		chunks    []string
		want      []string // the output of each feed
		wantClose string
	}{
		{name: "prose_untouched",
			chunks: []string{"He said “hi”, ‘ok’, [a,]"}, want: []string{"He said “hi”, ‘ok’, [a,]"}},
		{name: "smart_quotes_in_block",
			chunks: []string{"<a2ui-json>[{“a”: “It’s”}]</a2ui-json> “x”"},
			want:   []string{`<a2ui-json>[{"a": "It's"}]</a2ui-json> “x”`}},
		{name: "ascii_quote_in_smart_string_escaped",
			chunks: []string{`<a2ui-json>{“a”: “say "hi"”}`}, want: []string{`<a2ui-json>{"a": "say \"hi\""}`}},
		{name: "smart_quotes_in_ascii_string_stay",
			chunks: []string{`<a2ui-json>{"a": "“hi” \"”"}`}, want: []string{`<a2ui-json>{"a": "“hi” \"”"}`}},
		{name: "trailing_commas_dropped",
			chunks: []string{"<a2ui-json>[{\"a\":1,},\n]"}, want: []string{"<a2ui-json>[{\"a\":1}\n]"}},
		{name: "comma_in_string_kept",
			chunks: []string{`<a2ui-json>{"a":"x,}",}`}, want: []string{`<a2ui-json>{"a":"x,}"}`}},
		{name: "comma_waits_for_next_byte",
			chunks: []string{`<a2ui-json>[{"a":1},`, " \n", "]</a2ui-json>"},
			want:   []string{`<a2ui-json>[{"a":1}`, " \n", "]</a2ui-json>"}},
		{name: "comma_kept_before_a_value",
			chunks: []string{`<a2ui-json>[{"a":1},`, `{"b":2}]`},
			want:   []string{`<a2ui-json>[{"a":1}`, `,{"b":2}]`}},
		{name: "comma_set_down_after_the_whitespace",
			chunks: []string{`<a2ui-json>[{"a":1},`, " \n", "\t{}]"},
			want:   []string{`<a2ui-json>[{"a":1}`, " \n", "\t,{}]"}},
		{name: "trailing_comma_dropped_after_long_whitespace",
			chunks: []string{`<a2ui-json>[{"a":1,`, spaces, "}", spaces, "]"},
			want:   []string{`<a2ui-json>[{"a":1`, spaces, "}", spaces, "]"}},
		{name: "comma_before_the_close_tag_kept",
			chunks: []string{`<a2ui-json>[{"a":1}, `, "</a2ui-json>, ]"},
			want:   []string{`<a2ui-json>[{"a":1} `, ",</a2ui-json>, ]"}},
		{name: "comma_before_a_split_character",
			chunks: []string{`<a2ui-json>{"a":1, `, "\xe2\x80", "\x9cb\xe2\x80\x9d:2}"},
			want:   []string{`<a2ui-json>{"a":1 `, ",", `"b":2}`}},
		{name: "split_smart_quote_waits",
			chunks: []string{"<a2ui-json>[{\xe2\x80", "\x9ca\xe2", "\x80\x9d:1}]"},
			want:   []string{"<a2ui-json>[{", `"a`, `":1}]`}},
		{name: "other_split_character_waits_too",
			chunks: []string{"<a2ui-json>[{\"\xc3", "\xa9\":1}]"}, want: []string{"<a2ui-json>[{\"", "\xc3\xa9\":1}]"}},
		{name: "split_tags",
			chunks: []string{"<a2ui-js", "on>[{“a”:1}]</a2ui", "-json> “x”"},
			want:   []string{"<a2ui-js", `on>[{"a":1}]</a2ui`, "-json> “x”"}},
		{name: "close_tag_in_a_string_ends_the_block",
			chunks: []string{`<a2ui-json>[{"a":"</a2ui-json> “x”, <a2ui-json>“y”`},
			want:   []string{`<a2ui-json>[{"a":"</a2ui-json> “x”, <a2ui-json>"y"`}},
		{name: "escape_across_chunks",
			chunks: []string{`<a2ui-json>{“a”: “x\`, `"”}`}, want: []string{`<a2ui-json>{"a": "x\`, `""}`}},
		{name: "fence_marker_verbatim",
			chunks: []string{"<a2ui-json>```json “a”, ‘b’\n[{“c”:1},]\n```\n</a2ui-json>"},
			want:   []string{"<a2ui-json>```json “a”, ‘b’\n[{\"c\":1}]\n```\n</a2ui-json>"}},
		{name: "fence_marker_ends_at_bracket",
			chunks: []string{"<a2ui-json>```“j”[{“c”:1}]```</a2ui-json>"},
			want:   []string{"<a2ui-json>```“j”[{\"c\":1}]```</a2ui-json>"}},
		{name: "state_resets_at_each_block",
			chunks: []string{`<a2ui-json>{“a`, `</a2ui-json> “t” <a2ui-json>{“b”:1}`},
			want:   []string{`<a2ui-json>{"a`, `</a2ui-json> “t” <a2ui-json>{"b":1}`}},
		{name: "close_returns_held_comma",
			chunks: []string{`<a2ui-json>[1, `}, want: []string{`<a2ui-json>[1 `}, wantClose: ","},
		{name: "close_returns_held_character",
			chunks: []string{"<a2ui-json>[\xe2\x80"}, want: []string{"<a2ui-json>["}, wantClose: "\xe2\x80"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r streamRepairer
			for i, c := range tt.chunks {
				if got := string(r.feed([]byte(c))); got != tt.want[i] {
					t.Fatalf("feed %d (%q) = %q, want %q", i, c, got, tt.want[i])
				}
			}
			if got := string(r.close()); got != tt.wantClose {
				t.Fatalf("close = %q, want %q", got, tt.wantClose)
			}
			whole := strings.Join(tt.chunks, "")
			want := repairChunks(whole)
			for i := 0; i <= len(whole); i++ {
				if got := repairChunks(whole[:i], whole[i:]); got != want {
					t.Fatalf("split at %d: %q, want %q", i, got, want)
				}
			}
		})
	}
}

// repairChunks runs chunks through a new repairer and returns all it
// passed on, the held bytes at close included.
func repairChunks(chunks ...string) string {
	var r streamRepairer
	var sb strings.Builder
	for _, c := range chunks {
		sb.Write(r.feed([]byte(c)))
	}
	sb.Write(r.close())
	return sb.String()
}

// TestStreamRepairOnlyWithDefaultParser checks that, as whole replies,
// streamed replies are repaired only with the default parser: with parser
// options the block needing a repair is dropped, as the non-streamed reply
// falls back to the answer's text.
func TestStreamRepairOnlyWithDefaultParser(t *testing.T) {
	answer := repairAnswers[0].answer
	s, err := NewServer(StaticRunner(answer), WithParserOptions(parser.WithFraming(parser.FramingTags)))
	if err != nil {
		t.Fatal(err)
	}
	var parts []Part
	for _, ev := range sseEvents(t, serve(t, s, rpcBody(A2A10, true)), A2A10) {
		parts = append(parts, ev.parts...)
	}
	if msgs, _ := partsMessages(t, parts); len(msgs) != 0 {
		t.Fatalf("messages %q, want the block dropped", msgs)
	}
	if got, _ := streamedReply(t, []string{answer}); len(got) != 1 {
		t.Fatalf("default parser: messages %q, want one", got)
	}
}

// FuzzStreamRepairer checks, for any answer split anywhere, that the
// repairer never panics, passes on the same bytes however the answer is
// chunked, leaves the text outside the blocks unchanged, and, when the
// whole answer parses (parser.ParseResponse, with its repairs) and the
// repaired stream parses without error, that the stream gives the same
// messages.
func FuzzStreamRepairer(f *testing.F) {
	for _, tt := range repairAnswers {
		f.Add(tt.answer, uint16(len(tt.answer)/2))
	}
	for _, s := range []string{
		"<a2ui-json>[{“a”: “b”},]</a2ui-json>", "<a2ui-json>{“a”: “x\\”}</a2ui-json>",
		"<a2ui-json>```“j”\n[{‘a’:1}]```</a2ui-json>", "<a2ui-json>[\xe2\x80", "a <a2ui-json>[1,", "<a2ui-json>{\"a\":\"</a2ui-json>\"}",
	} {
		f.Add(s, uint16(3))
	}
	f.Fuzz(func(t *testing.T, answer string, at uint16) {
		k := int(at) % (len(answer) + 1)
		repaired := repairChunks(answer)
		if got := repairChunks(answer[:k], answer[k:]); got != repaired {
			t.Fatalf("split at %d: %q, want %q", k, got, repaired)
		}
		if got, want := proseOf(repaired), proseOf(answer); got != want && closedBlocks(answer) {
			t.Fatalf("prose %q, want %q", got, want)
		}
		whole, err := parser.ParseResponse(answer)
		if err != nil || !closedBlocks(answer) {
			return
		}
		p, err := parser.New()
		if err != nil {
			t.Fatal(err)
		}
		streamed, err := p.Feed([]byte(repaired))
		if err != nil {
			return
		}
		rest, err := p.Close()
		if err != nil {
			return
		}
		streamed = append(streamed, rest...)
		if got, want := partMessages(streamed), partMessages(whole); got != want {
			t.Fatalf("streamed messages\n%s\nwant the whole answer's\n%s", got, want)
		}
	})
}

// closedBlocks reports whether every <a2ui-json> of answer is closed before
// the next one opens, and the last one is closed.
func closedBlocks(answer string) bool {
	for {
		i := strings.Index(answer, repairTagOpen)
		if i < 0 {
			return true
		}
		answer = answer[i+len(repairTagOpen):]
		j := strings.Index(answer, repairTagClose)
		if j < 0 || strings.Contains(answer[:j], repairTagOpen) {
			return false
		}
		answer = answer[j+len(repairTagClose):]
	}
}

// partMessages joins the messages of parser parts, one per line, compact
// as data parts carry them (the repairer may move whitespace in a message).
func partMessages(pp []parser.Part) string {
	var sb strings.Builder
	for _, p := range pp {
		for _, m := range p.Messages {
			var b bytes.Buffer
			if err := json.Compact(&b, m); err != nil {
				b.Reset()
				b.Write(m)
			}
			sb.Write(b.Bytes())
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}
