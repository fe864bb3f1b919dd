package protocol

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"
)

func TestBoundedNumber(t *testing.T) {
	long := "1." + strings.Repeat("0", 120) + "1"
	tests := []struct {
		name, in, want string
		changed        bool
	}{
		{"short_integer", "123", "123", false},
		{"short_fraction", "-0.5", "-0.5", false},
		{"moderate_exponent", "1.5e300", "1.5e300", false},
		{"moderate_negative_exponent", "2E-300", "2E-300", false},
		{"zero_huge_exponent", "0e999999", "0e999999", false},
		{"not_a_number", "abc", "abc", false},
		{"huge_integer", "1e999999", "1e401", true},
		{"huge_negative_integer", "-2.5e999999", "-1e401", true},
		{"huge_non_integer", "1" + strings.Repeat("1", 500) + ".5", "1" + strings.Repeat("0", 401) + ".5", true},
		{"tiny", "1.5e-999999", "1e-402", true},
		{"tiny_negative", "-1e-10000000", "-1e-402", true},
		{"exponent_saturates", "1e99999999999999999999", "1e401", true},
		{"long_zero", "0." + strings.Repeat("0", 200), "0", true},
		{"long_trailing_zeros", "1." + strings.Repeat("0", 200), "1e0", true},
		{"long_fraction", long, "1" + strings.Repeat("0", 39) + "5e-40", true},
		{"long_integer", "7" + strings.Repeat("3", 200), "7" + strings.Repeat("3", 39) + "5e160", true},
		{"long_integer_with_fraction", strings.Repeat("3", 200) + ".25", strings.Repeat("3", 40) + strings.Repeat("0", 160) + ".5", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, changed := boundedNumber(tt.in)
			if got != tt.want || changed != tt.changed {
				t.Fatalf("boundedNumber(%.40q) = %.60q, %v; want %.60q, %v", tt.in, got, changed, tt.want, tt.changed)
			}
		})
	}
}

// The stand-in of a number has its sign and integrality and compares with
// every bound of at most numberMaxDigits digits within numberMaxMagnitude
// as the number does.
func TestBoundedNumberKeepsVerdicts(t *testing.T) {
	numbers := []string{
		"1e999", "-1e999", "1.5e-999", "-1.5e-999", "12e401", "1e-401", "9.99e400", "1.01e-400",
		"1" + strings.Repeat("0", 450) + ".5", "-" + strings.Repeat("9", 300),
		"10." + strings.Repeat("0", 150) + "1", "9." + strings.Repeat("9", 150),
		"0." + strings.Repeat("0", 120) + "3", strings.Repeat("12", 60) + "e-100",
		strings.Repeat("5", 120) + "e3", "1.000000000000000000000000000000000000000000001",
	}
	bounds := []string{
		"0", "1", "-1", "10", "-10", "0.5", "1e-400", "-1e-400", "9.999e399", "1e399",
		"1.000000000000000000000000000000000000001", "1e40", "555555555555555555555555555555555555555e84",
		"12121212121212121212121212121212121212e-20",
	}
	for _, n := range numbers {
		b, _ := boundedNumber(n)
		orig, ok1 := new(big.Rat).SetString(n)
		stand, ok2 := new(big.Rat).SetString(b)
		if !ok1 || !ok2 {
			t.Fatalf("%.40s: not a number (%.40s)", n, b)
		}
		if orig.Sign() != stand.Sign() || orig.IsInt() != stand.IsInt() {
			t.Errorf("%.40s -> %.40s: sign %d/%d integer %v/%v", n, b, orig.Sign(), stand.Sign(), orig.IsInt(), stand.IsInt())
		}
		for _, bs := range bounds {
			bound, _ := new(big.Rat).SetString(bs)
			if orig.Cmp(bound) != stand.Cmp(bound) {
				t.Errorf("%.40s -> %.40s: compares %d with %s, stand-in %d", n, b, orig.Cmp(bound), bs, stand.Cmp(bound))
			}
		}
	}
}

// The fast path reads numbers as ValidateSchema hands them to the library.
func TestFastVerdictExtremeNumbers(t *testing.T) {
	s2c := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"min":  map[string]any{"type": "number", "minimum": json.Number("0")},
			"int":  map[string]any{"type": "integer"},
			"one":  map[string]any{"enum": []any{json.Number("1"), "x"}},
			"list": map[string]any{"const": []any{json.Number("1")}},
			// Schema numbers outside the stand-ins' range: the fast path
			// must still answer as the library does.
			"huge": map[string]any{"const": json.Number("1e500")},
			"long": map[string]any{"enum": []any{json.Number("1." + strings.Repeat("0", 150) + "1")}},
		},
	}
	cat, err := NewCatalog(V09, s2c, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cat.fast == nil {
		t.Fatal("catalog not compiled for the fast path")
	}
	for _, msg := range []string{
		`{"min":1e10000000}`, `{"min":-1e10000000}`, `{"min":1e999999}`, `{"min":-1.5e-999999}`,
		`{"int":1e10000000}`, `{"int":1.5e-999999}`, `{"int":1.` + strings.Repeat("0", 300) + `}`,
		`{"one":1e10000000}`, `{"one":1.` + strings.Repeat("0", 300) + `}`, `{"list":[1e-10000000]}`,
		`{"list":[1.` + strings.Repeat("0", 300) + `]}`,
		`{"huge":2e500}`, `{"huge":1e500}`,
		`{"long":1.` + strings.Repeat("0", 150) + `1}`, `{"long":1.` + strings.Repeat("0", 150) + `2}`,
	} {
		valid, decided := cat.fastVerdict(msg)
		if !decided {
			t.Errorf("%.40s: not decided", msg)
			continue
		}
		if want := slowVerdict(cat, msg); valid != want {
			t.Errorf("%.40s: fast verdict %v, library %v", msg, valid, want)
		}
	}
}
