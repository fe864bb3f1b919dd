package perf

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/a2ui-stream/a2ui-stream/parser"
)

// Stage is what a cell measures.
type Stage string

// The stages.
const (
	// StageParse: the parser alone, as a pipeline session runs it (tags
	// framing, borrowed output, list ends).
	StageParse Stage = "parse"
	// StageProcess: the processor alone, applying what the parser
	// yielded (recorded before the clock starts) as a session applies it.
	StageProcess Stage = "process"
	// StagePipeline: stream.Pipeline, parser, processor and a counting
	// sink, with one or more concurrent sessions.
	StagePipeline Stage = "pipeline"
)

// Stages lists every stage, in the order results list them.
var Stages = []Stage{StageParse, StageProcess, StagePipeline}

// ParseStage returns the stage called s.
func ParseStage(s string) (Stage, error) {
	if slices.Contains(Stages, Stage(s)) {
		return Stage(s), nil
	}
	return "", fmt.Errorf("perf: unknown stage %q (want parse, process or pipeline)", s)
}

// Defaults of the options.
const (
	DefaultRounds   = 3
	DefaultSessions = 1
	// DefaultMinRound is the CPU time a round repeats passes for, so that
	// a small input is timed over more than the clock's resolution.
	DefaultMinRound = 25 * time.Millisecond
	// MinDurationRounds is the least number of rounds WithDuration runs.
	MinDurationRounds = 3
	// MaxChunk bounds a chunk size.
	MaxChunk = 1 << 24
	// MaxSessions bounds WithSessions.
	MaxSessions = 4096
)

// DefaultChunks are the chunk sizes measured by default: a model's token
// (4), a few tokens (16), a network read (256) and a file read (65536).
var DefaultChunks = []int{4, 16, 256, 65536}

// DefaultModes are the parser modes measured by default.
var DefaultModes = []parser.Mode{parser.ModeComplete, parser.ModeProgressive, parser.ModeDelta}

// Progress reports the runner's progress: Done of Total cells (floors
// and scaling points included) are finished, and Doing names the next.
type Progress struct {
	Done, Total int
	Doing       string
}

type config struct {
	stages   []Stage
	modes    []parser.Mode
	chunks   []int
	rounds   int
	duration time.Duration
	minRound time.Duration
	sessions int
	scaling  bool
	sizes    []int // the scaling check's sizes (ScalingComponents)
	progress func(Progress)
}

// Option configures a Runner.
type Option func(*config) error

// WithStages sets the stages measured (default: all, see Stages). They are
// measured in the order of Stages, without repetition.
func WithStages(stages ...Stage) Option {
	return func(c *config) error {
		if len(stages) == 0 {
			return &OptionError{"WithStages", "no stage given"}
		}
		for _, s := range stages {
			if _, err := ParseStage(string(s)); err != nil {
				return &OptionError{"WithStages", err.Error()}
			}
		}
		c.stages = ordered(Stages, stages)
		return nil
	}
}

// WithModes sets the parser modes measured (default: DefaultModes).
func WithModes(modes ...parser.Mode) Option {
	return func(c *config) error {
		if len(modes) == 0 {
			return &OptionError{"WithModes", "no mode given"}
		}
		for _, m := range modes {
			if !slices.Contains(DefaultModes, m) {
				return &OptionError{"WithModes", fmt.Sprintf("unknown mode %d", int(m))}
			}
		}
		c.modes = ordered(DefaultModes, modes)
		return nil
	}
}

// WithChunks sets the chunk sizes measured, in bytes (default:
// DefaultChunks). They are measured in increasing order, without
// repetition.
func WithChunks(sizes ...int) Option {
	return func(c *config) error {
		if len(sizes) == 0 {
			return &OptionError{"WithChunks", "no chunk size given"}
		}
		for _, n := range sizes {
			if n < 1 || n > MaxChunk {
				return &OptionError{"WithChunks", fmt.Sprintf("chunk size %d is not between 1 and %d", n, MaxChunk)}
			}
		}
		c.chunks = slices.Compact(slices.Sorted(slices.Values(sizes)))
		return nil
	}
}

// WithRounds sets the number of timed rounds per cell (default
// DefaultRounds). It replaces WithDuration.
func WithRounds(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return &OptionError{"WithRounds", fmt.Sprintf("%d rounds: want 1 or more", n)}
		}
		c.rounds, c.duration = n, 0
		return nil
	}
}

// WithDuration times each cell for d of CPU time instead of a fixed number
// of rounds (at least MinDurationRounds rounds). It replaces WithRounds.
func WithDuration(d time.Duration) Option {
	return func(c *config) error {
		if d <= 0 {
			return &OptionError{"WithDuration", fmt.Sprintf("duration %v: want more than 0", d)}
		}
		c.duration, c.rounds = d, 0
		return nil
	}
}

// WithMinRound sets the CPU time a round repeats passes for (default
// DefaultMinRound; 0 makes every round one pass).
func WithMinRound(d time.Duration) Option {
	return func(c *config) error {
		if d < 0 {
			return &OptionError{"WithMinRound", fmt.Sprintf("%v is negative", d)}
		}
		c.minRound = d
		return nil
	}
}

// WithSessions sets the number of concurrent sessions the pipeline stage
// runs, each fed the whole input (default DefaultSessions).
func WithSessions(n int) Option {
	return func(c *config) error {
		if n < 1 || n > MaxSessions {
			return &OptionError{"WithSessions", fmt.Sprintf("%d sessions: want 1 to %d", n, MaxSessions)}
		}
		c.sessions = n
		return nil
	}
}

// WithScaling adds the scaling check (see ScalingComponents) to the run.
func WithScaling(on bool) Option {
	return func(c *config) error {
		c.scaling = on
		return nil
	}
}

// WithProgress sets a function told of the run's progress, before each
// cell and once at the end, on the goroutine that called Run.
func WithProgress(fn func(Progress)) Option {
	return func(c *config) error {
		c.progress = fn
		return nil
	}
}

// ordered returns the members of all that are in some, in all's order.
func ordered[T comparable](all, some []T) []T {
	var out []T
	for _, v := range all {
		if slices.Contains(some, v) {
			out = append(out, v)
		}
	}
	return out
}

// modeName is a mode's name as the flags spell it.
func modeName(m parser.Mode) string { return strings.ToLower(m.String()) }

// withSizes sets the scaling check's sizes (tests use small ones).
func withSizes(sizes ...int) Option {
	return func(c *config) error {
		c.sizes = sizes
		return nil
	}
}
