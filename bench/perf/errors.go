package perf

import (
	"errors"
	"fmt"
)

// ErrOption is what every *OptionError wraps.
var ErrOption = errors.New("perf: invalid option")

// OptionError reports an option given a value it does not take.
type OptionError struct {
	Option string // the option's name, as "WithChunks"
	Reason string
}

func (e *OptionError) Error() string { return fmt.Sprintf("perf: %s: %s", e.Option, e.Reason) }

// Unwrap returns ErrOption.
func (e *OptionError) Unwrap() error { return ErrOption }

// ErrTurns is what every *TurnsError wraps.
var ErrTurns = errors.New("perf: invalid turns file")

// TurnsError reports a turns file that cannot be used with its input.
type TurnsError struct {
	File   string // the turns file ("" when parsed from bytes)
	Turn   int    // the turn at fault, from 0; -1 for the file as a whole
	Reason string
	Err    error // the cause, if any (a JSON or I/O error)
}

func (e *TurnsError) Error() string {
	msg := "perf: turns"
	if e.File != "" {
		msg += " file " + e.File
	}
	if e.Turn >= 0 {
		msg += fmt.Sprintf(": turn %d", e.Turn)
	}
	msg += ": " + e.Reason
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns ErrTurns and the cause.
func (e *TurnsError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrTurns, e.Err}
	}
	return []error{ErrTurns}
}

// StageError reports a stage that could not run: a parser, processor or
// pipeline that refused its options, or a pipeline whose sink failed.
type StageError struct {
	Stage Stage
	Mode  string
	Chunk int
	Err   error
}

func (e *StageError) Error() string {
	return fmt.Sprintf("perf: %s %s, %d-byte chunks: %v", e.Stage, e.Mode, e.Chunk, e.Err)
}

// Unwrap returns the cause.
func (e *StageError) Unwrap() error { return e.Err }
