package parser

import (
	"fmt"
	"testing"
)

// TestReturnedPartsStayOwned checks that parts returned by earlier calls are
// never changed by later calls, and that appending to a returned slice never
// changes parts returned later, across the parser's shared part arrays.
func TestReturnedPartsStayOwned(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var kept [][]Part
	for i := range 3 * partSlab {
		chunk := fmt.Sprintf("t%d ", i)
		if i%5 == 4 {
			chunk = fmt.Sprintf(`x<a2ui-json>[{"n":%d}]</a2ui-json>`, i)
		}
		parts, err := p.Feed([]byte(chunk))
		if err != nil {
			t.Fatalf("Feed %d: %v", i, err)
		}
		if len(parts) == 0 {
			t.Fatalf("Feed %d: no parts", i)
		}
		// The caller appends to what an earlier call returned; the parts of
		// this call must not change.
		if len(kept) > 0 {
			_ = append(kept[len(kept)-1], Part{Text: "appended"})
		}
		kept = append(kept, parts)
	}
	for i, parts := range kept {
		want := fmt.Sprintf("t%d ", i)
		if i%5 == 4 {
			want = "x"
			if len(parts[0].Messages) != 1 || string(parts[0].Messages[0]) != fmt.Sprintf(`{"n":%d}`, i) {
				t.Fatalf("call %d: messages %q", i, parts[0].Messages)
			}
		}
		if len(parts) != 1 || parts[0].Text != want {
			t.Fatalf("call %d: parts %+v, want one part with text %q", i, parts, want)
		}
	}
}
