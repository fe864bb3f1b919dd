// Command deltaproto measures internal/deltaengine, the engine of the
// parser's progressive and delta modes, on model output without the
// parser around it: tags framing (tags.go, as the parser's framer splits)
// around the engine, in delta mode or, with -progressive, in progressive
// mode. Beside parserate it shows what the parser's framing and output
// cost (bench/proto_ratio.sh). The package doc of internal/deltaengine
// says how the engine works.
//
// It prints MB/s by process CPU time, the median of several rounds, as
// parserate and ../shared/tools/scanlimit do; prose is copied into a text
// part per chunk, and the messages are lent from chunk to chunk (as
// WithBorrowedOutput).
//
// With -check (v0.9) it runs once, prints what it yielded, applies the
// yields and compares per surface the components reachable from root, and
// the data model, with the file's messages.
//
// usage: deltaproto [-check] [-progressive] [-cpuprofile FILE] -chunk 16 -rounds 9 FILE
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
	"github.com/a2ui-stream/a2ui-stream/internal/deltaengine"
)

func main() {
	chunk := flag.Int("chunk", 16, "chunk size in bytes")
	rounds := flag.Int("rounds", 9, "rounds")
	checkRun := flag.Bool("check", false, "run once and check the yields against the file's messages")
	progressive := flag.Bool("progressive", false, "yield snapshots, as the parser's progressive mode, not changes")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the timed rounds to this file")
	flag.Parse()
	data, err := os.ReadFile(flag.Arg(0))
	if *chunk <= 0 || *rounds <= 0 || flag.NArg() != 1 || err != nil {
		fmt.Fprintln(os.Stderr, "usage: deltaproto [-check] [-progressive] [-cpuprofile FILE] -chunk N -rounds R FILE", err)
		os.Exit(2)
	}
	if *checkRun {
		os.Exit(check(data, *chunk))
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
	var t *tags
	var yields, outBytes int
	rate := bench.MedianMBps(len(data), *rounds, func() {
		t, yields, outBytes = newTags(deltaengine.Options{Progressive: *progressive}), 0, 0
		for i := 0; i < len(data); i += *chunk {
			for _, p := range t.feed(data[i:min(i+*chunk, len(data))]) {
				for _, m := range p.msgs {
					yields, outBytes = yields+1, outBytes+len(m)
				}
			}
		}
	})
	fmt.Printf("%.1f MB/s (chunk %d, %d yields, %d bytes, %d blocks failed, median of %d)\n", rate, *chunk, yields, outBytes, t.k.Failed(), *rounds)
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
func check(data []byte, chunk int) int {
	t := newTags(deltaengine.Options{})
	got := &state{map[string]map[string]map[string]any{}, map[string]any{}}
	invalid, create, update, model, comps, phs, yields, outBytes := 0, 0, 0, 0, 0, 0, 0, 0
	for i := 0; i < len(data); i += chunk {
		for _, p := range t.feed(data[i:min(i+chunk, len(data))]) {
			for _, raw := range p.msgs {
				yields, outBytes = yields+1, outBytes+len(raw)
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
		yields, outBytes, create, update, comps, phs, model, invalid, t.k.Failed())
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
	if agree < n || dataAgree < n || invalid > 0 || t.k.Failed() > 0 {
		return 1
	}
	return 0
}
