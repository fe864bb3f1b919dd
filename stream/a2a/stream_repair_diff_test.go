package a2a

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/parser"
)

// answerGen writes model answers from the grammar of model output: prose
// (typographic quotes, commas, backticks, stray '<' and tag pieces) around
// <a2ui-json> blocks whose payloads have the defects the payload fixer
// repairs (typographic string quotes, trailing commas) in random places,
// escapes, markdown fences and multi-byte characters.
type answerGen struct {
	r *rand.Rand
	b strings.Builder
	// longSpace lets whitespace runs pass 4 KiB now and then.
	longSpace bool
	// plain keeps str from adding characters to its words: for the keys
	// and the version and surface of a message, which the server's
	// processor checks.
	plain bool
}

func (g *answerGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g *answerGen) space() {
	if g.longSpace && g.r.IntN(40) == 0 {
		g.b.WriteString(strings.Repeat(g.pick(" ", "\n", "\t "), 4<<10+g.r.IntN(8)-3))
		return
	}
	for n := g.r.IntN(4); n > 0; n-- {
		g.b.WriteString(g.pick("", " ", "\n", "\t", "\r\n", "  "))
	}
}

// edgeSpace writes, now and then, a Unicode space that the payload fixer
// trims from the ends of a payload (it is there just inside the JSON's
// ends, or by a fence marker).
func (g *answerGen) edgeSpace() {
	if g.r.IntN(6) == 0 {
		g.b.WriteString(g.pick("\u00a0", "\u2028", "\u3000 ", "\v", "\u0085"))
	}
}

func (g *answerGen) prose() {
	for n := g.r.IntN(6); n > 0; n-- {
		g.b.WriteString(g.pick("Hi", " ", "here is", ",", "“quoted”", "‘x’", "it’s", "`code`", "```", "<", "<<", "<a2ui", "<a2ui-json", "</a2ui-json>", "\n", "é", "\\", "\"", "日本", "[1,]", "{"))
	}
}

// str writes a JSON string delimited by ASCII or typographic quotes.
func (g *answerGen) str(words ...string) {
	smart := g.r.IntN(2) == 0
	if smart {
		g.b.WriteString(g.pick("“", "”"))
	} else {
		g.b.WriteByte('"')
	}
	for _, w := range words {
		g.b.WriteString(w)
	}
	for n := g.r.IntN(4); n > 0 && !g.plain; n-- {
		if g.r.IntN(200) == 0 {
			// Invalid UTF-8: a stray byte, a cut typographic quote.
			g.b.WriteString(g.pick("\xff", "\xe2\x80", "\x80\x9c", "\xc3"))
			continue
		}
		if smart {
			g.b.WriteString(g.pick("a", " ", ",", ",}", ",]", "’", "‘", `"`, `\\`, `\"`, `\n`, `\u00e9`, "é", "日", "`", "```", "<", "</a2ui", "<</a2ui-json", "{", "[", "\u2028"))
		} else {
			g.b.WriteString(g.pick("a", " ", ",", ",}", ",]", "’", "‘", "“", "”", `\\`, `\"`, `\n`, `\u201c`, "é", "日", "`", "```", "<", "</a2ui-json", "<a2ui-json>", "{", "["))
		}
	}
	if smart {
		g.b.WriteString("”")
	} else {
		g.b.WriteByte('"')
	}
}

// sep writes a separator comma with whitespace around it.
func (g *answerGen) sep() {
	g.space()
	g.b.WriteByte(',')
	g.space()
}

// trailing writes, now and then, a trailing comma the fixer drops.
func (g *answerGen) trailing() {
	if g.r.IntN(3) == 0 {
		g.space()
		g.b.WriteByte(',')
	}
	g.space()
}

func (g *answerGen) value(depth int) {
	switch k := g.r.IntN(6); {
	case k == 0 || depth > 2:
		g.str()
	case k == 1:
		g.b.WriteString(g.pick("1", "-2.5e3", "true", "null", "0"))
	case k == 2:
		g.b.WriteByte('[')
		g.space()
		for i, n := 0, g.r.IntN(3); i < n; i++ {
			if i > 0 {
				g.sep()
			}
			g.value(depth + 1)
		}
		g.trailing()
		g.b.WriteByte(']')
	default:
		g.b.WriteByte('{')
		g.space()
		for i, n := 0, g.r.IntN(3); i < n; i++ {
			if i > 0 {
				g.sep()
			}
			g.str("k", string(rune('a'+i)))
			g.space()
			g.b.WriteByte(':')
			g.space()
			g.value(depth + 1)
		}
		g.trailing()
		g.b.WriteByte('}')
	}
}

// plainStr writes a JSON string holding words only.
func (g *answerGen) plainStr(words ...string) {
	g.plain = true
	g.str(words...)
	g.plain = false
}

// key writes a message's object key and its colon.
func (g *answerGen) key(k string) {
	g.plainStr(k)
	g.b.WriteByte(':')
}

// member writes a member whose value is a string holding v only, and a
// separator.
func (g *answerGen) member(k, v string) {
	g.key(k)
	g.plainStr(v)
	g.sep()
}

func (g *answerGen) message() {
	g.b.WriteByte('{')
	g.space()
	g.member("version", "v0.9")
	g.key("updateDataModel")
	g.space()
	g.b.WriteByte('{')
	g.member("surfaceId", "s")
	g.key("path")
	g.str("/v")
	g.sep()
	g.key("value")
	g.space()
	g.value(0)
	g.trailing()
	g.b.WriteByte('}')
	g.trailing()
	g.b.WriteByte('}')
}

func (g *answerGen) block() {
	g.b.WriteString("<a2ui-json>")
	g.space()
	fence := g.r.IntN(3) == 0
	if fence {
		g.b.WriteString(g.pick("```json\n", "```\n", "```json ", "`", "```a2ui “x”, ‘y’\n", "```"))
	}
	g.edgeSpace()
	if g.r.IntN(4) == 0 {
		g.message()
	} else {
		g.b.WriteByte('[')
		g.space()
		for i, n := 0, 1+g.r.IntN(3); i < n; i++ {
			if i > 0 {
				g.sep()
			}
			g.message()
		}
		g.trailing()
		g.b.WriteByte(']')
	}
	g.edgeSpace()
	g.space()
	if fence {
		g.b.WriteString(g.pick("```", "\n```", "`", "```\n"))
		g.space()
	}
	g.b.WriteString("</a2ui-json>")
}

// answer writes a whole answer. Its blocks are closed: a block left open
// at the end is text to parser.ParseResponse but a block to a stream
// parser, which may end with the stream. It starts with a block creating
// the surface that the messages update (the server's processor rejects
// updates of a surface the session never created).
func (g *answerGen) answer() string {
	g.b.Reset()
	g.b.WriteString(createS)
	g.prose()
	for n := 1 + g.r.IntN(3); n > 0; n-- {
		g.block()
		g.prose()
	}
	return g.b.String()
}

// randomChunks cuts s at random places, now and then one byte at a time.
func randomChunks(r *rand.Rand, s string) []string {
	var chunks []string
	bytewise := r.IntN(8) == 0
	for len(s) > 0 {
		n := 1
		if !bytewise {
			n = 1 + r.IntN(min(len(s), 24))
			if r.IntN(10) == 0 {
				n = len(s)
			}
		}
		chunks = append(chunks, s[:n])
		s = s[n:]
	}
	return chunks
}

// checkStreamedAsWhole streams answer in chunks through the HTTP handler
// with opts and fails unless the streamed events carry exactly the
// messages of the non-streamed reply, the answer's prose, and the whole
// reply's prose but for whitespace (see noSpace). An answer none of whose blocks parsed
// is answered whole with the fallback text: then only the streamed prose
// is checked.
func checkStreamedAsWhole(t *testing.T, answer string, chunks []string, opts ...Option) {
	t.Helper()
	want, wantText := wholeReply(t, answer, opts...)
	got, text := streamedReply(t, chunks, opts...)
	fellBack := len(want) == 0 && wantText == answer && strings.Contains(answer, "<a2ui-json>")
	if !fellBack && strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("answer %.2000q\n(%d chunks)\nstreamed messages\n%s\nwant the whole reply's\n%s", answer, len(chunks), strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if fellBack && len(got) != 0 {
		t.Fatalf("answer %.2000q\nwhole reply fell back to the text, but the stream carries messages %q", answer, got)
	}
	if wantProse := proseOf(answer); text != wantProse && closedBlocks(answer) {
		t.Fatalf("answer %.2000q\n(%d chunks)\nstreamed text %.2000q, want %.2000q", answer, len(chunks), text, wantProse)
	}
	if !fellBack && noSpace(text) != noSpace(wantText) {
		t.Fatalf("answer %.2000q\n(%d chunks)\nstreamed text %.2000q, whole reply's %.2000q", answer, len(chunks), text, wantText)
	}
}

// noSpace is s without its whitespace: the whole reply trims the prose
// around each block, and its text parts are joined without a separator.
func noSpace(s string) string { return strings.Join(strings.Fields(s), "") }

// FuzzStreamedReplyAsWhole feeds answers built from the grammar of model
// output, at random chunkings, through the real HTTP handler (status and
// artifact events, messages one per part and grouped) and checks that the
// streamed reply carries the messages of the whole one.
func FuzzStreamedReplyAsWhole(f *testing.F) {
	for i := range uint64(16) {
		f.Add(i, i*7919, false)
	}
	f.Add(uint64(3), uint64(1), true)
	f.Fuzz(func(t *testing.T, seed, cut uint64, long bool) {
		g := &answerGen{r: rand.New(rand.NewPCG(seed, 1)), longSpace: long}
		answer := g.answer()
		r := rand.New(rand.NewPCG(cut, 2))
		optSets := [][]Option{nil, {WithArtifactEvents(true)}, {WithGroupedMessages(true)}}
		opts := optSets[r.IntN(len(optSets))]
		checkStreamedAsWhole(t, answer, randomChunks(r, answer), opts...)
	})
}

// TestStreamedReplyAsWholeRandom runs the differential check of
// FuzzStreamedReplyAsWhole on a fixed set of generated answers, so that
// every go test covers it.
func TestStreamedReplyAsWholeRandom(t *testing.T) {
	parsed, messages := 0, 0
	for seed := range uint64(400) {
		g := &answerGen{r: rand.New(rand.NewPCG(seed, 1)), longSpace: seed%5 == 0}
		answer := g.answer()
		if _, err := parser.ParseResponse(answer); err == nil {
			parsed++
		}
		if msgs, _ := wholeReply(t, answer); len(msgs) > 1 {
			messages++
		}
		r := rand.New(rand.NewPCG(seed, 2))
		checkStreamedAsWhole(t, answer, randomChunks(r, answer))
		checkStreamedAsWhole(t, answer, randomChunks(r, answer), WithArtifactEvents(true), WithGroupedMessages(true))
	}
	// The generator must give answers that parse, and whose updates the
	// processor applies, or the check checks nothing.
	if parsed < 100 || messages < 100 {
		t.Fatalf("only %d of 400 generated answers parse whole, %d send an update", parsed, messages)
	}
}

// TestStreamedReplyLongSpaceAfterComma checks that a trailing comma
// followed by more whitespace than a chunk (or than any bound) is dropped
// from a streamed reply as from a whole one, however the answer is
// chunked (inside a message the kept comma would make the block fail),
// and that a comma kept before whitespace gives the same message.
func TestStreamedReplyLongSpaceAfterComma(t *testing.T) {
	for _, n := range []int{1, 4 << 10, 64 << 10} {
		space := strings.Repeat(" \n\t", n/3+1)
		answer := "A <a2ui-json>[{\"version\":\"v0.9\"," + space + "\"deleteSurface\":{\"surfaceId\":\"s\"," + space +
			"}}," + space + "{“version”:“v0.9”,“deleteSurface”:{“surfaceId”:“t”}}," + space + "]</a2ui-json> B"
		for _, size := range []int{1, 7, 4 << 10, len(answer)} {
			var chunks []string
			for s := answer; len(s) > 0; {
				k := min(size, len(s))
				chunks = append(chunks, s[:k])
				s = s[k:]
			}
			t.Run(strconv.Itoa(len(space))+"_spaces_chunks_of_"+strconv.Itoa(size), func(t *testing.T) {
				want, _ := wholeReply(t, answer)
				if len(want) != 2 {
					t.Fatalf("whole reply %q: the case is broken", want)
				}
				got, text := streamedReply(t, chunks)
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Fatalf("streamed messages\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
				if text != "A  B" {
					t.Fatalf("streamed text %q", text)
				}
			})
		}
	}
}
