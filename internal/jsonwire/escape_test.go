package jsonwire

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"testing"
	"unicode/utf8"
)

func TestAppendUnescaped(t *testing.T) {
	tests := []struct {
		name, in string
		want     string
		n        int
		ok       bool
	}{
		{"plain to the end", `abc`, "abc", 3, true},
		{"stops at the quote", `ab"cd`, "ab", 2, true},
		{"escaped quote", `a\"b"`, `a"b`, 4, true},
		{"short escapes", `\\\/\b\f\n\r\t`, "\\/\b\f\n\r\t", 14, true},
		{"unicode", `\u00e9\u20AC`, "é€", 12, true},
		{"pair", `\ud83d\ude00`, "😀", 12, true},
		{"lone high", `\ud83dx`, "\ufffdx", 7, true},
		{"high then non-low", `\ud83d\u0041`, "\ufffdA", 12, true},
		{"lone low", `\ude00`, "\ufffd", 6, true},
		{"high then bad escape", `\ud83d\uzzzz`, "\ufffd", 6, false},
		{"invalid utf-8 copied", "a\xffb", "a\xffb", 3, true},
		{"control byte", "a\nb", "a", 1, false},
		{"bad escape", `a\x`, "a", 1, false},
		{"cut escape", `a\`, "a", 1, false},
		{"cut unicode", `a\u00`, "a", 1, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, n, ok := AppendUnescaped([]byte("x"), tc.in)
			if string(out) != "x"+tc.want || n != tc.n || ok != tc.ok {
				t.Errorf("AppendUnescaped(%q) = %q, %d, %v, want %q, %d, %v", tc.in, out[1:], n, ok, tc.want, tc.n, tc.ok)
			}
		})
	}
}

func TestEscapeLen(t *testing.T) {
	tests := []struct {
		name, in string
		want     int
	}{
		{"short", `\n`, 2},
		{"quote", `\"`, 2},
		{"unicode", `\u12aF`, 6},
		{"bad hex", `\u12G4`, 0},
		{"cut unicode", `\u12`, 0},
		{"cut", `\`, 0},
		{"unknown", `\a`, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := EscapeLen(tc.in, 0); got != tc.want {
				t.Errorf("EscapeLen(%q) = %d, want %d", tc.in, got, tc.want)
			}
			if tc.want > 0 != IsEscape(tc.in[min(1, len(tc.in)-1)]) && tc.want > 0 {
				t.Errorf("IsEscape(%q) = false for a valid escape", tc.in[1])
			}
		})
	}
}

// FuzzUnescape checks Unescape against encoding/json on valid UTF-8.
func FuzzUnescape(f *testing.F) {
	for _, s := range []string{``, `a\nb`, `\ud83d\ude00`, `\ud83d\u0041`, `\ude00x`, `\u00zz`, `a"b`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		got, ok := Unescape(s)
		lit := []byte(`"` + s + `"`)
		if valid := json.Valid(lit); ok != valid {
			t.Fatalf("Unescape(%q) ok = %v, json.Valid = %v", s, ok, valid)
		}
		if !ok {
			return
		}
		var want string
		if err := json.Unmarshal(lit, &want); err != nil {
			t.Fatalf("Unescape(%q) ok, json: %v", s, err)
		}
		if got != want {
			t.Errorf("Unescape(%q) = %q, want %q", s, got, want)
		}
	})
}

// TestStopBytes checks the eight-byte stop masks (StopBytes, and its two
// parts QuoteBytes and OtherStopBytes) against IsPlain for every byte value
// at every position, behind plain bytes and behind other stops.
func TestStopBytes(t *testing.T) {
	for pos := 0; pos < 8; pos++ {
		for v := 0; v < 256; v++ {
			for _, fill := range []byte{'a', ' ', 0x7f, '!', '#'} {
				var w [8]byte
				for k := range w {
					w[k] = fill
				}
				w[pos] = byte(v)
				want := 8
				for k, c := range w {
					if !IsPlain(c) {
						want = k
						break
					}
				}
				x := binary.LittleEndian.Uint64(w[:])
				if got := lowestFlag(StopBytes(x)); got != want {
					t.Fatalf("%q: first stop at %d, want %d", w, got, want)
				}
				wantQuote, wantOther := 8, 8
				for k := len(w) - 1; k >= 0; k-- {
					switch {
					case w[k] == '"':
						wantQuote = k
					case !IsPlain(w[k]):
						wantOther = k
					}
				}
				if got := lowestFlag(QuoteBytes(x)); got != wantQuote {
					t.Fatalf("%q: first quote at %d, want %d", w, got, wantQuote)
				}
				if got := lowestFlag(OtherStopBytes(x)); got != wantOther {
					t.Fatalf("%q: first stop other than a quote at %d, want %d", w, got, wantOther)
				}
			}
		}
	}
}

// lowestFlag is the index of the lowest byte whose high bit m sets, or 8.
func lowestFlag(m uint64) int {
	if m == 0 {
		return 8
	}
	return bits.TrailingZeros64(m) >> 3
}

func TestScanString(t *testing.T) {
	tests := []struct {
		name, in string
		end      int
		esc, ok  bool
	}{
		{"empty", `"`, 0, false, true},
		{"plain", `abc"x`, 3, false, true},
		{"long plain", `abcdefghijklmnop"`, 16, false, true},
		{"non-ASCII", "é\xff\"", 3, false, true},
		{"escaped quote", `a\"b"`, 4, true, true},
		{"escaped backslash then quote", `a\\"b"`, 3, true, true},
		{"unicode escape", `xxxxxxxx\u00e9"`, 14, true, true},
		{"no closing quote", `abc`, 3, false, false},
		{"long no closing quote", `abcdefghijklmnop`, 16, false, false},
		{"escaped quote at the end", `ab\"`, 4, true, false},
		{"control byte", "abcdefghij\tk\"", 10, false, false},
		{"bad escape", `ab\x"`, 2, true, false},
		{"cut escape", `ab\`, 2, true, false},
		{"cut unicode", `ab\u00"`, 2, true, false},
		{"bad hex", `ab\u00g0"`, 2, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := []byte("\"" + tc.in)
			end, esc, ok := ScanString(b, 1)
			if end != tc.end+1 || esc != tc.esc || ok != tc.ok {
				t.Errorf("ScanString(%q, 1) = %d, %v, %v, want %d, %v, %v", b, end, esc, ok, tc.end+1, tc.esc, tc.ok)
			}
		})
	}
}

// FuzzScanString holds ScanString to AppendUnescaped, which reads the same
// grammar: the same closing quote or byte at fault, and the same verdict
// on a string that ends.
func FuzzScanString(f *testing.F) {
	for _, s := range []string{``, `a"`, `a\"b"`, `\u00e9"`, "a\x01\"", `\x"`, `abc\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		end, esc, ok := ScanString([]byte(s), 0)
		_, n, uok := AppendUnescaped(nil, s)
		closed := n < len(s) && s[n] == '"'
		if end != n || ok != (uok && closed) {
			t.Fatalf("ScanString(%q) = %d, %v, want %d, %v", s, end, ok, n, uok && closed)
		}
		if ok && esc != (bytes.IndexByte([]byte(s[:end]), '\\') >= 0) {
			t.Fatalf("ScanString(%q) esc = %v", s, esc)
		}
	})
}
