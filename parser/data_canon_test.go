package parser

import (
	"fmt"
	"maps"
	"strings"
	"testing"
	"unicode/utf8"
)

// canonCases are JSON texts for the canonical writer: key order, equal
// keys, escapes, U+2028, numbers, nesting, and text that is not JSON.
var canonCases = []struct{ name, src string }{
	{"scalar", `5`},
	{"sorted", `{"a":1,"b":2}`},
	{"unsorted", ` { "b" : 2 , "a" : [ 1 , { "d" : null , "c" : true } ] } `},
	{"equal keys last wins", `{"b":1,"a":2,"b":3,"a":{"x":1,"x":2}}`},
	{"escaped keys", `{"\u0062":1,"a\"":2,"a":3,"\u00e9":4,"é":5}`},
	{"escaped strings", `{"s":"a\/b\u00e9\n\ud83d\ude00\ud800x"}`},
	{"line separator", "{\"s\":\"a\u2028b\"}"},
	{"numbers", `[-0,1.5e10,2E-3,0.0]`},
	{"empty", `{"a":{},"b":[],"c":""}`},
	{"v08 contents", `{"contents":[{"key":"k","valueMap":[{"key":"a","valueString":"x"},{"key":"b"}]},{"valueNumber":1,"key":"n"}]}`},
	{"trailing comma", `{"a":1,}`},
	{"missing colon", `{"a" 1}`},
	{"bad number", `{"a":01}`},
	{"bad literal", `{"a":tru}`},
	{"control byte", "{\"a\":\"x\ty\"}"},
	{"bad escape", `{"a":"\x"}`},
	{"two values", `{} {}`},
	{"cut", `{"a":[1,2`},
}

func TestCanonicalMatchesDecoding(t *testing.T) {
	for _, tc := range canonCases {
		t.Run(tc.name, func(t *testing.T) {
			checkCanonical(t, []byte(tc.src))
		})
	}
}

// checkCanonical checks that the canonical writer gives appendJSON's
// encoding of src's decoding, and fails exactly where decoding does.
func checkCanonical(t *testing.T, src []byte) {
	t.Helper()
	var w canonWriter
	got, ok := w.canonical(nil, src)
	v, dok := decodeValue(src)
	if ok != dok {
		t.Fatalf("%q: canonical ok %v, decoding ok %v", src, ok, dok)
	}
	if !ok {
		return
	}
	if want := appendJSON(nil, v); string(got) != string(want) {
		t.Fatalf("%q: canonical\n%s\nwant\n%s", src, got, want)
	}
	if len(w.mem) != 0 {
		t.Fatalf("%q: %d members left", src, len(w.mem))
	}
}

func FuzzCanonical(f *testing.F) {
	for _, tc := range canonCases {
		f.Add([]byte(tc.src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if _, ok := decodeValue(src); !ok || !utf8.Valid(src) {
			return // the writer's input is valid UTF-8 JSON (see completeData)
		}
		checkCanonical(t, src)
		checkEntry(t, src)
	})
}

// entryCases are v0.8 contents elements for the canonical readings of
// entryValue and pruneEntries.
var entryCases = []struct{ name, src string }{
	{"flat", `{"key":"a","valueString":"x"}`},
	{"no value", `{"key":"a"}`},
	{"null value stops", `{"key":"a","value":null,"valueString":"x"}`},
	{"null value then map", `{"key":"a","value":null,"valueMap":[{"key":"b","valueNumber":2}]}`},
	{"value first", `{"valueBoolean":false,"value":1,"key":"a"}`},
	{"map flattened", `{"key":"a","valueMap":[{"key":"c","valueString":"1"},{"key":"b","valueMap":[]},{"key":"c","valueString":"2"},{"key":""},5]}`},
	{"map pruned away", `{"key":"a","valueMap":[{"key":"b"},{"valueString":"x"}]}`},
	{"map pruned away with value", `{"key":"a","valueString":"v","valueMap":[{"key":"b"}]}`},
	{"map object", `{"key":"a","valueMap":{"z":1,"y":2}}`},
	{"map scalar", `{"key":"a","valueMap":3}`},
	{"map null", `{"key":"a","valueMap":null}`},
	{"no key", `{"valueString":"x"}`},
	{"not an object", `[1]`},
	{"nested keep", `{"key":"a","valueMap":[{"key":"b","valueMap":[{"key":"c","valueNumber":1},{"key":"d"}]}]}`},
}

func TestCanonElementMatchesDecoding(t *testing.T) {
	for _, tc := range entryCases {
		t.Run(tc.name, func(t *testing.T) {
			checkEntry(t, []byte(tc.src))
		})
	}
}

// checkEntry checks canonElement against the reference's functions on the
// decoded element src.
func checkEntry(t *testing.T, src []byte) {
	t.Helper()
	var r dataReader
	c, ok := r.cw.canonical(nil, src)
	if !ok {
		t.Fatalf("%q: not JSON", src)
	}
	got := r.canonElement(c)
	v, _ := decodeValue(src)
	entry, ok := v.(map[string]any)
	if !ok {
		if got != (dataElem{}) {
			t.Fatalf("%q: %+v for a non-object", src, got)
		}
		return
	}
	key, _ := entry["key"].(string)
	val := entryValue(entry)
	if got.key != key || got.hasVal != (val != nil) || val != nil && got.cmp != string(appendCmp(nil, val)) {
		t.Fatalf("%q: key %q value %v %s, want %q %v %s", src, got.key, got.hasVal, got.cmp, key, val != nil, appendCmp(nil, val))
	}
	p := pruneEntriesRef([]any{cloneEntry(entry)})
	switch {
	case len(p) == 0 && got.pruned != "":
		t.Fatalf("%q: pruned %s, want dropped", src, got.pruned)
	case len(p) == 1 && got.pruned == "":
		t.Fatalf("%q: dropped, want %s", src, appendJSON(nil, p[0]))
	case len(p) == 1 && got.pruned != string(appendJSON(nil, p[0])):
		t.Fatalf("%q: pruned %s, want %s", src, got.pruned, appendJSON(nil, p[0]))
	}
}

// cloneEntry copies entry and the valueMap lists in it, which
// pruneEntriesRef modifies.
func cloneEntry(entry map[string]any) map[string]any {
	entry = maps.Clone(entry)
	if vm, ok := entry["valueMap"].([]any); ok {
		l := make([]any, len(vm))
		for i, it := range vm {
			if m, ok := it.(map[string]any); ok {
				it = cloneEntry(m)
			}
			l[i] = it
		}
		entry["valueMap"] = l
	}
	return entry
}

// pruneEntriesRef (the reference's pruneEntries) drops data model entries that have a key but no value yet
// (recursively inside valueMap).
func pruneEntriesRef(entries []any) []any {
	out := make([]any, 0, len(entries))
	for _, it := range entries {
		entry, ok := it.(map[string]any)
		if !ok {
			out = append(out, it)
			continue
		}
		hasVal := false
		for _, vk := range [...]string{"value", "valueString", "valueNumber", "valueBoolean"} {
			if _, ok := entry[vk]; ok {
				hasVal = true
				break
			}
		}
		if vm, ok := entry["valueMap"]; ok {
			if list, isList := vm.([]any); isList {
				pruned := pruneEntriesRef(list)
				if len(pruned) == 0 && len(list) > 0 {
					delete(entry, "valueMap")
				} else {
					entry["valueMap"] = pruned
					hasVal = true
				}
			}
		}
		if _, hasKey := entry["key"]; hasVal && hasKey {
			out = append(out, entry)
		}
	}
	return out
}

// TestCompareKeysAllocatesNothing: sorting an object compares each key
// O(log n) times, so comparing keys that need unescaping must not
// allocate (it allocated twice a comparison: a 1 MB object of 42k keys
// like "k\n123", shuffled, took 2.2M allocations instead of 0.3M).
func TestCompareKeysAllocatesNothing(t *testing.T) {
	for _, c := range []struct {
		name string
		a, b string
		want int
	}{
		{"newline_escape", `"k\n12"`, `"k\n3"`, -1},
		{"unicode_escape_equal", `"\u006b"`, `"k"`, 0},
		{"surrogate_pair_after_bmp", `"\ud83d\ude00"`, `"\uffff"`, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := compareKeys([]byte(c.a), []byte(c.b)); got != c.want {
				t.Fatalf("compareKeys(%s, %s) = %d, want %d", c.a, c.b, got, c.want)
			}
			if n := testing.AllocsPerRun(100, func() { compareKeys([]byte(c.a), []byte(c.b)) }); n != 0 {
				t.Errorf("%v allocations a comparison, want 0", n)
			}
		})
	}
}

// TestLargeCompleteMessageScratchDropped: the scratch buffers a large
// complete data model message grows (its canonical copy, an object's
// members being sorted) are not kept until the block's end.
func TestLargeCompleteMessageScratchDropped(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<a2ui-json>[{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":{`)
	for i := range 20000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%d":%d`, 20000-i, i) // unsorted: the members are sorted
	}
	b.WriteString(`}}}`) // the block stays open
	for _, mode := range []Mode{ModeProgressive, ModeDelta} {
		t.Run(mode.String(), func(t *testing.T) {
			p, err := New(WithMode(mode), WithBorrowedOutput())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Feed([]byte(b.String())); err != nil {
				t.Fatal(err)
			}
			r := progressiveOf(t, p.eng).data
			if r == nil {
				t.Fatal("no data model reader while the block is open")
			}
			for name, buf := range map[string][]byte{"canonical copy": r.msg, "sorted members": r.cw.tmp} {
				if cap(buf) > maxKeptScratch {
					t.Errorf("%s keeps %d bytes, want at most %d", name, cap(buf), maxKeptScratch)
				}
			}
		})
	}
}
