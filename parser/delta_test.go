package parser

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// uiState is what a renderer holds after applying messages in order:
// per surface, components upserted by id, and a data model in which each
// data model message replaces the value at its path (v0.9: removes it when
// the message has no value; v0.8: the map of its contents), creating
// objects on the way, as the protocol specifies.
//
// merged is the data as the reference's progressive yields build it: a
// sniffed update carries the entries new since the last one, so its
// entries are merged into the object at its path instead of replacing it.
type uiState struct {
	comps  map[string]map[string]string // surface -> id -> canonical JSON
	data   map[string]map[string]any    // surface -> data model
	merged map[string]map[string]any    // surface -> data model, entries merged
	roots  map[string]string
}

func newUIState() *uiState {
	return &uiState{comps: map[string]map[string]string{}, data: map[string]map[string]any{}, merged: map[string]map[string]any{}, roots: map[string]string{}}
}

// setData replaces the value at path (a JSON Pointer; "" and "/" are the
// root, a v0.8 path may omit the leading '/') of surface sid's data model
// with v, or removes it.
func (u *uiState) setData(sid, path string, v any, remove bool) {
	writeData(u.data, sid, path, v, remove, false)
	writeData(u.merged, sid, path, v, remove, true)
}

// deepClone copies the objects and lists of a decoded JSON value.
func deepClone(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, c := range x {
			m[k] = deepClone(c)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, c := range x {
			l[i] = deepClone(c)
		}
		return l
	}
	return v
}

// mergeInto merges the entries of m into dst, recursively where both hold
// an object under a key. Recursively, so that the merged model does not
// depend on the path at which a mode yields an entry: progressive mode
// yields a sniffed data model message whole, delta mode each changed entry
// at its own path. The two differ only where a healed value loses a member
// it had (values only grow, but in a block read the reference's way after
// a lost count of brackets, FuzzProgressiveDelta's lost-count case).
func mergeInto(dst, m map[string]any) {
	for k, v := range m {
		sub, isObj := v.(map[string]any)
		if old, ok := dst[k].(map[string]any); ok && isObj {
			mergeInto(old, sub)
			continue
		}
		dst[k] = v
	}
}

// writeData is setData on models; with merge, an object value's entries
// are merged (mergeInto) into the object at path.
func writeData(models map[string]map[string]any, sid, path string, v any, remove, merge bool) {
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	if path == "" || path == "/" {
		segs = nil
	}
	if merge {
		v = deepClone(v) // the two models share nothing
	}
	if len(segs) == 0 {
		m, _ := v.(map[string]any)
		if old := models[sid]; merge && m != nil && old != nil {
			mergeInto(old, m)
			return
		}
		if remove || m == nil {
			m = map[string]any{"": v} // a non-object root, kept comparable
			if remove {
				m = map[string]any{}
			}
		}
		models[sid] = m
		return
	}
	cur := models[sid]
	if cur == nil {
		cur = map[string]any{}
		models[sid] = cur
	}
	for i, seg := range segs {
		seg = strings.NewReplacer("~1", "/", "~0", "~").Replace(seg)
		if i == len(segs)-1 {
			old, isObj := cur[seg].(map[string]any)
			m, _ := v.(map[string]any)
			switch {
			case remove:
				delete(cur, seg)
			case merge && isObj && m != nil:
				mergeInto(old, m)
			default:
				cur[seg] = v
			}
			return
		}
		next, ok := cur[seg].(map[string]any)
		if !ok {
			next = map[string]any{}
			cur[seg] = next
		}
		cur = next
	}
}

func canonicalJSON(v any) string {
	return string(appendJSON(nil, v))
}

func (u *uiState) surfaceComps(sid string) map[string]string {
	m := u.comps[sid]
	if m == nil {
		m = map[string]string{}
		u.comps[sid] = m
	}
	return m
}

// apply applies one message.
func (u *uiState) apply(t *testing.T, raw json.RawMessage) {
	t.Helper()
	msg, ok := decodeObject(raw)
	if !ok {
		t.Fatalf("message is not a JSON object: %s", raw)
	}
	for _, kind := range []string{kSurfaceUpdate, kUpdateComponents} {
		if body, ok := msg[kind].(map[string]any); ok {
			sid, _ := body["surfaceId"].(string)
			if r, ok := body["root"].(string); ok {
				u.roots[sid] = r
			}
			list, _ := body["components"].([]any)
			m := u.surfaceComps(sid)
			for _, it := range list {
				c, _ := it.(map[string]any)
				id, _ := c["id"].(string)
				if id == "" {
					// Not a component (a renderer rejects it; the
					// progressive modes, as the reference, skip it).
					continue
				}
				m[id] = canonicalJSON(c)
			}
		}
	}
	if body, ok := msg[kBeginRendering].(map[string]any); ok {
		sid, _ := body["surfaceId"].(string)
		root, ok := body["root"].(string)
		if !ok {
			root = "root"
		}
		u.roots[sid] = root
	}
	if body, ok := msg[kCreateSurface].(map[string]any); ok {
		sid, _ := body["surfaceId"].(string)
		root, ok := body["root"].(string)
		if !ok {
			root = "root"
		}
		u.roots[sid] = root
	}
	if body, ok := msg[kUpdateDataModel].(map[string]any); ok {
		sid, _ := body["surfaceId"].(string)
		path, _ := body["path"].(string)
		v, has := body["value"]
		u.setData(sid, path, v, !has)
	}
	if body, ok := msg[kDataModelUpdate].(map[string]any); ok {
		sid, _ := body["surfaceId"].(string)
		path, _ := body["path"].(string)
		u.setData(sid, path, contentsToDict(body["contents"]), false)
	}
	if v, ok := msg[kDeleteSurface]; ok {
		sid, _ := v.(string)
		if s, ok := bodySurface(v); ok {
			sid = s
		}
		delete(u.comps, sid)
		delete(u.roots, sid)
		delete(u.data, sid)
		delete(u.merged, sid)
	}
}

// reachable returns, per surface, the components reachable from the root
// (a surface with none, e.g. whose root has not arrived, has no entry).
func (u *uiState) reachable() map[string]map[string]string {
	out := map[string]map[string]string{}
	for sid, comps := range u.comps {
		root, ok := u.roots[sid]
		if !ok {
			continue
		}
		got := map[string]string{}
		stack := []string{root}
		for len(stack) > 0 {
			id := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			enc, ok := comps[id]
			if !ok || got[id] != "" {
				continue
			}
			got[id] = enc
			c, _ := decodeObject([]byte(enc))
			for _, r := range protocol.ComponentRefs(nil, c, nil) {
				stack = append(stack, r.ID)
			}
		}
		if len(got) > 0 {
			out[sid] = got
		}
	}
	return out
}

// runMode feeds chunks in a mode (with opts) and returns every message and
// the number of errors.
func runMode(t *testing.T, mode Mode, cat *protocol.Catalog, chunks [][]byte, opts ...Option) (msgs []json.RawMessage, errs int) {
	t.Helper()
	p, err := New(append([]Option{WithMode(mode), WithCatalog(cat)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	collect := func(parts []Part, err error) {
		if err != nil {
			errs++
		}
		for _, pt := range parts {
			msgs = append(msgs, pt.Messages...)
		}
	}
	for _, c := range chunks {
		collect(p.Feed(c))
	}
	collect(p.Close())
	return msgs, errs
}

func applyAll(t *testing.T, msgs []json.RawMessage) *uiState {
	t.Helper()
	u := newUIState()
	for _, m := range msgs {
		u.apply(t, m)
	}
	return u
}

func diffStates(what string, a, b any) error {
	if reflect.DeepEqual(a, b) {
		return nil
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return fmt.Errorf("%s differ:\n%s\n%s", what, ja, jb)
}

func TestDeltaMatchesProgressiveOnSuite(t *testing.T) {
	cases, confDir := loadStreamingSuite(t)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			cat, err := loadCaseCatalog(c, confDir)
			if err != nil {
				t.Skipf("catalog does not load (reported by the conformance test): %v", err)
			}
			var chunks [][]byte
			for _, st := range c.Steps {
				chunks = append(chunks, []byte(st.Input))
			}
			prog, perr := runMode(t, ModeProgressive, cat, chunks)
			delta, derr := runMode(t, ModeDelta, cat, chunks)
			if perr != derr {
				t.Fatalf("errors: progressive %d, delta %d", perr, derr)
			}
			p, d := applyAll(t, prog), applyAll(t, delta)
			if err := diffStates("components", p.comps, d.comps); err != nil {
				t.Error(err)
			}
			// The data: as the complete messages leave it, when the case's
			// input is whole messages; and every entry progressive mode
			// yielded (its sniffed updates carry the entries new since the
			// last, which the reference merges), when the case is one data
			// model message.
			full, ferr := runMode(t, ModeComplete, cat, chunks)
			var c *uiState
			if ferr == 0 && len(full) > 0 {
				c = applyAll(t, full)
				if err := diffStates("data (complete vs delta)", c.data, d.data); err != nil {
					t.Error(err)
				}
			}
			if err := checkDeltaDataMerged(bytes.Join(chunks, nil), delta, p, d, c); err != nil {
				t.Error(err)
			}
		})
	}
}

// checkDeltaDataMerged compares every entry delta mode yielded with every
// entry progressive mode yielded, each merged into the objects at their
// paths (progressive mode's sniffed updates carry the entries new since the
// last, which the reference merges; whether delta mode's yields also leave
// the right data under the protocol's replace semantics is checked against
// the complete messages, where they are whole), when the input
// holds at most one data model message, and it holds data: across several,
// progressive mode (as the reference) may skip a message whose entries were
// all yielded before, and it drops one without data (a removal), so the
// comparison is then with the complete messages (FuzzModesAgree,
// TestDeltaMatchesCompleteOnCorpus). Where progressive mode's data differs
// from complete's (nil: not known), delta's must be complete's.
func checkDeltaDataMerged(in []byte, deltaMsgs []json.RawMessage, prog, delta, complete *uiState) error {
	if bytes.Count(in, []byte(`"updateDataModel"`))+bytes.Count(in, []byte(`"dataModelUpdate"`)) > 1 {
		return nil
	}
	for _, m := range deltaMsgs {
		msg, _ := decodeObject(m)
		if body, ok := msg[kUpdateDataModel].(map[string]any); ok && body["value"] == nil {
			return nil
		}
		if body, ok := msg[kDataModelUpdate].(map[string]any); ok && body["contents"] == nil {
			return nil
		}
	}
	err := diffStates("data, merged (progressive vs delta)", prog.merged, delta.merged)
	if err != nil && complete != nil && diffStates("", complete.merged, delta.merged) == nil &&
		diffStates("", complete.merged, prog.merged) != nil {
		// Progressive mode lost what the complete message holds (the
		// reference's quirk it keeps: a v0.8 entry completing in the
		// message's last chunk that its de-duplication skips, see
		// progressiveDeltaCases); delta mode keeps its contract, the
		// complete messages' data.
		return nil
	}
	return err
}

// runThreeModes runs whole in complete mode and chunks in the progressive
// modes (no error allowed), and returns what each left applied, and the
// progressive modes' messages.
func runThreeModes(t *testing.T, whole []byte, chunks [][]byte) (c, p, d *uiState, prog, delta []json.RawMessage) {
	t.Helper()
	full, ferr := runMode(t, ModeComplete, nil, [][]byte{whole})
	prog, perr := runMode(t, ModeProgressive, nil, chunks)
	delta, derr := runMode(t, ModeDelta, nil, chunks)
	if ferr != 0 || perr != 0 || derr != 0 {
		t.Fatalf("errors: complete %d, progressive %d, delta %d", ferr, perr, derr)
	}
	return applyAll(t, full), applyAll(t, prog), applyAll(t, delta), prog, delta
}

// corpusTurns returns the turns of a corpus stream (name.txt, cut by
// name.turns.json) numbered pick, or all of them without pick. A turn the
// corpus does not have, or none at all, fails the test.
func corpusTurns(tb testing.TB, name string, pick ...int) [][]byte {
	tb.Helper()
	data, err := os.ReadFile(shareddata.Path(tb, "corpus", name+".txt"))
	if err != nil {
		tb.Fatal(err)
	}
	idx, err := os.ReadFile(shareddata.Path(tb, "corpus", name+".turns.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var meta struct {
		Offsets [][2]int `json:"offsets"`
	}
	if err := json.Unmarshal(idx, &meta); err != nil {
		tb.Fatal(err)
	}
	if len(meta.Offsets) == 0 {
		tb.Fatalf("%s: no turns", name)
	}
	if pick == nil {
		pick = make([]int, len(meta.Offsets))
		for i := range pick {
			pick[i] = i
		}
	}
	out := make([][]byte, 0, len(pick))
	for _, i := range pick {
		if i >= len(meta.Offsets) {
			tb.Fatalf("%s: no turn %d (%d turns)", name, i, len(meta.Offsets))
		}
		o := meta.Offsets[i]
		out = append(out, data[o[0]:o[1]])
	}
	return out
}

func chunked(b []byte, n int) [][]byte {
	var out [][]byte
	for i := 0; i < len(b); i += n {
		out = append(out, b[i:min(i+n, len(b))])
	}
	return out
}

func TestDeltaMatchesCompleteOnCorpus(t *testing.T) {
	for _, corpus := range []string{"stream_v09", "stream_v08"} {
		turns := corpusTurns(t, corpus, 0, 1, 2, 7, 42, 99, 150, 199)
		for ti, turn := range turns {
			for _, size := range []int{1, 7, 16, 256} {
				t.Run(fmt.Sprintf("%s/turn%d/chunk%d", corpus, ti, size), func(t *testing.T) {
					c, p, d, prog, delta := runThreeModes(t, turn, chunked(turn, size))
					if err := diffStates("progressive vs delta components", p.comps, d.comps); err != nil {
						t.Error(err)
					}
					if err := diffStates("data (complete vs delta)", c.data, d.data); err != nil {
						t.Error(err)
					}
					// The full set, orphans included: placeholders only
					// of whole ids.
					if err := checkFullComponents(c, d, corpus == "stream_v09"); err != nil {
						t.Error(err)
					}
					if corpus == "stream_v09" {
						// v0.8 snapshots normalise data binding paths, so only
						// the v0.9 family is compared with the model's bytes.
						if err := diffStates("reachable components (complete vs delta)", c.reachable(), d.reachable()); err != nil {
							t.Error(err)
						}
					}
					var db, pb int
					for _, m := range delta {
						db += len(m)
					}
					for _, m := range prog {
						pb += len(m)
					}
					if db > pb {
						t.Errorf("delta output %d bytes > progressive %d", db, pb)
					}
				})
			}
		}
	}
}

// contentsToDict (the reference's) flattens v0.8 data model contents (a list of {key,
// value*} entries, valueMap nesting) into key -> value.
func contentsToDict(raw any) map[string]any {
	switch x := raw.(type) {
	case map[string]any:
		return x
	case []any:
		res := map[string]any{}
		for _, it := range x {
			entry, ok := it.(map[string]any)
			if !ok {
				continue
			}
			val := entryValue(entry)
			key, _ := entry["key"].(string)
			if key != "" && val != nil {
				res[key] = val
			}
		}
		return res
	}
	return map[string]any{}
}

// entryValue is the value contentsToDict reads from a v0.8 data entry: the
// first of value, valueString, valueNumber and valueBoolean it has (even
// null), else its valueMap flattened; nil if none.
func entryValue(entry map[string]any) any {
	for _, vk := range [...]string{"value", "valueString", "valueNumber", "valueBoolean"} {
		if v, ok := entry[vk]; ok {
			if v != nil {
				return v
			}
			break
		}
	}
	if vm, has := entry["valueMap"]; has {
		return contentsToDict(vm)
	}
	return nil
}
