package natsembed_test

import (
	"fmt"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/a2ui-stream/a2ui-stream/internal/natsembed"
)

func Example() {
	s, err := natsembed.Start() // 127.0.0.1, random port, JetStream in a temp dir
	if err != nil {
		panic(err)
	}
	defer s.Shutdown()

	nc, err := nats.Connect(s.URL())
	if err != nil {
		panic(err)
	}
	defer nc.Close()
	sub, _ := nc.SubscribeSync("greeting")
	_ = nc.Publish("greeting", []byte("hello"))
	m, err := sub.NextMsg(5 * time.Second)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(m.Data))
	// Output: hello
}
