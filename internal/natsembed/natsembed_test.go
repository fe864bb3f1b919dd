package natsembed_test

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/a2ui-stream/a2ui-stream/internal/natsembed"
)

func TestStartCoreAndJetStream(t *testing.T) {
	s, err := natsembed.Start(natsembed.WithStoreDir(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown()
	if !strings.HasPrefix(s.URL(), "nats://127.0.0.1:") {
		t.Fatalf("URL = %q, want nats://127.0.0.1:<port>", s.URL())
	}
	nc, err := nats.Connect(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()

	sub, err := nc.SubscribeSync("hello")
	if err != nil {
		t.Fatal(err)
	}
	if err := nc.Publish("hello", []byte("world")); err != nil {
		t.Fatal(err)
	}
	m, err := sub.NextMsg(10 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if string(m.Data) != "world" {
		t.Fatalf("got %q, want world", m.Data)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "S", Subjects: []string{"s.>"}}); err != nil {
		t.Fatal(err)
	}
	ack, err := js.Publish(ctx, "s.x", []byte("1"))
	if err != nil {
		t.Fatal(err)
	}
	if ack.Sequence != 1 {
		t.Fatalf("sequence = %d, want 1", ack.Sequence)
	}
}

func TestShutdownRemovesTempStore(t *testing.T) {
	s, err := natsembed.Start()
	if err != nil {
		t.Fatal(err)
	}
	dir := s.StoreDir()
	if dir == "" {
		t.Fatal("no store dir")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("store dir missing while running: %v", err)
	}
	s.Shutdown()
	s.Shutdown() // idempotent
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("temp store dir %s still there after Shutdown (err %v)", dir, err)
	}
	if _, err := nats.Connect(s.URL(), nats.Timeout(2*time.Second)); err == nil {
		t.Fatal("connected to a server that was shut down")
	}
}

func TestShutdownKeepsGivenStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "js")
	s, err := natsembed.Start(natsembed.WithStoreDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	s.Shutdown()
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("given store dir removed: %v", err)
	}
}

func TestWithoutJetStream(t *testing.T) {
	s, err := natsembed.Start(natsembed.WithoutJetStream())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown()
	if s.StoreDir() != "" {
		t.Fatalf("StoreDir = %q without JetStream", s.StoreDir())
	}
	nc, err := nats.Connect(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := js.AccountInfo(ctx); err == nil {
		t.Fatal("JetStream answered on a server started without it")
	}
}

func TestInvalidOptions(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  natsembed.Option
	}{
		{"empty host", natsembed.WithHost(" ")},
		{"port below -1", natsembed.WithPort(-2)},
		{"port above 65535", natsembed.WithPort(70000)},
		{"empty store dir", natsembed.WithStoreDir("")},
		{"server name with space", natsembed.WithServerName("a b")},
		{"zero start timeout", natsembed.WithStartTimeout(0)},
		{"nil option", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := natsembed.Start(tc.opt)
			if err == nil {
				s.Shutdown()
				t.Fatal("no error")
			}
			if !errors.Is(err, natsembed.ErrOption) {
				t.Fatalf("error %v does not wrap ErrOption", err)
			}
		})
	}
}

func TestStartErrorOnBusyPort(t *testing.T) {
	a, err := natsembed.Start(natsembed.WithoutJetStream())
	if err != nil {
		t.Fatal(err)
	}
	defer a.Shutdown()
	addr, ok := a.Addr().(*net.TCPAddr)
	if !ok {
		t.Fatalf("Addr is a %T", a.Addr())
	}
	b, err := natsembed.Start(natsembed.WithoutJetStream(), natsembed.WithPort(addr.Port), natsembed.WithStartTimeout(2*time.Second))
	if err == nil {
		b.Shutdown()
		t.Fatal("second server started on a busy port")
	}
	var se *natsembed.StartError
	if !errors.As(err, &se) {
		t.Fatalf("error %v is not a *StartError", err)
	}
}
