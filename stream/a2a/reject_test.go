package a2a

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

// reasonCounter is a RejectObserver that counts reasons.
type reasonCounter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *reasonCounter) observe(reason string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[reason]++
}

func (c *reasonCounter) count(reason string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[reason]
}

// TestRejectedRequestsLogged: each kind of rejected request is logged at
// Info with its reason and the client's address, and observed.
func TestRejectedRequestsLogged(t *testing.T) {
	const good = `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"parts":[{"text":"hi"}]}}}`
	tests := []struct {
		name    string
		method  string
		auth    string
		header  map[string]string
		body    string
		reason  string
		status  int
		logWant string // also in the line
	}{
		{name: "no_token", method: http.MethodPost, body: good, reason: RejectUnauthorized, status: 401},
		{name: "wrong_token", method: http.MethodPost, auth: "Bearer nope", body: good, reason: RejectUnauthorized, status: 401},
		{name: "get", method: http.MethodGet, auth: "Bearer tok", reason: RejectMethodNotAllowed, status: 405},
		{name: "too_large", method: http.MethodPost, auth: "Bearer tok", body: `{"x":"` + strings.Repeat("a", 200) + `"}`, reason: RejectBodyTooLarge, status: 413},
		{name: "bad_json", method: http.MethodPost, auth: "Bearer tok", body: `{bad`, reason: RejectParseError, status: 200, logWant: "code=-32700"},
		{name: "not_request", method: http.MethodPost, auth: "Bearer tok", body: `[1]`, reason: RejectInvalidRequest, status: 200, logWant: "code=-32600"},
		{name: "unknown_method", method: http.MethodPost, auth: "Bearer tok", body: `{"jsonrpc":"2.0","id":1,"method":"Nope"}`, reason: RejectMethodNotFound, status: 200, logWant: "method=Nope"},
		{name: "bad_params", method: http.MethodPost, auth: "Bearer tok", body: `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":[]}`, reason: RejectInvalidParams, status: 200, logWant: "code=-32602"},
		{name: "tasks", method: http.MethodPost, auth: "Bearer tok", body: `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{}}`, reason: RejectUnsupported, status: 200, logWant: "method=GetTask"},
		{name: "version", method: http.MethodPost, auth: "Bearer tok", header: map[string]string{"A2A-Version": "9.0"}, body: good, reason: RejectVersion, status: 200, logWant: "code=-32009"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logs := &logBuffer{}
			var seen reasonCounter
			s := newServer(t, RunnerFunc(func(context.Context, *Request, func([]byte) error) error { return nil }),
				WithBearerToken("tok"), WithMaxBodyBytes(100), WithRejectObserver(seen.observe),
				WithLogger(slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))))
			req := httptest.NewRequest(tt.method, "/", strings.NewReader(tt.body))
			req.RemoteAddr = "192.0.2.7:4711"
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.status, rec.Body)
			}
			if got := seen.count(tt.reason); got != 1 {
				t.Errorf("observer saw %q %d times, want 1 (all: %v)", tt.reason, got, seen.n)
			}
			line := logs.b.String()
			for _, want := range []string{"level=INFO", `msg="a2a: request rejected"`, "reason=" + tt.reason, "remote=192.0.2.7:4711", tt.logWant} {
				if !strings.Contains(line, want) {
					t.Errorf("log %q lacks %q", line, want)
				}
			}
			if strings.Count(line, "\n") != 1 {
				t.Errorf("want one log line, got %q", line)
			}
		})
	}
}

// TestRejectLogRateLimited: a flood of rejected requests logs at most the
// burst, while the observer counts every one; the next line logged says
// how many were suppressed.
func TestRejectLogRateLimited(t *testing.T) {
	logs := &logBuffer{}
	var seen reasonCounter
	s := newServer(t, RunnerFunc(func(context.Context, *Request, func([]byte) error) error { return nil }),
		WithBearerToken("tok"), WithRejectLogLimit(time.Hour, 3), WithRejectObserver(seen.observe),
		WithLogger(slog.New(slog.NewTextHandler(logs, nil))))
	for range 100 {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", strings.NewReader("{}")))
		if rec.Code != http.StatusUnauthorized {
			t.Fatalf("status %d", rec.Code)
		}
	}
	if got := strings.Count(logs.b.String(), "request rejected"); got != 3 {
		t.Errorf("%d lines logged, want the burst, 3:\n%s", got, logs.b.String())
	}
	if got := seen.count(RejectUnauthorized); got != 100 {
		t.Errorf("observer saw %d, want 100", got)
	}
	if got := s.rejects.suppressed.Load(); got != 97 {
		t.Errorf("suppressed %d, want 97", got)
	}
	// The limiter lets one more through (as time would): it reports the
	// lines dropped before it.
	s.rejects.lim.SetLimit(rate.Inf)
	s.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/", strings.NewReader("{}")))
	if !strings.Contains(logs.b.String(), "suppressed=97") {
		t.Errorf("no suppressed count in:\n%s", logs.b.String())
	}
}

// TestRejectOptions: the options refuse unusable values.
func TestRejectOptions(t *testing.T) {
	run := RunnerFunc(func(context.Context, *Request, func([]byte) error) error { return nil })
	for name, o := range map[string]Option{
		"zero_interval": WithRejectLogLimit(0, 1),
		"zero_burst":    WithRejectLogLimit(time.Second, 0),
		"nil_observer":  WithRejectObserver(nil),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := NewServer(run, o); err == nil {
				t.Error("accepted")
			}
		})
	}
}

// TestClientDisconnectLoggedAtDebug: a client that hangs up while the
// model is inside a block leaves that block unfinished; the pipeline drops
// it, and that is logged at Debug, not Warn. A block that breaks while the
// client listens is still a warning.
func TestClientDisconnectLoggedAtDebug(t *testing.T) {
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelDebug} {
		t.Run(level.String(), func(t *testing.T) {
			started := make(chan struct{})
			logs := &logBuffer{}
			srv := httptest.NewServer(newServer(t, RunnerFunc(func(ctx context.Context, _ *Request, yield func([]byte) error) error {
				if err := yield([]byte(`Hello <a2ui-json>[{"version":"v0.9.1","deleteSurface":`)); err != nil {
					return err
				}
				close(started)
				<-ctx.Done()
				return ctx.Err()
			}), WithLogger(slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: level})))))
			ctx, cancel := context.WithCancel(context.Background())
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(rpcBody(A2A10, true)))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			select {
			case <-started:
			case <-time.After(10 * time.Second):
				t.Fatal("the stream did not start")
			}
			cancel()
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			srv.Close() // waits for the handler
			got := logs.b.String()
			if strings.Contains(got, "level=WARN") {
				t.Errorf("a disconnect logged a warning:\n%s", got)
			}
			dropped := strings.Contains(got, `level=DEBUG msg="stream: block dropped"`)
			if dropped != (level == slog.LevelDebug) {
				t.Errorf("block dropped at Debug logged: %v, want %v:\n%s", dropped, level == slog.LevelDebug, got)
			}
		})
	}

	// The same unfinished block with the client listening: a warning.
	logs := &logBuffer{}
	srv := httptest.NewServer(newServer(t, RunnerFunc(func(_ context.Context, _ *Request, yield func([]byte) error) error {
		return yield([]byte(`Hello <a2ui-json>[{"version":"v0.9.1","deleteSurface":`))
	}), WithLogger(slog.New(slog.NewTextHandler(logs, nil)))))
	defer srv.Close()
	resp, err := http.Post(srv.URL, "application/json", strings.NewReader(rpcBody(A2A10, true)))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if got := logs.b.String(); !strings.Contains(got, `level=WARN msg="stream: block dropped"`) {
		t.Errorf("a broken block with the client there is not a warning:\n%s", got)
	}
}
