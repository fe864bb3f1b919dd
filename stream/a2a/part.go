package a2a

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/buger/jsonparser"
	"github.com/tidwall/gjson"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// Shape is the JSON shape of an A2A part on the wire.
type Shape int

const (
	// ShapeV03 is the A2A 0.3 shape: {"kind":"text","text":…} and
	// {"kind":"data","data":…,"metadata":{"mimeType":…}}.
	ShapeV03 Shape = iota
	// ShapeV10 is the A2A 1.0 shape: {"text":…} and
	// {"data":…,"mediaType":…}. Data parts also carry metadata.mimeType so
	// that readers of the older shape recognise them.
	ShapeV10
)

func (s Shape) String() string {
	switch s {
	case ShapeV03:
		return "v0.3"
	case ShapeV10:
		return "v1.0"
	}
	return fmt.Sprintf("Shape(%d)", int(s))
}

// PartKind says what an A2A part carries.
type PartKind string

// Part kinds.
const (
	KindText PartKind = "text"
	KindData PartKind = "data"
	KindFile PartKind = "file"
)

// Part is an A2A message part in either wire shape. Build parts with
// NewTextPart and NewDataPart, read them with ParsePart or ParseParts; the
// value marshals to JSON in the shape its Shape field names.
type Part struct {
	Kind PartKind
	// Text is the text of a text part.
	Text string
	// Data is the JSON value of a data part.
	Data json.RawMessage
	// MediaType is the MIME type of a data or file part: mediaType in the 1.0
	// shape, metadata.mimeType in the 0.3 shape. When a parsed part names
	// several, an A2UI MIME type wins.
	MediaType string
	// Metadata holds the part's metadata object, mimeType excluded. Nil when
	// there is none.
	Metadata map[string]json.RawMessage
	// Raw is the part as received, kept for file parts (which this package
	// passes through untouched). Nil for built parts.
	Raw json.RawMessage
	// Shape selects the wire shape MarshalJSON writes.
	Shape Shape
}

// NewTextPart returns a text part in the given shape.
func NewTextPart(text string, shape Shape) Part {
	return Part{Kind: KindText, Text: text, Shape: shape}
}

// NewDataPart returns a data part holding data (one A2UI message or a list of
// them) in the given shape, marked with the MIME type of version (see
// protocol.MIMETypeFor). An empty version means the current protocol and gives
// protocol.MIMEType. data is not copied.
func NewDataPart(data json.RawMessage, version protocol.Version, shape Shape) Part {
	mt := protocol.MIMEType
	if version != "" {
		mt = protocol.MIMETypeFor(version)
	}
	return Part{Kind: KindData, Data: data, MediaType: mt, Shape: shape}
}

// IsA2UI reports whether p is a data part marked as A2UI with either MIME
// type, wherever the mark was found (metadata.mimeType, a mimeType property
// on the part itself, or mediaType).
func (p Part) IsA2UI() bool { return p.Kind == KindData && protocol.IsA2UIMIMEType(p.MediaType) }

// MarshalJSON writes the part in the shape p.Shape names.
func (p Part) MarshalJSON() ([]byte, error) {
	if p.Kind == KindFile && p.Raw != nil {
		return p.Raw, nil
	}
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	field := func(k string, v []byte) {
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(`"` + k + `":`)
		b.Write(v)
	}
	meta := p.Metadata
	switch p.Kind {
	case KindText:
		if p.Shape == ShapeV03 {
			field("kind", []byte(`"text"`))
		}
		field("text", quote(p.Text))
	case KindData:
		if p.Shape == ShapeV03 {
			field("kind", []byte(`"data"`))
		}
		data := p.Data
		if len(data) == 0 {
			data = []byte("null")
		} else if !json.Valid(data) {
			return nil, fmt.Errorf("%w: data is not valid JSON", ErrMalformedPart)
		}
		field("data", data)
		if p.MediaType != "" {
			if p.Shape == ShapeV10 {
				field("mediaType", quote(p.MediaType))
			}
			meta = withEntry(meta, "mimeType", quote(p.MediaType))
		}
	default:
		return nil, fmt.Errorf("%w: cannot write a %q part", ErrMalformedPart, p.Kind)
	}
	if len(meta) > 0 {
		m, err := json.Marshal(meta)
		if err != nil {
			return nil, fmt.Errorf("%w: metadata: %v", ErrMalformedPart, err)
		}
		field("metadata", m)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads a part in either shape; see ParsePart. The part keeps
// a copy of b.
func (p *Part) UnmarshalJSON(b []byte) error {
	q, err := ParsePart(bytes.Clone(b))
	if err != nil {
		return err
	}
	*p = q
	return nil
}

// ParsePart reads an A2A part in the 0.3 shape (with "kind") or the 1.0
// shape (keyed by "text", "data", "raw" or "url"). The returned part's Shape
// records which one was read. Its Data and Raw alias b.
func ParsePart(b []byte) (Part, error) {
	r := gjson.ParseBytes(b)
	if !r.IsObject() || !json.Valid(b) {
		return Part{}, fmt.Errorf("%w: not a JSON object", ErrMalformedPart)
	}
	if !utf8.Valid(b) {
		// encoding/json would read it with U+FFFD in place of the bad bytes,
		// so the part would not say what was sent.
		return Part{}, fmt.Errorf("%w: invalid UTF-8", ErrMalformedPart)
	}
	var p Part
	kind := r.Get("kind")
	if kind.Exists() {
		p.Shape = ShapeV03
		if kind.Type != gjson.String {
			return Part{}, fmt.Errorf("%w: kind is not a string", ErrMalformedPart)
		}
		switch kind.String() {
		case "text", "data", "file":
			p.Kind = PartKind(kind.String())
		default:
			return Part{}, fmt.Errorf("%w: unknown kind %q", ErrMalformedPart, kind.String())
		}
	} else {
		p.Shape = ShapeV10
		switch {
		case r.Get("text").Exists():
			p.Kind = KindText
		case r.Get("data").Exists():
			p.Kind = KindData
		case r.Get("raw").Exists(), r.Get("url").Exists(), r.Get("file").Exists():
			p.Kind = KindFile
		default:
			return Part{}, fmt.Errorf("%w: no text, data, raw or url", ErrMalformedPart)
		}
	}
	switch p.Kind {
	case KindText:
		t := r.Get("text")
		if t.Type != gjson.String {
			return Part{}, fmt.Errorf("%w: text is not a string", ErrMalformedPart)
		}
		p.Text = t.String()
	case KindData:
		d := r.Get("data")
		if !d.Exists() {
			return Part{}, fmt.Errorf("%w: data part without data", ErrMalformedPart)
		}
		p.Data = sub(b, d)
	case KindFile:
		p.Raw = b
	}
	if m := r.Get("metadata"); m.Exists() && m.Type != gjson.Null {
		if !m.IsObject() {
			return Part{}, fmt.Errorf("%w: metadata is not an object", ErrMalformedPart)
		}
		_ = json.Unmarshal([]byte(m.Raw), &p.Metadata) // valid: checked above
	}
	// Collect the MIME type candidates; an A2UI one wins.
	var cands []string
	for _, c := range []gjson.Result{r.Get("mediaType"), r.Get("media_type"), r.Get("mimeType")} {
		if c.Type == gjson.String {
			cands = append(cands, c.String())
		}
	}
	if mt, ok := p.Metadata["mimeType"]; ok {
		var s string
		if json.Unmarshal(mt, &s) == nil {
			cands = append(cands, s)
		}
		delete(p.Metadata, "mimeType")
		if len(p.Metadata) == 0 {
			p.Metadata = nil
		}
	}
	if i := slices.IndexFunc(cands, protocol.IsA2UIMIMEType); i >= 0 {
		p.MediaType = cands[i]
	} else if len(cands) > 0 {
		p.MediaType = cands[0]
	}
	return p, nil
}

// ParseParts reads a JSON array of parts. A part that does not parse is
// reported as a *PartError (joined with the others) and skipped; the parts
// that parse are returned in order.
func ParseParts(b []byte) ([]Part, error) {
	r := gjson.ParseBytes(b)
	if !r.IsArray() {
		return nil, fmt.Errorf("%w: parts is not a JSON array", ErrMalformedPart)
	}
	var parts []Part
	var errs []error
	i := 0
	r.ForEach(func(_, v gjson.Result) bool {
		p, err := ParsePart(sub(b, v))
		if err != nil {
			errs = append(errs, &PartError{Index: i, Err: err})
		} else {
			parts = append(parts, p)
		}
		i++
		return true
	})
	return parts, errors.Join(errs...)
}

// IsA2UIPart reports whether the JSON part b (either shape) is a data part
// marked as A2UI.
func IsA2UIPart(b []byte) bool {
	p, err := ParsePart(b)
	return err == nil && p.IsA2UI()
}

// Messages returns the A2UI messages that parts carry, in order. Only data
// parts marked as A2UI count. A data part may hold one message (an object),
// a list of them, or a wrapped list: {"messages":[…]} as the
// specification's list-wrapper schemas define it, or {"value":[…]} as some
// SDKs send non-object data. Data of any other type is reported as a *PartError and
// skipped; the messages of the other parts are still returned. The returned
// messages alias the parts' Data.
func Messages(parts []Part) ([]json.RawMessage, error) {
	var out []json.RawMessage
	var errs []error
	for i, p := range parts {
		if !p.IsA2UI() {
			continue
		}
		msgs, err := dataMessages(p.Data)
		out = append(out, msgs...)
		if err != nil {
			errs = append(errs, &PartError{Index: i, Err: err})
		}
	}
	return out, errors.Join(errs...)
}

func dataMessages(data json.RawMessage) ([]json.RawMessage, error) {
	d := bytes.TrimSpace(data)
	if len(d) == 0 {
		return nil, fmt.Errorf("%w: empty data", ErrMalformedPart)
	}
	switch d[0] {
	case '{':
		if inner, ok := wrappedList(d); ok {
			return listMessages(inner)
		}
		return []json.RawMessage{d}, nil
	case '[':
		return listMessages(d)
	}
	return nil, fmt.Errorf("%w: A2UI data is neither a message nor a list", ErrMalformedPart)
}

// wrappedList recognises a wrapped list: an object whose only key holds a
// list, the key being messages (the list-wrapper schemas of the
// specification, for transports whose data must be an object) or value (as
// some SDKs wrap non-object data).
func wrappedList(d []byte) ([]byte, bool) {
	n := 0
	var inner []byte
	err := jsonparser.ObjectEach(d, func(k, v []byte, t jsonparser.ValueType, _ int) error {
		n++
		if (string(k) == "messages" || string(k) == "value") && t == jsonparser.Array {
			inner = v
		}
		return nil
	})
	return inner, err == nil && n == 1 && inner != nil
}

func listMessages(d []byte) ([]json.RawMessage, error) {
	var out []json.RawMessage
	var bad int
	_, err := jsonparser.ArrayEach(d, func(v []byte, t jsonparser.ValueType, _ int, _ error) {
		if t != jsonparser.Object {
			bad++
			return
		}
		out = append(out, json.RawMessage(v))
	})
	if err != nil {
		return out, fmt.Errorf("%w: %v", ErrMalformedPart, err)
	}
	if bad > 0 {
		return out, fmt.Errorf("%w: %d list entries are not messages (objects)", ErrMalformedPart, bad)
	}
	return out, nil
}

// sub returns the bytes of r inside b without copying when gjson located
// them, and a copy otherwise.
func sub(b []byte, r gjson.Result) json.RawMessage {
	if r.Index > 0 && r.Index+len(r.Raw) <= len(b) && string(b[r.Index:r.Index+len(r.Raw)]) == r.Raw {
		return b[r.Index : r.Index+len(r.Raw) : r.Index+len(r.Raw)]
	}
	return json.RawMessage(r.Raw)
}

func quote(s string) []byte {
	q, _ := json.Marshal(s)
	return q
}

func withEntry(m map[string]json.RawMessage, k string, v json.RawMessage) map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, len(m)+1)
	for mk, mv := range m {
		out[mk] = mv
	}
	out[k] = v
	return out
}
