package processor

import (
	"fmt"
	"strings"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// maxIndexDigits bounds array indexes in data paths: a longer index is
// rejected before any memory is reserved for it.
const maxIndexDigits = 9

// parsePointer splits an updateDataModel path into unescaped segments.
//
// The rules follow the reference renderer where the specification is
// silent: "" and "/" address the whole model; a path without a leading "/"
// is read from the root ("user" is "/user"); empty segments are skipped
// ("/a//b" is "/a/b", "/a/" is "/a"). "~1" and "~0" are the RFC 6901
// escapes for "/" and "~"; any other "~" sequence is an error.
func parsePointer(p string) ([]string, error) {
	if p == "" || p == "/" {
		return nil, nil
	}
	segs := make([]string, 0, strings.Count(p, "/")+1)
	for p != "" {
		var seg string
		if i := strings.IndexByte(p, '/'); i >= 0 {
			seg, p = p[:i], p[i+1:]
		} else {
			seg, p = p, ""
		}
		if seg == "" {
			continue
		}
		if strings.IndexByte(seg, '~') >= 0 {
			u, ok := jsonwire.UnescapePointerToken(seg)
			if !ok {
				return nil, errBadEscape(seg)
			}
			seg = u
		}
		segs = append(segs, seg)
	}
	return segs, nil
}

// parsePathV08 splits a v0.8 dataModelUpdate path the way the v0.8
// reference does: "/", "." and "[n]" all separate segments ("user.name",
// "items[0].title" and "/items/0/title" are equivalent), empty segments are
// skipped, and there are no escapes.
func parsePathV08(p string) []string {
	var segs []string
	start := -1
	flush := func(i int) {
		if start >= 0 && i > start {
			segs = append(segs, p[start:i])
		}
		start = -1
	}
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '/', '.', '[', ']':
			flush(i)
		default:
			if start < 0 {
				start = i
			}
		}
	}
	flush(len(p))
	return segs
}

// formatPointer renders segments as a JSON Pointer; the whole model is "/".
func formatPointer(segs []string) string {
	if len(segs) == 0 {
		return "/"
	}
	return jsonwire.JoinPointer(segs)
}

// arrayIndex reports whether seg is a plain array index (ASCII digits
// only, as the reference requires) and its value. tooBig is set for an
// index with more than maxIndexDigits digits.
func arrayIndex(seg string) (idx int, ok, tooBig bool) {
	if seg == "" || leadingZero(seg) {
		// RFC 6901: an array index has no leading zeros ("01" is a
		// member name, never index 1).
		return 0, false, false
	}
	for i := 0; i < len(seg); i++ {
		if seg[i] < '0' || seg[i] > '9' {
			return 0, false, false
		}
	}
	if len(seg) > maxIndexDigits {
		return 0, true, true
	}
	for i := 0; i < len(seg); i++ {
		idx = idx*10 + int(seg[i]-'0')
	}
	return idx, true, false
}

// checkSegment rejects a path segment that a JavaScript renderer would
// merge into an object's prototype: the reference renderer core rejects
// them ("Forbidden path segment"), and so does the processor, whose
// batches such renderers apply. An array index too large for the data
// model's bound is an ErrLimit.
func checkSegment(seg string) error {
	switch seg {
	case "__proto__", "constructor", "prototype":
		return fmt.Errorf("%w: Forbidden path segment '%s'", ErrDataPath, seg)
	}
	if _, _, tooBig := arrayIndex(seg); tooBig {
		return fmt.Errorf("%w: array index %s exceeds the data model bound", ErrLimit, seg)
	}
	return nil
}

// leadingZero reports whether seg is digits with a leading zero: not an
// array index (RFC 6901), though it looks like one.
func leadingZero(seg string) bool {
	return len(seg) > 1 && seg[0] == '0' && strings.Trim(seg, "0123456789") == ""
}
