// Command a2ui-stream parses, validates, applies and serves A2UI streamed
// by language models. Run "a2ui-stream help" for the subcommands; the
// command table is in commands.go.
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run dispatches to a subcommand and returns the process exit code. Only
// the commands marked signals in the table catch SIGINT and SIGTERM, to
// shut down gracefully when ctx is done or a signal arrives; the other
// commands, blocked on reading their input, keep the default action and
// stop at once.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return usageFail(stderr, "", "no command given")
	}
	name, rest := args[0], args[1:]
	switch name {
	case "-h", "-help", "--help":
		name = "help"
	case "-version", "--version":
		name = "version"
	}
	c := lookup(name)
	if c == nil {
		if strings.HasPrefix(name, "-") {
			return usageFail(stderr, "", "unknown flag %s (flags other than --help and --version go after the command)", name)
		}
		return usageFail(stderr, "", "unknown command %q", name)
	}
	if c.signals {
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
		defer stop()
		// The first signal starts the graceful shutdown; a second one
		// takes the default action and ends the process at once.
		context.AfterFunc(ctx, stop)
	}
	return c.run(ctx, rest, stdin, stdout, stderr)
}

// openInput returns the named file, or stdin when name is "" or "-".
func openInput(name string, stdin io.Reader) (io.ReadCloser, error) {
	if name == "" || name == "-" {
		return io.NopCloser(stdin), nil
	}
	return os.Open(name)
}
