package perf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// MaxTurnsFile bounds the size of a turns file.
const MaxTurnsFile = 64 << 20

// Turn is one turn of an input: the bytes Data[Start:End] an agent's model
// streams in one answer.
type Turn struct{ Start, End int }

// Input is one file to measure.
type Input struct {
	// Name is how results name the input (its file name).
	Name string
	// Data is the model output.
	Data []byte
	// Turns, when set, are the input's turns: every stage starts a new
	// parse at each (a fresh parser, or Pipeline.EndTurn), as an agent
	// does, and bytes outside them are not fed. Nil: the input is one turn.
	Turns []Turn
	// TurnsFile names the file Turns came from ("" for none), for the
	// results: its base name, so that results do not depend on where the
	// files were.
	TurnsFile string
}

// turns returns the input's turns, the whole input when none are set.
func (in *Input) turns() []Turn {
	if in.Turns == nil {
		return []Turn{{0, len(in.Data)}}
	}
	return in.Turns
}

// fedBytes is the number of bytes a pass feeds.
func (in *Input) fedBytes() int {
	n := 0
	for _, t := range in.turns() {
		n += t.End - t.Start
	}
	return n
}

// ReadInput reads a model-output file and, when turnsFile is not empty,
// its turns (see ReadTurns).
func ReadInput(file, turnsFile string) (*Input, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("perf: %w", err)
	}
	in := &Input{Name: filepath.Base(file), Data: data}
	if turnsFile != "" {
		if in.Turns, err = ReadTurns(turnsFile, len(data)); err != nil {
			return nil, err
		}
		in.TurnsFile = filepath.Base(turnsFile)
	}
	return in, nil
}

// TurnsFileFor returns the turns file that goes with a model-output file
// as the shared corpus names them: stream_v09.txt has stream_v09.turns.json.
func TurnsFileFor(file string) string {
	return strings.TrimSuffix(file, filepath.Ext(file)) + ".turns.json"
}

// ReadTurns reads a turns file for an input of size bytes (see
// ParseTurns).
func ReadTurns(file string, size int) ([]Turn, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, &TurnsError{File: file, Turn: -1, Reason: "cannot open", Err: err}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxTurnsFile+1))
	if err != nil {
		return nil, &TurnsError{File: file, Turn: -1, Reason: "cannot read", Err: err}
	}
	if len(data) > MaxTurnsFile {
		return nil, &TurnsError{File: file, Turn: -1, Reason: fmt.Sprintf("larger than %d bytes", MaxTurnsFile)}
	}
	turns, err := ParseTurns(data, size)
	if te, ok := err.(*TurnsError); ok {
		te.File = file
	}
	return turns, err
}

// ParseTurns reads a turns file's JSON, {"offsets": [[start, end], …]} (as
// the shared corpus's *.turns.json; other members are ignored), for an
// input of size bytes. The turns must be in order, must not overlap and
// must lie within the input; there must be at least one.
func ParseTurns(data []byte, size int) ([]Turn, error) {
	var doc struct {
		Offsets *[][]int `json:"offsets"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		return nil, &TurnsError{Turn: -1, Reason: `not a JSON object with "offsets": [[start, end], …]`, Err: err}
	}
	if dec.More() {
		return nil, &TurnsError{Turn: -1, Reason: "data after the JSON object"}
	}
	if doc.Offsets == nil || len(*doc.Offsets) == 0 {
		return nil, &TurnsError{Turn: -1, Reason: `no "offsets"`}
	}
	turns := make([]Turn, 0, len(*doc.Offsets))
	prev := 0
	for i, o := range *doc.Offsets {
		switch {
		case len(o) != 2:
			return nil, &TurnsError{Turn: i, Reason: fmt.Sprintf("%d numbers, want [start, end]", len(o))}
		case o[0] < prev:
			return nil, &TurnsError{Turn: i, Reason: fmt.Sprintf("starts at %d, before the end of the turn before it (%d)", o[0], prev)}
		case o[1] < o[0]:
			return nil, &TurnsError{Turn: i, Reason: fmt.Sprintf("ends at %d, before its start %d", o[1], o[0])}
		case o[1] > size:
			return nil, &TurnsError{Turn: i, Reason: fmt.Sprintf("ends at %d, past the input's %d bytes (is it the turns file of another input?)", o[1], size)}
		}
		turns = append(turns, Turn{o[0], o[1]})
		prev = o[1]
	}
	return turns, nil
}
