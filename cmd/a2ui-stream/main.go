// Command a2ui-stream parses, validates, applies and serves A2UI streamed
// by language models. Run "a2ui-stream help" for the subcommands.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

const usage = `a2ui-stream: A2UI streaming toolkit

Usage:
  a2ui-stream parse    [--framing tags|fences|jsonl] [--mode progressive|delta|complete]
                       [--catalog FILE] [--chunk N | --steps] [FILE]
  a2ui-stream validate --catalog FILE [--strict=false] [PAYLOAD]
  a2ui-stream apply    [--catalog FILE] [--state] [FILE]
  a2ui-stream a2a      --listen ADDR --replay FILE [--pace D] [--token T]

Run "a2ui-stream COMMAND -h" for a command's flags.
`

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run dispatches to a subcommand and returns the process exit code. Only
// the server (a2a) catches SIGINT and SIGTERM, to shut down gracefully when
// ctx is done or a signal arrives; the other commands, blocked on reading
// their input, keep the default action and stop at once.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "parse":
		return runParse(rest, stdin, stdout, stderr)
	case "validate":
		return runValidate(rest, stdin, stdout, stderr)
	case "apply":
		return runApply(rest, stdin, stdout, stderr)
	case "a2a":
		ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
		defer stop()
		// The first signal starts the graceful shutdown; a second one
		// takes the default action and ends the process at once.
		context.AfterFunc(ctx, stop)
		return runA2A(ctx, rest, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "a2ui-stream: unknown command %q\n\n%s", cmd, usage)
	return 2
}

// openInput returns the named file, or stdin when name is "" or "-".
func openInput(name string, stdin io.Reader) (io.ReadCloser, error) {
	if name == "" || name == "-" {
		return io.NopCloser(stdin), nil
	}
	return os.Open(name)
}
