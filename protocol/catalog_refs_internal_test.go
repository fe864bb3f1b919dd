package protocol

import "testing"

func TestHasOwnRefFields(t *testing.T) {
	single := func(s ...string) []string { return s }
	cat := &Catalog{refs: map[string]refFields{
		"Card":   {single: single("child")},
		"Column": {list: single("children")},
		"Modal":  {single: single("content", "trigger")},
		"Odd":    {single: single("children")},
		"Odd2":   {list: single("child")},
	}}
	tests := []struct {
		name, typ string
		own       bool
	}{
		{"single well-known", "Card", false},
		{"list well-known", "Column", false},
		{"names of its own", "Modal", true},
		{"list name as single", "Odd", true},
		{"single name as list", "Odd2", true},
		{"unknown type", "Nope", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := cat.HasOwnRefFields(tc.typ); got != tc.own {
				t.Errorf("HasOwnRefFields(%q) = %v, want %v", tc.typ, got, tc.own)
			}
		})
	}
	if (*Catalog)(nil).HasOwnRefFields("Card") {
		t.Error("nil catalog: want false")
	}
}
