package parser

import (
	"crypto/sha256"
	"fmt"
	"testing"
)

// FuzzProgressiveDelta feeds arbitrary input, cut in chunks of a size taken
// from the input, through the progressive and delta modes: neither may
// panic, both must report the same number of failed blocks, and applying
// the delta yields must give the same components as applying the
// progressive snapshots (and the same data, for input with one data model
// message: see checkDeltaDataMerged); and, for the seeds, both modes must
// yield their recorded messages, up to key order (golden_paths_test.go;
// the inputs the fuzzer makes have none).
func FuzzProgressiveDelta(f *testing.F) {
	seeds := []string{
		`<a2ui-json>[{"beginRendering": {"root": "root", "surfaceId": "s1"}}, {"surfaceUpdate": {"surfaceId": "s1", "components": [{"id": "root", "component": {"Card": {"child": "c1"}}}, {"id": "c1", "component": {"Text": {"text": {"literalString": "hello"}}}}]}}]</a2ui-json>`,
		`text <a2ui-json>[{"version": "v0.9", "createSurface": {"catalogId": "c", "surfaceId": "s1"}}, {"version": "v0.9", "updateComponents": {"surfaceId": "s1", "components": [{"id": "root", "component": "Column", "children": ["a", "b"]}, {"id": "a", "component": "Text", "text": "x"}]}}, {"version": "v0.9", "updateDataModel": {"surfaceId": "s1", "path": "/", "value": {"k": {"n": 1}, "s": "http://x"}}}]</a2ui-json> tail`,
		`<a2ui-json>[ {"dataModelUpdate": {"surfaceId": "default", "contents": [{"key": "items", "valueMap": [{"key": "name", "valueString": "Item 1"}, {}]}]}}]</a2ui-json>`,
		`<a2ui-json>{"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [{"id": "root", "component": "Card", "child": "root"}]}}</a2ui-json>`,
		`<a2ui-json>[{"a": [}]]]}}}</a2ui-json><a2ui-json>invalid</a2ui-json>`,
	}
	for i, s := range seeds {
		f.Add(byte(i*5+1), []byte(s))
	}
	for _, c := range progressiveDeltaCases {
		f.Add(byte(c.chunk-1), []byte(c.in))
	}
	g := newPathGolden(f)
	f.Fuzz(func(t *testing.T, size byte, in []byte) {
		n := int(size%32) + 1
		sum := sha256.Sum256(in)
		checkProgressiveDelta(t, n, in, g, fmt.Sprintf("input=%x chunk=%d", sum[:8], n))
	})
}

// progressiveDeltaCases are inputs the fuzzer found the two modes
// disagreeing on, with the chunk size it found.
var progressiveDeltaCases = []struct {
	name  string
	chunk int
	in    string
}{
	{
		// Sniffing (pruneEntries, as the reference) never yields an entry
		// whose valueMap is an object, and progressive mode skips the
		// complete message (dedupeEncoded); delta mode yielded it.
		name:  "a v0.8 entry with an object valueMap, block unterminated",
		chunk: 5,
		in:    `<a2ui-json>00{"dataModelUpdate": {"surfaceId": "0000000", "contents": [{"key": "00000", "valueMap":{} }]}}`,
	},
	{
		name:  "a v0.8 entry with an object valueMap, among others",
		chunk: 1,
		in:    `<a2ui-json>{"dataModelUpdate": {"surfaceId": "s", "contents": [{"key": "m", "valueMap": {"a": 1}}, {"key": "a", "valueString": "x"}]}}</a2ui-json>`,
	},
	{
		// The last element completes in the chunk that ends the message,
		// so no sniff sees it; the reference's de-duplication, which reads
		// no "value" member (dedupeEncoded), finds only the valueMap the
		// sniffs recorded, and progressive mode skips the complete
		// message: its data loses the "value" entry the complete message
		// holds. Delta mode keeps its contract, the complete message's
		// data (checkDeltaDataMerged).
		name:  "a v0.8 entry with a value member completing the message, after an object valueMap",
		chunk: 22,
		in:    `<a2ui-json>{"dataModelUpdate":{"surfaceId": "0", "contents": [{"key": "0", "valueMap": {"0":10}}, {"key": "0", "value": "0"}]}}`,
	},
	{
		// The same within the v0.8 schema: the open element of key k
		// supersedes its complete one (latestEntries), so the last sniff
		// yields no entry, and the complete message's k ("a") is what the
		// sniff recorded: progressive mode skips it and never yields k.
		// Delta mode yields k, as the complete message holds it.
		name:  "a v0.8 key repeated with its value in the message's last chunk",
		chunk: 22,
		in:    `<a2ui-json>{"dataModelUpdate":{"surfaceId": "s", "contents": [{"key": "k", "valueString": "a"}, {"key": "k", "valueString": "a"}]}}</a2ui-json>`,
	},
	{
		// The same, the second element of k with no value, and the block
		// failing after the message (junk): complete mode yielded the
		// message before the block's error, and delta mode's data is its.
		name:  "a v0.8 key repeated without a value in the message's last chunk, junk after",
		chunk: 27,
		in:    `<a2ui-json>{"dataModelUpdate":{"surfaceId":"0","contents":[{"key":"k","valueString":"0"},{"key":"k","":""}]}}0`,
	},
	{
		// An object closed with ']' (a lost count of brackets, read the
		// reference's way): the last healed cut loses the member "":"" it
		// had; progressive mode yields the whole value, delta mode the
		// entry /0. Both modes yield the same values; the merged model
		// merged them at different depths (see mergeInto).
		name:  "a healed value losing a member after a lost count",
		chunk: 9,
		in:    `<a2ui-json>{"updateDataModel": {"value": {"0": {"0":10,"":""]<`,
	},
}

// TestProgressiveDeltaCases runs the property of FuzzProgressiveDelta on
// the inputs the fuzzer found, so that it is checked in every test run.
func TestProgressiveDeltaCases(t *testing.T) {
	g := newPathGolden(t)
	for _, c := range progressiveDeltaCases {
		t.Run(c.name, func(t *testing.T) {
			checkProgressiveDelta(t, c.chunk, []byte(c.in), g, c.name)
		})
	}
}

// checkProgressiveDelta checks the properties of FuzzProgressiveDelta on
// one input cut into chunks of n bytes; the messages are compared with
// those recorded under key in g (the inputs the fuzzer makes have none).
func checkProgressiveDelta(t *testing.T, n int, in []byte, g *pathGolden, key string) {
	t.Helper()
	chunks := chunked(in, n)
	prog, perr := runMode(t, ModeProgressive, nil, chunks)
	delta, derr := runMode(t, ModeDelta, nil, chunks)
	if perr != derr {
		t.Fatalf("errors: progressive %d, delta %d", perr, derr)
	}
	p, d := applyAll(t, prog), applyAll(t, delta)
	if err := diffStates("components", p.comps, d.comps); err != nil {
		t.Fatal(err)
	}
	var c *uiState
	if full, _ := runMode(t, ModeComplete, nil, [][]byte{in}); len(full) > 0 {
		// (What complete mode yielded, before an error too: the progressive
		// modes yielded theirs by then.)
		c = applyAll(t, full)
	}
	if err := checkDeltaDataMerged(in, delta, p, d, c); err != nil {
		t.Fatal(err)
	}
	g.checkModes(t, key, renderCanonical, [][][]byte{chunks})
}
