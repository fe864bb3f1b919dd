package parser

import (
	"flag"
	"math/rand"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/speccatalog"
)

var skipStreams = flag.Int("skip.streams", 0, "random streams of TestSkippedComponentsRandomMatchRecorded (0: 120, 30 with -short; more must be recorded first)")

// TestUnregistrableComponentSkipped: a component with no usable id (none,
// no string, empty) or no type (no "component", an empty one, v0.9: no
// string, v0.8: no object) is never registered nor yielded, healed or
// complete: its child stays a placeholder. (The parser's previous engine
// once registered one with an empty id or no type when its message
// completed.)
func TestUnregistrableComponentSkipped(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"v09_no_component", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"children":["a","b"],"component":"Column","id":"root"},{"id":"b","text":"nob"},{"component":"Text","id":"a","text":"x"}]}}]</a2ui-json>`},
		{"v09_empty_type", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"children":["a","b"],"component":"Column","id":"root"},{"component":"","id":"b","text":"nob"},{"component":"Text","id":"a","text":"x"}]}}]</a2ui-json>`},
		{"v09_empty_id", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"children":["a",""],"component":"Column","id":"root"},{"component":"Text","id":"","text":"nob"},{"component":"Text","id":"a","text":"x"}]}}]</a2ui-json>`},
		{"v09_number_id", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"children":["a","7"],"component":"Column","id":"root"},{"component":"Text","id":7,"text":"nob"},{"component":"Text","id":null,"text":"nob"},{"component":"Text","id":"a","text":"x"}]}}]</a2ui-json>`},
		{"v09_object_type", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"children":["a","b"],"component":"Column","id":"root"},{"component":{"Text":{"text":"nob"}},"id":"b"},{"component":"Text","id":"a","text":"x"}]}}]</a2ui-json>`},
		{"v09_number_type", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"children":["a","b"],"component":"Column","id":"root"},{"component":7,"id":"b","text":"nob"},{"component":"Text","id":"a","text":"x"}]}}]</a2ui-json>`},
		{"v08_string_type", fastCSv08 + `{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Column":{"children":{"explicitList":["a","b"]}}},"id":"root"},{"component":"Text","id":"b","nob":1},{"component":{"Text":{"text":{"literalString":"x"}}},"id":"a"}]}}]</a2ui-json>`},
		{"v08_no_component", fastCSv08 + `{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Column":{"children":{"explicitList":["a","b"]}}},"id":"root"},{"id":"b","weight":1,"nob":1},{"component":{"Text":{"text":{"literalString":"x"}}},"id":"a"}]}}]</a2ui-json>`},
		{"v08_empty_id", `<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":""}},{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Text":{"text":{"literalString":"nob"}}},"id":""}]}}]</a2ui-json>`},
		{"v08_list_id", fastCSv08 + `{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Column":{"children":{"explicitList":["a"]}}},"id":"root"},{"component":{"Text":{"text":{"literalString":"nob"}}},"id":["a"]},{"component":{"Text":{"text":{"literalString":"x"}}},"id":"a"}]}}]</a2ui-json>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte(tc.in)
			for _, mode := range []Mode{ModeProgressive, ModeDelta} {
				for _, n := range []int{1, len(in)} {
					out := strings.Join(renderRaw(t, newPathParser(t, []Option{WithMode(mode)}), chunked(in, n)), "\n")
					if strings.Contains(out, "nob") {
						t.Errorf("%s, chunks of %d: the component was yielded:\n%s", mode, n, out)
					}
					if strings.Contains(out, "error=") {
						t.Errorf("%s, chunks of %d: an error:\n%s", mode, n, out)
					}
				}
			}
		})
	}
}

// skipShapes are streams with components that are skipped, or whose type
// keeps an escape, beside common ones (keys in order, see
// byteLevelShapes).
var skipShapes = []byteShape{
	{"v09_skipped_among_others", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"children":["a","b"],"component":"Column","id":"root"},{"component":"Text","id":7,"text":"n"},{"component":"","id":"b"},{"id":"b","text":"t"},{"component":"Text","id":"","text":"e"},{"component":"Text","id":"a","text":"x"}]}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Text","id":"b","text":"late"}]}}]</a2ui-json>`},
	{"v09_type_keeps_escape", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"child":"b","component":"Ca\u0001rd","id":"root"},{"component":"T\"x","id":"b","text":"q"}]}}]</a2ui-json>`},
	{"v08_skipped_among_others", fastCSv08 + `{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Column":{"children":{"explicitList":["a","b"]}}},"id":"root"},{"component":{"Text":{"text":{"literalString":"n"}}},"id":false},{"id":"b","weight":2},{"component":{"Text":{"text":{"literalString":"e"}}},"id":""},{"component":{"Text":{"text":{"literalString":"x"}}},"id":"a"}]}},{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Text":{"text":{"literalString":"late"}}},"id":"b"}]}}]</a2ui-json>`},
}

// TestSkippedComponentsMatchRecorded: the skip shapes give, call by call,
// their recorded bytes (see golden_paths_test.go), both modes, one byte at
// a time, split at every byte and at a few chunk sizes, with and without
// a catalog.
func TestSkippedComponentsMatchRecorded(t *testing.T) {
	t.Parallel()
	checkByteLevelShapes(t, skipShapes)
}

// TestSkippedComponentsRandomMatchRecorded: random streams of components
// that are skipped (ids of every JSON kind, empty, none; no or an empty
// type), whose type keeps an escape, or that are common, give their
// recorded bytes (-skip.streams sets how many).
func TestSkippedComponentsRandomMatchRecorded(t *testing.T) {
	t.Parallel()
	v09, v08 := WithCatalog(speccatalog.BasicV09(t)), WithCatalog(speccatalog.StandardV08(t))
	g := newPathGolden(t)
	n := g.randomStreams(*skipStreams, 120)
	checkRandomRecorded(t, g, n, randomSkipStream, func(v08mode bool) []Option {
		if v08mode {
			return []Option{v08}
		}
		return []Option{v09}
	})
}

// randomSkipStream is a surface start and blocks of components with keys
// in order (see byteLevelShapes), some of which are skipped.
func randomSkipStream(seed int64, v08 bool) []byte {
	r := rand.New(rand.NewSource(seed))
	ids := []string{`"root"`, `"a"`, `"b"`, `"c"`}
	badIDs := []string{`""`, `7`, `-1.5`, `null`, `true`, `false`, `["a"]`, `{"a":"b"}`, `{}`, `[]`}
	pick := func(l []string) string { return l[r.Intn(len(l))] }
	comp := func() string {
		m := map[string]string{}
		id := pick(ids)
		switch r.Intn(4) {
		case 0:
			m["id"] = pick(badIDs)
		case 1:
			// no id
		default:
			m["id"] = id
		}
		kids := `["a","b","c"]`
		if v08 {
			switch r.Intn(4) {
			case 0: // no component
				m["weight"] = "1"
			case 1:
				m["component"] = `{"Text":{"text":{"literalString":"x"}}}`
			default:
				m["component"] = `{"Column":{"children":{"explicitList":` + kids + `}}}`
			}
			return sortedObject(m)
		}
		switch r.Intn(6) {
		case 0: // no component
		case 1:
			m["component"] = `""`
		case 2:
			m["component"] = pick([]string{`"T\u0001"`, `"Ca\"rd"`, `"Te\\xt"`})
		case 3:
			m["component"] = `"Text"`
			m["text"] = `"t"`
		default:
			m["component"] = `"Column"`
			m["children"] = kids
		}
		if r.Intn(3) == 0 {
			m["child"] = pick(ids)
		}
		return sortedObject(m)
	}
	var b strings.Builder
	writeSurfaceStart(&b, v08)
	for range 1 + r.Intn(3) {
		var cs []string
		for range 1 + r.Intn(4) {
			cs = append(cs, comp())
		}
		writeComponentBlock(&b, v08, cs)
	}
	return []byte(b.String())
}

// familyUnknownShapes are streams whose first components arrive while the
// family is unknown (a kind key the reference's pattern does not see: an
// escaped one, or space before its colon).
var familyUnknownShapes = []byteShape{
	{"v09_escaped_kind_first", `<a2ui-json>[{"version":"v0.9","update\u0043omponents":{"surfaceId":"s","components":[{"children":["a","b"],"component":"Column","id":"root"},{"component":"Text","id":"a","text":"x"}]}},{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Text","id":"b","text":"y"}]}}]</a2ui-json>`},
	{"v08_spaced_kind_first", `<a2ui-json>[{"surfaceUpdate" : {"surfaceId":"s","components":[{"component":{"Column":{"children":{"explicitList":["a","b"]}}},"id":"root"},{"component":{"Text":{"text":{"literalString":"x"}}},"id":"a"}]}},{"beginRendering":{"surfaceId":"s","root":"root"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Text":{"text":{"literalString":"y"}}},"id":"b"}]}}]</a2ui-json>`},
}

// TestFamilyUnknownMatchRecorded: those streams give, call by call, their
// recorded bytes, both modes, one byte at a time, split at every byte and
// at a few chunk sizes, with and without a catalog.
func TestFamilyUnknownMatchRecorded(t *testing.T) {
	t.Parallel()
	checkByteLevelShapes(t, familyUnknownShapes)
}
