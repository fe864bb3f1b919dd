package jsonwire

import (
	"encoding/json"
	"fmt"
	"testing"
)

func TestScanNumber(t *testing.T) {
	tests := []struct {
		name, in string
		stop     int
		complete bool
	}{
		{"zero", "0", 1, true},
		{"zero then digit", "01", 1, true},
		{"integer", "-120,", 4, true},
		{"fraction", "3.25]", 4, true},
		{"exponent", "1e+10}", 5, true},
		{"upper exponent", "2.5E-3 ", 6, true},
		{"minus alone", "-", 1, false},
		{"minus then letter", "-a", 1, false},
		{"dot without digits", "1.}", 2, false},
		{"exponent without digits", "1e", 2, false},
		{"exponent sign without digits", "1e-x", 3, false},
		{"leading dot", ".5", 0, false},
		{"plus", "+1", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			i, s := ScanNumber(tc.in, 0, NumStart)
			if i != tc.stop || s.Complete() != tc.complete {
				t.Errorf("ScanNumber(%q) = %d, complete %v; want %d, %v", tc.in, i, s.Complete(), tc.stop, tc.complete)
			}
		})
	}
}

// FuzzScanNumber checks the grammar against encoding/json, whole and cut
// at every byte (resumed from the state where the first part stopped).
func FuzzScanNumber(f *testing.F) {
	for _, s := range []string{"0", "-0.5e+7", "01", "1.", "1e", "-", "12345678901234567890", "1.5E3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		i, st := ScanNumber(s, 0, NumStart)
		whole := i == len(s) && st.Complete()
		var n json.Number
		want := len(s) > 0 && (s[0] == '-' || s[0] >= '0' && s[0] <= '9') && json.Unmarshal([]byte(s), &n) == nil && string(n) == s
		if whole != want {
			t.Fatalf("ScanNumber(%q) = %d, %v: whole %v, encoding/json %v", s, i, st, whole, want)
		}
		for k := 0; k <= len(s); k++ {
			j, st1 := ScanNumber(s[:k], 0, NumStart)
			if j < k {
				if j != i || st1 != st {
					t.Fatalf("%q cut at %d: stopped at %d, %v; whole: %d, %v", s, k, j, st1, i, st)
				}
				continue
			}
			j, st2 := ScanNumber(s, k, st1)
			if j != i || st2 != st {
				t.Fatalf("%q cut at %d: resumed to %d, %v; whole: %d, %v", s, k, j, st2, i, st)
			}
		}
	})
}

// A stream cut inside a number: the state carries over to the next chunk.
func ExampleScanNumber() {
	chunks := []string{"-12", ".5e", "+3,"}
	st := NumStart
	for _, c := range chunks {
		var i int
		i, st = ScanNumber(c, 0, st)
		if i < len(c) {
			fmt.Printf("number ends before %q, whole: %v\n", c[i:], st.Complete())
			return
		}
	}
	// Output: number ends before ",", whole: true
}
