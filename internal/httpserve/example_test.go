package httpserve_test

import (
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/a2ui-stream/a2ui-stream/internal/httpserve"
)

func Example() {
	srv, err := httpserve.New(httpserve.Config{
		Addr: "127.0.0.1:0", // any free port
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, "hello")
		}),
		MaxConns: 64,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	ln, err := srv.Listen(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()

	resp, err := http.Get("http://" + ln.Addr().String() + "/")
	if err != nil {
		fmt.Println(err)
	} else {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.Status, string(body))
	}

	stop() // graceful shutdown
	fmt.Println("serve returned:", <-served)
	// Output:
	// 200 OK hello
	// serve returned: <nil>
}
