package parser

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// feedSteps feeds steps to a parser and returns every message and error.
func feedSteps(t *testing.T, p *Parser, steps ...string) (msgs []string, errs []error) {
	t.Helper()
	for _, s := range steps {
		parts, err := p.Feed([]byte(s))
		if err != nil {
			errs = append(errs, err)
		}
		for _, pt := range parts {
			for _, m := range pt.Messages {
				msgs = append(msgs, string(m))
			}
		}
	}
	parts, err := p.Close()
	if err != nil {
		errs = append(errs, err)
	}
	for _, pt := range parts {
		for _, m := range pt.Messages {
			msgs = append(msgs, string(m))
		}
	}
	return msgs, errs
}

func TestProgressiveCases(t *testing.T) {
	tests := []struct {
		name    string
		opts    []Option
		steps   []string
		want    []string // substrings of the messages, in order
		wantErr error    // errors.Is target, or nil
		errText string   // substring of the error text
	}{
		{
			name: "version_string_preserved_for_later_versions",
			steps: []string{
				`<a2ui-json>[{"version":"v0.10","createSurface":{"surfaceId":"s","catalogId":"c"}},`,
				`{"version":"v0.10","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"hel`,
				`lo"}]}}]</a2ui-json>`,
			},
			want: []string{
				`{"createSurface":{"catalogId":"c","surfaceId":"s"},"version":"v0.10"}`,
				`{"updateComponents":{"components":[{"component":"Text","id":"root","text":"hel"}],"surfaceId":"s"},"version":"v0.10"}`,
				`{"updateComponents":{"components":[{"component":"Text","id":"root","text":"hello"}],"surfaceId":"s"},"version":"v0.10"}`,
			},
		},
		{
			name: "bare_object_without_list",
			steps: []string{
				`<a2ui-json>{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}}</a2ui-json>`,
				`<a2ui-json>{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"x"}]}}</a2ui-json>`,
			},
			want: []string{
				`"createSurface"`,
				`{"updateComponents":{"components":[{"component":"Text","id":"root","text":"x"}],"surfaceId":"s"},"version":"v0.9"}`,
			},
		},
		{
			name: "jsonl_framing_with_empty_lines",
			opts: []Option{WithFraming(FramingJSONL)},
			steps: []string{
				"{\"version\":\"v0.9\",\"createSurface\":{\"surfaceId\":\"s\",\"catalogId\":\"c\"}}\n\n",
				"{\"version\":\"v0.9\",\"updateComponents\":{\"surfaceId\":\"s\",\"components\":[{\"id\":\"root\",\"component\":\"Card\",\"child\":\"c1\"}]}}\n",
			},
			want: []string{
				`"createSurface"`,
				`{"updateComponents":{"components":[{"child":"loading_c1","component":"Card","id":"root"},{"children":[],"component":"Row","id":"loading_c1"}],"surfaceId":"s"},"version":"v0.9"}`,
			},
		},
		{
			name: "sniffed_data_model_keeps_path",
			steps: []string{
				`<a2ui-json>[{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/user","value":{"name":"Ada","city":"Par`,
				`is"}}}]</a2ui-json>`,
			},
			want: []string{
				`{"updateDataModel":{"path":"/user","surfaceId":"s","value":{"name":"Ada"}},"version":"v0.9"}`,
				`{"updateDataModel":{"path":"/user","surfaceId":"s","value":{"city":"Paris","name":"Ada"}},"version":"v0.9"}`,
			},
		},
		{
			name: "cut_url_is_not_yielded",
			steps: []string{
				`<a2ui-json>[{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"photo","valueString":"https://exa`,
				`mple.com/a.png"}]}}]</a2ui-json>`,
			},
			want: []string{
				`{"dataModelUpdate":{"contents":[{"key":"photo","valueString":"https://example.com/a.png"}],"surfaceId":"s"}}`,
			},
		},
		{
			name:    "invalid_utf8_is_a_syntax_error",
			steps:   []string{"<a2ui-json>[{\"version\":\"v0.9\",\"updateDataModel\":{\"surfaceId\":\"s\",\"value\":{\"a\":\"\xff\"}}}]</a2ui-json>"},
			wantErr: ErrInvalidUTF8,
		},
		{
			name:    "nesting_too_deep",
			opts:    []Option{WithMaxDepth(8)},
			steps:   []string{"<a2ui-json>[{\"a\":" + strings.Repeat("[", 20) + "</a2ui-json>"},
			wantErr: ErrTooDeep,
		},
		{
			name:    "no_json_in_block",
			steps:   []string{"<a2ui-json>nothing here</a2ui-json>"},
			errText: "Failed to parse JSON",
		},
		{
			name: "block_after_a_failed_block_still_parses",
			steps: []string{
				`<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"root"}]}}]</a2ui-json>`,
				`<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"t","catalogId":"c"}}]</a2ui-json>`,
			},
			want:    []string{`"surfaceId":"s"`, `"surfaceId":"t"`},
			errText: "Self-reference detected",
		},
		{
			name: "delete_surface_then_recreate_starts_afresh",
			steps: []string{
				`<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"a"}]}},`,
				`{"version":"v0.9","deleteSurface":{"surfaceId":"s"}},{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"a"}]}}]</a2ui-json>`,
			},
			want: []string{`"createSurface"`, `"text":"a"`, `"deleteSurface"`, `"createSurface"`, `"text":"a"`},
		},
		{
			// A cut child id is left out until it is whole (a prefix is not
			// an id: "a" would name the component a, "c" a placeholder of
			// its own); "ab", whole, has not arrived, so it becomes a
			// placeholder, and so does "c" once whole.
			name: "cut_child_id_waits_until_whole",
			steps: []string{
				`<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Text","text":"x"},{"id":"root","component":"Column","children":["a`,
				`b","c`,
				`"]}]}}]</a2ui-json>`,
			},
			want: []string{
				`"createSurface"`,
				`{"children":["loading_children_root"],"component":"Column","id":"root"}`,
				`{"children":["loading_ab"],"component":"Column","id":"root"}`,
				`{"children":["loading_ab","loading_c"],"component":"Column","id":"root"}`,
			},
		},
		{
			// Two snapshots of surface s fall in the one part of this call
			// (one with a placeholder for a, one with a); the reference
			// keeps the last surfaceUpdate per surface of a chunk.
			name: "v08_snapshots_of_one_surface_in_one_part_keep_the_last",
			steps: []string{
				`<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"root"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Column":{"children":{"explicitList":["a"]}}}}]}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Text":{"text":{"literalString":"b"}}}}]}}]</a2ui-json>`,
			},
			want: []string{
				`{"beginRendering":{"root":"root","surfaceId":"s"}}`,
				`{"surfaceUpdate":{"components":[{"component":{"Text":{"text":{"literalString":"b"}}},"id":"a"},{"component":{"Column":{"children":{"explicitList":["a"]}}},"id":"root"}],"surfaceId":"s"}}`,
			},
		},
	}
	for _, tc := range tests {
		for _, mode := range []Mode{ModeProgressive, ModeDelta} {
			t.Run(tc.name+"/"+mode.String(), func(t *testing.T) {
				p, err := New(append([]Option{WithMode(mode)}, tc.opts...)...)
				if err != nil {
					t.Fatal(err)
				}
				msgs, errs := feedSteps(t, p, tc.steps...)
				for _, m := range msgs {
					if !json.Valid([]byte(m)) {
						t.Errorf("invalid JSON message %s", m)
					}
				}
				if tc.wantErr != nil || tc.errText != "" {
					found := false
					for _, e := range errs {
						if (tc.wantErr == nil || errors.Is(e, tc.wantErr)) && strings.Contains(e.Error(), tc.errText) {
							found = true
						}
					}
					if !found {
						t.Fatalf("errors %v, want %v %q", errs, tc.wantErr, tc.errText)
					}
				} else if len(errs) > 0 {
					t.Fatalf("unexpected errors %v", errs)
				}
				if mode == ModeDelta {
					return // exact snapshots are a progressive-mode property
				}
				if len(msgs) != len(tc.want) {
					t.Fatalf("got %d messages %q, want %d", len(msgs), msgs, len(tc.want))
				}
				for i, w := range tc.want {
					// Components keep the model's key order; compare the
					// canonical (sorted-key) encoding.
					if !strings.Contains(canonicalMessage(t, msgs[i]), w) {
						t.Errorf("message %d = %s, want it to contain %s", i, msgs[i], w)
					}
				}
			})
		}
	}
}

func TestDeltaYieldsOnlyChanges(t *testing.T) {
	p, err := New(WithMode(ModeDelta))
	if err != nil {
		t.Fatal(err)
	}
	msgs, errs := feedSteps(t, p,
		`<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},`,
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["a","b"]},`,
		`{"id":"a","component":"Text","text":"x"},`,
		`{"id":"b","component":"Text","text":"y"}]}}]</a2ui-json>`,
	)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := []string{
		`{"createSurface":{"catalogId":"c","surfaceId":"s"},"version":"v0.9"}`,
		`{"updateComponents":{"components":[{"children":["loading_a","loading_b"],"component":"Column","id":"root"},{"children":[],"component":"Row","id":"loading_a"},{"children":[],"component":"Row","id":"loading_b"}],"surfaceId":"s"},"version":"v0.9"}`,
		`{"updateComponents":{"components":[{"component":"Text","id":"a","text":"x"},{"children":["a","loading_b"],"component":"Column","id":"root"}],"surfaceId":"s"},"version":"v0.9"}`,
		`{"updateComponents":{"components":[{"component":"Text","id":"b","text":"y"},{"children":["a","b"],"component":"Column","id":"root"}],"surfaceId":"s"},"version":"v0.9"}`,
	}
	if len(msgs) != len(want) {
		t.Fatalf("got %d messages:\n%s", len(msgs), strings.Join(msgs, "\n"))
	}
	for i := range want {
		if canonicalMessage(t, msgs[i]) != want[i] {
			t.Errorf("message %d:\n got %s\nwant %s", i, msgs[i], want[i])
		}
	}
}

// canonicalMessage re-encodes a message with object keys sorted.
func canonicalMessage(t *testing.T, m string) string {
	t.Helper()
	v, ok := decodeObject([]byte(m))
	if !ok {
		t.Fatalf("message is not a JSON object: %s", m)
	}
	return canonicalJSON(v)
}

// TestYieldsStayValidUTF8 feeds streams with multi-byte characters in
// component strings, data values and prose, in chunks of every size from
// 1 to 8 bytes (so that every character is split at every place): every
// part the progressive modes yield must be valid UTF-8, and no character
// may be replaced.
func TestYieldsStayValidUTF8(t *testing.T) {
	streams := map[string]string{
		"v0.9 component text": `Météo <a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["t"]},{"id":"t","component":"Text","text":"18°C 日本 café 🌧️ ok"}]}}]</a2ui-json> fin ✓`,
		"v0.9 data value":     `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/w","value":{"city":"Kyōto","sky":"☔ 雨","n":1}}}]</a2ui-json>`,
		"v0.8 literal string": `<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"root"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Text":{"text":{"literalString":"naïve 🎉 ünïcödé"}}}}]}},{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"k","valueString":"€ 42 — ok"}]}}]</a2ui-json>`,
	}
	for name, stream := range streams {
		for _, mode := range []Mode{ModeProgressive, ModeDelta} {
			for n := 1; n <= 8; n++ {
				t.Run(fmt.Sprintf("%s/%s/chunk=%d", name, mode, n), func(t *testing.T) {
					msgs, errs := runMode(t, mode, nil, chunked([]byte(stream), n))
					if errs != 0 {
						t.Fatalf("%d failed blocks", errs)
					}
					if len(msgs) == 0 {
						t.Fatal("no messages")
					}
					for i, m := range msgs {
						if !utf8.Valid(m) {
							t.Fatalf("message %d is not valid UTF-8: %q", i, m)
						}
						if bytes.Contains(m, []byte("\ufffd")) || bytes.Contains(m, []byte(`\ufffd`)) {
							t.Fatalf("message %d has a replacement character: %s", i, m)
						}
					}
				})
			}
		}
	}
}
