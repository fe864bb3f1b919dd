package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// validateUsage is the help of "a2ui-stream validate".
const validateUsage = `usage: a2ui-stream validate --catalog FILE [--strict=false] [PAYLOAD]

Validates a JSON array of A2UI messages (the PAYLOAD file, or stdin when
absent or "-") as one payload against the catalog: its JSON Schema,
component topology and recursion limits.

Exit status: 0 when the payload is valid; 1 when it is not, with one JSON
line per error on stdout in the protocol's standard shape
{"code":"VALIDATION_FAILED","surfaceId":…,"path":…,"message":…}; 2 for
usage errors, an unusable catalog or an unreadable payload (on stderr).
`

// validateFlags holds the flags of "a2ui-stream validate".
type validateFlags struct {
	catalog string
	strict  bool
}

func (f *validateFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.catalog, "catalog", "", "catalog `FILE` (JSON or YAML: version, s2c_schema, catalog_schema, common_types_schema); required")
	fs.BoolVar(&f.strict, "strict", true, "full integrity checks: a missing root, dangling references and orphans are errors\n"+
		"(--strict=false checks as for a stream still arriving)")
}

// maxPayloadBytes bounds what `validate` reads from a file or stdin.
const maxPayloadBytes = 64 << 20

// runValidate implements "a2ui-stream validate --catalog FILE [PAYLOAD]":
// see validateUsage for what it prints and its exit status.
func runValidate(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var f validateFlags
	fs := newFlagSet("validate")
	f.register(fs)
	if code, done := parseArgs(fs, args, stdout, stderr); done {
		return code
	}
	if f.catalog == "" {
		return usageFail(stderr, "validate", "--catalog FILE is required")
	}
	if fs.NArg() > 1 {
		return usageFail(stderr, "validate", "at most one PAYLOAD file, got %d arguments", fs.NArg())
	}
	cat, err := protocol.LoadCatalogFile(f.catalog)
	if err != nil {
		fmt.Fprintf(stderr, "a2ui-stream validate: %v\n", err)
		return 2
	}

	in := stdin
	name := "stdin"
	if fs.NArg() == 1 && fs.Arg(0) != "-" {
		name = fs.Arg(0)
		file, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(stderr, "a2ui-stream validate: %v\n", err)
			return 2
		}
		defer file.Close()
		in = file
	}
	data, err := io.ReadAll(io.LimitReader(in, maxPayloadBytes+1))
	if err != nil {
		fmt.Fprintf(stderr, "a2ui-stream validate: reading %s: %v\n", name, err)
		return 2
	}
	if len(data) > maxPayloadBytes {
		fmt.Fprintf(stderr, "a2ui-stream validate: %s is larger than %d bytes\n", name, maxPayloadBytes)
		return 2
	}

	verr := cat.ValidateJSON(data, protocol.WithStrictIntegrity(f.strict))
	if verr == nil {
		return 0
	}
	list := protocol.AsValidationErrors(verr)
	if len(list) == 0 {
		fmt.Fprintf(stderr, "a2ui-stream validate: %v\n", verr)
		return 2
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	for _, ve := range list {
		if err := enc.Encode(ve.Report()); err != nil {
			fmt.Fprintf(stderr, "a2ui-stream validate: %v\n", err)
			return 2
		}
	}
	return 1
}
