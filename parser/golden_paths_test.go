package parser

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The component tests' recorded output. Each test compares the parser's
// output, call by call, with a SHA-256 hash recorded from it. The hashes
// were recorded from the parser's previous engine (at first from a reader
// of it that decoded components into maps, while it had one, issue 15),
// and recorded again in session 24 where the current engine
// (internal/deltaengine) differs from it on purpose.
//
// To re-record (after an intended change of the output; list every
// changed key and its reason in the commit message), one command, from
// the repository root:
//
//	A2UI_SHARED=/work/shared go test ./parser -count 1 -update -run 'Recorded|ByteLevel|FastPath|ProgressiveDelta|DecodedThenStreamOrder'
//
// (-update records the file of each test the -run pattern names, and only
// those: see pathRecording; pathGoldenTests must match the pattern, which
// TestGoldenPathsListed checks.)
//
// Each test that records (pathGoldenTests) has a file,
// testdata/golden_hashes/component_paths/TEST.txt, in the format of the
// corpus hashes (golden_hash_test.go): "KEY\tHASH" lines. A key names a
// case (or a random stream by seed and family) and the mode, "CASE
// mode=MODE"; its hash covers every chunking of the case the test feeds
// (one byte at a time, split at every byte, ...), call by call, each call
// rendered as the test renders it (raw bytes, or canonical: see
// renderRaw, renderBytes, renderCanonical). A normal run feeds the parser
// and compares; a mismatch names the key, and the test's first one prints
// the output of the key's first chunking (one byte at a time, for most
// tests).

// pathGoldenTests are the tests that record their output (see above);
// pathRecordPattern matches each of them.
var pathGoldenTests = []string{
	"FuzzProgressiveDelta",
	"TestByteLevelShapes",
	"TestCanonicalShapesMatchRecorded",
	"TestCatalogRefFieldsMatchRecorded",
	"TestCatalogRefFieldsRandomMatchRecorded",
	"TestDecodedRandomMatchesRecorded",
	"TestDecodedShapesMatchRecorded",
	"TestDecodedShapesMatchRecordedWithCatalog",
	"TestDecodedThenStreamOrder",
	"TestEscapedIDsMatchRecorded",
	"TestEscapedOwnIDsByteLevel",
	"TestFastPathCases",
	"TestFastPathEmptyLists",
	"TestFastPathMatchesRecordedOnCorpus",
	"TestFastPathMatchesRecordedOnSuite",
	"TestFamilyUnknownMatchRecorded",
	"TestFastPathMatchesRecordedWithCatalog",
	"TestFieldShapesMatchRecorded",
	"TestFieldShapesRandomMatchRecorded",
	"TestFieldShapesWithOddCatalogsMatchRecorded",
	"TestNestedRandomMatchesRecorded",
	"TestNestedShapesMatchRecorded",
	"TestNonStringElementsMatchRecorded",
	"TestNonStringElementsRandomMatchRecorded",
	"TestPathShapesByteLevel",
	"TestPathShapesMatchRecorded",
	"TestProgressiveDeltaCases",
	"TestRefFieldsMatchRecorded",
	"TestRefFieldsRandomMatchRecorded",
	"TestRefShapesMatchRecorded",
	"TestSkippedComponentsMatchRecorded",
	"TestSkippedComponentsRandomMatchRecorded",
}

const (
	pathRecordPattern = "Recorded|ByteLevel|FastPath|ProgressiveDelta|DecodedThenStreamOrder"
	pathGoldenDir     = goldenDir + "/component_paths"
	pathRecordCommand = "A2UI_SHARED=/work/shared go test ./parser -count 1 -update -run '" + pathRecordPattern + "'"
)

// pathOutput feeds chunks to a new parser with opts and returns run's
// rendering of it. When recording, that rendering is what the hashes are
// recorded from: the parser's output as it is, so every key a
// re-recording changes must be listed, with its reason, in the commit
// message.
func pathOutput(t *testing.T, run pathRun, chunks [][]byte, opts ...Option) []string {
	t.Helper()
	return run(t, newPathParser(t, opts), chunks)
}

func newPathParser(t *testing.T, opts []Option) *Parser {
	t.Helper()
	p, err := New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// pathRun feeds chunks to p and renders the outcome, one string per call
// (or per whatever the test compares).
type pathRun func(t *testing.T, p *Parser, chunks [][]byte) []string

// perCall is a pathRun that renders each Feed and Close call with render.
func perCall(render func(t *testing.T, parts []Part, err error) string) pathRun {
	return func(t *testing.T, p *Parser, chunks [][]byte) []string {
		out := make([]string, 0, len(chunks)+1)
		for _, c := range chunks {
			parts, err := p.Feed(c)
			out = append(out, render(t, parts, err))
		}
		parts, err := p.Close()
		return append(out, render(t, parts, err))
	}
}

// renderRaw renders a call's parts byte for byte: each part's text, then
// its messages as they are, then the error.
var renderRaw = perCall(func(_ *testing.T, parts []Part, err error) string {
	var s strings.Builder
	for _, pt := range parts {
		fmt.Fprintf(&s, "text=%q;", pt.Text)
		for _, m := range pt.Messages {
			fmt.Fprintf(&s, "%s;", m)
		}
	}
	if err != nil {
		s.WriteString("error=" + err.Error())
	}
	return s.String()
})

// renderBytes is renderRaw with the error first (the rendering of the
// shape tests of checkByteLevelShapes and of the random-stream tests).
var renderBytes = perCall(func(_ *testing.T, parts []Part, err error) string {
	var s strings.Builder
	s.WriteString(fmt.Sprint(err))
	for _, pt := range parts {
		fmt.Fprintf(&s, ";text=%q", pt.Text)
		for _, m := range pt.Messages {
			s.WriteString(";" + string(m))
		}
	}
	return s.String()
})

// renderCanonical renders a call's parts in canonical (sorted-key)
// encoding; the components with an empty child list (or its
// loading_children_ placeholder) or a template list are added as they
// are, byte for byte (see emptyListComponents).
var renderCanonical = perCall(func(t *testing.T, parts []Part, err error) string {
	var s strings.Builder
	for _, pt := range parts {
		fmt.Fprintf(&s, "text=%q;", pt.Text)
		for _, m := range pt.Messages {
			v, ok := decodeObject(m)
			if !ok || !json.Valid(m) {
				t.Fatalf("invalid message %s", m)
			}
			s.WriteString(canonicalJSON(v) + ";")
			s.WriteString(emptyListComponents(m))
		}
	}
	if err != nil {
		s.WriteString("error=" + err.Error())
	}
	return s.String()
})

// pathGolden is the recorded hashes of one test (pathGoldenTests).
type pathGolden struct {
	name, file string
	record     bool              // this run records (see pathRecording)
	want       map[string]string // the recorded hashes, when checking
	mu         sync.Mutex
	got        goldenTable
	partial    bool // the test ran part of its keys (see finish)
	shown      bool // a mismatch showed its output
}

// newPathGolden loads the recorded hashes of test tb (a top-level test
// or fuzz target), and checks or writes them when it ends.
func newPathGolden(tb testing.TB) *pathGolden {
	tb.Helper()
	name := tb.Name()
	if !slices.Contains(pathGoldenTests, name) {
		tb.Fatalf("%s is not in pathGoldenTests", name)
	}
	g := &pathGolden{name: name, file: filepath.Join(pathGoldenDir, name+".txt"), record: pathRecording(name)}
	if !g.record {
		want, err := readGoldenFile(g.file)
		if err != nil {
			tb.Fatalf("%v (record with: %s)", err, pathRecordCommand)
		}
		g.want = want
	}
	tb.Cleanup(func() { g.finish(tb) })
	return g
}

// pathRecording reports whether this run records test name's hashes:
// -update with a -run pattern that names the test (as goldenUpdate does
// for TestGoldenHashes), so that -update for another golden file of the
// package does not take the output as it is.
func pathRecording(name string) bool {
	run := flag.Lookup("test.run")
	if !*update || run == nil {
		return false
	}
	re, err := regexp.Compile(strings.Split(run.Value.String(), "/")[0])
	return err == nil && run.Value.String() != "" && re.MatchString(name)
}

// fuzzing reports whether this run fuzzes (go test -fuzz): the inputs the
// fuzzer makes have no recorded hash.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}

// filtered reports whether the -run pattern selects subtests (part of a
// test's keys).
func filtered() bool {
	run := flag.Lookup("test.run")
	return run != nil && strings.Contains(run.Value.String(), "/")
}

// checkModes is check in both progressive modes.
func (g *pathGolden) checkModes(t *testing.T, key string, run pathRun, splits [][][]byte, opts ...Option) {
	t.Helper()
	for _, mode := range []Mode{ModeProgressive, ModeDelta} {
		g.check(t, key, mode, run, splits, opts...)
	}
}

// check feeds each chunking of splits to a new parser in mode (with
// opts), renders it with run, and compares the hash of all the renderings
// with the one recorded under "KEY mode=MODE" (or records it).
func (g *pathGolden) check(t *testing.T, key string, mode Mode, run pathRun, splits [][][]byte, opts ...Option) {
	t.Helper()
	key = strings.NewReplacer("\t", " ", "\n", " ").Replace(key) + " mode=" + mode.String()
	h := sha256.New()
	var first []string // the first chunking's output, shown on a mismatch
	opts = append([]Option{WithMode(mode)}, opts...)
	for i, chunks := range splits {
		out := pathOutput(t, run, chunks, opts...)
		fmt.Fprintf(h, "chunking %d: %d chunks, %d calls\n", i, len(chunks), len(out))
		for _, s := range out {
			fmt.Fprintf(h, "%d\n%s\n", len(s), s)
		}
		if i == 0 {
			first = out
		}
	}
	sum := hex.EncodeToString(h.Sum(nil))
	g.mu.Lock()
	defer g.mu.Unlock()
	if prev, ok := g.got.hashes[key]; ok {
		if prev != sum {
			t.Fatalf("%s: key produced twice, with different output", key)
		}
		return
	}
	g.got.addSum(key, sum)
	if g.record {
		return
	}
	want, ok := g.want[key]
	switch {
	case !ok && fuzzing():
	case !ok:
		t.Errorf("%s: no recorded hash in %s (record with: %s)", key, g.file, pathRecordCommand)
	case want != sum && g.shown:
		t.Errorf("%s: the output differs from the one recorded in %s", key, g.file)
	case want != sum:
		// The first mismatch of the test shows the output (the others
		// would repeat it, at length).
		g.shown = true
		var b strings.Builder
		for i, s := range first {
			if b.Len() > 32<<10 {
				b.WriteString("...\n")
				break
			}
			if s != "" && s != "<nil>" {
				fmt.Fprintf(&b, "call %d: %s\n", i, s)
			}
		}
		t.Errorf("%s: the output differs from the one recorded in %s; the output of its first chunking (%d chunks), the calls that yield:\n%s",
			key, g.file, len(splits[0]), b.String())
	}
}

// finish writes the hashes when recording; when checking a whole run of
// the test, it reports the recorded keys the test did not produce (a case
// that no longer runs).
func (g *pathGolden) finish(tb testing.TB) {
	if g.record {
		if tb.Failed() {
			return // (a recording that failed writes nothing)
		}
		if filtered() || testing.Short() || g.partial {
			// Part of the test ran: keep the other keys.
			old, _ := readGoldenFile(g.file)
			for k, h := range old {
				if _, ok := g.got.hashes[k]; !ok {
					g.got.addSum(k, h)
				}
			}
		}
		slices.Sort(g.got.keys)
		header := fmt.Sprintf("# SHA-256 of %s's output, call by call (parser/golden_paths_test.go);\n# %s rewrites this file.\n", g.name, pathRecordCommand)
		if err := g.got.write(g.file, header); err != nil {
			tb.Fatal(err)
		}
		return
	}
	if filtered() || testing.Short() || g.partial || fuzzing() {
		return
	}
	var missing []string
	for k := range g.want {
		if _, ok := g.got.hashes[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		if len(missing) > 20 {
			missing = append(missing[:20], fmt.Sprintf("... and %d more", len(missing)-20))
		}
		tb.Errorf("%s: recorded keys the test no longer produces (record with: %s):\n%s", g.file, pathRecordCommand, strings.Join(missing, "\n"))
	}
}

// splitsOf returns in fed in chunks of each size of sizes (0: whole),
// then, when everyByte, in two pieces split at every byte.
func splitsOf(in []byte, everyByte bool, sizes ...int) [][][]byte {
	var splits [][][]byte
	for _, n := range sizes {
		if n == 0 {
			n = len(in)
		}
		splits = append(splits, chunked(in, n))
	}
	if everyByte {
		for k := 1; k < len(in); k++ {
			splits = append(splits, [][]byte{in[:k], in[k:]})
		}
	}
	return splits
}

// TestGoldenPathsListed: each test that records its output is in
// pathGoldenTests, matched by the recording command's pattern, and has
// its file; each file is a listed test's.
func TestGoldenPathsListed(t *testing.T) {
	re := regexp.MustCompile(pathRecordPattern)
	for _, name := range pathGoldenTests {
		if !re.MatchString(name) {
			t.Errorf("%s: not matched by the recording pattern %q", name, pathRecordPattern)
		}
		if _, err := os.Stat(filepath.Join(pathGoldenDir, name+".txt")); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	err := filepath.WalkDir(pathGoldenDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !slices.Contains(pathGoldenTests, strings.TrimSuffix(d.Name(), ".txt")) {
			return errors.New(path + ": no such test in pathGoldenTests")
		}
		return nil
	})
	if err != nil {
		t.Error(err)
	}
}
