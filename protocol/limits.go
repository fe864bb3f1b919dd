package protocol

import "github.com/a2ui-stream/a2ui-stream/internal/jsonwire"

// ValidPath reports whether p is a valid data-binding path: an absolute
// ("/a/b") or relative ("a/b") JSON Pointer whose "~" characters are all
// escapes ("~0" or "~1").
func ValidPath(p string) bool { return jsonwire.ValidPointerEscapes(p) }

// CheckLimits walks one message and checks the protocol's structural
// limits: JSON nesting at most MaxComponentDepth ("Global recursion limit
// exceeded: Depth > 50"), functionCall nesting (an object with both "call"
// and "args") at most MaxFunctionCallDepth ("Recursion limit exceeded:
// functionCall depth > 5"), and every string "path" property a valid path
// ("Invalid path syntax: '/a/~2'"). It uses no recursion proportional to
// the input beyond the depth limit itself.
func CheckLimits(msg any) error {
	return walkLimits(msg, 0, 0)
}

func walkLimits(v any, depth, fnDepth int) error {
	if depth > MaxComponentDepth {
		return depthLimitError()
	}
	switch x := v.(type) {
	case []any:
		for _, item := range x {
			if err := walkLimits(item, depth+1, fnDepth); err != nil {
				return err
			}
		}
	case map[string]any:
		if p, ok := x["path"].(string); ok && !ValidPath(p) {
			return topoErr(ErrInvalidPath, "Invalid path syntax: '%s'", p) // quoted as the reference does, not repr
		}
		_, hasCall := x["call"]
		_, hasArgs := x["args"]
		isFn := hasCall && hasArgs
		if isFn && fnDepth >= MaxFunctionCallDepth {
			return topoErr(ErrRecursionLimit, "Recursion limit exceeded: functionCall depth > %d", MaxFunctionCallDepth)
		}
		for _, k := range sortedKeys(x) {
			fd := fnDepth
			if isFn && k == "args" {
				fd++
			}
			if err := walkLimits(x[k], depth+1, fd); err != nil {
				return err
			}
		}
	}
	return nil
}

// depthLimitError is the error of a message nested more than
// MaxComponentDepth containers deep.
func depthLimitError() *ValidationError {
	return topoErr(ErrRecursionLimit, "Global recursion limit exceeded: Depth > %d", MaxComponentDepth)
}
