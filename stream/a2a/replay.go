package a2a

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"
	"unicode/utf8"
)

// DefaultReplayChunkSize is the chunk size of a ReplayRunner that sets none.
const DefaultReplayChunkSize = 16

// ReplayRunner streams recorded model output, whatever the request, in
// chunks at a pace, so that the endpoint can be tried with no model. It is
// safe for concurrent use.
type ReplayRunner struct {
	// Output is the recorded model output.
	Output []byte
	// ChunkSize is the number of bytes per chunk (default
	// DefaultReplayChunkSize). Chunks never split a UTF-8 character.
	ChunkSize int
	// Pace is the delay before each chunk after the first (0: none).
	Pace time.Duration
	// Wait, when set, replaces Pace: it is called before each chunk after the
	// first and the chunk is sent when it returns nil. Tests use it to step
	// the replay by hand.
	Wait func(ctx context.Context) error
}

// NewReplayRunner reads a file of model output.
func NewReplayRunner(path string, chunkSize int, pace time.Duration) (*ReplayRunner, error) {
	if chunkSize < 0 || pace < 0 {
		return nil, errors.New("a2a: replay chunk size and pace must not be negative")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("a2a: replay: %w", err)
	}
	return &ReplayRunner{Output: b, ChunkSize: chunkSize, Pace: pace}, nil
}

// Run yields the output chunk by chunk.
func (r *ReplayRunner) Run(ctx context.Context, _ *Request, yield func([]byte) error) error {
	size := r.ChunkSize
	if size <= 0 {
		size = DefaultReplayChunkSize
	}
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	out := r.Output
	for i := 0; len(out) > 0; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if i > 0 {
			switch {
			case r.Wait != nil:
				if err := r.Wait(ctx); err != nil {
					return err
				}
			case r.Pace > 0:
				if timer == nil {
					timer = time.NewTimer(r.Pace)
				} else {
					timer.Reset(r.Pace)
				}
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-timer.C:
				}
			}
		}
		n := min(size, len(out))
		for n < len(out) && n > 0 && !utf8.RuneStart(out[n]) {
			n-- // keep a character whole
		}
		if n == 0 { // a chunk smaller than the character: take the character
			n = min(size, len(out))
			for n < len(out) && !utf8.RuneStart(out[n]) {
				n++
			}
		}
		if err := yield(out[:n]); err != nil {
			return err
		}
		out = out[n:]
	}
	return nil
}
