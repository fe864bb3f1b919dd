package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
)

// newFlagSet returns an empty flag set for the named command that prints
// nothing itself: parseArgs reports its errors and help.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseArgs parses a command's args into fs (made by newFlagSet). done
// reports that the command ends here, with code: 0 after --help or -h (the
// command's help printed on stdout), 2 after a flag error (one line and a
// hint on stderr, see usageFail).
func parseArgs(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (code int, done bool) {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return 0, false
	case errors.Is(err, flag.ErrHelp):
		if c := lookup(fs.Name()); c != nil {
			writeCommandHelp(stdout, c)
		}
		return 0, true
	default:
		return usageFail(stderr, fs.Name(), "%s", dashFlagError(err.Error())), true
	}
}

// usageFail reports a usage error of the named command ("" for
// a2ui-stream itself): one line naming the problem and one pointing to the
// help, on stderr. It returns the exit status of usage errors, 2.
func usageFail(stderr io.Writer, name, format string, a ...any) int {
	prog, hint := "a2ui-stream", `Run "a2ui-stream help" for usage.`
	if name != "" {
		prog += " " + name
		hint = `Run "a2ui-stream ` + name + ` --help" for usage.`
	}
	fmt.Fprintf(stderr, "%s: %s\n%s\n", prog, fmt.Sprintf(format, a...), hint)
	return 2
}

// flagErrorName matches the flag name in the flag package's error
// messages, which spell it with one dash.
var flagErrorName = regexp.MustCompile(`(?s)^(flag provided but not defined: |flag needs an argument: |invalid (?:boolean )?value ".*" for (?:flag )?)-`)

// dashFlagError respells the flag named in a flag package error with two
// dashes, as the help texts spell flags.
func dashFlagError(msg string) string {
	return flagErrorName.ReplaceAllString(msg, "${1}--")
}
