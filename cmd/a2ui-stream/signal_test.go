//go:build unix

package main

import (
	"bufio"
	"errors"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runMainEnv makes the test binary run the command itself (see TestMain in
// main_test.go), so that tests can send it signals.
const runMainEnv = "A2UI_STREAM_TEST_RUN_MAIN"

// TestSignalStopsReadingCommands: a command reading a live stream stops on
// SIGINT (Ctrl-C) or SIGTERM, instead of swallowing the signal and
// reading on until its input ends.
func TestSignalStopsReadingCommands(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		input  string // written first; the command answers it with a line
		signal syscall.Signal
	}{
		{"apply_sigint", []string{"apply"}, `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}}]` + "\n", syscall.SIGINT},
		{"apply_sigterm", []string{"apply"}, `[]` + "\n", syscall.SIGTERM},
		{"parse_sigint", []string{"parse"}, "<a2ui-json>[]</a2ui-json>\n", syscall.SIGINT},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], tc.args...)
			cmd.Env = append(os.Environ(), runMainEnv+"=1")
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if _, err := stdin.Write([]byte(tc.input)); err != nil {
				t.Fatal(err)
			}
			// The command is running (past its start-up) once it answers.
			out := bufio.NewReader(stdout)
			if _, err := out.ReadString('\n'); err != nil {
				t.Fatalf("no output: %v", err)
			}
			if err := cmd.Process.Signal(tc.signal); err != nil {
				t.Fatal(err)
			}
			// The input stays open, so that only the signal can end the
			// command (closing it at once raced with the signal on a busy
			// machine: the command could see the end of its input and exit
			// 0 before the runtime acted on the signal). A command that
			// ignored the signal is ended by closing its input after a
			// hang guard, and fails the test below.
			exited := make(chan struct{})
			go func() {
				_, _ = out.ReadString(0)
				_ = cmd.Wait()
				close(exited)
			}()
			select {
			case <-exited:
			case <-time.After(30 * time.Second):
				stdin.Close()
				<-exited
			}
			stdin.Close()
			ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if !ok {
				t.Fatalf("wait status %T", cmd.ProcessState.Sys())
			}
			if !ws.Signaled() || ws.Signal() != tc.signal {
				t.Errorf("the command ignored %v and exited with %d when its input ended", tc.signal, cmd.ProcessState.ExitCode())
			}
		})
	}
}

// startServerCommand runs `a2ui-stream a2a` on a loopback port with args
// in a process of its own, and returns it once it listens, with its
// stdout after the first line and the URL it serves.
func startServerCommand(t *testing.T, args ...string) (*exec.Cmd, *bufio.Reader, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"a2a", "--listen", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out := bufio.NewReader(stdout)
	line, err := out.ReadString('\n')
	if err != nil || !strings.Contains(line, "listening on ") {
		cmd.Process.Kill()
		t.Fatalf("first line %q: %v", line, err)
	}
	return cmd, out, strings.Fields(strings.SplitN(line, "listening on ", 2)[1])[0]
}

// TestSignalShutsDownServer: the server catches SIGINT and SIGTERM and
// shuts down gracefully, exiting 0.
func TestSignalShutsDownServer(t *testing.T) {
	replay := filepath.Join(t.TempDir(), "answer.txt")
	if err := os.WriteFile(replay, []byte("hi"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd, out, _ := startServerCommand(t, "--replay", replay)
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			rest, _ := out.ReadString(0)
			if err := cmd.Wait(); err != nil {
				t.Fatalf("exit: %v", err)
			}
			if !strings.Contains(rest, "shut down") {
				t.Errorf("output after the signal = %q", rest)
			}
		})
	}
}

// TestSecondSignalEndsServerAtOnce: while the server waits for a stream in
// flight to finish, a second SIGINT ends the process with the signal's
// default action instead of waiting out the grace period.
func TestSecondSignalEndsServerAtOnce(t *testing.T) {
	replay := filepath.Join(t.TempDir(), "answer.txt")
	if err := os.WriteFile(replay, []byte("a slow answer"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd, _, url := startServerCommand(t, "--replay", replay, "--chunk", "1", "--pace", "1h")
	defer cmd.Process.Kill()
	body := `{"jsonrpc":"2.0","id":1,"method":"SendStreamingMessage","params":{"message":{"parts":[{"text":"hi"}]}}}`
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	// The first event (the task) means the stream is in flight.
	if ev, err := bufio.NewReader(resp.Body).ReadString('\n'); err != nil || !strings.HasPrefix(ev, "data: ") {
		t.Fatalf("first event %q: %v", ev, err)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	// Once the shutdown has begun (new connections are refused), signal
	// again until the process ends: with the first signal's handler gone,
	// one of these kills it. Had the handler stayed, they would be
	// swallowed and the server would exit 0 after the grace period.
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	hang := time.After(30 * time.Second) // one deadline for the whole loop
	refused := false
	for {
		select {
		case err := <-done:
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ProcessState.Sys().(syscall.WaitStatus).Signal() != syscall.SIGINT {
				t.Fatalf("exit %v, want death by SIGINT", err)
			}
			return
		case <-tick.C:
		case <-hang:
			t.Fatal("the server did not end")
		}
		if !refused {
			c, err := net.Dial("tcp", addr)
			if err == nil {
				c.Close()
				continue
			}
			refused = true
		}
		_ = cmd.Process.Signal(syscall.SIGINT)
	}
}
