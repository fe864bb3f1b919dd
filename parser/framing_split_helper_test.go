package parser

import "testing"

// checkEverySplit checks that in, fed whole, split in two at every byte, and
// fed one byte at a time, gives the same text, messages and errors.
func checkEverySplit(t *testing.T, in string, opts ...Option) {
	t.Helper()
	want := render(collect(t, []string{in}, opts...))
	for i := 0; i <= len(in); i++ {
		if got := render(collect(t, []string{in[:i], in[i:]}, opts...)); got != want {
			t.Fatalf("split at %d:\n%s\nwant:\n%s", i, got, want)
		}
	}
	bytes := make([]string, len(in))
	for i := 0; i < len(in); i++ {
		bytes[i] = in[i : i+1]
	}
	if got := render(collect(t, bytes, opts...)); got != want {
		t.Fatalf("one byte at a time:\n%s\nwant:\n%s", got, want)
	}
}
