package main

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
)

// logFlags are the logging flags of run and serve.
type logFlags struct {
	level, format string
}

func (f *logFlags) register(fs interface {
	StringVar(p *string, name, value, usage string)
}) {
	fs.StringVar(&f.level, "log-level", "info", "log `LEVEL` on stderr: debug, info, warn or error")
	fs.StringVar(&f.format, "log-format", "text", "log `FORMAT`: text or json")
}

// logger returns the logger the flags describe, writing to w.
func (f *logFlags) logger(w io.Writer) (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(f.level)); err != nil {
		return nil, flagValueError{fmt.Sprintf("--log-level %q: want debug, info, warn or error", f.level)}
	}
	opts := &slog.HandlerOptions{Level: level}
	switch strings.ToLower(f.format) {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, flagValueError{fmt.Sprintf("--log-format %q: want text or json", f.format)}
}
