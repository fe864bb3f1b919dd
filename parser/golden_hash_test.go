package parser

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// Golden hashes pin down the parser's output byte for byte, so that a
// rewrite of the engine (issue 15) can be checked against the engine it
// replaces: every turn of both corpora and every case of the streaming
// conformance suite, in every mode, at several chunk sizes, with
// WithListEnds off and on, owned output (the default). The files under
// testdata/golden_hashes hold only SHA-256 hashes of a canonical rendering
// (goldenRender); `go test -run TestGoldenHashes -update` rewrites them
// (-update alone, for the package's other golden files, does not), and `-golden.dump DIR` writes the renderings behind the per-turn and
// per-case hashes to DIR, to diff two trees' output where a hash differs.
//
// The keys of a corpus file (testdata/golden_hashes/CORPUS.MODE.txt, and
// CORPUS_fences.MODE.txt, CORPUS_jsonl.MODE.txt for the corpus rewritten
// to those framings as golden_hash_framing_test.go says, and parsed with
// them):
//
//	turns=A-B chunk=N listends=off|on   turns A to B (groups of 25), each
//	                                    fed to a fresh parser in N-byte
//	                                    chunks, then Close, rendered one
//	                                    after the other ("turn I\n" before
//	                                    each)
//	turn=I chunk=16                     turn I alone, listends off
//
// The files hold the whole matrix (every turn at 1, 7, 16 and 256 bytes);
// a run checks part of it unless given -golden.full (see goldenChecked). The keys of
// testdata/golden_hashes/streaming_conformance.txt are "CASE mode=MODE":
// the case fed as its steps (one Feed per step), then
// its concatenated input in chunks of 1, 7, 16 and 256 bytes, each with
// listends off then on, each on a fresh parser with the case's catalog.

var goldenFull = flag.Bool("golden.full", false, "check every golden hash (by default the corpora are checked at 1 and 7 bytes on a sample of turns)")

var goldenDump = flag.String("golden.dump", "", "write the renderings behind the per-turn and per-case golden hashes to this directory")

var (
	goldenChunks = []int{1, 7, 16, 256}
	goldenModes  = []Mode{ModeComplete, ModeProgressive, ModeDelta}
)

// goldenTurnChunk is the chunk size at which each corpus turn gets a hash
// of its own, so that a mismatch can be located.
const goldenTurnChunk = 16

const goldenDir = "testdata/golden_hashes"

// goldenSentinels are the error classes a rendering records for an error.
var goldenSentinels = []struct {
	name string
	err  error
}{
	{"too_large", ErrTooLarge}, {"too_deep", ErrTooDeep}, {"invalid_utf8", ErrInvalidUTF8},
	{"unterminated", ErrUnterminated}, {"limit", ErrLimit}, {"closed", ErrClosed},
}

// goldenRender writes the canonical rendering of one call's result to w.
// The rendering of a call is, in order:
//
//	feed LEN | close                  the call and its chunk's length
//	part list=L end=T text=Q msgs=K   one line per part: Part.List,
//	                                  Part.ListEnd, the text quoted by
//	                                  strconv.Quote, K the number of
//	                                  messages (-1 for nil Messages)
//	msg LEN                           per message: its length, a newline,
//	BYTES                             its bytes verbatim, a newline
//	err Q                             the error's text, quoted, if any
//	is NAMES                          the sentinels it wraps (errors.Is)
//	block B offset O before N         per *BlockError in the error's tree,
//	                                  depth first
//	syntax offset O                   per *SyntaxError in the tree
//	limit WHAT MAX SURFACE            per *LimitError in the tree
//
// Messages are written as the parser returned them, byte for byte.
func goldenRender(w io.Writer, call string, parts []Part, err error) {
	fmt.Fprintf(w, "%s\n", call)
	for _, p := range parts {
		k := -1
		if p.Messages != nil {
			k = len(p.Messages)
		}
		fmt.Fprintf(w, "part list=%d end=%t text=%s msgs=%d\n", p.List, p.ListEnd, strconv.Quote(p.Text), k)
		for _, m := range p.Messages {
			fmt.Fprintf(w, "msg %d\n", len(m))
			w.Write(m)
			io.WriteString(w, "\n")
		}
	}
	if err == nil {
		return
	}
	fmt.Fprintf(w, "err %s\n", strconv.Quote(err.Error()))
	var names []string
	for _, s := range goldenSentinels {
		if errors.Is(err, s.err) {
			names = append(names, s.name)
		}
	}
	fmt.Fprintf(w, "is %s\n", strings.Join(names, ","))
	goldenErrTree(w, err)
}

// goldenErrTree writes the typed errors of err's tree, depth first.
func goldenErrTree(w io.Writer, err error) {
	switch e := err.(type) {
	case *BlockError:
		fmt.Fprintf(w, "block %d offset %d before %d\n", e.Block, e.Offset, e.Before)
	case *SyntaxError:
		fmt.Fprintf(w, "syntax offset %d\n", e.Offset)
	case *LimitError:
		fmt.Fprintf(w, "limit %s %d %s\n", e.What, e.Max, strconv.Quote(e.SurfaceID))
	}
	switch u := err.(type) {
	case interface{ Unwrap() []error }:
		for _, c := range u.Unwrap() {
			goldenErrTree(w, c)
		}
	case interface{ Unwrap() error }:
		if c := u.Unwrap(); c != nil {
			goldenErrTree(w, c)
		}
	}
}

// goldenRun feeds chunks to a fresh parser, then closes it, and renders
// every call to w.
func goldenRun(w io.Writer, mode Mode, listEnds bool, cat *protocol.Catalog, chunks [][]byte, extra ...Option) error {
	opts := append([]Option{WithMode(mode), WithCatalog(cat)}, extra...)
	if listEnds {
		opts = append(opts, WithListEnds())
	}
	p, err := New(opts...)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 8<<10)
	defer bw.Flush()
	w = bw
	for _, c := range chunks {
		parts, ferr := p.Feed(c)
		goldenRender(w, "feed "+strconv.Itoa(len(c)), parts, ferr)
	}
	parts, cerr := p.Close()
	goldenRender(w, "close", parts, cerr)
	return nil
}

// goldenRunBoth renders a run with listends off, then one with them on.
func goldenRunBoth(w io.Writer, mode Mode, cat *protocol.Catalog, chunks [][]byte, extra ...Option) error {
	for _, le := range []bool{false, true} {
		fmt.Fprintf(w, "listends=%t\n", le)
		if err := goldenRun(w, mode, le, cat, chunks, extra...); err != nil {
			return err
		}
	}
	return nil
}

// goldenTable is the hashes of one golden file, by key, in file order.
type goldenTable struct {
	keys    []string
	hashes  map[string]string
	skipped map[string]bool // keys this run does not render (see goldenChecked)
}

func (g *goldenTable) skip(key string) {
	if g.skipped == nil {
		g.skipped = map[string]bool{}
	}
	g.skipped[key] = true
}

func (g *goldenTable) add(key string, h hash.Hash) {
	g.addSum(key, hex.EncodeToString(h.Sum(nil)))
}

// addSum adds the hash sum (hex) under key.
func (g *goldenTable) addSum(key, sum string) {
	if g.hashes == nil {
		g.hashes = map[string]string{}
	}
	g.keys = append(g.keys, key)
	g.hashes[key] = sum
}

// write writes g to path, header first, one "KEY\tHASH" line per key in
// g's order.
func (g *goldenTable) write(path, header string) error {
	var b strings.Builder
	b.WriteString(header)
	for _, k := range g.keys {
		fmt.Fprintf(&b, "%s\t%s\n", k, g.hashes[k])
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

const goldenHeader = "# SHA-256 of the parser's canonical output (parser/golden_hash_test.go);\n" +
	"# go test ./parser -run TestGoldenHashes -update rewrites this file.\n"

// goldenUpdate reports whether this run rewrites the golden hashes: -update
// with a -run pattern that names TestGoldenHashes, so that a run with
// -update for another golden file of the package does not take the
// engine's output as it is without a look.
func goldenUpdate() bool {
	run := flag.Lookup("test.run")
	return *update && run != nil && strings.Contains(run.Value.String(), "TestGoldenHashes")
}

// check compares g with the golden file, or rewrites the file under
// goldenUpdate.
func (g *goldenTable) check(t *testing.T, file string) {
	t.Helper()
	path := filepath.Join(goldenDir, file)
	if goldenUpdate() {
		if err := g.write(path, goldenHeader); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := readGoldenFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to record the golden hashes)", err)
	}
	var bad []string
	for _, k := range g.keys {
		w, ok := want[k]
		switch {
		case !ok:
			bad = append(bad, k+": not in the golden file")
		case w != g.hashes[k]:
			bad = append(bad, k+": output differs")
		}
	}
	for k := range want {
		if _, ok := g.hashes[k]; !ok && !g.skipped[k] {
			bad = append(bad, k+": in the golden file, not produced")
		}
	}
	for k := range g.skipped {
		if _, ok := want[k]; !ok {
			bad = append(bad, k+": not in the golden file")
		}
	}
	if n := len(bad); n > 0 {
		slices.Sort(bad)
		if n > 20 {
			bad = append(bad[:20], fmt.Sprintf("... and %d more", n-20))
		}
		t.Errorf("%s: %d hashes differ (use -golden.dump DIR on this tree and on the golden one, and diff):\n%s",
			path, n, strings.Join(bad, "\n"))
	}
}

// readGoldenFile reads "KEY\tHASH" lines, skipping comments.
func readGoldenFile(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, h, ok := strings.Cut(line, "\t")
		if !ok {
			return nil, fmt.Errorf("%s: malformed line %q", path, line)
		}
		out[k] = h
	}
	return out, sc.Err()
}

// dumpTo returns a writer that also writes to DIR/name under -golden.dump,
// and a function that closes it.
func dumpTo(t *testing.T, w io.Writer, name string) (io.Writer, func()) {
	t.Helper()
	if *goldenDump == "" {
		return w, func() {}
	}
	if err := os.MkdirAll(*goldenDump, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(*goldenDump, name))
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriter(f)
	return io.MultiWriter(w, bw), func() {
		if err := bw.Flush(); err != nil {
			t.Error(err)
		}
		if err := f.Close(); err != nil {
			t.Error(err)
		}
	}
}

func TestGoldenHashes(t *testing.T) {
	for _, corpus := range []string{"stream_v09", "stream_v08"} {
		for _, fr := range goldenFramings {
			for _, mode := range goldenModes {
				t.Run(corpus+fr.suffix+"/"+mode.String(), func(t *testing.T) {
					t.Parallel()
					goldenCorpusHashes(t, corpus, fr.framing, fr.suffix, mode)
				})
			}
		}
	}
	t.Run("streaming_conformance", func(t *testing.T) {
		t.Parallel()
		goldenConformanceHashes(t)
	})
}

// goldenGroup is the number of corpus turns under one group hash.
const goldenGroup = 25

// goldenChecked reports whether a run without -golden.full (or -update)
// renders turn group g at chunk size n with listends le in framing f. The
// whole matrix takes about 20 s of CPU per framing (2 min under -race, as
// CI runs the tests), too long for every test run, so by default, in the
// tags framing, every turn is checked at 256 bytes (listends off and on)
// and at 16 bytes (listends off: the per-turn hashes), and one group of 25
// turns at 16 bytes with listends on, at 7 bytes with listends on and at 1
// byte with listends off, a different group for each. The derived
// framings, whose markup differs but whose blocks are the same, get less:
// see goldenCheckedDerived.
func goldenChecked(f Framing, n int, le bool, g int) bool {
	if *goldenFull || goldenUpdate() {
		return true
	}
	if f != FramingTags {
		return goldenCheckedDerived(f, n, le, g)
	}
	switch {
	case n == 256, n == goldenTurnChunk && !le:
		return true
	case n == goldenTurnChunk:
		return g == 0
	case n == 7:
		return g == 1 && le
	case n == 1:
		return g == 3 && !le
	}
	return false
}

// goldenCheckedDerived is goldenChecked for the fences and JSONL
// framings: every turn at 256 bytes with listends on, and one group each
// at 16 bytes with listends off (the group's per-turn hashes), at 7 bytes
// with listends on and at 1 byte with listends off; the groups differ
// from the tags framing's and between the two framings.
func goldenCheckedDerived(f Framing, n int, le bool, g int) bool {
	first := 2 // the group at 16 bytes; 7 and 1 bytes take the next two
	if f == FramingJSONL {
		first = 5
	}
	switch {
	case n == 256:
		return le
	case n == goldenTurnChunk:
		return !le && g == first
	case n == 7:
		return le && g == first+1
	case n == 1:
		return !le && g == first+2
	}
	return false
}

// goldenCorpusHashes records and checks the hashes of one corpus, rewritten
// to framing f (named corpus+suffix), in one mode, with the extra options
// given.
func goldenCorpusHashes(t *testing.T, corpus string, f Framing, suffix string, mode Mode, extra ...Option) {
	turns := corpusTurns(t, corpus)
	for i, turn := range turns {
		turns[i] = goldenFramed(t, f, turn)
	}
	corpus += suffix
	opts := append([]Option{WithFraming(f)}, extra...)
	var g goldenTable
	perTurn := make([]hash.Hash, len(turns))
	for _, size := range goldenChunks {
		for _, le := range []bool{false, true} {
			for lo := 0; lo < len(turns); lo += goldenGroup {
				hi := min(lo+goldenGroup, len(turns))
				key := fmt.Sprintf("turns=%d-%d chunk=%d listends=%s", lo, hi-1, size, onOff(le))
				if !goldenChecked(f, size, le, lo/goldenGroup) {
					g.skip(key)
					continue
				}
				group := sha256.New()
				for i := lo; i < hi; i++ {
					fmt.Fprintf(group, "turn %d\n", i)
					w := io.Writer(group)
					if size == goldenTurnChunk && !le {
						perTurn[i] = sha256.New()
						w = io.MultiWriter(group, perTurn[i])
					}
					if err := goldenRun(w, mode, le, nil, chunked(turns[i], size), opts...); err != nil {
						t.Fatal(err)
					}
				}
				g.add(key, group)
			}
		}
	}
	for i, h := range perTurn {
		key := fmt.Sprintf("turn=%d chunk=%d", i, goldenTurnChunk)
		switch {
		case h != nil:
			g.add(key, h)
		case goldenChecked(f, goldenTurnChunk, false, i/goldenGroup):
			t.Fatalf("turn %d: no hash at chunk %d", i, goldenTurnChunk)
		default:
			g.skip(key)
		}
	}
	if *goldenDump != "" {
		for i, turn := range turns {
			w, done := dumpTo(t, io.Discard, fmt.Sprintf("%s.%s.turn%03d.txt", corpus, mode, i))
			if err := goldenRun(w, mode, false, nil, chunked(turn, goldenTurnChunk), opts...); err != nil {
				t.Fatal(err)
			}
			done()
		}
	}
	g.check(t, corpus+"."+mode.String()+".txt")
}

// goldenConformanceHashes records and checks a hash per streaming
// conformance case and mode.
func goldenConformanceHashes(t *testing.T) {
	cases, confDir := loadStreamingSuite(t)
	var g goldenTable
	seen := map[string]int{}
	for _, c := range cases {
		name := strings.ReplaceAll(c.Name, "\t", " ")
		if seen[name]++; seen[name] > 1 {
			name = fmt.Sprintf("%s#%d", name, seen[name])
		}
		cat, catErr := loadCaseCatalog(c, confDir)
		steps := make([][]byte, len(c.Steps))
		for i, st := range c.Steps {
			steps[i] = []byte(st.Input)
		}
		joined := bytes.Join(steps, nil)
		for _, mode := range goldenModes {
			h := sha256.New()
			w, done := dumpTo(t, h, fmt.Sprintf("conformance.%s.%s.txt", strings.ReplaceAll(name, "/", "_"), mode))
			if catErr != nil {
				// The conformance test reports it; the hash records it.
				fmt.Fprintf(w, "catalog error %s\n", strconv.Quote(catErr.Error()))
				cat = nil
			}
			fmt.Fprintf(w, "steps\n")
			if err := goldenRunBoth(w, mode, cat, steps); err != nil {
				t.Fatal(err)
			}
			for _, size := range goldenChunks {
				fmt.Fprintf(w, "chunk=%d\n", size)
				if err := goldenRunBoth(w, mode, cat, chunked(joined, size)); err != nil {
					t.Fatal(err)
				}
			}
			done()
			g.add(fmt.Sprintf("%s mode=%s", name, mode), h)
		}
	}
	g.check(t, "streaming_conformance.txt")
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
