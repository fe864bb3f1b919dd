package processor_test

import (
	"errors"
	"runtime"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/processor"
)

// TestHugeIndexReservesNoMemory holds a data path's array index to the
// data model bound before anything is allocated for it: a message of a
// hundred bytes naming index 999999999 must fail with ErrLimit without
// reserving the 16 GB of an array that long, wherever the index sits (a
// new key, below null, below a new array slot, in a v0.8 path or a v0.8
// contents key).
func TestHugeIndexReservesNoMemory(t *testing.T) {
	const big = "999999999" // the largest index arrayIndex accepts
	v08 := func(path, key string) string {
		return `{"dataModelUpdate":{"surfaceId":"v","path":"` + path + `","contents":[{"key":"` + key + `","valueString":"x"}]}}`
	}
	setup := []string{create("s"), data("s", "/n", `null`), data("s", "/arr", `[]`), v08("", "k")}
	tests := []struct {
		name string
		msg  string
	}{
		{"new_key", data("s", "/a/"+big, `1`)},
		{"below_null", data("s", "/n/"+big, `1`)},
		{"below_new_array_slot", data("s", "/arr/0/"+big, `1`)},
		{"below_new_key_deeper", data("s", "/b/c/"+big+"/d", `1`)},
		{"v08_path", v08("items["+big+"]", "k")},
		{"v08_contents_key", v08("", "list."+big)},
		{"v08_contents_key_in_value_map", `{"dataModelUpdate":{"surfaceId":"v","contents":[{"key":"m","valueMap":[{"key":"l.` + big + `","valueString":"x"}]}]}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newProcessor(t)
			mustApply(t, p, setup...)
			before := state(t, p)
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			allocated := ms.TotalAlloc
			b := p.ProcessList(msgs(tc.msg))
			runtime.ReadMemStats(&ms)
			allocated = ms.TotalAlloc - allocated
			if r := b.Results[0]; r.OK || !errors.Is(r.Err, processor.ErrLimit) {
				t.Fatalf("result %+v, want ErrLimit", r)
			}
			if allocated > 64<<20 {
				t.Errorf("the message allocated %d bytes", allocated)
			}
			if after := state(t, p); after != before {
				t.Errorf("a failed message changed the state:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}
