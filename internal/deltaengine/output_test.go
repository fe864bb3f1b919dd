package deltaengine

import (
	"bytes"
	"testing"
	"unsafe"
)

// outputChunks is a block in chunks whose flushes yield: a createSurface,
// the root with its child's placeholder, then both once the child arrives.
var outputChunks = []string{
	`[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},`,
	`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"t"},`,
	`{"id":"t","component":"Text","text":"Hi"}]}}]`,
}

// readBlock feeds outputChunks to k, one block, and returns what each
// call yielded, copied. With the caller's output dst, the messages go to
// dst after the bytes it holds, given before each call (perCall) or once
// for the block, and the test checks that they are slices of it and that
// its bytes stay.
func readBlock(t *testing.T, k *Engine, dst []byte, perCall bool) [][]string {
	t.Helper()
	var calls [][]string
	if dst != nil && !perCall {
		k.UseOutput(dst)
	}
	take := func(msgs [][]byte) {
		var c []string
		if dst != nil {
			out := k.out
			if perCall {
				out = k.TakeOutput()
			}
			if !bytes.HasPrefix(out, dst) {
				t.Fatalf("the output lost the caller's bytes: %q", out)
			}
			for _, m := range msgs {
				p, end := uintptr(unsafe.Pointer(unsafe.SliceData(m))), uintptr(unsafe.Pointer(unsafe.SliceData(out)))
				if p < end+uintptr(len(dst)) || p+uintptr(len(m)) > end+uintptr(len(out)) {
					t.Fatalf("message %q is not in the caller's output after its bytes", m)
				}
			}
		}
		for _, m := range msgs {
			c = append(c, string(m))
		}
		calls = append(calls, c)
	}
	k.Begin()
	for _, chunk := range outputChunks {
		if dst != nil && perCall {
			k.UseOutput(dst)
		}
		k.Data([]byte(chunk))
		take(k.Flush())
	}
	if dst != nil && perCall {
		k.UseOutput(dst)
	}
	k.End()
	take(k.Messages())
	if dst != nil && !perCall {
		k.TakeOutput()
	}
	k.Release()
	return calls
}

// TestUseOutputYieldsTheSame holds the messages written to the caller's
// output (UseOutput) to those written to the engine's own, call by call,
// in both modes, with an output of room to spare and one it outgrows.
func TestUseOutputYieldsTheSame(t *testing.T) {
	for _, mode := range []struct {
		name        string
		progressive bool
	}{{"delta", false}, {"progressive", true}} {
		want := readBlock(t, New(Options{Progressive: mode.progressive}), nil, false)
		if len(want[1]) == 0 {
			t.Fatalf("%s: the block yields nothing to compare: %q", mode.name, want)
		}
		for _, c := range []struct {
			name    string
			room    int
			perCall bool
		}{
			{"given before each call, room to spare", 4096, true},
			{"given before each call, outgrown", 0, true},
			{"given once for the block, room to spare", 4096, false},
			{"given once for the block, outgrown", 0, false},
		} {
			t.Run(mode.name+"/"+c.name, func(t *testing.T) {
				dst := append(make([]byte, 0, len("held by the caller")+c.room), "held by the caller"...)
				got := readBlock(t, New(Options{Progressive: mode.progressive}), dst, c.perCall)
				if len(got) != len(want) {
					t.Fatalf("%d calls, want %d", len(got), len(want))
				}
				for i := range want {
					if len(got[i]) != len(want[i]) {
						t.Fatalf("call %d: %q, want %q", i, got[i], want[i])
					}
					for j := range want[i] {
						if got[i][j] != want[i][j] {
							t.Errorf("call %d: %q, want %q", i, got[i][j], want[i][j])
						}
					}
				}
			})
		}
	}
}

// TestReleaseLetsGoOfTheOutput: after a block ends, the engine holds the
// output Messages lent until Release, and nothing of it after.
func TestReleaseLetsGoOfTheOutput(t *testing.T) {
	k := New(Options{})
	k.Begin()
	for _, chunk := range outputChunks {
		k.Data([]byte(chunk))
		k.Flush()
	}
	k.End()
	msgs := k.Messages()
	if !k.held || k.out == nil {
		t.Fatalf("after the block's end the engine let go of the output it lends (held %v)", k.held)
	}
	for _, m := range msgs {
		if !bytes.HasPrefix(m, []byte("{")) {
			t.Fatalf("a lent message is no object: %q", m)
		}
	}
	k.Release()
	if k.held || k.out != nil || k.offs != nil || k.msgs != nil {
		t.Fatalf("after Release the engine holds its output: held %v, %d bytes, %d offsets, %d messages", k.held, cap(k.out), cap(k.offs), cap(k.msgs))
	}
	k.Release() // (twice: nothing to do)
}
