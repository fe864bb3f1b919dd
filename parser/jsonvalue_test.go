package parser

import (
	"bytes"
	"encoding/json"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// The tests' JSON values: decoded with encoding/json (numbers as
// json.Number, the last of equal keys kept), written back with object
// keys sorted and no HTML escaping.

// Message kind keys.
const (
	kBeginRendering   = string(protocol.KindBeginRendering)
	kSurfaceUpdate    = string(protocol.KindSurfaceUpdate)
	kDataModelUpdate  = string(protocol.KindDataModelUpdate)
	kDeleteSurface    = string(protocol.KindDeleteSurface)
	kCreateSurface    = string(protocol.KindCreateSurface)
	kUpdateComponents = string(protocol.KindUpdateComponents)
	kUpdateDataModel  = string(protocol.KindUpdateDataModel)
)

// childFields are the fields the reference's placeholder walk reads child
// ids from.
var childFields = [...]string{"children", "explicitList", "child", "contentChild", "entryPointChild", "componentId"}

// decodeObject decodes b as exactly one JSON object (surrounding
// whitespace allowed). It reports false for anything else.
func decodeObject(b []byte) (map[string]any, bool) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil || m == nil {
		return nil, false
	}
	if _, err := d.Token(); err == nil {
		return nil, false // (more than one value)
	}
	return m, true
}

// bodySurface returns body.surfaceId when body is an object with a
// non-empty string surfaceId.
func bodySurface(v any) (string, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return "", false
	}
	s, ok := m["surfaceId"].(string)
	return s, ok && s != ""
}

// appendJSON encodes a decoded JSON value with object keys sorted, as
// encoding/json does, but without HTML escaping.
func appendJSON(dst []byte, v any) []byte {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if e.Encode(v) != nil {
		return append(dst, "null"...)
	}
	return append(dst, bytes.TrimSuffix(b.Bytes(), []byte("\n"))...)
}
