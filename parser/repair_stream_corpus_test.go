package parser

import (
	"strings"
	"testing"
)

// damage gives the blocks of answer the defects the payload fixer repairs:
// every string delimited by typographic double quotes, every apostrophe in
// a string typographic, a trailing comma (and whitespace) before every
// closing brace or bracket of a non-empty container, and a Unicode space
// on each side of the block's JSON.
func damage(answer string) string {
	open, closeTag := string(tagOpen), string(tagClose)
	var b strings.Builder
	inBlock, inString, escaped := false, false, false
	var last byte // the last byte outside strings that is not whitespace
	for i := 0; i < len(answer); i++ {
		switch {
		case !inBlock && strings.HasPrefix(answer[i:], open):
			b.WriteString(open + "\u00a0")
			i += len(open) - 1
			inBlock, last = true, 0
			continue
		case inBlock && !inString && strings.HasPrefix(answer[i:], closeTag):
			b.WriteString("\u2028" + closeTag)
			i += len(closeTag) - 1
			inBlock = false
			continue
		}
		c := answer[i]
		switch {
		case !inBlock:
			b.WriteByte(c)
		case escaped:
			escaped = false
			b.WriteByte(c)
		case inString && c == '\\':
			escaped = true
			b.WriteByte(c)
		case c == '"' && inString:
			b.WriteString("”")
			inString = false
		case c == '"':
			b.WriteString("“")
			inString = true
		case inString && c == '\'':
			b.WriteString("’")
		case !inString && (c == '}' || c == ']') && last != '{' && last != '[':
			b.WriteString(", \n")
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
		if !inString && c != ' ' && c != '\n' && c != '\t' && c != '\r' {
			last = c
		}
	}
	return b.String()
}

// TestWithPayloadRepairCorpus damages the blocks of every answer of the
// corpus streams (see damage) and checks that ParseResponse repairs them,
// that a parser with WithPayloadRepair yields the same messages without
// error at several chunk sizes, and that in one chunk the progressive
// modes yield what they yield for the undamaged answer.
func TestWithPayloadRepairCorpus(t *testing.T) {
	t.Parallel() // long: runs beside the other long tests, after the sequential ones (the heap measurements among them)
	for _, name := range []string{"stream_v09", "stream_v08"} {
		turns := corpusTurns(t, name)
		for n, b := range turns {
			undamaged := string(b)
			answer := damage(undamaged)
			if answer == undamaged {
				t.Fatalf("%s turn %d: damage changed nothing", name, n)
			}
			whole, err := ParseResponse(answer)
			if err != nil {
				t.Fatalf("%s turn %d: ParseResponse: %v", name, n, err)
			}
			want := repairedMessages(whole)
			for _, size := range []int{1, 7, 64, len(answer)} {
				var chunks []string
				for s := answer; len(s) > 0; s = s[min(size, len(s)):] {
					chunks = append(chunks, s[:min(size, len(s))])
				}
				parts, err := feedRepaired(chunks)
				if err != nil {
					t.Fatalf("%s turn %d, chunks of %d: %v", name, n, size, err)
				}
				if got := repairedMessages(parts); got != want {
					t.Fatalf("%s turn %d, chunks of %d: messages\n%s\nwant\n%s", name, n, size, got, want)
				}
			}
			for _, mode := range []Mode{ModeProgressive, ModeDelta} {
				got, err := feedRepaired([]string{answer}, WithMode(mode))
				if err != nil {
					t.Fatalf("%s turn %d, %s: %v", name, n, mode, err)
				}
				base, err := feedRepaired([]string{undamaged}, WithMode(mode))
				if err != nil {
					t.Fatalf("%s turn %d, %s, undamaged: %v", name, n, mode, err)
				}
				if a, b := repairedMessages(got), repairedMessages(base); a != b {
					t.Fatalf("%s turn %d, %s: yields\n%s\nwant the undamaged answer's\n%s", name, n, mode, a, b)
				}
			}
		}
	}
}
