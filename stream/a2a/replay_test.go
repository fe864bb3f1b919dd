package a2a

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func collect(t *testing.T, r Runner, ctx context.Context) ([]string, error) {
	t.Helper()
	var chunks []string
	err := r.Run(ctx, &Request{}, func(c []byte) error {
		chunks = append(chunks, string(c))
		return nil
	})
	return chunks, err
}

func TestReplayRunnerChunks(t *testing.T) {
	tests := []struct {
		name   string
		output string
		size   int
		want   []string
	}{
		{name: "even split", output: "abcdef", size: 2, want: []string{"ab", "cd", "ef"}},
		{name: "remainder", output: "abcde", size: 2, want: []string{"ab", "cd", "e"}},
		{name: "default size", output: strings.Repeat("x", 20), size: 0, want: []string{strings.Repeat("x", 16), "xxxx"}},
		{name: "character kept whole", output: "aé✓b", size: 2, want: []string{"a", "é", "✓", "b"}},
		{name: "chunk smaller than a character", output: "✓✓", size: 1, want: []string{"✓", "✓"}},
		{name: "empty output", output: "", size: 4, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := collect(t, &ReplayRunner{Output: []byte(tt.output), ChunkSize: tt.size}, context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			for _, c := range got {
				if !utf8.ValidString(c) {
					t.Errorf("chunk %q splits a character", c)
				}
			}
		})
	}
}

func TestReplayRunnerStops(t *testing.T) {
	boom := errors.New("boom")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name   string
		runner *ReplayRunner
		ctx    context.Context
		yield  func([]byte) error
		want   error
		chunks int
	}{
		{name: "cancelled context", runner: &ReplayRunner{Output: []byte("abcd"), ChunkSize: 1}, ctx: cancelled, want: context.Canceled, chunks: 0},
		{name: "yield error", runner: &ReplayRunner{Output: []byte("abcd"), ChunkSize: 1}, ctx: context.Background(), yield: func([]byte) error { return boom }, want: boom, chunks: 1},
		{name: "wait error", runner: &ReplayRunner{Output: []byte("abcd"), ChunkSize: 1, Wait: func(context.Context) error { return boom }}, ctx: context.Background(), want: boom, chunks: 1},
		{name: "paced, cancelled while waiting", runner: &ReplayRunner{Output: []byte("abcd"), ChunkSize: 1, Pace: 1 << 40}, want: context.Canceled, chunks: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := tt.ctx
			n := 0
			yield := tt.yield
			var cancel context.CancelFunc
			if ctx == nil { // cancel once the first chunk is out
				ctx, cancel = context.WithCancel(context.Background())
				defer cancel()
			}
			err := tt.runner.Run(ctx, &Request{}, func(c []byte) error {
				n++
				if cancel != nil {
					cancel()
				}
				if yield != nil {
					return yield(c)
				}
				return nil
			})
			if !errors.Is(err, tt.want) || n != tt.chunks {
				t.Errorf("err %v after %d chunks, want %v after %d", err, n, tt.want, tt.chunks)
			}
		})
	}
}

func TestNewReplayRunner(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.txt")
	if err := os.WriteFile(path, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := NewReplayRunner(path, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := collect(t, r, context.Background())
	if err != nil || strings.Join(got, "|") != "he|ll|o" {
		t.Errorf("got %q %v", got, err)
	}
	if _, err := NewReplayRunner(filepath.Join(t.TempDir(), "missing"), 1, 0); err == nil {
		t.Error("missing file: no error")
	}
	if _, err := NewReplayRunner(path, -1, 0); err == nil {
		t.Error("negative chunk size: no error")
	}
}

func TestStaticRunner(t *testing.T) {
	got, err := collect(t, StaticRunner("all at once"), context.Background())
	if err != nil || len(got) != 1 || got[0] != "all at once" {
		t.Errorf("got %q %v", got, err)
	}
	got, err = collect(t, StaticRunner(""), context.Background())
	if err != nil || len(got) != 0 {
		t.Errorf("empty: got %q %v", got, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := collect(t, StaticRunner("x"), ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
