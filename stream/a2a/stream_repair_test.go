package a2a

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/parser"
)

// createS is a block creating surface "s": the answers whose messages
// update it start with it, since the server's processor rejects (and does
// not send) an update of a surface the session never created.
const createS = `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}}]</a2ui-json>`

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
		answer: createS + `Note <a2ui-json>[{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/t","value":"It’s ‘fine’"}}]</a2ui-json>`},
	{name: "ascii_quote_inside_smart_string",
		answer: createS + `<a2ui-json>{“version”: “v0.9”, “updateDataModel”: {“surfaceId”: “s”, “path”: “/q”, “value”: “say "hi" ok”}}</a2ui-json>`},
	{name: "smart_quotes_inside_ascii_string_stay",
		answer: createS + `<a2ui-json>[{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/q","value":"say \"“hi”\" ”"}}]</a2ui-json>`},
	{name: "trailing_commas",
		answer: "Form: <a2ui-json>[{\"version\":\"v0.9\",\"deleteSurface\":{\"surfaceId\":\"s\",},} ,\n\t]</a2ui-json> done"},
	{name: "comma_inside_string_kept",
		answer: createS + `<a2ui-json>[{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/c","value":"a,}"}}]</a2ui-json>`},
	{name: "fenced_block_with_smart_quotes",
		answer: "Here:\n<a2ui-json>\n```json “fence”, ‘info’\n[{“version”: “v0.9”, “deleteSurface”: {“surfaceId”: “s”},},]\n```\n</a2ui-json>\nok"},
	{name: "two_blocks_prose_keeps_its_quotes",
		answer: "He said “look” <a2ui-json>[{“version”: “v0.9”, “createSurface”: {“surfaceId”: “s”, “catalogId”: “c”}}]</a2ui-json> and ‘then’, <a2ui-json>[{“version”: “v0.9”, “deleteSurface”: {“surfaceId”: “s”}}]</a2ui-json> “end”"},
	{name: "v08_smart_quotes",
		answer: "<a2ui-json>[{“beginRendering”: {“surfaceId”: “s”, “root”: “r”}}, {“surfaceUpdate”: {“surfaceId”: “s”, “components”: [{“id”: “r”, “component”: {“Text”: {“text”: {“literalString”: “It’s ”}}}}]}}]</a2ui-json>"},
	{name: "unicode_spaces_around_the_payload",
		answer: "Edge <a2ui-json>\u00a0[{“version”: “v0.9”, “deleteSurface”: {“surfaceId”: “s”}}]\u2028\n</a2ui-json> end"},
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

// streamedReply streams answer in the given chunks through a server built
// with opts and returns the messages and the joined text of the events'
// parts.
func streamedReply(t *testing.T, chunks []string, opts ...Option) (msgs []string, text string) {
	t.Helper()
	s := newServer(t, chunksRunner(chunks), opts...)
	return partsMessages(t, eventParts(sseEvents(t, serve(t, s, rpcBody(A2A10, true)), A2A10)))
}

// wholeReply answers answer through a non-streaming request to a server
// built with opts and returns the messages and the joined text of the
// reply's parts.
func wholeReply(t *testing.T, answer string, opts ...Option) (msgs []string, text string) {
	t.Helper()
	s := newServer(t, StaticRunner(answer), opts...)
	body := serve(t, s, rpcBody(A2A10, false))
	var reply rpcReply
	if err := json.Unmarshal(body, &reply); err != nil {
		t.Fatalf("reply %s: %v", body, err)
	}
	return partsMessages(t, replyParts(t, reply))
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
			pp, err := parser.ParseResponse(tt.answer)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, p := range pp {
				n += len(p.Messages)
			}
			if len(want) != n {
				t.Fatalf("whole reply has %d messages, the answer %d: the case is broken", len(want), n)
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

// TestStreamRepairOnlyWithDefaultParser checks that, as whole replies,
// streamed replies are repaired only with the default parser: with parser
// options the block needing a repair is dropped, as the non-streamed reply
// falls back to the answer's text.
func TestStreamRepairOnlyWithDefaultParser(t *testing.T) {
	answer := repairAnswers[0].answer
	if msgs, _ := streamedReply(t, []string{answer}, WithParserOptions(parser.WithFraming(parser.FramingTags))); len(msgs) != 0 {
		t.Fatalf("messages %q, want the block dropped", msgs)
	}
	if got, _ := streamedReply(t, []string{answer}); len(got) != 1 {
		t.Fatalf("default parser: messages %q, want one", got)
	}
}

// closedBlocks reports whether every <a2ui-json> of answer is closed before
// the next one opens, and the last one is closed.
func closedBlocks(answer string) bool {
	for {
		i := strings.Index(answer, "<a2ui-json>")
		if i < 0 {
			return true
		}
		answer = answer[i+len("<a2ui-json>"):]
		j := strings.Index(answer, "</a2ui-json>")
		if j < 0 || strings.Contains(answer[:j], "<a2ui-json>") {
			return false
		}
		answer = answer[j+len("</a2ui-json>"):]
	}
}

// TestRepairWithParserOptions checks that parser options that include
// parser.WithPayloadRepair repair both streamed and whole replies, which
// then carry the same messages.
func TestRepairWithParserOptions(t *testing.T) {
	answer := repairAnswers[0].answer
	opt := WithParserOptions(parser.WithPayloadRepair())
	whole, _ := wholeReply(t, answer, opt)
	streamed, _ := streamedReply(t, []string{answer[:20], answer[20:]}, opt)
	if len(whole) != 1 || strings.Join(streamed, "\n") != strings.Join(whole, "\n") {
		t.Fatalf("streamed %q, whole %q: want the same one message", streamed, whole)
	}
}
