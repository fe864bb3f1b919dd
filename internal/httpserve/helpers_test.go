package httpserve

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// hangGuard bounds every blocking step of a test: it is never an
// assertion about speed, only a way to fail instead of hanging.
const hangGuard = 10 * time.Second

// running is a Server serving on a loopback port in the background.
type running struct {
	srv    *Server
	addr   string
	stop   context.CancelFunc
	served chan error
}

// start serves cfg on 127.0.0.1 (a free port) until the test ends or
// stop is called.
func start(t *testing.T, cfg Config) *running {
	t.Helper()
	cfg.Addr = "127.0.0.1:0"
	srv, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ctx, stop := context.WithCancel(context.Background())
	ln, err := srv.Listen(ctx)
	if err != nil {
		stop()
		t.Fatalf("Listen: %v", err)
	}
	r := &running{srv: srv, addr: ln.Addr().String(), stop: stop, served: make(chan error, 1)}
	go func() { r.served <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		stop()
		select {
		case <-r.served:
		case <-time.After(hangGuard):
			t.Error("Serve did not return after the test")
		}
	})
	return r
}

// wait returns Serve's result, failing the test if it does not come.
func (r *running) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-r.served:
		r.served <- err // for the cleanup
		return err
	case <-time.After(hangGuard):
		t.Fatal("Serve did not return")
		return nil
	}
}

// rawConn is a client connection that keeps itself alive across requests.
type rawConn struct {
	net.Conn
	br *bufio.Reader
}

func dial(t *testing.T, addr string) *rawConn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	_ = c.SetDeadline(time.Now().Add(hangGuard))
	t.Cleanup(func() { c.Close() })
	return &rawConn{Conn: c, br: bufio.NewReader(c)}
}

// send writes a keep-alive GET for path.
func (c *rawConn) send(path string) error {
	_, err := fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: test\r\n\r\n", path)
	return err
}

// receive reads one response and returns its body.
func (c *rawConn) receive() (string, error) {
	resp, err := http.ReadResponse(c.br, nil)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("status %s: %s", resp.Status, b)
	}
	return string(b), nil
}

// get sends a GET and returns the response body.
func (c *rawConn) get(t *testing.T, path string) string {
	t.Helper()
	if err := c.send(path); err != nil {
		t.Fatalf("send: %v", err)
	}
	body, err := c.receive()
	if err != nil {
		t.Fatalf("receive: %v", err)
	}
	return body
}

// readToEnd reads until the server closes the connection and returns the
// error that ended the reads; a hang-guard timeout fails the test.
func readToEnd(t *testing.T, c *rawConn) error {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(hangGuard))
	_, err := io.Copy(io.Discard, c.br)
	if err == nil {
		err = io.EOF
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("the server did not close the connection: %v", err)
	}
	return err
}
