package parser

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestPayloadRepairer checks what the repairer passes on for each chunk of
// a block's content: the repaired bytes at once, and only what decides a
// repair held back until the next chunk or the block's end. It also checks
// that every split of the content in two gives the same bytes as one
// chunk, and that a block after end starts afresh.
func TestPayloadRepairer(t *testing.T) {
	spaces := strings.Repeat(" \n", 2<<10+1) // past any small bound
	tests := []struct {
		name    string
		chunks  []string
		want    []string // the output of each feed
		wantEnd string
	}{
		{name: "smart_quotes",
			chunks: []string{"[{“a”: “It’s”}]"}, want: []string{`[{"a": "It's"}]`}},
		{name: "ascii_quote_in_smart_string_escaped",
			chunks: []string{`{“a”: “say "hi"”}`}, want: []string{`{"a": "say \"hi\""}`}},
		{name: "smart_quotes_in_ascii_string_stay",
			chunks: []string{`{"a": "“hi” \"”"}`}, want: []string{`{"a": "“hi” \"”"}`}},
		{name: "trailing_commas_dropped",
			chunks: []string{"[{\"a\":1,},\n]"}, want: []string{"[{\"a\":1}\n]"}},
		{name: "comma_in_string_kept",
			chunks: []string{`{"a":"x,}",}`}, want: []string{`{"a":"x,}"}`}},
		{name: "comma_waits_for_next_byte",
			chunks: []string{`[{"a":1},`, " \n", "]"},
			want:   []string{`[{"a":1}`, " \n", "]"}},
		{name: "comma_kept_before_a_value",
			chunks: []string{`[{"a":1},`, `{"b":2}]`},
			want:   []string{`[{"a":1}`, `,{"b":2}]`}},
		{name: "comma_set_down_after_the_whitespace",
			chunks: []string{`[{"a":1},`, " \n", "\t{}]"},
			want:   []string{`[{"a":1}`, " \n", "\t,{}]"}},
		{name: "trailing_comma_dropped_after_long_whitespace",
			chunks: []string{`[{"a":1,`, spaces, "}", spaces, "]"},
			want:   []string{`[{"a":1`, spaces, "}", spaces, "]"}},
		{name: "comma_before_a_split_character",
			chunks: []string{`{"a":1, `, "\xe2\x80", "\x9cb\xe2\x80\x9d:2}"},
			want:   []string{`{"a":1 `, ",", `"b":2}`}},
		{name: "split_smart_quote_waits",
			chunks: []string{"[{\xe2\x80", "\x9ca\xe2", "\x80\x9d:1}]"},
			want:   []string{"[{", `"a`, `":1}]`}},
		{name: "other_split_character_waits_too",
			chunks: []string{"[{\"\xc3", "\xa9\":1}]"}, want: []string{"[{\"", "\xc3\xa9\":1}]"}},
		{name: "escape_across_chunks",
			chunks: []string{`{“a”: “x\`, `"”}`}, want: []string{`{"a": "x\`, `""}`}},
		{name: "fence_marker_verbatim",
			chunks: []string{"```json “a”, ‘b’\n[{“c”:1},]\n```\n"},
			want:   []string{"```json “a”, ‘b’\n[{\"c\":1}]\n```\n"}},
		{name: "fence_marker_ends_at_bracket",
			chunks: []string{"```“j”[{“c”:1}]```"},
			want:   []string{"```“j”[{\"c\":1}]```"}},
		{name: "unicode_spaces_around_the_value_become_ascii",
			chunks: []string{"\u00a0\v[{\"a\":\"\u00a0\"}]\u2028\f", "\xe3\x80", "\x80"},
			want:   []string{"  [{\"a\":\"\u00a0\"}]  ", "", " "}},
		{name: "unicode_spaces_inside_the_value_stay",
			chunks: []string{"[\u00a0{\"a\":\v1}\u3000]"}, want: []string{"[\u00a0{\"a\":\v1}\u3000]"}},
		{name: "end_returns_held_comma",
			chunks: []string{`[1, `}, want: []string{`[1 `}, wantEnd: ","},
		{name: "end_returns_held_character",
			chunks: []string{"[\xe2\x80"}, want: []string{"["}, wantEnd: "\xe2\x80"},
		{name: "end_inside_a_smart_string",
			chunks: []string{"{“a"}, want: []string{`{"a`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r payloadRepairer
			for i, c := range tt.chunks {
				if got := string(r.feed([]byte(c))); got != tt.want[i] {
					t.Fatalf("feed %d (%q) = %q, want %q", i, c, got, tt.want[i])
				}
			}
			if got := string(r.end()); got != tt.wantEnd {
				t.Fatalf("end = %q, want %q", got, tt.wantEnd)
			}
			// The next block starts afresh: outside strings, no comma
			// pending, at depth 0.
			if got := string(r.feed([]byte("\u00a0{“b”:1,}"))); got != ` {"b":1}` {
				t.Fatalf("next block = %q, want %q", got, ` {"b":1}`)
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

// repairChunks runs chunks of one block's content through a new repairer
// and returns all it passed on, the held bytes at the end included.
func repairChunks(chunks ...string) string {
	var r payloadRepairer
	var sb strings.Builder
	for _, c := range chunks {
		sb.Write(r.feed([]byte(c)))
	}
	sb.Write(r.end())
	return sb.String()
}

// TestWithPayloadRepairFraming checks, through the parser, what the framing
// decides: the repair touches block content only, under every framing; a
// block ends at its close tag even inside a string (as without the
// option), and a comma or character the repairer holds at a block's end
// goes to that block.
func TestWithPayloadRepairFraming(t *testing.T) {
	tests := []struct {
		name    string
		framing Framing
		chunks  []string
		want    []string // T:text and M:message, as partsText renders them
		wantErr bool
	}{
		{name: "prose_untouched", chunks: []string{"He said “hi”, ‘ok’, [a,]"},
			want: []string{"T:He said “hi”, ‘ok’, [a,]"}},
		{name: "split_tags", chunks: []string{"“x” <a2ui-js", "on>[{“a”:1}]</a2ui", "-json> “y”"},
			want: []string{"T:“x” ", "M:{\"a\":1}", "T: “y”"}},
		{name: "close_tag_in_a_string_ends_the_block",
			chunks:  []string{`<a2ui-json>[{"a":"</a2ui-json> “x”, <a2ui-json>[{“y”:1},]</a2ui-json>`},
			want:    []string{"T: “x”, ", `M:{"y":1}`},
			wantErr: true},
		{name: "state_resets_at_each_block",
			chunks:  []string{`<a2ui-json>{“a`, `</a2ui-json> “t” <a2ui-json>{“b”:1,}</a2ui-json>`},
			want:    []string{"T: “t” ", `M:{"b":1}`},
			wantErr: true},
		{name: "comma_held_at_the_block_end_stays_in_it",
			chunks: []string{`<a2ui-json>[{"a":1}, `, "</a2ui-json>, ]"},
			want:   []string{`M:{"a":1}`, "T:, ]"}},
		{name: "fences_framing", framing: FramingFences,
			chunks: []string{"Hi “x”\n```a2ui\n[{“a”: “b’s”},]\n```\n"},
			want:   []string{"T:Hi “x”\n", `M:{"a": "b's"}`}},
		{name: "jsonl_framing", framing: FramingJSONL,
			chunks: []string{"{“a”:1,}\n{“b”", ":2}\n"},
			want:   []string{`M:{"a":1}`, `M:{"b":2}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts, err := feedRepaired(tt.chunks, WithFraming(tt.framing))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			var got []string
			for _, x := range partsText(parts) {
				if x != "T:" {
					got = append(got, x)
				}
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Fatalf("parts %q, want %q", got, tt.want)
			}
		})
	}
}

// repairAnswers are model answers whose blocks need the payload fixer's
// repairs, and one that needs none.
var repairAnswers = []string{
	"Hi <a2ui-json>[{“version”: “v0.9”, “deleteSurface”: {“surfaceId”: “s”}}]</a2ui-json> bye",
	`Note <a2ui-json>[{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/t","value":"It’s ‘fine’"}}]</a2ui-json>`,
	`<a2ui-json>{“version”: “v0.9”, “updateDataModel”: {“surfaceId”: “s”, “path”: “/q”, “value”: “say "hi" ok”}}</a2ui-json>`,
	"Form: <a2ui-json>[{\"version\":\"v0.9\",\"deleteSurface\":{\"surfaceId\":\"s\",},} ,\n\t]</a2ui-json> done",
	"Here:\n<a2ui-json>\n```json “fence”, ‘info’\n[{“version”: “v0.9”, “deleteSurface”: {“surfaceId”: “s”},},]\n```\n</a2ui-json>\nok",
	"He said “look” <a2ui-json>[{“version”: “v0.9”, “createSurface”: {“surfaceId”: “s”, “catalogId”: “c”}}]</a2ui-json> and ‘then’, <a2ui-json>[{“version”: “v0.9”, “deleteSurface”: {“surfaceId”: “s”}}]</a2ui-json> “end”",
	"<a2ui-json>[{“beginRendering”: {“surfaceId”: “s”, “root”: “r”}}, {“surfaceUpdate”: {“surfaceId”: “s”, “components”: [{“id”: “r”, “component”: {“Text”: {“text”: {“literalString”: “It’s ”}}}}]}}]</a2ui-json>",
	`A <a2ui-json>[{"version":"v0.9","deleteSurface":{"surfaceId":"x"}}]</a2ui-json> B`,
	// Unicode spaces around the payload, which FixPayload trims.
	"Edge <a2ui-json>\u00a0[{“version”: “v0.9”, “deleteSurface”: {“surfaceId”: “s”}}]\u2028 </a2ui-json> end",
	"<a2ui-json>```json\n\u3000{\"version\":\"v0.9\",\"deleteSurface\":{\"surfaceId\":\"s\"}}\v\u0085\n```</a2ui-json>",
}

// TestWithPayloadRepair checks, for every answer split at every byte and
// fed one byte at a time, that a parser with WithPayloadRepair reads the
// repaired blocks without error in every mode, yields in complete mode the
// messages ParseResponse gives the answer whole, and passes the text
// outside the blocks unchanged.
func TestWithPayloadRepair(t *testing.T) {
	for i, answer := range repairAnswers {
		whole, err := ParseResponse(answer)
		if err != nil {
			t.Fatalf("answer %d: ParseResponse: %v", i, err)
		}
		want := repairedMessages(whole)
		if want == "" {
			t.Fatalf("answer %d: no message: the case is broken", i)
		}
		for _, mode := range []Mode{ModeComplete, ModeProgressive, ModeDelta} {
			check := func(how string, chunks []string) {
				t.Helper()
				parts, err := feedRepaired(chunks, WithMode(mode))
				if err != nil {
					t.Fatalf("answer %d, %s, %s: %v", i, mode, how, err)
				}
				// The progressive modes build their yields from what they
				// read (and skip, as the reference, messages about surfaces
				// never begun): they must read the repaired blocks without
				// error; complete mode must yield ParseResponse's messages.
				if got := repairedMessages(parts); mode == ModeComplete && got != want {
					t.Fatalf("answer %d, %s: messages\n%s\nwant\n%s", i, how, got, want)
				}
				if got, wantText := joinedText(parts), proseOf(answer); got != wantText {
					t.Fatalf("answer %d, %s, %s: text %q, want %q", i, mode, how, got, wantText)
				}
			}
			check("one chunk", []string{answer})
			for k := 1; k < len(answer); k++ {
				check("split", []string{answer[:k], answer[k:]})
			}
			bytewise := make([]string, len(answer))
			for k := 0; k < len(answer); k++ {
				bytewise[k] = answer[k : k+1]
			}
			check("one byte at a time", bytewise)
		}
	}
}

// TestWithPayloadRepairNeeded checks that without the option a block
// needing a repair fails, and with it yields its message.
func TestWithPayloadRepairNeeded(t *testing.T) {
	parts, err := feedRepaired([]string{repairAnswers[0]})
	if err != nil || repairedMessages(parts) == "" {
		t.Fatalf("with the option: %v, %q", err, repairedMessages(parts))
	}
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Feed([]byte(repairAnswers[0])); err == nil {
		t.Fatal("without the option the smart-quoted block parsed")
	}
}

// FuzzPayloadRepair checks, for any answer split anywhere, that the
// repairer never panics and passes on the same bytes however a block's
// content is chunked; that a parser with WithPayloadRepair yields the
// text of a parser without it (the repair touches block content only);
// and that when the whole answer parses with ParseResponse and its blocks
// are closed (ParseResponse reads an unclosed block as text), the
// repairing parser fed the two chunks yields the same messages, without
// error unless past the depth limit, which ParseResponse does not have.
func FuzzPayloadRepair(f *testing.F) {
	for _, a := range repairAnswers {
		f.Add(a, uint16(len(a)/2))
	}
	for _, s := range []string{
		"<a2ui-json>[{“a”: “b”},]</a2ui-json>", "<a2ui-json>{“a”: “x\\”}</a2ui-json>",
		"<a2ui-json>```“j”\n[{‘a’:1}]```</a2ui-json>", "<a2ui-json>[\xe2\x80", "a <a2ui-json>[1,", "<a2ui-json>{\"a\":\"</a2ui-json>\"}",
		"<a2ui-json>\u00a0{“a”: [1,]}\u2028\n```</a2ui-json>",
	} {
		f.Add(s, uint16(3))
	}
	f.Fuzz(func(t *testing.T, answer string, at uint16) {
		k := int(at) % (len(answer) + 1)
		if got, want := repairChunks(answer[:k], answer[k:]), repairChunks(answer); got != want {
			t.Fatalf("split at %d: %q, want %q", k, got, want)
		}
		parts, err := feedRepaired([]string{answer[:k], answer[k:]})
		plain, _ := feedPlain([]string{answer[:k], answer[k:]})
		if got, want := joinedText(parts), joinedText(plain); got != want {
			t.Fatalf("text %q, want %q as without the option", got, want)
		}
		whole, werr := ParseResponse(answer)
		if werr != nil || !closedBlocks(answer) || errors.Is(err, ErrTooDeep) {
			return
		}
		if err != nil {
			t.Fatalf("streamed: %v; the whole answer parses to\n%s", err, repairedMessages(whole))
		}
		if got, want := repairedMessages(parts), repairedMessages(whole); got != want {
			t.Fatalf("streamed messages\n%s\nwant the whole answer's\n%s", got, want)
		}
	})
}

// feedRepaired feeds chunks to a new parser with WithPayloadRepair (and
// opts) and returns all it yielded, Close included, and the first error.
func feedRepaired(chunks []string, opts ...Option) ([]Part, error) {
	return feedPlain(chunks, append(opts, WithPayloadRepair())...)
}

// feedPlain feeds chunks to a new parser with opts and returns all it
// yielded, Close included, and the first error.
func feedPlain(chunks []string, opts ...Option) ([]Part, error) {
	p, err := New(opts...)
	if err != nil {
		return nil, err
	}
	var all []Part
	var first error
	for _, c := range chunks {
		parts, err := p.Feed([]byte(c))
		all = append(all, parts...)
		if first == nil {
			first = err
		}
	}
	parts, err := p.Close()
	if first == nil {
		first = err
	}
	return append(all, parts...), first
}

// repairedMessages joins the messages of parts, one per line, compact (the
// repairer may move whitespace within a message).
func repairedMessages(parts []Part) string {
	var sb strings.Builder
	for _, m := range partsMessages(parts) {
		var b bytes.Buffer
		if err := json.Compact(&b, m); err != nil {
			b.Reset()
			b.Write(m)
		}
		sb.Write(b.Bytes())
		sb.WriteByte('\n')
	}
	return sb.String()
}

// partsMessages returns the messages of parts, in order.
func partsMessages(parts []Part) []json.RawMessage {
	var msgs []json.RawMessage
	for _, p := range parts {
		msgs = append(msgs, p.Messages...)
	}
	return msgs
}

// joinedText joins the text of parts.
func joinedText(parts []Part) string {
	var sb strings.Builder
	for _, p := range parts {
		sb.WriteString(p.Text)
	}
	return sb.String()
}

// proseOf is answer without its closed <a2ui-json> blocks.
func proseOf(answer string) string {
	var sb strings.Builder
	for {
		i := strings.Index(answer, string(tagOpen))
		if i < 0 {
			break
		}
		j := strings.Index(answer[i:], string(tagClose))
		if j < 0 {
			break
		}
		sb.WriteString(answer[:i])
		answer = answer[i+j+len(tagClose):]
	}
	sb.WriteString(answer)
	return sb.String()
}

// closedBlocks reports whether every <a2ui-json> of answer is closed before
// the next one opens.
func closedBlocks(answer string) bool {
	for {
		i := strings.Index(answer, string(tagOpen))
		if i < 0 {
			return true
		}
		answer = answer[i+len(tagOpen):]
		j := strings.Index(answer, string(tagClose))
		if j < 0 || strings.Contains(answer[:j], string(tagOpen)) {
			return false
		}
		answer = answer[j+len(tagClose):]
	}
}

// TestWithPayloadRepairCloseKeepsHeldBytes checks that Close passes on what
// the repairer still holds (a comma waiting for the next byte, part of a
// character): a stream that ends there fails as it does without the option
// (at Close rather than at Feed, for a held comma).
func TestWithPayloadRepairCloseKeepsHeldBytes(t *testing.T) {
	tests := []struct {
		name string
		mode Mode
		in   string
	}{
		{name: "truncated_character_in_a_healed_string", mode: ModeProgressive,
			in: `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"ab` + "\xc3"},
		{name: "comma_after_a_single_object", mode: ModeComplete,
			in: `<a2ui-json>{"version":"v0.9","deleteSurface":{"surfaceId":"s"}},`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errOf := func(opts ...Option) string {
				p, err := New(append(opts, WithMode(tt.mode))...)
				if err != nil {
					t.Fatal(err)
				}
				var errs []string
				if _, err := p.Feed([]byte(tt.in)); err != nil {
					errs = append(errs, err.Error())
				}
				if _, err := p.Close(); err != nil {
					errs = append(errs, err.Error())
				}
				if len(errs) == 0 {
					t.Fatal("no error: the case is broken")
				}
				return strings.Join(errs, "; ")
			}
			if got, want := errOf(WithPayloadRepair()), errOf(); got != want {
				t.Fatalf("with the option: %s\nwant, as without: %s", got, want)
			}
		})
	}
}

// TestWithPayloadRepairKeepsNoChunk checks that the parser keeps nothing of
// the repairer's output, a buffer the repairer reuses at the next call:
// call by call, in every mode, with owned and borrowed output, a parser
// with WithPayloadRepair returns what the same parser returns when its
// repairer gets new buffers at every call (parts, their text and
// messages, errors), and that owned output does not change afterwards.
func TestWithPayloadRepairKeepsNoChunk(t *testing.T) {
	stream := "intro “a” <a2ui-json>[" +
		`{“version”:“v0.9”,“createSurface”:{“surfaceId”:“s”,“catalogId”:“c”},},` +
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["a","b",]},` +
		`{"id":"a","component":"Text","text":“hello "there" it’s”},{"id":"b","component":"Text","text":"again"}]}}` +
		"]</a2ui-json> middle <a2ui-json>[" +
		`{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/x","value":{"k":“v”,"n":1,  },}}, ` +
		"]</a2ui-json> bad <a2ui-json>[{“a”: x}]</a2ui-json> end <a2ui-json>\u00a0[{“version”:“v0.9”,“updateDataModel”:" +
		"{“surfaceId”:“s”,“path”:“/y”,“value”:“long string ‘q’ é”}}"
	render := func(parts []Part, err error) string {
		var sb strings.Builder
		for _, p := range parts {
			sb.WriteString("T:" + p.Text + "\n")
			for _, m := range p.Messages {
				sb.WriteString("M:" + string(m) + "\n")
			}
		}
		if err != nil {
			sb.WriteString("E:" + err.Error())
		}
		return sb.String()
	}
	for _, in := range append([]string{stream}, repairAnswers...) {
		for _, mode := range []Mode{ModeComplete, ModeProgressive, ModeDelta} {
			for _, borrow := range []bool{false, true} {
				for _, size := range []int{1, 2, 3, 7, 64, len(in)} {
					opts := []Option{WithMode(mode)}
					if borrow {
						opts = append(opts, WithBorrowedOutput())
					}
					repairing, err := New(append(opts, WithPayloadRepair())...)
					if err != nil {
						t.Fatal(err)
					}
					fresh, err := New(append(opts, WithPayloadRepair())...)
					if err != nil {
						t.Fatal(err)
					}
					var kept []Part // owned output, rendered again at the end
					var rendered strings.Builder
					for i := 0; i < len(in); i += size {
						chunk := []byte(in[i:min(i+size, len(in))])
						parts, err := repairing.Feed(chunk)
						got := render(parts, err)
						fresh.repair.out, fresh.repair.scratch = nil, nil
						want := render(fresh.Feed(chunk))
						if got != want {
							t.Fatalf("%s, borrowed %v, chunks of %d, at byte %d of %q:\n%s\nwant\n%s", mode, borrow, size, i, in, got, want)
						}
						if !borrow {
							kept = append(kept, parts...)
							rendered.WriteString(render(parts, nil))
						}
					}
					if got := render(kept, nil); got != rendered.String() {
						t.Fatalf("%s, chunks of %d: owned output changed by later calls:\n%s\nwant\n%s", mode, size, got, rendered.String())
					}
				}
			}
		}
	}
}

// BenchmarkRepairV09Chunk16 measures what WithPayloadRepair costs the
// a2a server's streaming parser (complete mode, borrowed output) on the
// v0.9 corpus in 16-byte chunks; compare with the same parser without it.
func BenchmarkRepairV09Chunk16(b *testing.B) {
	b.Run("without", func(b *testing.B) {
		benchCorpus(b, "stream_v09.txt", ModeComplete, 16, WithBorrowedOutput())
	})
	b.Run("with", func(b *testing.B) {
		benchCorpus(b, "stream_v09.txt", ModeComplete, 16, WithBorrowedOutput(), WithPayloadRepair())
	})
}
