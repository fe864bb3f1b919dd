package parser

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// scanState is what the users of a compScanner read after a scan
// (growFast, fastResult, putFast), and the outcome. Of a read that found
// no object (compInvalid) they read nothing: how far its bytes were
// written differs with where the read started (a resumed one may have
// written a string's start before it found the string cut inside an
// escape).
func scanState(c *compScanner, outcome int) string {
	if outcome == compInvalid {
		return "outcome=invalid"
	}
	s := fmt.Sprintf("outcome=%d out=%q slots=%v", outcome, c.out, c.slots)
	if outcome == compFast {
		s += fmt.Sprintf(" id=[%d:%d] emptyObj=%t empty=%v", c.idA, c.idB, c.emptyObj, c.empty)
	}
	return s
}

// resumeCases are components read as they arrive; resumes lists the
// checkpoints their reading must resume from at least once.
var resumeCases = []struct {
	name    string
	v08     bool
	comp    string
	resumes []resumePoint
}{
	{"v09 flat", false, `{"id":"title","component":"Text","text":"Hello there","variant":"h2","weight":1.5,"wrap":true,"max":null}`, []resumePoint{atTopMember}},
	{"v09 long children list", false, `{"id":"col","component":"Column","children":["c-01","c-02","c-03","c-04","c-05","c-06","c-07","c-08","c-09","c-10","c-11","c-12","c-13","c-14","c-15","c-16"],"align":"start"}`, []resumePoint{atTopMember, atTopList}},
	{"v09 explicitList and child", false, `{"id":"x","component":"Card","explicitList":["a","b","c"],"child":"d","contentChild":"e","entryPointChild":"f"}`, []resumePoint{atTopMember, atTopList}},
	{"v09 nested values", false, `{"id":"x","component":"Tabs","style":{"a":[1,2,{"b":"c"}],"d":{}},"list":["p","q",3],"t":"u"}`, []resumePoint{atTopMember}},
	{"v09 empty children list", false, `{"id":"x","component":"Column","children":[],"text":"y"}`, []resumePoint{atTopMember}},
	{"v09 non-string child", false, `{"id":"x","component":"Column","children":["a",7,"b"],"text":"y"}`, []resumePoint{atTopMember, atTopList}},
	{"v09 object in top array", false, `{"id":"x","component":"Tabs","tabs":["a",{"child":"b"}],"t":"u"}`, []resumePoint{atTopMember}},
	{"escaped strings", false, `{"id":"esc","component":"Text","text":"q\"uote\\ \u00e9 \n ok","alt":"a,b}c]","children":["k\"1","k2"]}`, []resumePoint{atTopMember}},
	{"escaped id", false, `{"component":"Text","text":"t","id":"a\u0041"}`, []resumePoint{atTopMember}},
	{"duplicate top-level keys", false, `{"id":"dup","component":"Text","text":"a","size":1,"text":"b"}`, []resumePoint{atTopMember}},
	{"duplicate nested keys", false, `{"id":"dup","component":"Text","style":{"c":1,"d":{"e":1,"e":2},"c":2},"t":"u"}`, []resumePoint{atTopMember}},
	{"duplicate child field", false, `{"id":"dup","component":"Card","child":"a","child":"b"}`, []resumePoint{atTopMember}},
	{"more than 32 keys", false, `{"id":"many","component":"Text"` + manyKeys(40) + `}`, []resumePoint{atTopMember}},
	{"32 keys in a nested object", false, `{"id":"many","component":"Text","style":{` + manyKeys(33)[1:] + `},"t":"u"}`, []resumePoint{atTopMember}},
	{"whitespace and commas at cut points", false, "{ \"id\" : \"ws\" ,\n\t\"component\" : \"Row\" , \"children\" : [ \"a\" ,\r\n \"b\" , \"c\" ] ,  \"gap\" : -1.25e+3 , \"on\" : false }", []resumePoint{atTopMember, atTopList}},
	{"double comma", false, `{"id":"x","component":"Text",,"text":"y"}`, []resumePoint{atTopMember}},
	{"bad number after checkpoint", false, `{"id":"x","component":"Text","n":01,"t":"u"}`, []resumePoint{atTopMember}},
	{"v08 nested props", true, `{"id":"t","component":{"Text":{"text":{"literalString":"Hello, world"},"usageHint":"h2","width":{"path":"/w"},"max":3}}}`, []resumePoint{atTopMember, atProp}},
	{"v08 explicitList", true, `{"id":"col","component":{"Column":{"children":{"explicitList":["p-01","p-02","p-03","p-04","p-05","p-06"]},"alignment":"center","distribution":"start"}}}`, []resumePoint{atTopMember, atProp, atNestedList}},
	{"v08 list property", true, `{"id":"b","component":{"Button":{"child":"bt","explicitList":["x","y","z"],"action":{"name":"go","context":[{"key":"k","value":{"path":"/x"}}]}}}}`, []resumePoint{atTopMember, atProp, atPropList}},
	{"v08 member after the definition", true, `{"id":"w","component":{"Text":{"text":{"literalString":"a"},"usageHint":"h1"}},"weight":2,"extra":{"q":1}}`, []resumePoint{atTopMember, atProp}},
	{"v08 duplicate prop keys", true, `{"id":"d","component":{"Text":{"text":{"literalString":"x"},"usageHint":"h1","usageHint":"h2"}}}`, []resumePoint{atTopMember, atProp}},
	{"v08 empty props then member", true, `{"id":"e","component":{"Text":{}},"weight":{}}`, []resumePoint{atTopMember}},
	{"v08 two types", true, `{"id":"two","component":{"Text":{"text":{"literalString":"a"},"b":1},"Image":{"url":{"literalString":"b"}}}}`, []resumePoint{atTopMember, atProp}},
	{"v08 path to normalise", true, `{"id":"p","component":{"Text":{"x":1,"text":{"path":"//double","literalString":"x"}}}}`, []resumePoint{atTopMember, atProp}},
	{"v09 template", false, `{"id":"l","component":"List","weight":1,"children":{"path":"/items","componentId":"item","extra":{"b":[1,2],"a":"z"}},"child":"c","gap":2}`, []resumePoint{atTopMember}},
	{"v08 template", true, `{"id":"l","component":{"List":{"direction":"vertical","children":{"template":{"dataBinding":"/items","componentId":"item"}},"child":"c"}},"weight":1}`, []resumePoint{atTopMember, atProp}},
	{"v08 many prop keys", true, `{"id":"m","component":{"Text":{` + manyKeys(40)[1:] + `}}}`, []resumePoint{atTopMember, atProp}},
	// Checkpoints inside a member's value (entry_value.go): in a string
	// cut anywhere (escapes, multi-byte characters), in nested objects and
	// lists, before a number cut.
	{"v09 long string", false, `{"id":"s","component":"Text","text":"` + strings.Repeat("a long text, arriving in many chunks; ", 4) + `","variant":"body"}`, []resumePoint{atTopMember, atTopValue}},
	{"v09 string with escapes and multi-byte characters", false, `{"id":"s","component":"Text","text":"q\"uote\\ \u00e9 é日本語🙂 \n\t\/ ok, \"end\"","n":1}`, []resumePoint{atTopValue}},
	{"v09 nested value", false, `{"id":"b","component":"Button","action":{"event":{"name":"next","context":{"code_1":{"path":"/code_1"},"n":[1,-2.5e3,[true,null,{"k":"v"}],"x"]}}},"child":"t"}`, []resumePoint{atTopMember, atTopValue}},
	{"v09 numbers cut", false, `{"id":"n","component":"Slider","min":-12345.678e-9,"max":98765,"v":{"a":[1234567,0.000001,-0]}}`, []resumePoint{atTopValue}},
	{"v09 child field in a value", false, `{"id":"x","component":"Tabs","style":{"a":"bb","tabs":[{"title":"t","child":"c"}],"z":"long string value"},"t":"u"}`, []resumePoint{atTopValue}},
	{"v08 literal string", true, `{"id":"t","component":{"Text":{"text":{"literalString":"` + strings.Repeat("Hello, wörld 日本 ", 5) + `"},"usageHint":"h2"}}}`, []resumePoint{atProp, atPropValue}},
	{"v08 path in a property", true, `{"id":"f","component":{"TextField":{"label":{"literalString":"Your name"},"text":{"path":"/name_1"},"action":{"name":"go","context":[{"key":"k","value":{"path":"/x"}},{"key":"l","value":{"literalString":"yy"}}]}}}}`, []resumePoint{atProp, atPropValue}},
	{"v08 pretty printed", true, "{\n  \"id\": \"p\",\n  \"component\": {\n    \"Text\": {\n      \"text\": {\n        \"literalString\": \"Tip: \\\"x\\\" -- see.\\nThanks!\"\n      },\n      \"usageHint\": \"body\"\n    }\n  }\n}", []resumePoint{atProp, atPropValue}},
}

// TestScanResumeMatchesFullScan heals each component cut at every byte,
// as sniffComponents does while it arrives, and reads each healed version
// with one scanner resuming from its checkpoints and with a fresh one from
// the start: they must agree on everything a scan's users read (with an
// empty list, the canonical rewrite included).
func TestScanResumeMatchesFullScan(t *testing.T) {
	checkScanResume(t, (*healer).heal)
}

// checkScanResume heals each resume case cut at every byte with heal and
// reads each healed version with one scanner resuming from its checkpoints
// and with a fresh one: they must agree, and each case's checkpoint kinds
// must be resumed from.
func checkScanResume(t *testing.T, heal func(*healer, []byte) ([]byte, bool)) {
	t.Helper()
	for _, tc := range resumeCases {
		t.Run(tc.name, func(t *testing.T) {
			var h healer
			var resumed compScanner
			used := map[resumePoint]bool{}
			for n := 1; n <= len(tc.comp); n++ {
				b, ok := heal(&h, []byte(tc.comp[:n]))
				if !ok {
					continue
				}
				b = slices.Clone(b)
				if m := resumed.mk; m.at != atNone && resumed.gen == 1 && resumed.start == 0 {
					used[m.at] = true
				}
				// (The bytes healing kept, as healOpenAt's real: what it
				// strips or appends never equals the next byte.)
				real := 0
				for real < len(b) && real < n && b[real] == tc.comp[real] {
					real++
				}
				got := scanState(&resumed, resumed.scanOpen(b, real, tc.v08, 1, 0))
				var fresh compScanner
				want := scanState(&fresh, fresh.scanOpen(b, real, tc.v08, 1, 0))
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

// TestScanResumeIdentity checks that a checkpoint is used only for the
// object it was taken in: another message generation or another start
// offset reads from the start.
func TestScanResumeIdentity(t *testing.T) {
	first := []byte(`{"id":"a","component":"Text","text":"xx","more":"yy"}`)
	second := []byte(`{"id":"bbbbbbbbbbbbbbbbbb","component":"Row","children":["c","d"],"zz":1}`)
	for _, tc := range []struct {
		name       string
		gen, start int
		v08        bool
	}{
		{"new message generation", 2, 0, false},
		{"other start offset", 1, 5, false},
		{"other family", 1, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c compScanner
			if c.scanAt(first, false, 1, 0); c.mk.at == atNone {
				t.Fatal("no checkpoint taken")
			}
			got := scanState(&c, c.scanAt(second, tc.v08, uint64(tc.gen), tc.start))
			var fresh compScanner
			if want := scanState(&fresh, fresh.scan(second, tc.v08)); got != want {
				t.Errorf("got %s, want %s", got, want)
			}
		})
	}
}

// resumeStreams are streams whose components arrive over many Feed calls.
var resumeStreams = []struct {
	name string
	in   string
}{
	{"v09 components", `Intro <a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` +
		`{"id":"root","component":"Column","children":["t","c-01","c-02","c-03","c-04","c-05","c-06","c-07","c-08","c-09","c-10","c-11","c-12","c-13","c-14","c-15","esc","dup","many"]},` +
		`{"id":"t","component":"Text","text":"Hello, world","variant":"h2"},` +
		`{ "id" : "c-01" ,` + "\n\t" + `"component" : "Row" , "children" : [ "c-02" ,` + "\r\n" + ` "c-03" ] , "gap" : -1.5e3 },` +
		`{"id":"esc","component":"Text","text":"q\"uote\\ \u00e9, ok]}","alt":"a,b"},` +
		`{"id":"dup","component":"Text","text":"a","size":1,"text":"b"},` +
		`{"id":"many","component":"Text"` + manyKeys(40) + `},` +
		`{"id":"c-02","component":"Card","child":"c-04"}` +
		`]}}]</a2ui-json> outro`},
	{"v08 components", `<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"root"}},{"surfaceUpdate":{"surfaceId":"s","components":[` +
		`{"id":"root","component":{"Column":{"children":{"explicitList":["a","b","c","d","e","f"]},"alignment":"center"}}},` +
		`{"id":"a","component":{"Text":{"text":{"literalString":"Hello, there"},"usageHint":"h2","max":3}}},` +
		`{"id":"b","component":{"Button":{"child":"bt","action":{"name":"go","context":[{"key":"k","value":{"path":"/x"}}]}}},"weight":2},` +
		`{"id":"c","component":{"Text":{"text":{"literalString":"x"},"usageHint":"h1","usageHint":"h2"}}},` +
		`{"id":"d","component":{"Text":{` + manyKeys(40)[1:] + `}}},` +
		`{"id":"e","component":{"Row":{"children":{"explicitList":["a", "b" , "c"]} , "gap" : 1 }}}` +
		`]}}]</a2ui-json>`},
}

// TestDeltaResumedScansMatchFullScans feeds streams in small chunks, in
// both progressive modes, once as is and once dropping the component
// scanner's checkpoint before every Feed (so that every read starts from
// the component's first byte): the output must be the same, byte for byte.
func TestDeltaResumedScansMatchFullScans(t *testing.T) {
	checkSameWithHook(t, resumeStreams, "resumed scans", "full scans", dropCheckpoint)
}

// checkSameWithHook feeds streams, and turns 0, 7 and 99 of both corpora,
// in chunks of 1, 3 and 16 bytes, in both progressive modes, once as is
// (as) and once calling hook on the engine before every Feed and before
// Close (hooked): the outputs must be the same, byte for byte.
func checkSameWithHook(t *testing.T, named []struct{ name, in string }, as, hooked string, hook func(e *progressiveEngine)) {
	type stream struct {
		name string
		in   []byte
	}
	var streams []stream
	for _, s := range named {
		streams = append(streams, stream{s.name, []byte(s.in)})
	}
	for _, corpus := range []string{"stream_v09", "stream_v08"} {
		for i, turn := range corpusTurns(t, corpus, 0, 7, 99) {
			streams = append(streams, stream{fmt.Sprintf("%s turn %d", corpus, i), turn})
		}
	}
	for _, s := range streams {
		for _, mode := range []Mode{ModeProgressive, ModeDelta} {
			for _, n := range []int{1, 3, 16} {
				t.Run(fmt.Sprintf("%s/%s/chunk%d", s.name, mode, n), func(t *testing.T) {
					chunks := chunked(s.in, n)
					opts := []Option{WithMode(mode)}
					got, want := hookedRun(t, opts, chunks, nil), hookedRun(t, opts, chunks, hook)
					if got != want {
						t.Fatalf("%s:\n%s\n%s:\n%s", as, got, hooked, want)
					}
				})
			}
		}
	}
}
