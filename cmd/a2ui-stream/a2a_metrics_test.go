package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestA2AMetrics: with --metrics, the a2a command counts rejected requests
// by reason on a Prometheus listener of its own.
func TestA2AMetrics(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"a2a", "--listen", "127.0.0.1:0", "--replay", replayFile(t), "--token", "tok",
			"--metrics", "127.0.0.1:0"}, strings.NewReader(""), pw, io.Discard)
		pw.Close()
	}()
	out := bufio.NewReader(pr)
	go func() { // the rest of the output, so that the command never blocks on it
		<-ctx.Done()
		_, _ = io.Copy(io.Discard, out)
	}()
	addr := func(re string) string {
		line, err := out.ReadString('\n')
		if err != nil {
			t.Fatalf("output: %v", err)
		}
		m := regexp.MustCompile(re).FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("line %q does not match %s", line, re)
		}
		return m[1]
	}
	metricsURL := "http://" + addr(`metrics on http://(\S+)/metrics`)
	endpoint := "http://" + addr(`listening on http://(\S+)/ `)
	for range 3 {
		resp, err := http.Post(endpoint+"/", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{}}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("without the token: %d, want 401", resp.StatusCode)
		}
	}
	// A JSON-RPC rejection has a label value of its own, not "other".
	req, err := http.NewRequest(http.MethodPost, endpoint+"/", strings.NewReader(`{`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer tok")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	fams := scrape(t, metricsURL)
	if got := sum(fams, "a2ui_stream_http_rejected_total", map[string]string{"listener": "a2a", "reason": "unauthorized"}); got != 3 {
		t.Errorf("http_rejected_total{listener=a2a,reason=unauthorized} = %v, want 3", got)
	}
	if got := sum(fams, "a2ui_stream_http_rejected_total", map[string]string{"listener": "a2a", "reason": "parse_error"}); got != 1 {
		t.Errorf("http_rejected_total{listener=a2a,reason=parse_error} = %v, want 1", got)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d", code)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("hang guard: the command did not stop")
	}
}
