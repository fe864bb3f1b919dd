package processor_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/processor"
)

// listFromBytes turns fuzz input into a list of messages built from a small
// vocabulary (three surfaces, a handful of component ids and paths), so
// that lists hit every rule: duplicates, cycles, forward references, type
// changes, writes through primitives, removals, deletes and recreates,
// unknown surfaces, v0.8 messages and malformed ones.
func listFromBytes(in []byte) []json.RawMessage {
	pos := 0
	next := func(n int) int {
		if pos >= len(in) {
			return 0
		}
		b := int(in[pos])
		pos++
		return b % n
	}
	surfaces := []string{"s0", "s1", "s2"}
	ids := []string{"root", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"}
	types := []string{"Text", "Card", "Column", "Divider"}
	paths := []string{"/", "/x", "/x/y", "/x/0", "/arr/1", "/arr/x", "/a~1b", "/x/y/z", "", "/~2"}
	values := []string{`1`, `"s"`, `null`, `{"y":{"z":1}}`, `[1,2,3]`, `{}`, `true`, "-"}
	component := func() string {
		id := ids[next(len(ids))]
		typ := types[next(len(types))]
		c := `{"id":"` + id + `","component":"` + typ + `"`
		switch typ {
		case "Card":
			c += `,"child":"` + ids[next(len(ids))] + `"`
		case "Column":
			c += `,"children":["` + ids[next(len(ids))] + `","` + ids[next(len(ids))] + `"]`
		case "Text":
			c += `,"text":"t` + fmt.Sprint(next(4)) + `"`
		}
		return c + "}"
	}
	var out []json.RawMessage
	n := 1 + next(24)
	for range n {
		sid := surfaces[next(len(surfaces))]
		var m string
		switch next(10) {
		case 0, 1:
			m = create(sid)
			if next(2) == 0 {
				m = createSend(sid)
			}
		case 2, 3:
			k := 1 + next(4)
			cs := make([]string, k)
			for i := range cs {
				cs[i] = component()
			}
			m = comps(sid, cs...)
		case 4, 5, 6:
			m = data(sid, paths[next(len(paths))], values[next(len(values))])
		case 7:
			m = del(sid)
		case 8:
			switch next(3) {
			case 0:
				m = `{"surfaceUpdate":{"surfaceId":"` + sid + `","components":[{"id":"` + ids[next(len(ids))] + `","component":{"Card":{"child":"` + ids[next(len(ids))] + `"}}}]}}`
			case 1:
				m = `{"dataModelUpdate":{"surfaceId":"` + sid + `","path":"` + strings.TrimPrefix(paths[next(len(paths))], "/") + `","contents":[{"key":"k","valueString":"v"}]}}`
			default:
				m = `{"beginRendering":{"surfaceId":"` + sid + `","root":"` + ids[next(len(ids))] + `"}}`
			}
		default:
			bad := []string{`{`, `[]`, `{"version":"v0.9"}`, `{"version":"v0.10","callFunction":{}}`, `{"version":"v0.9","deleteSurface":{"surfaceId":1}}`}
			m = bad[next(len(bad))]
		}
		out = append(out, json.RawMessage(m))
	}
	return out
}

// FuzzProcessList checks, over random lists, that processing never panics
// and that the state after a list equals the state after applying only its
// valid messages (a failed message leaves no trace), and that the valid
// messages all apply again on their own.
func FuzzProcessList(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{5, 0, 0, 2, 0, 1, 1, 0, 0, 4, 0, 1, 0})
	f.Add([]byte{11, 0, 0, 0, 2, 0, 3, 1, 1, 0, 2, 0, 3, 2, 1, 4, 0, 2, 3, 4, 0, 3, 3, 7, 0, 0, 9, 0, 1})
	f.Add([]byte("the quick brown fox jumps over the lazy dog"))
	f.Add([]byte{200, 17, 3, 99, 250, 1, 42, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Fuzz(func(t *testing.T, in []byte) {
		list := listFromBytes(in)
		full, err := processor.New()
		if err != nil {
			t.Fatal(err)
		}
		b := full.ProcessList(list)
		var valid []json.RawMessage
		for i, r := range b.Results {
			if r.OK {
				valid = append(valid, list[i])
			}
		}
		only, _ := processor.New()
		b2 := only.ProcessList(valid)
		if b2.Failed != 0 {
			t.Fatalf("valid messages failed on their own: %v\nlist: %s", b2.Errors(), joinList(list))
		}
		s1, err1 := stateJSON(full, nil)
		s2, err2 := stateJSON(only, nil)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if string(s1) != string(s2) {
			t.Fatalf("state differs from the valid messages' state\nlist: %s\nfull: %s\nvalid only: %s", joinList(list), s1, s2)
		}
	})
}

// FuzzMessage feeds arbitrary bytes as one message: never a panic, and a
// failure changes nothing.
func FuzzMessage(f *testing.F) {
	for _, s := range []string{create("s"), comps("s", `{"id":"root","component":"Text"}`), data("s", "/a/0", "1"), del("s"),
		`{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"a","valueMap":[{"key":"b","valueString":"[1]"}]}]}}`,
		`{"beginRendering":{"surfaceId":"s","root":"r","styles":{}}}`, `[`, `{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/a~","value":1}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		p, _ := processor.New()
		mustApply(t, p, create("s"), data("s", "/a", `[{"b":1}]`))
		before := state(t, p)
		b := p.ProcessList([]json.RawMessage{in})
		if !b.Results[0].OK && state(t, p) != before {
			t.Fatalf("failed message changed the state: %q", in)
		}
	})
}

func joinList(list []json.RawMessage) string {
	parts := make([]string, len(list))
	for i, m := range list {
		parts[i] = string(m)
	}
	return strings.Join(parts, "\n")
}
