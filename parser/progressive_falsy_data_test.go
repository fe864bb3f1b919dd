package parser

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// TestProgressiveDeliversFalsyEntries: a v0.8 data entry whose value is
// false, 0 or "" is delivered in every mode at every chunk size, also when
// an earlier entry of the same message was already yielded by a sniff. The
// reference's de-duplication looks only at truthy values: it sees nothing
// new in the complete message and skips it, losing the entry.
func TestProgressiveDeliversFalsyEntries(t *testing.T) {
	cases := []struct {
		name, entry, key, want string
	}{
		{"valueBoolean false", `{"key": "b", "valueBoolean": false}`, "b", "valueBoolean:false"},
		{"valueNumber zero", `{"key": "n", "valueNumber": 0}`, "n", "valueNumber:0"},
		{"valueString empty", `{"key": "s", "valueString": ""}`, "s", `valueString:""`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := `<a2ui-json>{"dataModelUpdate": {"surfaceId": "s", "contents": [{"key": "a", "valueString": "x"}, ` + tc.entry + `]}}</a2ui-json>`
			for _, mode := range []Mode{ModeProgressive, ModeDelta} {
				for chunk := 1; chunk <= len(in); chunk++ {
					if !delivers(t, mode, in, chunk, tc.key, tc.want) {
						t.Fatalf("%v, chunk %d: entry %s never delivered", mode, chunk, tc.key)
					}
				}
			}
		})
	}
}

// delivers reports whether a yielded message holds the entry key with the
// value want ("field:json").
func delivers(t *testing.T, mode Mode, in string, chunk int, key, want string) bool {
	t.Helper()
	p, err := New(WithMode(mode))
	if err != nil {
		t.Fatal(err)
	}
	field, val, _ := strings.Cut(want, ":")
	found := false
	check := func(parts []Part, err error) {
		if err != nil {
			t.Fatalf("%v, chunk %d: %v", mode, chunk, err)
		}
		for _, part := range parts {
			for _, m := range part.Messages {
				gjson.GetBytes(m, "dataModelUpdate.contents").ForEach(func(_, e gjson.Result) bool {
					if e.Get("key").String() == key && e.Get(field).Exists() && e.Get(field).Raw == val {
						found = true
					}
					return true
				})
			}
		}
	}
	for i := 0; i < len(in); i += chunk {
		check(p.Feed([]byte(in[i:min(i+chunk, len(in))])))
	}
	check(p.Close())
	return found
}
