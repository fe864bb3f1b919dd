package perf

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseTurns(t *testing.T) {
	tests := []struct {
		name   string
		json   string
		want   []Turn
		reason string // in the error; "" for none
	}{
		{"corpus form", `{"version":"0.9","turns":2,"offsets":[[0,10],[10,25]]}`, []Turn{{0, 10}, {10, 25}}, ""},
		{"gaps are allowed", `{"offsets":[[2,5],[9,9],[20,30]]}`, []Turn{{2, 5}, {9, 9}, {20, 30}}, ""},
		{"not JSON", `offsets: 1`, nil, "not a JSON object"},
		{"trailing data", `{"offsets":[[0,1]]} {}`, nil, "data after the JSON object"},
		{"no offsets", `{"turns":3}`, nil, `no "offsets"`},
		{"empty offsets", `{"offsets":[]}`, nil, `no "offsets"`},
		{"offsets not pairs", `{"offsets":[[0,1,2]]}`, nil, "turn 0: 3 numbers"},
		{"offsets not numbers", `{"offsets":[["a","b"]]}`, nil, "not a JSON object"},
		{"overlap", `{"offsets":[[0,10],[5,12]]}`, nil, "turn 1: starts at 5, before the end of the turn before it (10)"},
		{"reversed", `{"offsets":[[8,3]]}`, nil, "turn 0: ends at 3, before its start 8"},
		{"negative start", `{"offsets":[[-1,3]]}`, nil, "turn 0: starts at -1"},
		{"past the input", `{"offsets":[[0,31]]}`, nil, "turn 0: ends at 31, past the input's 30 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseTurns([]byte(tt.json), 30)
			if tt.reason == "" {
				if err != nil || !reflect.DeepEqual(got, tt.want) {
					t.Fatalf("ParseTurns = %v, %v; want %v", got, err, tt.want)
				}
				return
			}
			var te *TurnsError
			if !errors.As(err, &te) || !errors.Is(err, ErrTurns) || !strings.Contains(err.Error(), tt.reason) {
				t.Fatalf("ParseTurns error = %v, want a *TurnsError containing %q", err, tt.reason)
			}
			if !strings.HasPrefix(err.Error(), "perf: ") {
				t.Errorf("error %q is not prefixed with the package name", err)
			}
		})
	}
}

func TestReadInput(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "answer.txt")
	if err := os.WriteFile(text, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	turns := TurnsFileFor(text)
	if turns != filepath.Join(dir, "answer.turns.json") {
		t.Fatalf("TurnsFileFor = %s", turns)
	}
	if err := os.WriteFile(turns, []byte(`{"offsets":[[0,4],[4,10]]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := ReadInput(text, turns)
	if err != nil || in.Name != "answer.txt" || len(in.Turns) != 2 || in.fedBytes() != 10 {
		t.Fatalf("ReadInput = %+v, %v", in, err)
	}
	if _, err := ReadInput(filepath.Join(dir, "missing.txt"), ""); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing input: error %v, want one wrapping os.ErrNotExist", err)
	}
	_, err = ReadInput(text, filepath.Join(dir, "missing.turns.json"))
	var te *TurnsError
	if !errors.As(err, &te) || te.File == "" || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing turns file: error %v, want a *TurnsError naming the file", err)
	}
}

func TestOptions(t *testing.T) {
	tests := []struct {
		name   string
		opt    Option
		reason string
	}{
		{"no stage", WithStages(), "no stage given"},
		{"unknown stage", WithStages("render"), `unknown stage "render"`},
		{"no mode", WithModes(), "no mode given"},
		{"unknown mode", WithModes(7), "unknown mode 7"},
		{"no chunk", WithChunks(), "no chunk size given"},
		{"zero chunk", WithChunks(16, 0), "chunk size 0"},
		{"huge chunk", WithChunks(MaxChunk + 1), "is not between 1 and"},
		{"zero rounds", WithRounds(0), "0 rounds"},
		{"zero duration", WithDuration(0), "want more than 0"},
		{"negative min round", WithMinRound(-1), "negative"},
		{"zero sessions", WithSessions(0), "0 sessions"},
		{"too many sessions", WithSessions(MaxSessions + 1), "sessions: want 1 to"},
		{"nil option", nil, "nil option"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewRunner(tt.opt)
			var oe *OptionError
			if !errors.As(err, &oe) || !errors.Is(err, ErrOption) || !strings.Contains(err.Error(), tt.reason) {
				t.Fatalf("NewRunner error = %v, want an *OptionError containing %q", err, tt.reason)
			}
		})
	}
	r, err := NewRunner(WithChunks(256, 4, 256), WithStages(StagePipeline, StageParse), WithDuration(1))
	if err != nil {
		t.Fatal(err)
	}
	if c := r.cfg; !reflect.DeepEqual(c.chunks, []int{4, 256}) || !reflect.DeepEqual(c.stages, []Stage{StageParse, StagePipeline}) || c.rounds != 0 || c.duration != 1 {
		t.Errorf("config = %+v: want chunks sorted without repetition, stages in order, duration replacing rounds", c)
	}
}

func TestHeapTurns(t *testing.T) {
	tests := []struct {
		n    int
		want []int
	}{
		{1, nil},
		{2, []int{1}},
		{6, []int{1, 2, 5}},
		{200, []int{1, 2, 5, 10, 20, 50, 100}},
	}
	for _, tt := range tests {
		if got := heapTurns(tt.n); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("heapTurns(%d) = %v, want %v", tt.n, got, tt.want)
		}
	}
}
