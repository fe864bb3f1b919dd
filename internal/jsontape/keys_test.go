package jsontape_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/jsontape"
)

func TestPlainKeys(t *testing.T) {
	many := make([]string, 20)
	for i := range many {
		many[i] = fmt.Sprintf(`"k%d":%d`, i, i)
	}
	manyDup := append(append([]string{}, many...), `"k3":0`)
	for _, tc := range []struct {
		name, doc string
		want      bool
	}{
		{"scalar", `1`, true},
		{"plain keys", `{"a":{"b":1,"c":[{"a":1,"b":2}]},"b":2}`, true},
		{"same key in two objects", `[{"a":1},{"a":2}]`, true},
		{"escaped key", `{"\u0061":1}`, false},
		{"escaped value only", `{"a":"\n"}`, true},
		{"duplicate key", `{"a":1,"b":2,"a":3}`, false},
		{"nested duplicate key", `[{"x":{"a":1,"a":1}}]`, false},
		{"many keys", "{" + strings.Join(many, ",") + "}", true},
		{"many keys, one repeated", "{" + strings.Join(manyDup, ",") + "}", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tp jsontape.Tape
			if err := tp.Parse(tc.doc); err != nil {
				t.Fatal(err)
			}
			if got := tp.PlainKeys(); got != tc.want {
				t.Errorf("PlainKeys() = %v, want %v", got, tc.want)
			}
		})
	}
	var tp jsontape.Tape
	if tp.PlainKeys() {
		t.Error("PlainKeys() on a tape never parsed = true")
	}
	if err := tp.Parse(`{"a":`); err == nil || tp.PlainKeys() {
		t.Errorf("PlainKeys() after a failed Parse (%v) = true", err)
	}
}

func TestKey(t *testing.T) {
	var tp jsontape.Tape
	if err := tp.Parse(`{"id":1,"k\"ey":2}`); err != nil {
		t.Fatal(err)
	}
	if got := tp.Key(1); got != "id" {
		t.Errorf("Key(1) = %q, want id", got)
	}
	if got := tp.Key(3); got != `k\"ey` {
		t.Errorf("Key(3) = %q, want the text between the quotes", got)
	}
}
