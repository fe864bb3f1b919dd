package protocol

import "testing"

// TestUnexpectedPropertiesReadTheSame checks that an additionalProperties
// failure lists its properties in one order whatever order the validator
// reported them in (it reports them in map order).
func TestUnexpectedPropertiesReadTheSame(t *testing.T) {
	tests := []struct {
		name  string
		props []string
		want  string
	}{
		{name: "one", props: []string{"x"}, want: "'x' was unexpected"},
		{name: "in order", props: []string{"text", "usageHint"}, want: "'text', 'usageHint' were unexpected"},
		{name: "reversed", props: []string{"usageHint", "text"}, want: "'text', 'usageHint' were unexpected"},
		{name: "three shuffled", props: []string{"b", "c", "a"}, want: "'a', 'b', 'c' were unexpected"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := unexpected(tt.props); got != tt.want {
				t.Errorf("unexpected(%q) = %q, want %q", tt.props, got, tt.want)
			}
		})
	}
}
