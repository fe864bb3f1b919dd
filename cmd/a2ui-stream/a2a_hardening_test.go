package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
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
)

// lockedBuffer is a bytes.Buffer safe for concurrent use.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *lockedBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *lockedBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// replayFile writes a small model answer and returns its path.
func replayFile(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "answer.txt")
	answer := "Hello\n<a2ui-json>[{\"version\":\"v0.9.1\",\"deleteSurface\":{\"surfaceId\":\"s\"}}]</a2ui-json>\nBye"
	if err := os.WriteFile(p, []byte(answer), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// startA2A runs "a2ui-stream a2a" in-process on a free loopback port with
// the given flags (after --listen and --replay) and returns its address
// and its stderr. The command is stopped, and must exit 0, at cleanup.
func startA2A(t *testing.T, args ...string) (addr string, stderr *lockedBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdout := &a2aOutput{re: regexp.MustCompile(`listening on http://(\S+)/ `), match: make(chan string, 1)}
	stderr = &lockedBuffer{}
	exit := make(chan int, 1)
	go func() {
		exit <- runA2A(ctx, append([]string{"--listen", "127.0.0.1:0", "--replay", replayFile(t), "--pace", "0s"}, args...), nil, stdout, stderr)
	}()
	select {
	case addr = <-stdout.match:
	case code := <-exit:
		cancel()
		t.Fatalf("exited %d: %s", code, stderr)
	case <-time.After(10 * time.Second):
		cancel()
		t.Fatal("no listening line")
	}
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-exit:
			if code != 0 {
				t.Errorf("exit %d: %s", code, stderr)
			}
		case <-time.After(20 * time.Second):
			t.Error("did not shut down")
		}
	})
	return addr, stderr
}

// sendMessage makes an authenticated SendMessage request and returns the
// status and body; ctx is the hang guard.
func sendMessage(ctx context.Context, base, token string) (int, string, error) {
	body := `{"jsonrpc":"2.0","id":"a","method":"SendMessage","params":{"message":{"parts":[{"text":"hi"}]}}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base, strings.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// TestA2AReadTimeout: a client that trickles its request body is answered
// and cut off at the read deadline (--read-timeout), and the rejection is
// logged at info with its reason and remote address.
func TestA2AReadTimeout(t *testing.T) {
	addr, stderr := startA2A(t, "--read-timeout", "300ms", "--token", "tok", "--v")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, err = io.WriteString(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"+
		"Authorization: Bearer tok\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\":")
	if err != nil {
		t.Fatal(err)
	}
	// Hang guard: the server must end the request well before this.
	if err := conn.SetReadDeadline(time.Now().Add(20 * time.Second)); err != nil {
		t.Fatal(err)
	}
	rest, err := io.ReadAll(conn) // the answer, then EOF: the server closed
	if err != nil {
		t.Fatalf("the connection was not closed by the server: %v (read %q)", err, rest)
	}
	if !bytes.HasPrefix(rest, []byte("HTTP/1.1 400")) {
		t.Errorf("answer %q, want a 400", rest)
	}
	for _, want := range []string{`msg="a2a: request rejected"`, "reason=read_timeout", "remote=127.0.0.1:"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, stderr)
		}
	}
}

// TestA2AIdleConnectionsClosed: a keep-alive connection that sits idle
// after its request is closed by the server after --idle-timeout.
func TestA2AIdleConnectionsClosed(t *testing.T) {
	addr, _ := startA2A(t, "--idle-timeout", "200ms")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET /.well-known/agent-card.json HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Close {
		t.Fatalf("card: %d, close %v", resp.StatusCode, resp.Close)
	}
	// Hang guard only: the idle timeout closes the connection long before.
	if err := conn.SetReadDeadline(time.Now().Add(20 * time.Second)); err != nil {
		t.Fatal(err)
	}
	n, err := br.Read(make([]byte, 1))
	if !errors.Is(err, io.EOF) {
		t.Fatalf("idle connection not closed by the server: read %d, %v", n, err)
	}
}

// TestA2ATokenSources: where the token comes from, which wins, and the
// tokens refused at startup (with one line on stderr that does not show
// the token, and exit status 2).
func TestA2ATokenSources(t *testing.T) {
	dir := t.TempDir()
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name      string
		flags     a2aFlags
		env       string
		want      string
		wantError string // in the error; the token is never in it
	}{
		{name: "none", want: ""},
		{name: "flag", flags: a2aFlags{token: "s3cret"}, want: "s3cret"},
		{name: "env", env: "from-env", want: "from-env"},
		{name: "flag_wins_over_env", flags: a2aFlags{token: "s3cret"}, env: "from-env", want: "s3cret"},
		{name: "file", flags: a2aFlags{tokenFile: file("tok", "filetok\n")}, want: "filetok"},
		{name: "file_crlf", flags: a2aFlags{tokenFile: file("crlf", "filetok\r\n")}, want: "filetok"},
		{name: "file_no_newline", flags: a2aFlags{tokenFile: file("bare", "filetok")}, want: "filetok"},
		{name: "file_wins_over_env", flags: a2aFlags{tokenFile: file("tok2", "filetok\n")}, env: "from-env", want: "filetok"},
		{name: "flag_newline", flags: a2aFlags{token: "s3cret\n"}, wantError: "--token: the token holds a newline at byte 6"},
		{name: "flag_space", flags: a2aFlags{token: "s3 cret"}, wantError: "--token: the token holds a space at byte 2"},
		{name: "flag_tab", flags: a2aFlags{token: "\ts3cret"}, wantError: "a tab at byte 0"},
		{name: "flag_nbsp", flags: a2aFlags{token: "s3cret\u00a0"}, wantError: "U+00A0"},
		{name: "flag_control", flags: a2aFlags{token: "s3\x00cret"}, wantError: "U+0000"},
		{name: "flag_bad_utf8", flags: a2aFlags{token: "s3\xffcret"}, wantError: "not valid UTF-8"},
		{name: "env_newline", env: "s3cret\n", wantError: "$A2UI_STREAM_TOKEN: the token holds a newline"},
		{name: "file_two_newlines", flags: a2aFlags{tokenFile: file("two", "s3cret\n\n")}, wantError: "a newline at byte 6"},
		{name: "file_empty", flags: a2aFlags{tokenFile: file("empty", "")}, wantError: "the file holds no token"},
		{name: "file_only_newline", flags: a2aFlags{tokenFile: file("nl", "\n")}, wantError: "the file holds no token"},
		{name: "file_missing", flags: a2aFlags{tokenFile: filepath.Join(dir, "nope")}, wantError: "--token-file: open"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(k string) string {
				if k == a2aTokenEnv {
					return tt.env
				}
				return ""
			}
			got, err := tt.flags.bearerToken(getenv)
			if tt.wantError != "" {
				var te *tokenError
				if !errors.As(err, &te) {
					t.Fatalf("got %q, %v; want a *tokenError", got, err)
				}
				if !strings.Contains(err.Error(), tt.wantError) || strings.Contains(err.Error(), "s3cret") {
					t.Errorf("error %q, want it to say %q and not show the token", err, tt.wantError)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// TestA2ARefusesBadToken: the command refuses a token with whitespace at
// startup, with one line and exit status 2, wherever it came from.
func TestA2ARefusesBadToken(t *testing.T) {
	replay := replayFile(t)
	tokFile := filepath.Join(t.TempDir(), "tok")
	if err := os.WriteFile(tokFile, []byte("s3 cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		env  string
	}{
		{name: "flag", args: []string{"--token", "s3cret\n"}},
		{name: "file", args: []string{"--token-file", tokFile}},
		{name: "env", env: "s3cret\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(a2aTokenEnv, tt.env)
			var stdout, stderr bytes.Buffer
			args := append([]string{"--listen", "127.0.0.1:0", "--replay", replay}, tt.args...)
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // were it to start serving, it would stop at once
			if code := runA2A(ctx, args, nil, &stdout, &stderr); code != 2 {
				t.Errorf("exit %d, want 2; stdout %q", code, stdout.String())
			}
			msg := stderr.String()
			if strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "a2ui-stream a2a: ") || !strings.Contains(msg, "whitespace") {
				t.Errorf("want one line naming the problem, got %q", msg)
			}
			if strings.Contains(stdout.String(), "listening") {
				t.Error("it served")
			}
		})
	}
}

// TestA2ATokenFileServes: a token read from a file (with its trailing
// newline) authenticates clients that send it.
func TestA2ATokenFileServes(t *testing.T) {
	tokFile := filepath.Join(t.TempDir(), "tok")
	if err := os.WriteFile(tokFile, []byte("filetok\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(a2aTokenEnv, "envtok")
	addr, _ := startA2A(t, "--token-file", tokFile)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second) // hang guard
	defer cancel()
	for _, tc := range []struct {
		token string
		want  int
	}{{"filetok", 200}, {"envtok", 401}, {"", 401}} {
		code, body, err := sendMessage(ctx, "http://"+addr+"/", tc.token)
		if err != nil || code != tc.want {
			t.Errorf("token %q: %d %v %s, want %d", tc.token, code, err, body, tc.want)
		}
	}
}
