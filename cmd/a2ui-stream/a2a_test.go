package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2ui-stream/a2ui-stream/internal/httpserve"
	"github.com/a2ui-stream/a2ui-stream/stream/a2a"
)

// a2aOutput collects output and reports the first line that matches re.
type a2aOutput struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	re    *regexp.Regexp
	match chan string
	once  sync.Once
}

func (w *a2aOutput) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if m := w.re.FindStringSubmatch(w.buf.String()); m != nil {
		w.once.Do(func() { w.match <- m[1] })
	}
	return len(p), nil
}

func (w *a2aOutput) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

func TestA2AUsageErrors(t *testing.T) {
	dir := t.TempDir()
	replay := filepath.Join(dir, "answer.txt")
	if err := os.WriteFile(replay, []byte("hi"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want int
	}{
		{name: "help", args: []string{"-h"}, want: 0},
		{name: "no replay", args: []string{"--listen", "127.0.0.1:0"}, want: 2},
		{name: "missing file", args: []string{"--replay", filepath.Join(dir, "nope")}, want: 2},
		{name: "extra argument", args: []string{"--replay", replay, "extra"}, want: 2},
		{name: "unknown flag", args: []string{"--replay", replay, "--bogus"}, want: 2},
		{name: "bad pace", args: []string{"--replay", replay, "--pace", "soon"}, want: 2},
		{name: "negative chunk", args: []string{"--replay", replay, "--chunk", "-1"}, want: 2},
		{name: "bad public URL", args: []string{"--replay", replay, "--public-url", "nope"}, want: 2},
		{name: "bad listen address", args: []string{"--replay", replay, "--listen", "256.0.0.1:-5"}, want: 1},
		{name: "zero max conns", args: []string{"--replay", replay, "--max-conns", "0"}, want: 2},
		{name: "negative idle timeout", args: []string{"--replay", replay, "--idle-timeout", "-1s"}, want: 2},
		{name: "zero read timeout", args: []string{"--replay", replay, "--read-timeout", "0s"}, want: 2},
		{name: "token and token file", args: []string{"--replay", replay, "--token", "t", "--token-file", replay}, want: 2},
		{name: "missing token file", args: []string{"--replay", replay, "--token-file", filepath.Join(dir, "nope")}, want: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if got := runA2A(context.Background(), tt.args, nil, &stdout, &stderr); got != tt.want {
				t.Errorf("exit %d, want %d; stderr: %s", got, tt.want, stderr.String())
			}
		})
	}
}

// TestA2AServe runs the command on a loopback port with the token from the
// environment, talks to it, and stops it through its context.
func TestA2AServe(t *testing.T) {
	replay := filepath.Join(t.TempDir(), "answer.txt")
	answer := "Hello\n<a2ui-json>[{\"version\":\"v0.9.1\",\"deleteSurface\":{\"surfaceId\":\"s\"}}]</a2ui-json>\nBye"
	if err := os.WriteFile(replay, []byte(answer), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(a2aTokenEnv, "tok")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stdout := &a2aOutput{re: regexp.MustCompile(`listening on (http://\S+/) `), match: make(chan string, 1)}
	var stderr bytes.Buffer
	exit := make(chan int, 1)
	go func() {
		exit <- runA2A(ctx, []string{"--listen", "127.0.0.1:0", "--replay", replay, "--pace", "0s", "--chunk", "7"}, nil, stdout, &stderr)
	}()
	var base string
	select {
	case base = <-stdout.match:
	case code := <-exit:
		t.Fatalf("exited %d: %s", code, stderr.String())
	case <-time.After(10 * time.Second):
		t.Fatal("no listening line")
	}

	resp, err := http.Get(base + ".well-known/agent-card.json")
	if err != nil {
		t.Fatal(err)
	}
	card, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(card), `"supportedInterfaces"`) {
		t.Fatalf("card %d %s", resp.StatusCode, card)
	}

	do := func(method, auth string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, base, strings.NewReader(`{"jsonrpc":"2.0","id":"a","method":"`+method+`","params":{"message":{"parts":[{"text":"hi"}]}}}`))
		if auth != "" {
			req.Header.Set("Authorization", "Bearer "+auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := do("SendMessage", ""); code != http.StatusUnauthorized {
		t.Errorf("without token: %d", code)
	}
	code, body := do("SendMessage", "tok")
	if code != 200 || !strings.Contains(body, `"role":"ROLE_AGENT"`) || !strings.Contains(body, `"mediaType":"application/a2ui+json"`) || !strings.Contains(body, `"text":"Bye"`) {
		t.Errorf("SendMessage: %d %s", code, body)
	}
	code, body = do("message/stream", "tok")
	if code != 200 || strings.Count(body, "data: ") < 4 || !strings.Contains(body, `"state":"completed"`) {
		t.Errorf("message/stream: %d %s", code, body)
	}

	cancel()
	select {
	case code := <-exit:
		if code != 0 {
			t.Errorf("exit %d: %s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("did not shut down")
	}
	if !strings.Contains(stdout.String(), "shut down") {
		t.Errorf("stdout %q", stdout.String())
	}
}

// TestA2AShutdownCancelsStreamsWithAStatus stops the server while a stream
// outlives the grace period: the stream is cancelled and still ends with
// its canceled status, on a connection closed cleanly.
func TestA2AShutdownCancelsStreamsWithAStatus(t *testing.T) {
	started := make(chan struct{})
	srv, err := a2a.NewServer(a2a.RunnerFunc(func(ctx context.Context, _ *a2a.Request, yield func([]byte) error) error {
		if err := yield([]byte("Hello ")); err != nil {
			return err
		}
		close(started)
		<-ctx.Done() // a model that answers only when cancelled
		return ctx.Err()
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := srv.Close(context.Background()); err != nil {
			t.Errorf("closing the server: %v", err)
		}
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	exit := make(chan int, 1)
	cfg := httpserve.Config{Handler: srv, DrainTimeout: 50 * time.Millisecond, CancelGrace: a2aCancelGrace}
	go func() { exit <- serveA2A(ctx, ln, cfg, io.Discard, io.Discard) }()

	body := `{"jsonrpc":"2.0","id":1,"method":"SendStreamingMessage","params":{"message":{"parts":[{"text":"hi"}]}}}`
	resp, err := http.Post("http://"+ln.Addr().String()+"/", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the stream did not start")
	}
	cancel()
	rest, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("stream cut off: %v (read %q)", err, rest)
	}
	if !strings.Contains(string(rest), `"TASK_STATE_CANCELED"`) {
		t.Errorf("no canceled status in %s", rest)
	}
	select {
	case code := <-exit:
		if code != 0 {
			t.Errorf("exit %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("did not shut down")
	}
}
