package main

import (
	"io"
	"os"

	"github.com/a2ui-stream/a2ui-stream/bench/perf"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// benchProgress is the progress bar of "a2ui-stream bench" on stderr.
// A nil *benchProgress shows nothing.
type benchProgress struct {
	w   io.Writer
	bar *progressbar.ProgressBar
}

// progressOn reports whether the bench command shows a progress bar: only
// on a terminal, and not with --quiet.
func progressOn(stderr io.Writer, quiet bool) bool {
	if quiet {
		return false
	}
	f, ok := stderr.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// newBenchProgress returns the progress bar, or nil when it is off (see
// progressOn).
func newBenchProgress(stderr io.Writer, quiet bool) *benchProgress {
	if !progressOn(stderr, quiet) {
		return nil
	}
	return &benchProgress{w: stderr}
}

// update shows the runner's progress (perf.WithProgress).
func (b *benchProgress) update(p perf.Progress) {
	if b.bar == nil {
		b.bar = progressbar.NewOptions(p.Total,
			progressbar.OptionSetWriter(b.w),
			progressbar.OptionSetWidth(30),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionFullWidth())
	}
	b.bar.Describe(p.Doing)
	_ = b.bar.Set(p.Done)
}

// finish clears the bar.
func (b *benchProgress) finish() {
	if b == nil || b.bar == nil {
		return
	}
	_ = b.bar.Finish()
	_ = b.bar.Clear()
}
