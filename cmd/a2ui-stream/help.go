package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// helpUsage is the help of "a2ui-stream help".
const helpUsage = `usage: a2ui-stream help [COMMAND]

Prints the list of commands, or the help of COMMAND (as "a2ui-stream
COMMAND --help" does).
`

// writeUsage writes a2ui-stream's own help: what it is and the commands.
func writeUsage(w io.Writer) {
	var b strings.Builder
	b.WriteString(`a2ui-stream turns streamed model output (prose with <a2ui-json>[…]</a2ui-json>
blocks of A2UI messages) into text parts and A2UI messages, and validates,
applies and serves them.

Usage:
  a2ui-stream COMMAND [flags] [arguments]

Commands:
`)
	width := 0
	for _, c := range commands {
		width = max(width, len(c.name))
	}
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, c.name, c.synopsis)
	}
	b.WriteString(`
Flags:
  --help     print this help
  --version  print the version and build information

Run "a2ui-stream help COMMAND" (or "a2ui-stream COMMAND --help") for a
command's flags.
`)
	io.WriteString(w, b.String())
}

// writeCommandHelp writes the help of c: its usage text, then its flags.
func writeCommandHelp(w io.Writer, c *command) {
	var b strings.Builder
	b.WriteString(c.usage)
	fs := newFlagSet(c.name)
	if c.flags != nil {
		c.flags(fs)
	}
	writeFlags(&b, fs)
	io.WriteString(w, b.String())
}

// writeFlags lists the flags of fs under a "Flags:" heading (nothing when
// there are none), as flag.PrintDefaults does but with each flag spelled
// --name, the spelling of the help texts.
func writeFlags(b *strings.Builder, fs *flag.FlagSet) {
	first := true
	fs.VisitAll(func(f *flag.Flag) {
		if first {
			b.WriteString("\nFlags:\n")
			first = false
		}
		arg, usage := flag.UnquoteUsage(f)
		fmt.Fprintf(b, "  --%s", f.Name)
		if arg != "" {
			fmt.Fprintf(b, " %s", arg)
		}
		b.WriteString("\n        ")
		b.WriteString(strings.ReplaceAll(usage, "\n", "\n        "))
		if !isZeroValue(f) {
			if g, ok := f.Value.(flag.Getter); ok {
				if _, isString := g.Get().(string); isString {
					fmt.Fprintf(b, " (default %q)", f.DefValue)
				} else {
					fmt.Fprintf(b, " (default %s)", f.DefValue)
				}
			}
		}
		b.WriteString("\n")
	})
}

// isZeroValue reports whether f's default is its type's zero value, which
// the listing leaves out (as flag.PrintDefaults does).
func isZeroValue(f *flag.Flag) bool {
	t := reflect.TypeOf(f.Value)
	if t.Kind() != reflect.Pointer {
		return f.DefValue == ""
	}
	zero, ok := reflect.New(t.Elem()).Interface().(flag.Value)
	return ok && f.DefValue == zero.String()
}

// runHelp implements "a2ui-stream help [COMMAND]".
func runHelp(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("help")
	if code, done := parseArgs(fs, args, stdout, stderr); done {
		return code
	}
	switch fs.NArg() {
	case 0:
		writeUsage(stdout)
		return 0
	case 1:
		c := lookup(fs.Arg(0))
		if c == nil {
			return usageFail(stderr, "help", "unknown command %q", fs.Arg(0))
		}
		writeCommandHelp(stdout, c)
		return 0
	}
	return usageFail(stderr, "help", "at most one COMMAND, got %d arguments", fs.NArg())
}
