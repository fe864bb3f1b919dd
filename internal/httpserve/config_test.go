package httpserve

import (
	"errors"
	"net/http"
	"testing"
	"time"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name  string
		cfg   Config
		field string // "" when valid
	}{
		{"zero config", Config{}, ""},
		{"all set", Config{MaxConns: 1, ReadHeaderTimeout: time.Second, ReadTimeout: time.Second, IdleTimeout: time.Second, WriteTimeout: time.Second, MaxHeaderBytes: 1, DrainTimeout: time.Second, CancelGrace: time.Second}, ""},
		{"negative MaxConns", Config{MaxConns: -1}, "MaxConns"},
		{"negative ReadHeaderTimeout", Config{ReadHeaderTimeout: -time.Second}, "ReadHeaderTimeout"},
		{"negative ReadTimeout", Config{ReadTimeout: -1}, "ReadTimeout"},
		{"negative IdleTimeout", Config{IdleTimeout: -1}, "IdleTimeout"},
		{"negative WriteTimeout", Config{WriteTimeout: -1}, "WriteTimeout"},
		{"negative MaxHeaderBytes", Config{MaxHeaderBytes: -1}, "MaxHeaderBytes"},
		{"negative DrainTimeout", Config{DrainTimeout: -1}, "DrainTimeout"},
		{"negative CancelGrace", Config{CancelGrace: -1}, "CancelGrace"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.cfg.Validate()
			if tt.field == "" {
				if err != nil {
					t.Fatalf("Validate: %v, want nil", err)
				}
				return
			}
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Field != tt.field || !errors.Is(err, ErrInvalidConfig) {
				t.Fatalf("Validate: %v, want a *ConfigError for %s matching ErrInvalidConfig", err, tt.field)
			}
			tt.cfg.Handler = http.NotFoundHandler()
			if _, err := New(tt.cfg); !errors.As(err, &ce) {
				t.Fatalf("New: %v, want the *ConfigError", err)
			}
		})
	}
}

func TestConfigErrorMessage(t *testing.T) {
	err := Config{MaxConns: -3}.Validate()
	const want = "httpserve: MaxConns must not be negative, got -3"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
}

func TestNewRequiresHandler(t *testing.T) {
	if _, err := New(Config{}); !errors.Is(err, ErrNoHandler) {
		t.Fatalf("New without handler: %v, want ErrNoHandler", err)
	}
}

func TestDefaults(t *testing.T) {
	s, err := New(Config{Handler: http.NotFoundHandler(), WriteTimeout: 0})
	if err != nil {
		t.Fatal(err)
	}
	got := s.cfg
	checks := []struct {
		name      string
		got, want any
	}{
		{"MaxConns", got.MaxConns, DefaultMaxConns},
		{"ReadHeaderTimeout", got.ReadHeaderTimeout, DefaultReadHeaderTimeout},
		{"ReadTimeout", got.ReadTimeout, DefaultReadTimeout},
		{"IdleTimeout", got.IdleTimeout, DefaultIdleTimeout},
		{"WriteTimeout", got.WriteTimeout, time.Duration(DefaultWriteTimeout)},
		{"MaxHeaderBytes", got.MaxHeaderBytes, DefaultMaxHeaderBytes},
		{"DrainTimeout", got.DrainTimeout, DefaultDrainTimeout},
		{"CancelGrace", got.CancelGrace, DefaultCancelGrace},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
	if got.Logger == nil {
		t.Error("Logger: got nil, want a discarding logger")
	}
}
