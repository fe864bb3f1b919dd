package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// lineThenPeek is stdin that gives one line, then, on the next read (when
// apply waits for more input, as on a live pipe), records what stdout
// holds at that moment and ends.
type lineThenPeek struct {
	line   string
	stdout *bytes.Buffer
	seen   *string
	read   bool
}

func (r *lineThenPeek) Read(p []byte) (int, error) {
	if !r.read {
		r.read = true
		return copy(p, r.line), nil
	}
	if *r.seen == "" {
		*r.seen = r.stdout.String()
	}
	return 0, io.EOF
}

// TestRunApplyWritesEachBatchBeforeReadingOn: on a live stream, a list's
// batch reaches stdout before apply blocks for the next line, not when
// the output buffer fills or the input ends.
func TestRunApplyWritesEachBatchBeforeReadingOn(t *testing.T) {
	list := `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}}]` + "\n"
	for _, tt := range []struct{ name, first string }{
		{name: "a whole line", first: list},
		// The start of the next list arrived with the first: reading the
		// rest of it waits all the same.
		{name: "a line and the start of the next", first: list + `[{"version":"v0.9",`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			var seen string
			in := &lineThenPeek{line: tt.first, stdout: &stdout, seen: &seen}
			runApply(context.Background(), nil, in, &stdout, &stderr)
			if !strings.Contains(seen, `"seq":1`) {
				t.Errorf("stdout while waiting for more input = %q, want the first batch", seen)
			}
		})
	}
}

// repeatReader yields n bytes of c.
type repeatReader struct {
	c     byte
	n     int
	block []byte
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	if r.block == nil {
		r.block = bytes.Repeat([]byte{r.c}, 64<<10)
	}
	k := copy(p[:min(len(p), r.n)], r.block)
	r.n -= k
	return k, nil
}

// TestRunApplyLineOfTheLargestSize: a line of exactly maxListBytes bytes
// before its newline is read (here a blank one, skipped), not refused.
func TestRunApplyLineOfTheLargestSize(t *testing.T) {
	in := io.MultiReader(&repeatReader{c: ' ', n: maxListBytes},
		strings.NewReader("\n"+`[{"version":"v0.9","createSurface":{"surfaceId":"b","catalogId":"c"}}]`+"\n"))
	var stdout, stderr bytes.Buffer
	if code := runApply(context.Background(), nil, in, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d; stdout %.200s; stderr %s", code, stdout.String(), stderr.String())
	}
	if lines := strings.Count(stdout.String(), "\n"); lines != 1 || !strings.Contains(stdout.String(), `"seq":1`) {
		t.Errorf("stdout %.300s, want one batch", stdout.String())
	}
}

// TestRunApplyLongLineContinues: a line longer than the bound is reported
// as that line's error, and the lines after it still apply.
func TestRunApplyLongLineContinues(t *testing.T) {
	in := io.MultiReader(
		strings.NewReader(`[{"version":"v0.9","createSurface":{"surfaceId":"a","catalogId":"c"}}]`+"\n"),
		&repeatReader{c: ' ', n: maxListBytes + 1},
		strings.NewReader("[]\n"+`[{"version":"v0.9","createSurface":{"surfaceId":"b","catalogId":"c"}}]`+"\n"),
	)
	var stdout, stderr bytes.Buffer
	code := runApply(context.Background(), nil, in, &stdout, &stderr)
	if code != 1 {
		t.Errorf("exit %d, want 1 (a line failed); stderr %s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("got %d lines, want 3 (batch, line error, batch):\n%s", len(lines), stdout.String())
	}
	var le applyLineError
	if err := json.Unmarshal([]byte(lines[1]), &le); err != nil || le.List != 1 || !strings.Contains(le.Error, "longer than") {
		t.Errorf("line error = %s (%v)", lines[1], err)
	}
	if !strings.Contains(lines[2], `"surfacesCreated":["b"]`) {
		t.Errorf("the line after the long one = %s", lines[2])
	}
}
