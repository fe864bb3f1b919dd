package parser

import (
	"fmt"
	"log/slog"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// Mode selects what the parser yields for the A2UI blocks it reads.
type Mode int

const (
	// ModeComplete yields each top-level message exactly once, the moment its
	// closing brace arrives, as the exact bytes the model produced.
	ModeComplete Mode = iota
	// ModeProgressive heals partial components and yields full snapshots of the
	// components reachable from the root as they arrive, as the A2UI
	// streaming conformance suite specifies.
	ModeProgressive
	// ModeDelta is ModeProgressive without repetition: each yield carries only
	// the components and data entries that are new or changed. Component
	// updates are upserts by id. A data model message's first yield passes
	// whole (it replaces the value at its path); its later yields carry
	// each entry new or changed since, as an update at the entry's own path
	// (path/key), or (v0.8, whose contents cannot address one entry) whole.
	// Applied in order, the yields of blocks that do not fail leave the same
	// components and data as the complete messages, given data model
	// messages that name their "surfaceId" and "path" before their "value"
	// (as in progressive mode and the reference, one sniffed before those
	// arrive is yielded for the current surface, or "default", at the root).
	// A component with more than 16 children still missing is sent again
	// for its children that arrived once an eighth of them did, and at the
	// block's end, so that the output stays linear in the input (a child
	// that arrived is yielded at once; until then its parent names its
	// placeholder).
	ModeDelta
)

func (m Mode) String() string {
	switch m {
	case ModeComplete:
		return "complete"
	case ModeProgressive:
		return "progressive"
	case ModeDelta:
		return "delta"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// ParseMode parses "complete", "progressive" or "delta".
func ParseMode(s string) (Mode, error) {
	for _, m := range []Mode{ModeComplete, ModeProgressive, ModeDelta} {
		if m.String() == s {
			return m, nil
		}
	}
	return 0, fmt.Errorf("parser: unknown mode %q (want complete, progressive or delta)", s)
}

// Framing selects how A2UI blocks are delimited in the model's output.
type Framing int

const (
	// FramingTags delimits blocks with <a2ui-json> and </a2ui-json>.
	FramingTags Framing = iota
	// FramingFences delimits blocks with markdown fences, as CommonMark
	// reads them: an opening fence is a line of at most 3 spaces of
	// indentation, then ```a2ui, then only spaces, tabs or '\r' to the end
	// of the line; a closing fence is a line of at most 3 spaces of
	// indentation, then at least three backticks, then only spaces, tabs or
	// '\r' to the end of the line or of the stream. A fence line is markup:
	// it belongs to neither the text nor the block, its line ending
	// included. A line longer than 64 bytes is never a fence. A block with
	// no closing fence ends with the stream. Prose that mentions ```a2ui
	// mid-line stays prose.
	FramingFences
	// FramingJSONL reads bare JSON lines: one A2UI message per line, no prose.
	FramingJSONL
)

func (f Framing) String() string {
	switch f {
	case FramingTags:
		return "tags"
	case FramingFences:
		return "fences"
	case FramingJSONL:
		return "jsonl"
	}
	return fmt.Sprintf("Framing(%d)", int(f))
}

// ParseFraming parses "tags", "fences" or "jsonl".
func ParseFraming(s string) (Framing, error) {
	for _, f := range []Framing{FramingTags, FramingFences, FramingJSONL} {
		if f.String() == s {
			return f, nil
		}
	}
	return 0, fmt.Errorf("parser: unknown framing %q (want tags, fences or jsonl)", s)
}

// Default limits.
const (
	DefaultMaxBlockSize = 8 << 20 // 8 MiB
	DefaultMaxDepth     = 128
	// DefaultMaxSurfaces and DefaultMaxComponents bound what the
	// progressive modes keep of a stream (see WithMaxSurfaces).
	DefaultMaxSurfaces   = 1024
	DefaultMaxComponents = 10000
)

type config struct {
	mode         Mode
	framing      Framing
	catalog      *protocol.Catalog
	maxBlockSize int
	maxDepth     int
	maxSurfaces  int
	maxComps     int
	logger       *slog.Logger
	borrow       bool
	repair       bool
	listEnds     bool
}

// Option configures a Parser. Options are validated by New.
type Option func(*config) error

// WithMode selects the yield mode (default ModeComplete).
func WithMode(m Mode) Option {
	return func(c *config) error {
		if m < ModeComplete || m > ModeDelta {
			return fmt.Errorf("parser: invalid mode %d", int(m))
		}
		c.mode = m
		return nil
	}
}

// WithFraming selects how blocks are delimited (default FramingTags).
func WithFraming(f Framing) Option {
	return func(c *config) error {
		if f < FramingTags || f > FramingJSONL {
			return fmt.Errorf("parser: invalid framing %d", int(f))
		}
		c.framing = f
		return nil
	}
}

// WithCatalog sets the catalog used by the progressive and delta modes for
// component references, required fields and validation. Complete mode does
// not validate against it. Every change to a component is validated as it
// arrives, so a catalog costs the progressive modes about half their speed
// (bench/README.md).
func WithCatalog(cat *protocol.Catalog) Option {
	return func(c *config) error {
		c.catalog = cat
		return nil
	}
}

// WithMaxBlockSize bounds the bytes of one block's content (default
// DefaultMaxBlockSize). A larger block fails with ErrTooLarge; the parser
// never buffers more than this for a block. JSON whitespace past the bound
// does not count unless more content follows it, so a block of exactly n
// bytes of JSON passes whatever newline or spaces precede its closing
// marker (a fenced block always ends in one). It is at most 2 GiB - 1: the
// progressive modes index a message's bytes with 32-bit offsets.
func WithMaxBlockSize(n int) Option {
	set := limitOption("max block size", n, func(c *config) *int { return &c.maxBlockSize })
	return func(c *config) error {
		if n > maxBlockSizeLimit {
			return fmt.Errorf("parser: max block size must be at most %d (2 GiB - 1), got %d", maxBlockSizeLimit, n)
		}
		return set(c)
	}
}

// maxBlockSizeLimit bounds WithMaxBlockSize: offsets into a block fit in
// 32 bits (the data model reader's index and entries, data_index.go).
const maxBlockSizeLimit = 1<<31 - 1

// WithMaxDepth bounds JSON nesting (default DefaultMaxDepth). Deeper JSON
// fails with a *SyntaxError wrapping ErrTooDeep.
func WithMaxDepth(n int) Option {
	return limitOption("max depth", n, func(c *config) *int { return &c.maxDepth })
}

// WithMaxSurfaces bounds the surfaces the progressive and delta modes keep
// state for (default DefaultMaxSurfaces). They remember each surface of the
// stream, its components, root and version and the data they yielded, until
// a deleteSurface, so that later messages are healed and compared against
// it. A message for one more surface fails its block with a *LimitError
// wrapping ErrLimit (the rest of that block is dropped, as for any failed
// block); the surfaces already held go on as before in the next blocks. The
// ids a message without a surface falls back to ("default", "unknown") are
// not counted. Complete mode keeps no state and ignores it.
func WithMaxSurfaces(n int) Option {
	return limitOption("max surfaces", n, func(c *config) *int { return &c.maxSurfaces })
}

// WithMaxComponents bounds the components the progressive and delta modes
// keep for one surface, and the v0.8 messages they hold for a surface
// before its beginRendering (default DefaultMaxComponents). One more fails
// its block with a *LimitError wrapping ErrLimit. It also bounds their
// records of the data yielded (which spare yielding an entry twice): n data
// paths per surface, n keys per path; past these the records start afresh,
// and an entry may be yielded again. Complete mode ignores it.
func WithMaxComponents(n int) Option {
	return limitOption("max components", n, func(c *config) *int { return &c.maxComps })
}

// limitOption sets the limit field selects to n, which must be positive.
func limitOption(what string, n int, field func(*config) *int) Option {
	return func(c *config) error {
		if n <= 0 {
			return fmt.Errorf("parser: %s must be positive, got %d", what, n)
		}
		*field(c) = n
		return nil
	}
}

// WithBorrowedOutput makes the parser reuse the storage of what it
// returns, as bufio.Scanner.Bytes does. The parts a Feed or Close call
// returns, their Messages slices and the messages' bytes are valid only
// until the next call of Feed or Close, which may overwrite them or give
// their storage to another Parser of the program: keep a part by
// appending its Clone to a slice of your own. Part.Text and errors stay
// the caller's. Without it (the default) everything returned belongs to
// the caller.
//
// It spares an allocation per message and the collector's work on it. That
// matters most in ModeProgressive, whose every yield is a full snapshot of
// the surface: about 1.5× the throughput on model output in small chunks
// (see bench/README.md). A consumer that writes or applies each part before
// feeding the next chunk, as the a2ui-stream command does, loses nothing.
func WithBorrowedOutput() Option {
	return func(c *config) error {
		c.borrow = true
		return nil
	}
}

// WithPayloadRepair makes the parser repair, as the chunks arrive, the
// payload defects ParseResponse repairs in a whole answer (see
// FixPayload): typographic quotes used as JSON quotes, typographic
// apostrophes, trailing commas, and Unicode spaces around a block's JSON
// (which FixPayload trims; here they become ASCII spaces). In complete
// mode a stream then yields the messages that ParseResponse gives the same
// answer whole (the progressive modes build their yields from them),
// within the parser's limits (WithMaxDepth, WithMaxBlockSize, which
// ParseResponse does not have), but for a last block left unclosed, which
// ParseResponse reads as text and Close parses. The repair works on the
// content of each block as the framing delimits it, under every framing;
// text outside the blocks passes unchanged. Inside a block, a comma is set down after the
// whitespace that follows it (once the next byte shows it is not a
// trailing one), so complete mode's messages, the repaired bytes, may
// differ from the model's in that whitespace as well as in the repairs.
// Byte offsets in errors count the repaired bytes from the block's start,
// and WithMaxBlockSize bounds the repaired block. The repair holds back
// at most a comma and the first bytes of a UTF-8 character, until the
// next bytes of the block or its end.
func WithPayloadRepair() Option {
	return func(c *config) error {
		c.repair = true
		return nil
	}
}

// WithListEnds makes the parser mark the end of every block that yielded
// messages, also when the block ends in a call that yields none of its
// messages: that call returns a marker part for it (see Part.ListEnd and
// Part.IsListEnd). A consumer that applies each list as one unit (one
// repaint per list, as stream.Pipeline does) learns so the moment the list
// closes. Without it, such an end is not reported.
func WithListEnds() Option {
	return func(c *config) error {
		c.listEnds = true
		return nil
	}
}

// WithLogger sets the logger for dropped blocks and other diagnostics
// (default: discard).
func WithLogger(l *slog.Logger) Option {
	return func(c *config) error {
		if l == nil {
			return fmt.Errorf("parser: nil logger")
		}
		c.logger = l
		return nil
	}
}
