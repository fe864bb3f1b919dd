package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// TestServeJetStreamIdleTimeoutFromEnv: an idle timeout set in the
// environment counts as set, so --jetstream refuses one within the
// duplicate window there as it does on the command line (instead of
// silently replacing it by 0).
func TestServeJetStreamIdleTimeoutFromEnv(t *testing.T) {
	t.Setenv("A2UI_STREAM_IDLE_TIMEOUT", "1s")
	// (A serve that starts is stopped by the deadline, and fails below.)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out, errOut bytes.Buffer
	code := run(ctx, []string{"serve", "--jetstream"}, strings.NewReader(""), &out, &errOut)
	if code != 2 || !strings.Contains(errOut.String(), "--idle-timeout must be 0") {
		t.Fatalf("exit %d, stderr %q; want the usage error about --idle-timeout", code, errOut.String())
	}
}
