package parser

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// FuzzModesAgree checks the three modes against each other on arbitrary
// input cut into chunks of a size taken from the input:
//
//   - no mode panics;
//   - complete-mode messages are byte-identical to those of a single feed;
//   - every mode gives a block with bytes the grammar rejects the same
//     error (see checkVerdictsAgree);
//   - for v0.9-family streams that every mode parses without error, the
//     final progressive snapshot and the applied delta yields hold the same
//     reachable components as the complete messages, and the applied
//     delta yields the same data.
//
// (v0.8 snapshots normalise data-binding paths as the reference does, so
// they are compared with the model's bytes only through FuzzProgressiveDelta.)
func FuzzModesAgree(f *testing.F) {
	for _, s := range splitInputs {
		f.Add(byte(3), []byte(s.in))
	}
	for i, in := range wellFormedV09(f) {
		f.Add(byte(i*7+1), in)
	}
	for i, tc := range badByteInputs {
		f.Add(byte(i%5), badByteStream(tc.block))
	}
	f.Fuzz(func(t *testing.T, size byte, in []byte) {
		checkModesAgree(t, int(size%32)+1, in)
		checkVerdictsAgree(t, int(size%32)+1, in)
	})
}

// TestModesAgreeOnWellFormedStreams runs the property of FuzzModesAgree on
// streams it must not skip, at several chunk sizes, so that it is checked
// in every test run and not only under -fuzz.
func TestModesAgreeOnWellFormedStreams(t *testing.T) {
	for i, in := range wellFormedV09(t) {
		for _, n := range []int{1, 7, 16, 256} {
			t.Run(fmt.Sprintf("stream%d/chunk%d", i, n), func(t *testing.T) {
				if !checkModesAgree(t, n, in) {
					t.Fatal("the property was skipped for a well-formed v0.9 stream")
				}
			})
		}
	}
}

// wellFormedV09 returns well-formed v0.9 streams: a sample with a data
// binding, and the first turns of the v0.9 corpus when the shared data is
// there.
func wellFormedV09(tb testing.TB) [][]byte {
	out := [][]byte{[]byte(`Hi <a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["a","b"]},{"id":"a","component":"Text","text":"Hello there"},{"id":"b","component":"Text","text":{"path":"/name"}}]}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/name","value":"Ada"}}]</a2ui-json> bye`)}
	if dir, ok := shareddata.Find(); ok {
		data, err := os.ReadFile(filepath.Join(dir, "corpus", "stream_v09.txt"))
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, bytes.SplitAfter(data, []byte("</a2ui-json>"))[:6]...)
	}
	return out
}

// checkModesAgree checks the properties of FuzzModesAgree on one input cut
// into chunks of n bytes. It reports whether the cross-mode comparison ran
// (it is skipped for input outside its scope).
func checkModesAgree(t *testing.T, n int, in []byte) bool {
	chunks := chunked(in, n)
	whole, wholeErrs := runMode(t, ModeComplete, nil, [][]byte{in})
	complete, completeErrs := runMode(t, ModeComplete, nil, chunks)
	// Errors may be joined differently per call; the messages must agree.
	if len(whole) != len(complete) {
		t.Fatalf("complete mode: %d messages in one feed, %d chunked", len(whole), len(complete))
	}
	for i := range whole {
		if !bytes.Equal(whole[i], complete[i]) {
			t.Fatalf("complete message %d differs:\n%s\n%s", i, whole[i], complete[i])
		}
	}
	prog, progErrs := runMode(t, ModeProgressive, nil, chunks)
	delta, deltaErrs := runMode(t, ModeDelta, nil, chunks)
	if wholeErrs+completeErrs+progErrs+deltaErrs != 0 || !onlyV09(whole) {
		return false
	}
	c, p, d := applyAll(t, whole), applyAll(t, prog), applyAll(t, delta)
	if hasDanglingRefs(c) {
		// A child that never arrives stays a placeholder in the progressive
		// modes, as the suite specifies.
		return false
	}
	if err := diffStates("reachable components (complete vs progressive)", c.reachable(), p.reachable()); err != nil {
		t.Fatal(err)
	}
	if err := diffStates("reachable components (complete vs delta)", c.reachable(), d.reachable()); err != nil {
		t.Fatal(err)
	}
	if err := diffStates("data (complete vs delta)", c.data, d.data); err != nil {
		t.Fatal(err)
	}
	return true
}

// onlyV09 reports whether every message is a well-formed v0.9-family
// message: a version, and component-shaped objects (an "id" and a
// "component") only as elements of updateComponents.components. The
// progressive modes, like the reference, take any such object for a
// component wherever it stands, so other streams are out of the property.
func onlyV09(msgs []json.RawMessage) bool {
	for _, m := range msgs {
		var env map[string]any
		if json.Unmarshal(m, &env) != nil || repeatsKey(m, "id", "component") {
			// With "id" or "component" repeated, decoding keeps the last
			// value, while the progressive modes, as the reference, may
			// have yielded a component under the earlier one before the
			// repeat arrived.
			return false
		}
		if _, ok := env["version"]; !ok {
			return false
		}
		for _, k := range []string{"beginRendering", "surfaceUpdate", "dataModelUpdate"} {
			if _, ok := env[k]; ok {
				return false
			}
		}
		if kindCount(env) != 1 {
			// Not a message: the progressive modes, as the reference, act
			// on the first kind they know and ignore the others.
			return false
		}
		if !namesSurface(env) {
			// The progressive modes, as the reference, take a message
			// without a surface for one about the surface being read.
			return false
		}
		if pathAfterValue(m) {
			// The progressive modes, like the reference, yield a data
			// model message sniffed before its path (surfaceId) arrived at
			// the root (for the current surface), replacing a whole data
			// model.
			return false
		}
		if body, ok := env["updateDataModel"].(map[string]any); ok && !hasDataKeys(body) {
			// Nothing but the surface: the progressive modes, as the
			// reference, drop it as nothing new.
			return false
		}
		listed := 0
		if body, ok := env["updateComponents"].(map[string]any); ok {
			comps, _ := body["components"].([]any)
			for _, c := range comps {
				if !registrable(c) {
					// No usable id or type: the processor rejects the
					// message, and the progressive modes skip the
					// component (see TestUnregistrableComponentSkipped)
					// while the complete message still carries it.
					return false
				}
				if isComponentShaped(c) {
					listed++
				}
			}
		}
		if countComponentShaped(env) != listed {
			return false
		}
	}
	return true
}

// pathAfterValue reports whether the updateDataModel body of message m has
// its "path" or its "surfaceId" after its "value".
func pathAfterValue(m []byte) bool {
	sawValue, after := false, false
	eachKey(m, func(parents []string, _ int, key string) bool {
		if len(parents) != 1 || parents[0] != "updateDataModel" {
			return true
		}
		switch key {
		case "value":
			sawValue = true
		case "path", "surfaceId":
			if sawValue {
				after = true
				return false
			}
		}
		return true
	})
	return after
}

// repeatsKey reports whether some object in the JSON text m has one of
// keys twice.
func repeatsKey(m []byte, keys ...string) bool {
	seen := map[int]map[string]bool{}
	repeated := false
	eachKey(m, func(_ []string, obj int, key string) bool {
		if seen[obj] == nil {
			seen[obj] = map[string]bool{}
		}
		if seen[obj][key] && slices.Contains(keys, key) {
			repeated = true
			return false
		}
		seen[obj][key] = true
		return true
	})
	return repeated
}

// eachKey calls fn with every object key of the JSON text m, in order,
// with the keys leading to its object (parents: [] for the top-level
// object) and a number that tells its object from the others, until fn
// returns false or m ends (or stops being JSON).
func eachKey(m []byte, fn func(parents []string, obj int, key string) bool) {
	dec := json.NewDecoder(bytes.NewReader(m))
	type frame struct {
		obj, key bool // an object, whose next string token is a key
		id       int
	}
	var stack []frame
	var parents []string
	pending, objs := "", 0 // the key whose value comes next; objects opened
	for {
		tok, err := dec.Token()
		if err != nil {
			return
		}
		var top *frame
		if n := len(stack); n > 0 {
			top = &stack[n-1]
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				name := ""
				if top != nil && top.obj {
					name, top.key = pending, true
				}
				if len(stack) > 0 {
					parents = append(parents, name)
				}
				objs++
				stack = append(stack, frame{obj: d == '{', key: d == '{', id: objs})
			default:
				stack = stack[:len(stack)-1]
				if len(parents) > 0 {
					parents = parents[:len(parents)-1]
				}
			}
			continue
		}
		if top != nil && top.obj && top.key {
			k, _ := tok.(string)
			if !fn(parents, top.id, k) {
				return
			}
			pending, top.key = k, false
			continue
		}
		if top != nil && top.obj {
			top.key = true
		}
	}
}

// kindCount counts the v0.9-family message kinds in env.
func kindCount(env map[string]any) int {
	n := 0
	for _, k := range []string{"createSurface", "updateComponents", "updateDataModel", "deleteSurface"} {
		if _, ok := env[k]; ok {
			n++
		}
	}
	return n
}

// namesSurface reports whether each message kind in env names its surface
// with a non-empty string surfaceId.
func namesSurface(env map[string]any) bool {
	for _, k := range []string{"createSurface", "updateComponents", "updateDataModel", "deleteSurface"} {
		v, ok := env[k]
		if !ok {
			continue
		}
		body, _ := v.(map[string]any)
		if sid, _ := body["surfaceId"].(string); sid == "" {
			return false
		}
	}
	return true
}

// hasDataKeys reports whether an updateDataModel body has a key other than
// "surfaceId" and "root".
func hasDataKeys(body map[string]any) bool {
	for k := range body {
		if k != "surfaceId" && k != "root" {
			return true
		}
	}
	return false
}

// hasDanglingRefs reports whether a component reachable from a root
// references an id that no component of its surface has.
func hasDanglingRefs(u *uiState) bool {
	for sid, comps := range u.reachable() {
		for _, enc := range comps {
			c, _ := decodeObject([]byte(enc))
			for _, r := range protocol.ComponentRefs(nil, c, nil) {
				if _, ok := u.comps[sid][r.ID]; !ok {
					return true
				}
			}
			if danglingChildField(c, u.comps[sid]) {
				return true
			}
		}
	}
	return false
}

// danglingChildField reports whether v holds, at any depth, a child field
// naming a component comps lacks, read as the progressive modes read them
// (which also take ids protocol.ComponentRefs does not, such as ""), or an
// empty child list (which, as in the reference, may stay a placeholder
// depending on the buffered text).
func danglingChildField(v any, comps map[string]string) bool {
	switch x := v.(type) {
	case map[string]any:
		for _, field := range childFields {
			switch cv := x[field].(type) {
			case string:
				if _, ok := comps[cv]; !ok {
					return true
				}
			case []any:
				if len(cv) == 0 && (field == "children" || field == "explicitList") {
					return true
				}
				for _, child := range cv {
					id, isID := child.(string) // (anything else is no child)
					if _, ok := comps[id]; isID && !ok {
						return true
					}
				}
			}
		}
		for _, e := range x {
			if danglingChildField(e, comps) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if danglingChildField(e, comps) {
				return true
			}
		}
	}
	return false
}

func isComponentShaped(v any) bool {
	o, ok := v.(map[string]any)
	if !ok {
		return false
	}
	_, id := o["id"]
	_, comp := o["component"]
	return id && comp
}

// registrable reports whether v is a component the progressive modes
// record: an object with a non-empty string id and a non-empty string type
// (see TestUnregistrableComponentSkipped).
func registrable(v any) bool {
	o, ok := v.(map[string]any)
	if !ok {
		return false
	}
	id, _ := o["id"].(string)
	typ, _ := o["component"].(string)
	return id != "" && typ != ""
}

func countComponentShaped(v any) int {
	n := 0
	if isComponentShaped(v) {
		n++
	}
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			n += countComponentShaped(e)
		}
	case []any:
		for _, e := range x {
			n += countComponentShaped(e)
		}
	}
	return n
}

func TestRepeatsKey(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want bool
	}{
		{"none", `{"id":1,"b":{"id":2},"c":["id","id"]}`, false},
		{"top level", `{"id":1,"id":2}`, true},
		{"after a nested object", `{"component":{"x":1},"component":2}`, true},
		{"nested", `{"a":[{"id":"x","id":{}}]}`, true},
		{"another key repeated", `{"text":"a","text":"b"}`, false},
		{"string values equal to keys", `{"a":"id","b":"id"}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := repeatsKey([]byte(tc.in), "id", "component"); got != tc.want {
				t.Fatalf("repeatsKey(%s) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
}

func TestPathAfterValue(t *testing.T) {
	cases := []struct {
		name, msg string
		want      bool
	}{
		{"path first", `{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/x","value":{"path":1}}}`, false},
		{"value first", `{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":{"a":1},"path":"/x"}}`, true},
		{"scalar value first", `{"updateDataModel":{"value":"v","path":"/x"},"version":"v0.9"}`, true},
		{"no path", `{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":{"path":"/x"}}}`, false},
		{"path nested in the value only", `{"updateDataModel":{"value":{"x":{"path":"/y"}}}}`, false},
		{"another kind", `{"updateComponents":{"value":1,"path":"/x"}}`, false},
		{"surfaceId after the value", `{"updateDataModel":{"path":"/x","value":1,"surfaceId":"s"}}`, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := pathAfterValue([]byte(tc.msg)); got != tc.want {
				t.Fatalf("pathAfterValue = %v, want %v", got, tc.want)
			}
		})
	}
}
