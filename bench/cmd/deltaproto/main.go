// Command deltaproto measures how fast an engine built for deltas can be,
// doing the parser's work: in delta mode, and in progressive mode as a
// writer over the same changes (-progressive), it yields what the parser
// yields, byte for byte and call by call, on both corpora (v0.9 and v0.8)
// at chunks of 1 to 65,536 bytes (TestSameAsParser; -same compares any
// file). It does the work in one pass over each block:
//
//   - tags framing, prose released as a text part per chunk, and a JSON
//     scanner that keeps the block without whitespace outside strings
//     (strings read eight bytes at a time) and validates it as the parser
//     does (grammar.go: structure, escapes, numbers, literals, UTF-8, a
//     list of message objects; TestGrammar holds its verdict to the
//     parser's), failing the block and skipping the rest of it;
//   - the messages of both families: createSurface and beginRendering
//     make the surface (the latter names its root) and are yielded once
//     complete, sorted by key as the parser writes a message it rebuilt;
//     updateComponents and surfaceUpdate update its components (one map
//     lookup each for the surface);
//   - data model messages (data.go): v0.9 ones yield nothing until their
//     value has a complete member, then the value with its complete
//     members, sorted, then each member new or changed since, at its own
//     path (delta), or the chunk's changes together and the whole value at
//     the end (progressive); v0.8 ones are healed whole (an entry with its
//     key only, or empty, left out) and yielded when they change;
//   - at the end of each chunk the open component is healed as the parser
//     heals it (a cut string is closed only under a cuttable key, trailing
//     space and comma dropped; cut anywhere else the parser keeps its
//     previous heal, and so does this, unless -cutback, which heals back
//     to the last complete member) and its id and child ids ("child",
//     "children", v0.8 "explicitList") are read; a partial child id is
//     left out, and an open list with no complete id is the list's
//     placeholder (loading_children_<id>, the component written sorted by
//     key); a form with an empty object is not renderable yet and waits;
//     an open component or data model message over 1 KB is healed again
//     only once it grew by an eighth (its size counted with its spaces,
//     as the parser reads it);
//   - per surface, id -> entry: its bytes, the hash of its last yield,
//     child entries, reachable flag, count of reachable parents, whether
//     its placeholder was yielded, parents waiting while it is missing;
//     reachability from the root, incremental;
//   - a missing child is written loading_<id> and its placeholder yielded
//     once; when it arrives its waiting parents are yielded again, at
//     once, or, for a parent that had more than 16 children missing, once
//     an eighth of them arrived and at the block's end (progressive: when
//     its update completes);
//   - each chunk's changed reachable components, then new placeholders,
//     each sorted by id, go out as one message (delta), or the surface's
//     snapshot: every reachable component sorted by id (kept sorted by
//     insertion), then their placeholders in order of first use
//     (progressive); in storage reused from chunk to chunk (as
//     WithBorrowedOutput), in a reused parts slice.
//
// Entries come from slabs and hot paths avoid pointer stores (a write
// barrier each while the collector marks): the collector's share of the
// CPU time counts, as it does for the parser.
//
// It omits catalogs, limits, the parser's error messages and offsets (a
// block fails, that is all), messages before their surface begins or
// with "surfaceId"/"version" after the contents, deleteSurface, cycle and
// self-reference detection (reachability only grows), data model values
// that are not objects, progressive mode's deferral of snapshots over 32
// KB, other framings, holding back a tag split across chunks, and
// valueString URL rules: none of them occurs in the corpora. It is a
// measuring stick, not a parser. It prints MB/s by process CPU time, the
// median of several rounds, as parserate and ../shared/tools/scanlimit do.
//
// With -check (v0.9) it runs once, prints what it yielded, applies the
// yields and compares per surface the components reachable from root, and
// the data model, with the file's messages. With -same it runs once beside
// the parser in the same mode (borrowed output, the same chunks) and
// counts the calls whose yields differ. With -suite, FILE is a streaming
// conformance suite (../shared/a2ui/conformance/suites/streaming_parser.yaml):
// it compares each case's input, without the case's catalog, at 1, 7, 16
// and 256 bytes, and counts the cases that agree (how much of what the
// suite exercises the engine does).
//
// usage: deltaproto [-check | -same | -suite] [-progressive] [-cutback] [-cpuprofile FILE] -chunk 16 -rounds 9 FILE
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"runtime/pprof"
	"strings"

	"github.com/a2ui-stream/a2ui-stream/bench"
)

func main() {
	chunk := flag.Int("chunk", 16, "chunk size in bytes")
	rounds := flag.Int("rounds", 9, "rounds")
	checkRun := flag.Bool("check", false, "run once and check the yields against the file's messages")
	sameRun := flag.Bool("same", false, "run once beside the parser in the same mode and compare the yields of each call")
	progressive := flag.Bool("progressive", false, "yield snapshots, as the parser's progressive mode, not changes")
	suiteRun := flag.Bool("suite", false, "FILE is a streaming conformance suite: compare with the parser on each case's input")
	cutBack := flag.Bool("cutback", false, "heal a component cut in an uncuttable string back to its last complete member")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the timed rounds to this file")
	flag.Parse()
	data, err := os.ReadFile(flag.Arg(0))
	if *chunk <= 0 || *rounds <= 0 || flag.NArg() != 1 || err != nil {
		fmt.Fprintln(os.Stderr, "usage: deltaproto [-check | -same | -suite] [-progressive] [-cutback] [-cpuprofile FILE] -chunk N -rounds R FILE", err)
		os.Exit(2)
	}
	if *checkRun {
		os.Exit(check(data, *chunk, *cutBack))
	}
	if *suiteRun {
		r, err := compareSuite(data, *progressive)
		if err != nil {
			fmt.Fprintln(os.Stderr, "deltaproto:", err)
			os.Exit(1)
		}
		for _, d := range r.differ {
			fmt.Println("differs:", d)
		}
		fmt.Printf("%d of %d cases the same as the parser at 1, 7, 16 and 256 bytes (without their catalogs)\n", r.agree, r.total)
		return
	}
	if *sameRun {
		r, err := compareWithParser(data, *chunk, *progressive)
		if err != nil {
			fmt.Fprintln(os.Stderr, "deltaproto:", err)
			os.Exit(1)
		}
		mode := "delta"
		if *progressive {
			mode = "progressive"
		}
		fmt.Printf("%d calls, %d the same as the parser's %s mode, %d differ\n", r.calls, r.calls-r.differ, mode, r.differ)
		if r.differ > 0 {
			fmt.Println("first:", r.first)
			os.Exit(1)
		}
		return
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		defer pprof.StopCPUProfile()
	}
	var k *engine
	rate := bench.MedianMBps(len(data), *rounds, func() {
		k = newEngine()
		k.cutBack, k.progressive = *cutBack, *progressive
		for i := 0; i < len(data); i += *chunk {
			k.feed(data[i:min(i+*chunk, len(data))])
		}
	})
	fmt.Printf("%.1f MB/s (chunk %d, %d yields, %d bytes, %d blocks failed, median of %d)\n", rate, *chunk, k.yields, k.outBytes, k.errs, *rounds)
}

// message is what the check reads of a v0.9 message.
type message struct {
	CreateSurface *struct {
		SurfaceID string `json:"surfaceId"`
	} `json:"createSurface"`
	UpdateComponents *struct {
		SurfaceID  string           `json:"surfaceId"`
		Components []map[string]any `json:"components"`
	} `json:"updateComponents"`
	UpdateDataModel *struct {
		SurfaceID string `json:"surfaceId"`
		Path      string `json:"path"`
		Value     any    `json:"value"`
	} `json:"updateDataModel"`
}

// state is what applying messages leaves: per surface, components by id
// and the data model (the corpus's data model messages are all at path
// "/"; a yield at "/key" sets that member).
type state struct {
	comps map[string]map[string]map[string]any
	data  map[string]any
}

func (st *state) apply(m *message) {
	if c := m.CreateSurface; c != nil && st.comps[c.SurfaceID] == nil {
		st.comps[c.SurfaceID] = map[string]map[string]any{}
	}
	if u := m.UpdateComponents; u != nil {
		for _, c := range u.Components {
			st.comps[u.SurfaceID][c["id"].(string)] = c
		}
	}
	if d := m.UpdateDataModel; d != nil {
		if key, ok := strings.CutPrefix(d.Path, "/"); ok && key != "" {
			// A member of the value at "/" (the corpus's only path).
			if obj, ok := st.data[d.SurfaceID].(map[string]any); ok {
				obj[key] = d.Value
			}
		} else {
			st.data[d.SurfaceID] = d.Value
		}
	}
}

// reachable returns the components reachable from root, placeholders left
// out.
func reachable(comps map[string]map[string]any) map[string]bool {
	seen := map[string]bool{}
	for walk := []any{"root"}; len(walk) > 0; {
		id, _ := walk[len(walk)-1].(string)
		walk = walk[:len(walk)-1]
		if c, ok := comps[id]; ok && !seen[id] && !strings.HasPrefix(id, "loading_") {
			seen[id] = true
			list, _ := c["children"].([]any)
			walk = append(append(walk, list...), c["child"])
		}
	}
	return seen
}

// check runs the engine once, prints what it yielded and compares the
// state its yields leave with that of the file's messages. It returns the
// exit status.
func check(data []byte, chunk int, cutBack bool) int {
	k := newEngine()
	k.cutBack = cutBack
	got := &state{map[string]map[string]map[string]any{}, map[string]any{}}
	invalid, create, update, model, comps, phs := 0, 0, 0, 0, 0, 0
	for i := 0; i < len(data); i += chunk {
		for _, p := range k.feed(data[i:min(i+chunk, len(data))]) {
			for _, raw := range p.msgs {
				var m message
				if err := json.Unmarshal(raw, &m); err != nil {
					invalid++
					fmt.Printf("invalid yield: %v: %s\n", err, raw)
					continue
				}
				got.apply(&m)
				if m.CreateSurface != nil {
					create++
				} else if m.UpdateDataModel != nil {
					model++
				} else if update++; true {
					for _, c := range m.UpdateComponents.Components {
						if comps++; strings.HasPrefix(c["id"].(string), "loading_") {
							phs++
						}
					}
				}
			}
		}
	}
	fmt.Printf("yields: %d messages of %d bytes: createSurface %d, updateComponents %d (%d components, %d of them placeholders), updateDataModel %d; %d invalid; %d blocks failed\n",
		k.yields, k.outBytes, create, update, comps, phs, model, invalid, k.errs)
	want := &state{map[string]map[string]map[string]any{}, map[string]any{}}
	for _, blk := range bytes.Split(data, []byte(openTag))[1:] {
		var list []message
		if err := json.Unmarshal(blk[:bytes.Index(blk, []byte(closeTag))], &list); err != nil {
			fmt.Println("check: a block of the file does not parse:", err)
			return 1
		}
		for i := range list {
			want.apply(&list[i])
		}
	}
	agree, dataAgree := 0, 0
	for sid, wc := range want.comps {
		gc := got.comps[sid]
		wr, gr := reachable(wc), reachable(gc)
		same := len(wr) == len(gr) && len(wr) > 0
		for id := range wr {
			same = same && gr[id] && reflect.DeepEqual(wc[id], gc[id])
		}
		if same {
			agree++
		}
		if reflect.DeepEqual(want.data[sid], got.data[sid]) {
			dataAgree++
		}
	}
	n := len(want.comps)
	fmt.Printf("state: %d surfaces agree, %d differ (data model: %d agree, %d differ)\n", agree, n-agree, dataAgree, n-dataAgree)
	if agree < n || dataAgree < n || invalid > 0 || k.errs > 0 {
		return 1
	}
	return 0
}
