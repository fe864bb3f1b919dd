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
	// want: the type's references are the well-known ones.
	tests := []struct {
		name, typ string
		want      bool
	}{
		{"single well-known", "Card", true},
		{"list well-known", "Column", true},
		{"names of its own", "Modal", false},
		{"list name as single", "Odd", false},
		{"single name as list", "Odd2", false},
		{"unknown type", "Nope", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := cat.HasOwnRefFields(tc.typ); got != !tc.want {
				t.Errorf("HasOwnRefFields(%q) = %v, want %v", tc.typ, got, !tc.want)
			}
		})
	}
	if (*Catalog)(nil).HasOwnRefFields("Card") {
		t.Error("nil catalog: want false")
	}
}
