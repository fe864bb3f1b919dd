package httpserve

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

func TestReadTimeoutCutsTricklingBody(t *testing.T) {
	readErr := make(chan error, 1)
	r := start(t, Config{
		ReadTimeout: 50 * time.Millisecond,
		Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			_, err := io.ReadAll(req.Body)
			readErr <- err
			if err != nil {
				http.Error(w, "slow body", http.StatusRequestTimeout)
			}
		}),
	})
	c := dial(t, r.addr)
	if _, err := fmt.Fprint(c, "POST / HTTP/1.1\r\nHost: test\r\nContent-Length: 100000\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	// Trickle one byte at a time, far below what the body needs, until the
	// server gives up on it (the write fails) or the test ends.
	stop := make(chan struct{})
	trickled := make(chan struct{})
	go func() {
		defer close(trickled)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if _, err := c.Write([]byte("x")); err != nil {
					return
				}
			}
		}
	}()
	defer func() { close(stop); <-trickled }()

	select {
	case err := <-readErr:
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("body read ended with %v, want a deadline error", err)
		}
	case <-time.After(hangGuard):
		t.Fatal("the trickling body was not cut off")
	}
	readToEnd(t, c) // the server closes the connection
}

func TestReadTimeoutSparesLongResponses(t *testing.T) {
	const readTimeout = 20 * time.Millisecond
	tests := []struct {
		name   string
		method string
		body   string
	}{
		{"request with a body read to its end", http.MethodPost, `{"jsonrpc":"2.0"}`},
		{"request without a body", http.MethodGet, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := start(t, Config{
				ReadTimeout: readTimeout,
				Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
					body, err := io.ReadAll(req.Body)
					if err != nil || string(body) != tt.body {
						http.Error(w, fmt.Sprintf("body %q, %v", body, err), http.StatusBadRequest)
						return
					}
					fmt.Fprint(w, "event 1\n")
					http.NewResponseController(w).Flush()
					// Stream on well past the read deadline.
					select {
					case <-req.Context().Done():
						fmt.Fprint(w, "cancelled")
					case <-time.After(10 * readTimeout):
						fmt.Fprint(w, "event 2")
					}
				}),
			})
			req, err := http.NewRequest(tt.method, "http://"+r.addr+"/", strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if tt.body == "" {
				req.Body = http.NoBody
			}
			client := &http.Client{Timeout: hangGuard}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			got, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatalf("reading the stream: %v", err)
			}
			if want := "event 1\nevent 2"; string(got) != want {
				t.Fatalf("stream: got %q, want %q", got, want)
			}
		})
	}
}
