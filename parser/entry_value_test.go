package parser

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
	"github.com/a2ui-stream/a2ui-stream/internal/speccatalog"
)

// valueStreams are components whose reads resume inside a member's value
// (entry_value.go): long strings, escapes and multi-byte characters cut
// anywhere, numbers cut, nested objects and lists, child fields and paths
// inside values, a pretty-printed v0.8 definition.
var valueStreams = []struct {
	name string
	v08  bool
	in   string
}{
	{"v09 values", false, `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` +
		`{"id":"root","component":"Column","children":["t","e","b","n","x"]},` +
		`{"id":"t","component":"Text","text":"` + strings.Repeat("a long text, arriving in many chunks; ", 3) + `","variant":"body"},` +
		`{"id":"e","component":"Text","text":"q\"uote\\ \u00e9 é日本語🙂 \n\t\/ ok, \"end\"","variant":"h2"},` +
		`{"id":"b","component":"Button","action":{"event":{"name":"next","context":{"code_1":{"path":"/code_1"},"n":[1,-2.5e3,[true,null,{"k":"v"}],"x"]}}},"child":"t"},` +
		`{"id":"n","component":"Slider","min":-12345.678e-9,"max":98765,"value":{"a":[1234567,0.000001,-0]}},` +
		`{"id":"x","component":"Tabs","style":{"a":"bb","tabs":[{"title":"t","child":"c"}],"z":"long string value"},"t":"u"}` +
		`]}}]</a2ui-json>`},
	{"v08 values", true, `<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"root"}},{"surfaceUpdate":{"surfaceId":"s","components":[` +
		`{"id":"root","component":{"Column":{"children":{"explicitList":["t","f","p"]}}}},` +
		`{"id":"t","component":{"Text":{"text":{"literalString":"` + strings.Repeat("Hello, wörld 日本 ", 4) + `"},"usageHint":"h2"}}},` +
		`{"id":"f","component":{"TextField":{"label":{"literalString":"Your name"},"text":{"path":"/name_1"},"action":{"name":"go","context":[{"key":"k","value":{"path":"/x"}},{"key":"l","value":{"literalString":"yy"}}]}}}},` +
		"{\n  \"id\": \"p\",\n  \"component\": {\n    \"Text\": {\n      \"text\": {\n        \"literalString\": \"Tip: \\\"x\\\" -- see.\\nThanks!\"\n      },\n      \"usageHint\": \"body\"\n    }\n  }\n}" +
		`]}}]</a2ui-json>`},
	{"v08 pretty printed", true, "<a2ui-json>[{\"beginRendering\":{\"surfaceId\":\"s\",\"root\":\"q\"}},{\"surfaceUpdate\":{\"surfaceId\":\"s\",\"components\":[" +
		"{\n  \"id\": \"q\",\n  \"component\": {\n    \"Column\": {\n      \"value\": {\n        \"literalNumber\": 12.5e1\n      },\n      \"children\": {\n        \"explicitList\": [\n          \"a\"\n        ]\n      },\n      \"range\": [\n        1,\n        20\n      ],\n      \"max\": 100\n    }\n  },\n  \"weight\": 3\n}," +
		"{\n  \"id\": \"a\",\n  \"component\": {\n    \"Text\": {\n      \"text\": {\n        \"literalString\": \"Hi\"\n      },\n      \"n\": true\n    }\n  }\n}" +
		`]}}]</a2ui-json>`},
	{"v09 pretty printed", false, "<a2ui-json>[{\"version\":\"v0.9\",\"createSurface\":{\"surfaceId\":\"s\",\"catalogId\":\"c\"}},{\"version\":\"v0.9\",\"updateComponents\":{\"surfaceId\":\"s\",\"components\":[" +
		"{\n  \"id\": \"root\",\n  \"component\": \"Column\",\n  \"children\": [\n    \"a\"\n  ],\n  \"gap\": 4\n}," +
		"{\n  \"id\": \"a\",\n  \"component\": \"Text\",\n  \"style\": {\n    \"n\": 12,\n    \"m\": [\n      1,\n      true\n    ],\n    \"s\": \"x\"\n  },\n  \"size\": 3 ,\n  \"wrap\": false\n}" +
		`]}}]</a2ui-json>`},
}

// TestResumedValuesMatchFullScans feeds valueStreams split at every byte
// and one byte at a time, in both progressive modes, with and without a
// catalog, once as is and once dropping the component scanner's
// checkpoint before every Feed: the output must be the same, byte for
// byte.
func TestResumedValuesMatchFullScans(t *testing.T) {
	for _, s := range valueStreams {
		cats := []Option{nil, WithCatalog(speccatalog.BasicV09(t))}
		if s.v08 {
			cats[1] = WithCatalog(speccatalog.StandardV08(t))
		}
		for ci, cat := range cats {
			for _, mode := range []Mode{ModeProgressive, ModeDelta} {
				t.Run(fmt.Sprintf("%s/%s/catalog%d", s.name, mode, ci), func(t *testing.T) {
					opts := []Option{WithMode(mode)}
					if cat != nil {
						opts = append(opts, cat)
					}
					for _, chunks := range splitsOf([]byte(s.in), true, 1) {
						got, want := hookedRun(t, opts, chunks, nil), hookedRun(t, opts, chunks, dropCheckpoint)
						if got != want {
							t.Fatalf("split %d:\nresumed:\n%s\nfull scans:\n%s", len(chunks[0]), got, want)
						}
					}
				})
			}
		}
	}
}

// hookedRun feeds chunks to a parser with opts and renders its output,
// calling hook (when not nil) on the engine before every Feed and before
// Close.
func hookedRun(t *testing.T, opts []Option, chunks [][]byte, hook func(e *progressiveEngine)) string {
	p, err := New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	e := progressiveOf(t, p.eng)
	var b strings.Builder
	write := func(parts []Part, err error) {
		for _, pt := range parts {
			fmt.Fprintf(&b, "text=%q\n", pt.Text)
			for _, m := range pt.Messages {
				fmt.Fprintf(&b, "msg=%s\n", m)
			}
		}
		fmt.Fprintf(&b, "err=%v\n--\n", err)
	}
	for _, c := range chunks {
		if hook != nil {
			hook(e)
		}
		write(p.Feed(c))
	}
	if hook != nil {
		hook(e)
	}
	write(p.Close())
	return b.String()
}

// dropCheckpoint drops the component scanner's checkpoint: the next read
// starts from the component's first byte.
func dropCheckpoint(e *progressiveEngine) { e.cs.mk.at = atNone }

// TestReaderOutputIsCompact checks the reader's output against its input,
// not against another read: at every cut of resumeCases and of
// pretty-printed components, healed, the output of a read that resumes
// and of a fresh read is compact (no whitespace kept) and the same value
// as the healed bytes. (A reader that writes its output as runs of its
// input must end a run at every byte it skips.)
func TestReaderOutputIsCompact(t *testing.T) {
	comps := []struct {
		name string
		v08  bool
		comp string
	}{
		{"v09 pretty printed", false, "{\n  \"id\": \"a\",\n  \"component\": \"Text\",\n  \"style\": {\n    \"n\": 12 ,\n    \"m\": [\n      1,\n      true , \"z\"\n    ],\n    \"s\": \"x\"\n  },\n  \"children\" : [ \"b\" , \"c\" ],\n  \"size\": 3 ,\n  \"wrap\": false\n}"},
		{"v08 pretty printed list", true, "{\n  \"id\": \"q\",\n  \"component\": {\n    \"Column\": {\n      \"value\": {\n        \"literalNumber\": 12.5e1\n      },\n      \"children\": {\n        \"explicitList\": [\n          \"a\" ,\n \"b\"\n        ]\n      },\n      \"range\": [\n        1,\n        20\n      ]\n    }\n  },\n  \"weight\": 3\n}"},
	}
	for _, tc := range resumeCases {
		comps = append(comps, struct {
			name string
			v08  bool
			comp string
		}{tc.name, tc.v08, tc.comp})
	}
	var cw canonWriter
	for _, tc := range comps {
		t.Run(tc.name, func(t *testing.T) {
			var h healer
			var resumed compScanner
			for n := 1; n <= len(tc.comp); n++ {
				b, ok := h.healComponent([]byte(tc.comp[:n]))
				if !ok {
					continue
				}
				b = slices.Clone(b)
				real := 0
				for real < len(b) && real < n && b[real] == tc.comp[real] {
					real++
				}
				var fresh compScanner
				for _, c := range []*compScanner{&resumed, &fresh} {
					if c.scanOpen(b, real, tc.v08, 1, 0) != compFast {
						continue
					}
					if compact := jsonwire.AppendCompact(nil, c.out); string(compact) != string(c.out) {
						t.Fatalf("cut at %d, healed %s: output %s is not compact", n, b, c.out)
					}
					got, _ := cw.canonical(nil, c.out)
					want, _ := cw.canonical(nil, b)
					if string(got) != string(want) {
						t.Fatalf("cut at %d, healed %s: output %s, another value", n, b, c.out)
					}
				}
			}
		})
	}
}
