package metrics

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

func TestHandler(t *testing.T) {
	var notReady atomic.Pointer[error]
	ready := func() error {
		if p := notReady.Load(); p != nil {
			return *p
		}
		return nil
	}
	reg := prometheus.NewRegistry()
	if _, err := New(reg); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(Handler(reg, ready))
	defer srv.Close()

	tests := []struct {
		name     string
		method   string
		path     string
		notReady error
		status   int
		body     string // the whole body, or a prefix for /metrics
	}{
		{"healthz", http.MethodGet, HealthPath, nil, http.StatusOK, "ok\n"},
		{"healthz while not ready", http.MethodGet, HealthPath, errors.New("nats: not connected"), http.StatusOK, "ok\n"},
		{"readyz ready", http.MethodGet, ReadyPath, nil, http.StatusOK, "ok\n"},
		{"readyz not ready", http.MethodGet, ReadyPath, errors.New("nats: not connected"), http.StatusServiceUnavailable, "nats: not connected\n"},
		{"readyz ready again", http.MethodGet, ReadyPath, nil, http.StatusOK, "ok\n"},
		{"metrics", http.MethodGet, MetricsPath, nil, http.StatusOK, "# HELP a2ui_stream_"},
		{"head healthz", http.MethodHead, HealthPath, nil, http.StatusOK, ""},
		{"post healthz", http.MethodPost, HealthPath, nil, http.StatusMethodNotAllowed, ""},
		{"post metrics", http.MethodPost, MetricsPath, nil, http.StatusMethodNotAllowed, ""},
		{"unknown path", http.MethodGet, "/nope", nil, http.StatusNotFound, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.notReady != nil {
				notReady.Store(&tt.notReady)
			} else {
				notReady.Store(nil)
			}
			req, err := http.NewRequest(tt.method, srv.URL+tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tt.status {
				t.Fatalf("status: got %d, want %d (body %q)", resp.StatusCode, tt.status, body)
			}
			switch {
			case tt.path == MetricsPath && tt.status == http.StatusOK:
				if !strings.HasPrefix(string(body), tt.body) {
					t.Fatalf("body starts %.40q, want prefix %q", body, tt.body)
				}
			case tt.body != "" && string(body) != tt.body:
				t.Fatalf("body: got %q, want %q", body, tt.body)
			}
		})
	}
}

func TestHandlerNilArguments(t *testing.T) {
	h := Handler(nil, nil)
	tests := []struct {
		name   string
		path   string
		status int
	}{
		{"nil gatherer", MetricsPath, http.StatusInternalServerError},
		{"nil ready is ready", ReadyPath, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tt.path, nil))
			if rec.Code != tt.status {
				t.Fatalf("status: got %d, want %d (body %q)", rec.Code, tt.status, rec.Body.String())
			}
		})
	}
}
