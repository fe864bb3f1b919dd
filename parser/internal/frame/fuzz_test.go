package frame

import "testing"

// FuzzSplit checks, for every framing, that an input split anywhere (at
// the cuts the fuzzer picks, and one byte at a time) frames as it does
// whole, with the contract kept on every call (see feed). Seeded from the
// tables of every framing.
func FuzzSplit(f *testing.F) {
	for _, cases := range [][]splitCase{tagsCases, fencesCases, linesCases} {
		for _, tc := range cases {
			f.Add(tc.in, []byte{1, 3, 7})
			f.Add(tc.in, []byte{5})
		}
	}
	f.Fuzz(func(t *testing.T, in string, cuts []byte) {
		if len(in) > 4096 {
			return
		}
		var chunks []string
		rest := in
		for i := 0; len(rest) > 0; i++ {
			n := len(rest)
			if len(cuts) > 0 {
				n = min(n, int(cuts[i%len(cuts)]))
				if n == 0 && i%2 == 1 {
					n = 1 // empty chunks, but progress
				}
			}
			chunks = append(chunks, rest[:n])
			rest = rest[n:]
		}
		bytes := make([]string, len(in))
		for i := 0; i < len(in); i++ {
			bytes[i] = in[i : i+1]
		}
		for _, fr := range framings {
			want := feed(t, fr, []string{in})
			if got := feed(t, fr, chunks); got != want {
				t.Fatalf("%s: chunks %q:\n%s\nwhole:\n%s", fr.name, chunks, got, want)
			}
			if got := feed(t, fr, bytes); got != want {
				t.Fatalf("%s: one byte at a time:\n%s\nwhole:\n%s", fr.name, got, want)
			}
		}
	})
}
