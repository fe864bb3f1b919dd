package protocol

import (
	"encoding/json"
	"fmt"
	"testing"
)

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

// TestEntriesSortTheSame checks that failures sort in one order whatever
// order the validator reported them in, among them failures at keys that
// read as the same number ("0", "00": other members, not array items).
func TestEntriesSortTheSame(t *testing.T) {
	tests := []struct {
		name string
		locs [][]string
		want string
	}{
		{name: "items", locs: [][]string{{"0", "10"}, {"0", "9"}}, want: "[[0 9] [0 10]]"},
		{name: "keys of one number", locs: [][]string{{"0", "0000"}, {"0", "00000"}, {"0", "0"}}, want: "[[0 0] [0 0000] [0 00000]]"},
		{name: "keys of one number reversed", locs: [][]string{{"0", "00000"}, {"0", "0000"}, {"0", "0"}}, want: "[[0 0] [0 0000] [0 00000]]"},
		{name: "shorter first", locs: [][]string{{"0", "a", "b"}, {"0", "a"}}, want: "[[0 a] [0 a b]]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var es []schemaEntry
			for _, l := range tt.locs {
				es = append(es, schemaEntry{msg: "m", loc: l})
			}
			sortEntries(es)
			var got [][]string
			for _, e := range es {
				got = append(got, e.loc)
			}
			if s := fmt.Sprint(got); s != tt.want {
				t.Errorf("sorted %s, want %s", s, tt.want)
			}
		})
	}
}

// TestReportReadsTheSame: a message whose failures lie at members named
// by the same number gets one report, however often it is validated (the
// validator reports them in map order).
func TestReportReadsTheSame(t *testing.T) {
	cat := specCatalog(t, "0.9", "v0_9")
	var msg any
	if err := json.Unmarshal([]byte(`{"0000000":"0000","updateComponents":{"0":"0","components":[{"00000":"0000","0000":"0"},{"00":"0","000000000":"0000","00000":"0"}]}}`), &msg); err != nil {
		t.Fatal(err)
	}
	first := cat.Validate([]any{msg}).Error()
	for range 100 {
		if got := cat.Validate([]any{msg}).Error(); got != first {
			t.Fatalf("a report of %d bytes, then one of %d bytes", len(first), len(got))
		}
	}
}
