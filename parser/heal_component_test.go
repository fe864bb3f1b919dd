package parser

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestHealComponent pins down how a component cut by the stream heals: a
// child id still arriving is left out (a prefix of an id is not an id),
// every other cut string heals as before.
func TestHealComponent(t *testing.T) {
	tests := []struct {
		name string
		frag string
		want string // "" when the fragment must not heal
	}{
		{"cut child id", `{"id":"r","component":"Column","children":["a","bc`, `{"id":"r","component":"Column","children":["a"]}`},
		{"cut first child id", `{"id":"r","component":"Column","children":["bc`, `{"id":"r","component":"Column","children":[]}`},
		{"empty child id just opened", `{"id":"r","component":"Column","children":["a", "`, `{"id":"r","component":"Column","children":["a"]}`},
		{"cut child id after spaces", "{\"id\":\"r\",\"component\":\"Row\",\"children\" : [ \"a\" ,\n \"b", `{"id":"r","component":"Row","children" : [ "a"]}`},
		{"cut child id with escape", `{"id":"r","component":"Row","children":["a","b\"`, `{"id":"r","component":"Row","children":["a"]}`},
		{"whole child id", `{"id":"r","component":"Column","children":["a","bc"`, `{"id":"r","component":"Column","children":["a","bc"]}`},
		{"whole child id and comma", `{"id":"r","component":"Column","children":["a","bc",`, `{"id":"r","component":"Column","children":["a","bc"]}`},
		{"v08 cut explicitList id", `{"id":"r","component":{"Column":{"children":{"explicitList":["a","b`, `{"id":"r","component":{"Column":{"children":{"explicitList":["a"]}}}}`},
		{"cut string in another list", `{"id":"r","component":"ChoicePicker","options":["Red","Gre`, `{"id":"r","component":"ChoicePicker","options":["Red","Gre"]}`},
		{"cut string in a list inside a child list", `{"id":"r","component":"Row","children":[["a","b`, `{"id":"r","component":"Row","children":[["a","b"]]}`},
		{"cut text", `{"id":"r","component":"Text","text":"hel`, `{"id":"r","component":"Text","text":"hel"}`},
		{"cut single child id", `{"id":"r","component":"Card","child":"ab`, ""},
		{"cut key", `{"id":"r","component":"Column","chil`, `{"id":"r","component":"Column","chil"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var h healer
			got, ok := h.healComponent([]byte(tc.frag))
			if tc.want == "" {
				if ok {
					t.Fatalf("healed %s, want no healing", got)
				}
				return
			}
			if !ok || string(got) != tc.want {
				t.Fatalf("healComponent = %s %v, want %s", got, ok, tc.want)
			}
		})
	}
}

// TestHealOpenComponentMatchesHealComponent holds the scanner's healing of
// an open component (healOpenComponent, which sniffComponents uses) to
// healer.healComponent of the same bytes (which the generic path uses): fed
// one byte at a time, after every byte, for every open container.
func TestHealOpenComponentMatchesHealComponent(t *testing.T) {
	inputs := append(healInputs[:len(healInputs):len(healInputs)], struct{ name, in string }{
		"cut ids", `<a2ui-json>[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children" : [ "a\"b" , "cd" ,"ef"]},{"id":"x","component":{"Row":{"children":{"explicitList":["g", "hi"]}}}},{"id":"y","component":"P","options":["Red","Green"],"children":[["n"]]}]}}]</a2ui-json>`,
	})
	b, err := os.ReadFile(filepath.Join("..", "examples", "weather.txt"))
	if err != nil {
		t.Fatalf("the shipped example is missing: %v", err)
	}
	inputs = append(inputs, struct{ name, in string }{"weather.txt", string(b)})
	for _, tc := range inputs {
		t.Run(tc.name, func(t *testing.T) {
			p, err := New(WithMode(ModeProgressive))
			if err != nil {
				t.Fatal(err)
			}
			e := p.eng.(*progressiveEngine)
			var h healer
			compared, dropped := 0, 0
			for i := 0; i < len(tc.in); i++ {
				if _, err := p.Feed([]byte{tc.in[i]}); err != nil {
					t.Fatalf("byte %d: %v", i, err)
				}
				for j, fr := range e.sc.stack {
					if e.sc.utf8need != 0 {
						break // healOpen is not asked while a character is cut
					}
					got, gotOK := e.healOpenComponent(j)
					got = bytes.Clone(got)
					want, wantOK := h.healComponent(e.sc.buf[fr.start:])
					if gotOK != wantOK || (gotOK && !bytes.Equal(got, want)) {
						t.Fatalf("after byte %d, frame %d (%q):\nhealOpenComponent: %q %v\n     healComponent: %q %v", i, j, e.sc.buf[fr.start:], got, gotOK, want, wantOK)
					}
					plain, plainOK := h.heal(e.sc.buf[fr.start:])
					if gotOK && (!plainOK || !bytes.Equal(got, plain)) {
						dropped++
					}
					compared++
				}
			}
			if compared == 0 {
				t.Fatal("no open container was compared")
			}
			if tc.name == "cut ids" && dropped == 0 {
				t.Fatal("no cut child id was left out")
			}
		})
	}
}

// TestScanResumeMatchesFullScanComponentHeal is TestScanResumeMatchesFullScan
// with the healing sniffComponents uses: leaving a cut child id out only
// strips bytes, so the checkpoints stay valid.
func TestScanResumeMatchesFullScanComponentHeal(t *testing.T) {
	for _, tc := range resumeCases {
		t.Run(tc.name, func(t *testing.T) {
			var h healer
			var resumed compScanner
			used := map[resumePoint]bool{}
			for n := 1; n <= len(tc.comp); n++ {
				b, ok := h.healComponent([]byte(tc.comp[:n]))
				if !ok {
					continue
				}
				b = slices.Clone(b)
				if m := resumed.mk; m.at != atNone && resumed.gen == 1 && resumed.start == 0 {
					used[m.at] = true
				}
				got := scanState(&resumed, resumed.scanAt(b, tc.v08, 1, 0))
				var fresh compScanner
				want := scanState(&fresh, fresh.scan(b, tc.v08))
				if got != want {
					t.Fatalf("cut at %d, healed %s:\nresumed: %s\n   full: %s", n, b, got, want)
				}
			}
			for _, at := range tc.resumes {
				if !used[at] {
					t.Errorf("never resumed from checkpoint kind %d (used %v)", at, used)
				}
			}
		})
	}
}

// TestSameCut holds sameCut to its rule: a component healed by leaving a
// cut child id out is skipped only when the previous such heal was of the
// same object, in the same buffer generation and surface, with the same
// bytes; any heal without a cut forgets it.
func TestSameCut(t *testing.T) {
	const (
		cutA  = `{"id":"r","component":"Row","children":["a","b`
		cutA2 = `{"id":"r","component":"Row","children":["a","bc`
		cutB  = `{"id":"r","component":"Row","children":["a","bc","d`
		whole = `{"id":"r","component":"Row","children":["a","bc"`
	)
	type step struct {
		frag    string
		gen     uint64
		start   int
		surface string
		want    bool
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"the cut id grows", []step{{cutA, 1, 0, "s", false}, {cutA2, 1, 0, "s", true}}},
		{"another id is cut", []step{{cutA, 1, 0, "s", false}, {cutB, 1, 0, "s", false}, {cutB + "e", 1, 0, "s", true}}},
		{"another generation", []step{{cutA, 1, 0, "s", false}, {cutA2, 2, 0, "s", false}}},
		{"another object", []step{{cutA, 1, 0, "s", false}, {cutA2, 1, 9, "s", false}}},
		{"another surface", []step{{cutA, 1, 0, "s", false}, {cutA2, 1, 0, "t", false}}},
		{"a heal without a cut between", []step{{cutA, 1, 0, "s", false}, {whole, 1, 0, "s", false}, {cutA2, 1, 0, "s", false}}},
		{"no cut is never skipped", []step{{whole, 1, 0, "s", false}, {whole, 1, 0, "s", false}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var h healer
			for i, st := range tc.steps {
				out, ok := h.healComponent([]byte(st.frag))
				if !ok {
					t.Fatalf("step %d: %s does not heal", i, st.frag)
				}
				if got := h.sameCut(st.gen, st.start, st.surface, out); got != st.want {
					t.Fatalf("step %d (%s): sameCut = %v, want %v", i, st.frag, got, st.want)
				}
			}
		})
	}
}
