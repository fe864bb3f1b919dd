package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// maxPayloadBytes bounds what `validate` reads from a file or stdin.
const maxPayloadBytes = 64 << 20

// runValidate implements `a2ui-stream validate --catalog FILE [PAYLOAD]`.
//
// PAYLOAD (a file, or stdin when absent or "-") is a JSON array of A2UI
// messages validated as one payload against the catalog: JSON Schema,
// component topology and recursion limits. Exit status: 0 when valid; 1
// when invalid, with one JSON line per error on stdout in the protocol's
// standard shape {"code":"VALIDATION_FAILED","surfaceId",…,"path",…,
// "message",…}; 2 for usage errors or an unusable catalog (message on
// stderr).
func runValidate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	catalogPath := fs.String("catalog", "", "catalog `FILE` (JSON or YAML: version, s2c_schema, catalog_schema, common_types_schema)")
	strict := fs.Bool("strict", true, "full integrity checks: missing root, dangling references and orphans are errors")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: a2ui-stream validate --catalog FILE [--strict=false] [PAYLOAD]")
		fmt.Fprintln(stderr, "Validates a JSON array of A2UI messages (PAYLOAD file, or stdin) as one payload.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *catalogPath == "" {
		fmt.Fprintln(stderr, "a2ui-stream validate: --catalog FILE is required")
		fs.Usage()
		return 2
	}
	if fs.NArg() > 1 {
		fmt.Fprintln(stderr, "a2ui-stream validate: at most one PAYLOAD file")
		fs.Usage()
		return 2
	}
	cat, err := protocol.LoadCatalogFile(*catalogPath)
	if err != nil {
		fmt.Fprintf(stderr, "a2ui-stream validate: %v\n", err)
		return 2
	}

	in := stdin
	name := "stdin"
	if fs.NArg() == 1 && fs.Arg(0) != "-" {
		name = fs.Arg(0)
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(stderr, "a2ui-stream validate: %v\n", err)
			return 2
		}
		defer f.Close()
		in = f
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

	verr := cat.ValidateJSON(data, protocol.WithStrictIntegrity(*strict))
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
