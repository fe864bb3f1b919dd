package main

import (
	"context"
	"flag"
	"io"
)

// A command is one subcommand of a2ui-stream: its help, its flags and what
// runs it. The dispatcher (run), "help", "help COMMAND" and each command's
// --help all come from the table below.
type command struct {
	// name is what selects the command: "a2ui-stream NAME …".
	name string
	// synopsis is the one line "a2ui-stream help" lists for the command.
	synopsis string
	// usage is the command's help: a "usage: a2ui-stream NAME …" line and
	// the description, ending in a newline. The flags, when the command has
	// any, are listed after it.
	usage string
	// flags registers the command's flags on fs. The run function
	// registers the same flags (keeping their values) on its own flag set;
	// the help listings use this one. Nil for a command without flags.
	flags func(fs *flag.FlagSet)
	// run runs the command with its arguments (after the command name) and
	// returns the process exit status: 0 success, 1 failure, 2 usage or I/O
	// error.
	run func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int
	// signals: the command catches SIGINT and SIGTERM (ctx is done at the
	// first one) to shut down gracefully. The other commands keep the
	// default action and stop at once.
	signals bool
}

// commands is the command table, in the order "a2ui-stream help" lists
// them. It is filled in init because the run functions read it (for their
// help) and a variable's initializer cannot refer to itself.
var commands []*command

func init() {
	commands = []*command{
		{
			name:     "run",
			synopsis: "run the whole flow in-process: model output in, event lines out",
			usage:    runUsage,
			flags:    func(fs *flag.FlagSet) { new(runFlags).register(fs) },
			run:      runRun,
		},
		{
			name:     "parse",
			synopsis: "split streamed model output into text parts and A2UI messages",
			usage:    parseUsage,
			flags:    func(fs *flag.FlagSet) { new(parseFlags).register(fs) },
			run:      runParse,
		},
		{
			name:     "validate",
			synopsis: "validate a JSON array of A2UI messages against a catalog",
			usage:    validateUsage,
			flags:    func(fs *flag.FlagSet) { new(validateFlags).register(fs) },
			run:      runValidate,
		},
		{
			name:     "apply",
			synopsis: "apply lists of A2UI messages to surface state, one batch per list",
			usage:    applyUsage,
			flags:    func(fs *flag.FlagSet) { new(applyFlags).register(fs) },
			run:      runApply,
		},
		{
			name:     "a2a",
			synopsis: "serve an A2A endpoint that streams a replayed answer as A2UI parts",
			usage:    a2aUsage,
			flags:    func(fs *flag.FlagSet) { new(a2aFlags).register(fs) },
			run:      runA2A,
			signals:  true,
		},
		{
			name:     "serve",
			synopsis: "run the NATS consumer service: chunks in on a2ui.in.<session>, events out on a2ui.out.<session>",
			usage:    serveUsage,
			flags:    func(fs *flag.FlagSet) { new(serveFlags).register(fs) },
			run:      runServe,
			signals:  true,
		},
		{
			name:     "bench",
			synopsis: "measure throughput, latency and memory on model output, beside its speed limit",
			usage:    benchUsage,
			flags:    func(fs *flag.FlagSet) { new(benchFlags).register(fs) },
			run:      runBench,
		},
		{
			name:     "version",
			synopsis: "print the version and build information",
			usage:    versionUsage,
			run:      runVersion,
		},
		{
			name:     "help",
			synopsis: "print the commands, or a command's help",
			usage:    helpUsage,
			run:      runHelp,
		},
	}
}

// lookup returns the command called name, or nil.
func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}
