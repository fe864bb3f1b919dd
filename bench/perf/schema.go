package perf

import _ "embed"

// Schema is the JSON Schema (draft 2020-12) of a Result's JSON encoding,
// what "a2ui-stream bench --json" writes: result.schema.json in this
// directory.
//
//go:embed result.schema.json
var Schema []byte
