package frame

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// framing is a framing under test: a fresh split function (and its
// AllData predicate, if it has one), and the most bytes it may hold back
// between chunks.
type framing struct {
	name    string
	split   func() (SplitFunc, func([]byte) bool)
	maxHeld int
}

var (
	tagsFraming = framing{"tags", func() (SplitFunc, func([]byte) bool) {
		s := new(Tags)
		return s.Split, s.AllData
	}, len(TagClose) - 1}
	fencesFraming = framing{"fences", func() (SplitFunc, func([]byte) bool) { return new(Fences).Split, nil }, MaxFenceLine}
	linesFraming  = framing{"lines", func() (SplitFunc, func([]byte) bool) { return new(Lines).Split, nil }, 0}
	framings      = []framing{tagsFraming, fencesFraming, linesFraming}
)

// splitCase is a table case: an input and the tokens it frames to, as
// render writes them.
type splitCase struct {
	name string
	in   string
	want string
}

// feed runs a fresh split function of fr over the chunks as a caller that
// keeps bufio's contract does, checks the contract on every call, and
// renders the tokens. Where AllData says data is all block content, it
// checks that Split agrees.
func feed(t testing.TB, fr framing, chunks []string) string {
	t.Helper()
	split, allData := fr.split()
	total := 0
	for _, c := range chunks {
		total += len(c)
	}
	var (
		buf    []byte
		off    int // stream offset of buf[0]
		events []event
		calls  int
	)
	run := func(atEOF bool) {
		for len(buf) > 0 || atEOF {
			if calls++; calls > 4*total+16 {
				t.Fatalf("%s: no end after %d calls", fr.name, calls)
			}
			all := allData != nil && !atEOF && allData(buf)
			adv, tok := split(buf, atEOF)
			if all && (tok.Kind != Data || adv != len(buf)) {
				t.Fatalf("%s: AllData(%q) but Split returns %v of %d bytes", fr.name, buf, tok.Kind, adv)
			}
			if adv < 0 || adv > len(buf) {
				t.Fatalf("%s: advance %d out of [0, %d]", fr.name, adv, len(buf))
			}
			switch tok.Kind {
			case None:
				if adv != 0 || tok.Bytes != nil {
					t.Fatalf("%s: None with advance %d, bytes %q", fr.name, adv, tok.Bytes)
				}
				if atEOF && len(buf) > 0 {
					t.Fatalf("%s: None at EOF with %q left", fr.name, buf)
				}
				return
			case Text, Data:
				if adv == 0 || len(tok.Bytes) != adv || &tok.Bytes[0] != &buf[0] {
					t.Fatalf("%s: %v token %q is not data[:%d] of %q", fr.name, tok.Kind, tok.Bytes, adv, buf)
				}
			case Start, End:
				if tok.Bytes != nil {
					t.Fatalf("%s: %v token with bytes %q", fr.name, tok.Kind, tok.Bytes)
				}
			default:
				t.Fatalf("%s: token kind %d", fr.name, tok.Kind)
			}
			events = append(events, event{tok.Kind, string(tok.Bytes), off, off + adv})
			buf, off = buf[adv:], off+adv
		}
	}
	for _, c := range chunks {
		buf = append(buf, c...)
		run(false)
		if len(buf) > fr.maxHeld {
			t.Fatalf("%s: %d bytes held back, at most %d: %q", fr.name, len(buf), fr.maxHeld, buf)
		}
	}
	run(true)
	if off != total {
		t.Fatalf("%s: tokens cover %d bytes of %d", fr.name, off, total)
	}
	return render(events)
}

// event is a token as the caller sees it: its stream offsets from and to
// (where the next token starts).
type event struct {
	kind     Kind
	bytes    string
	from, to int
}

// render writes the events one per line, adjacent Text tokens and adjacent
// Data tokens merged (their split depends on the chunks): text "…", start
// @N (N: where the block content starts), data "…", end @N (N: where the
// closing markup starts). It checks that blocks alternate with prose.
func render(events []event) string {
	var b strings.Builder
	open := false
	for i := 0; i < len(events); i++ {
		e := events[i]
		switch e.kind {
		case Text, Data:
			s := e.bytes
			for i+1 < len(events) && events[i+1].kind == e.kind {
				i++
				s += events[i].bytes
			}
			if (e.kind == Data) != open {
				fmt.Fprintf(&b, "MISPLACED ")
			}
			fmt.Fprintf(&b, "%v %s\n", e.kind, strconv.Quote(s))
		case Start:
			if open {
				b.WriteString("MISPLACED ")
			}
			open = true
			fmt.Fprintf(&b, "start @%d\n", e.to)
		case End:
			if !open {
				b.WriteString("MISPLACED ")
			}
			open = false
			fmt.Fprintf(&b, "end @%d\n", e.from)
		}
	}
	if open {
		b.WriteString("UNCLOSED\n")
	}
	return b.String()
}

// checkEverySplit checks that in framed whole, split in two at every byte,
// and fed one byte at a time gives want.
func checkEverySplit(t *testing.T, fr framing, in, want string) {
	t.Helper()
	if got := feed(t, fr, []string{in}); got != want {
		t.Fatalf("whole:\n%s\nwant:\n%s", got, want)
	}
	for i := 0; i <= len(in); i++ {
		if got := feed(t, fr, []string{in[:i], in[i:]}); got != want {
			t.Fatalf("split at %d:\n%s\nwant:\n%s", i, got, want)
		}
	}
	bytes := make([]string, len(in))
	for i := 0; i < len(in); i++ {
		bytes[i] = in[i : i+1]
	}
	if got := feed(t, fr, bytes); got != want {
		t.Fatalf("one byte at a time:\n%s\nwant:\n%s", got, want)
	}
}

// runCases runs a framing's table.
func runCases(t *testing.T, fr framing, cases []splitCase) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			checkEverySplit(t, fr, tc.in, strings.TrimPrefix(tc.want, "\n"))
		})
	}
}
