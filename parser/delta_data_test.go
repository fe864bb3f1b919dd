package parser

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestDeltaDataYields pins down delta mode's data model yields: a
// message's first yield whole, its later yields entry by entry at the
// entries' own paths (v0.9), whole when an entry cannot be addressed
// (v0.8, the empty key), and nothing the complete messages would not
// leave. Each case is fed as steps, whose yields are pinned, and byte by
// byte; both must parse without error, and applying either's yields must
// leave the complete messages' data.
func TestDeltaDataYields(t *testing.T) {
	const cs = `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},`
	cases := []struct {
		name  string
		steps []string
		want  []string // the data model messages yielded, in order
	}{
		{
			name:  "entries of one message at their own paths",
			steps: []string{cs + `{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/u","value":{"a":"one",`, `"b":"two",`, `"c":{"d":1}}}}]</a2ui-json>`},
			want: []string{
				`{"updateDataModel":{"path":"/u","surfaceId":"s","value":{"a":"one"}},"version":"v0.9"}`,
				`{"updateDataModel":{"path":"/u/b","surfaceId":"s","value":"two"},"version":"v0.9"}`,
				`{"updateDataModel":{"path":"/u/c","surfaceId":"s","value":{"d":1}},"version":"v0.9"}`,
			},
		},
		{
			name:  "a key with a slash or a tilde",
			steps: []string{cs + `{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/","value":{"a":1,`, `"x/y~z":2}}}]</a2ui-json>`},
			want: []string{
				`{"updateDataModel":{"path":"/","surfaceId":"s","value":{"a":1}},"version":"v0.9"}`,
				`{"updateDataModel":{"path":"/x~1y~0z","surfaceId":"s","value":2},"version":"v0.9"}`,
			},
		},
		{
			name:  "the empty key takes the whole value",
			steps: []string{cs + `{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":{"a":1,`, `"":2}}}]</a2ui-json>`},
			want: []string{
				`{"updateDataModel":{"surfaceId":"s","value":{"a":1}},"version":"v0.9"}`,
				`{"updateDataModel":{"surfaceId":"s","value":{"":2,"a":1}},"version":"v0.9"}`,
			},
		},
		{
			name: "a later message replaces what an earlier one left",
			steps: []string{
				cs + `{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/x","value":{"k":"v","j":"w"}}}]</a2ui-json>`,
				`<a2ui-json>[{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/x","value":{"k":"v"}}}]</a2ui-json>`,
			},
			want: []string{
				`{"updateDataModel":{"path":"/x","surfaceId":"s","value":{"j":"w","k":"v"}},"version":"v0.9"}`,
				`{"updateDataModel":{"path":"/x","surfaceId":"s","value":{"k":"v"}},"version":"v0.9"}`,
			},
		},
		{
			name: "a later message's first yield carries every entry read so far",
			steps: []string{
				cs + `{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/u","value":{"name":"Ada",`,
				`"city":"Paris"}}},`,
				`{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/u","value":{"name":"Ada",`,
				`"city":"Rome"}}}]</a2ui-json>`,
			},
			want: []string{
				`{"updateDataModel":{"path":"/u","surfaceId":"s","value":{"name":"Ada"}},"version":"v0.9"}`,
				`{"updateDataModel":{"path":"/u/city","surfaceId":"s","value":"Paris"},"version":"v0.9"}`,
				`{"updateDataModel":{"path":"/u","surfaceId":"s","value":{"name":"Ada"}},"version":"v0.9"}`,
				`{"updateDataModel":{"path":"/u/city","surfaceId":"s","value":"Rome"},"version":"v0.9"}`,
			},
		},
		{
			name: "a removal is yielded",
			steps: []string{
				cs + `{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/x","value":"gone"}},`,
				`{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/x"}}]</a2ui-json>`,
			},
			want: []string{
				`{"updateDataModel":{"path":"/x","surfaceId":"s","value":"gone"},"version":"v0.9"}`,
				`{"updateDataModel":{"path":"/x","surfaceId":"s"},"version":"v0.9"}`,
			},
		},
		{
			name: "v0.8 contents pass whole",
			steps: []string{
				`<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"root"}},{"dataModelUpdate":{"surfaceId":"s","path":"/u","contents":[{"key":"a","valueString":"one"},`,
				`{"key":"b","valueString":"two"}]}},`,
				`{"dataModelUpdate":{"surfaceId":"s","path":"/u","contents":[{"key":"a","valueString":"one"}]}}]</a2ui-json>`,
			},
			want: []string{
				`{"dataModelUpdate":{"contents":[{"key":"a","valueString":"one"}],"path":"/u","surfaceId":"s"}}`,
				`{"dataModelUpdate":{"contents":[{"key":"a","valueString":"one"},{"key":"b","valueString":"two"}],"path":"/u","surfaceId":"s"}}`,
				`{"dataModelUpdate":{"contents":[{"key":"a","valueString":"one"}],"path":"/u","surfaceId":"s"}}`,
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var steps [][]byte
			for _, s := range tc.steps {
				steps = append(steps, []byte(s))
			}
			whole := bytes.Join(steps, nil)
			byStep, errs := runMode(t, ModeDelta, nil, steps)
			if errs != 0 {
				t.Fatalf("%d errors", errs)
			}
			if got := dataMessagesOf(byStep); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("data model yields:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			complete, errs := runMode(t, ModeComplete, nil, [][]byte{whole})
			if errs != 0 {
				t.Fatalf("complete mode: %d errors", errs)
			}
			for _, n := range []int{1, 0} {
				msgs := byStep
				if n > 0 {
					if msgs, errs = runMode(t, ModeDelta, nil, chunked(whole, n)); errs != 0 {
						t.Fatalf("chunks of %d: %d errors", n, errs)
					}
				}
				if err := diffStates("data (complete vs delta)", applyAll(t, complete).data, applyAll(t, msgs).data); err != nil {
					t.Fatalf("chunks of %d: %v", n, err)
				}
			}
		})
	}
}

// dataMessagesOf returns the data model messages among msgs.
func dataMessagesOf(msgs []json.RawMessage) []string {
	var out []string
	for _, m := range msgs {
		if bytes.Contains(m, []byte(`"updateDataModel"`)) || bytes.Contains(m, []byte(`"dataModelUpdate"`)) {
			out = append(out, string(m))
		}
	}
	return out
}
