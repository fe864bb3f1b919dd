package main

import (
	"strings"
	"testing"
	"time"
)

func TestApplyEnv(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		natsURL string
		workers int
		idle    time.Duration
		wantErr string
	}{
		{name: "defaults", natsURL: "", workers: 16, idle: 5 * time.Minute},
		{name: "environment sets flags", env: map[string]string{"A2UI_STREAM_NATS_URL": "nats://x:4222", "A2UI_STREAM_WORKERS": "3", "A2UI_STREAM_IDLE_TIMEOUT": "1s"},
			natsURL: "nats://x:4222", workers: 3, idle: time.Second},
		{name: "command line wins", args: []string{"--workers", "7"}, env: map[string]string{"A2UI_STREAM_WORKERS": "3"}, workers: 7, idle: 5 * time.Minute},
		{name: "bad value names the variable", env: map[string]string{"A2UI_STREAM_WORKERS": "many"}, wantErr: "$A2UI_STREAM_WORKERS"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var f serveFlags
			fs := newFlagSet("serve")
			f.register(fs)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			err := applyEnv(fs, func(k string) string { return tc.env[k] })
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("applyEnv: %v, want an error naming %s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if f.natsURL != tc.natsURL || f.workers != tc.workers || f.idleTimeout != tc.idle {
				t.Fatalf("nats-url %q workers %d idle %v; want %q %d %v", f.natsURL, f.workers, f.idleTimeout, tc.natsURL, tc.workers, tc.idle)
			}
		})
	}
}

func TestServeUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"user without password", []string{"serve", "--user", "u"}, "--user and --password go together"},
		{"cert without key", []string{"serve", "--tls-cert", "c.pem"}, "--tls-cert and --tls-key go together"},
		{"store with a url", []string{"serve", "--nats-url", "nats://x", "--store", "/tmp/x"}, "--store"},
		{"zero sessions", []string{"serve", "--max-sessions", "0"}, "--max-sessions"},
		{"negative duration", []string{"serve", "--ack-wait", "-1s"}, "durations must be positive"},
		{"an argument", []string{"serve", "extra"}, "no arguments expected"},
		{"bad mode", []string{"serve", "--mode", "fast"}, "mode"},
		{"bad log format", []string{"serve", "--log-format", "xml"}, "--log-format"},
		{"unknown flag", []string{"serve", "--nope"}, "--nope"},
		{"jetstream idle within the duplicate window", []string{"serve", "--jetstream", "--idle-timeout", "5m", "--duplicates", "10m"}, "--idle-timeout must be 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCmd(t, "", tc.args...)
			if code != 2 || out != "" || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 2 {
				t.Fatalf("exit %d, stdout %q, stderr %q; want 2, nothing, and one line about %q plus the hint", code, out, errOut, tc.want)
			}
		})
	}
}
