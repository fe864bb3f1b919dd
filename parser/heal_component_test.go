package parser

import (
	"bytes"
	"github.com/a2ui-stream/a2ui-stream/internal/deltaengine"
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
	inputs := append(healInputsWithExample(t), struct{ name, in string }{
		"cut ids", `<a2ui-json>[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children" : [ "a\"b" , "cd" ,"ef"]},{"id":"x","component":{"Row":{"children":{"explicitList":["g", "hi"]}}}},{"id":"y","component":"P","options":["Red","Green"],"children":[["n"]]}]}}]</a2ui-json>`,
	}, struct{ name, in string }{
		// Keys whose values mayCutOpen decides from the scanner's state, and
		// those it leaves to mayCutString: an empty key, a quote in a key
		// (the key keyBeforeColon finds is what follows it), valueString;
		// keys that end like a child list's.
		"value keys", `<a2ui-json>[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"r","component":"Text","":"empty key","a\"text":"quote in key","te\u0078t":"escape in key","label" : "spaced","variant":"not cut","valueString":"https://x/y","valueString":"plain value","x\"valueString":"q","text\"x":"quote then other","xchildren":["ab","cd"],"a\"children":["ef","gh"]}]}}]</a2ui-json>`,
	}, struct{ name, in string }{
		// A block that lost count of its brackets (an extra '}' after its
		// first message) is read by the scanner alone: junk before a ':'
		// leaves no key there for mayCutString, whatever string came last;
		// a stray ']' is dropped, leaving a list after the ':' for cutChildID.
		"lost count", `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"r","component":"Text","text" x: "abc def"},{"id":"c","component":"Column","children":]["ab","cd"]}]}}]</a2ui-json>`,
	})
	for _, tc := range inputs {
		t.Run(tc.name, func(t *testing.T) {
			var h healer
			dropped := 0
			eachOpenContainer(t, tc.in, func(e *progressiveEngine, i, j int, open []byte) {
				got, gotOK := e.healOpenComponent(j)
				got = bytes.Clone(got)
				want, wantOK := h.healComponent(open)
				if gotOK != wantOK || (gotOK && !bytes.Equal(got, want)) {
					t.Fatalf("after byte %d, frame %d (%q):\nhealOpenComponent: %q %v\n     healComponent: %q %v", i, j, open, got, gotOK, want, wantOK)
				}
				if plain, plainOK := h.heal(open); gotOK && (!plainOK || !bytes.Equal(got, plain)) {
					dropped++
				}
			})
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
	checkScanResume(t, (*healer).healComponent)
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

// healComponent is heal for a component (the oracle of
// healOpenComponent, which reads the scanner's state instead): a child id cut by the stream (an
// element of a "children" or "explicitList" list still arriving) is left
// out, not closed, since a prefix of an id names another component (see
// cutChildID).
func (h *healer) healComponent(frag []byte) (fixed []byte, ok bool) {
	return h.healFrag(frag, true)
}

// heal returns the closed form of frag, or ok=false when the fragment is
// empty or ends inside a string that must not be cut: the oracle of the
// engine's healOpenAt and healOpenComponent (which read the scanner's state
// instead of the bytes) and of the data model sniff.
func (h *healer) heal(frag []byte) (fixed []byte, ok bool) {
	return h.healFrag(frag, false)
}

func (h *healer) healFrag(frag []byte, comp bool) (fixed []byte, ok bool) {
	f := deltaengine.RStripSpace(frag)
	if len(f) == 0 {
		return nil, false
	}
	h.stack, h.pos, h.cut = h.stack[:0], h.pos[:0], false
	inStr, esc := false, false
	lastQuote := -1
	for i := 0; i < len(f); i++ {
		c := f[i]
		if esc {
			esc = false
			continue
		}
		switch {
		case c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
			if inStr {
				lastQuote = i
			}
		case inStr:
		case c == '{' || c == '[':
			h.stack = append(h.stack, c)
			h.pos = append(h.pos, i)
		case c == '}' || c == ']':
			if len(h.stack) > 0 {
				h.stack = h.stack[:len(h.stack)-1]
				h.pos = h.pos[:len(h.pos)-1]
			}
		}
	}
	h.out = append(h.out[:0], f...)
	if inStr {
		top := len(h.stack) - 1
		switch {
		case comp && top >= 0 && h.stack[top] == '[' && !afterColon(f[:lastQuote]) && cutChildID(f[:h.pos[top]]):
			h.out, h.cut = h.out[:lastQuote], true
		case !mayCutString(f, lastQuote):
			return nil, false
		default:
			h.out = append(h.out, '"')
		}
	}
	h.out = deltaengine.RStripSpace(h.out)
	if n := len(h.out); n > 0 && h.out[n-1] == ',' {
		h.out = deltaengine.RStripSpace(h.out[:n-1])
	}
	for i := len(h.stack) - 1; i >= 0; i-- {
		if h.stack[i] == '{' {
			h.out = append(h.out, '}')
		} else {
			h.out = append(h.out, ']')
		}
	}
	return h.out, true
}
