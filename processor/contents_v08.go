package processor

import (
	"errors"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/a2ui-stream/a2ui-stream/internal/jsontape"
	"github.com/a2ui-stream/a2ui-stream/internal/protocoltape"
	"github.com/a2ui-stream/a2ui-stream/protocol"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// convertContents turns a v0.8 dataModelUpdate "contents" adjacency list
// into a plain JSON value, as the v0.8 reference does:
//
//   - each entry {"key": k, "value…": v} sets k (itself a v0.8 path, so
//     "a.b" nests) to v; the value is the entry's first property whose name
//     starts with "value";
//   - valueMap is itself an adjacency list, converted recursively;
//   - a valueString that looks like a JSON object or array ("{…}", "[…]")
//     and parses is replaced by that JSON value (one nested deeper than
//     protocol.MaxComponentDepth fails, as such a message would);
//   - an entry with no value property is skipped;
//   - a list of exactly one entry with key "." is that entry's value itself
//     (how v0.8 sets a primitive at a path).
//
// The value is bounded by maxBytes, as the data model it goes into (an
// index in a key sizes an array).
func convertContents(contents gjson.Result, path string, maxBytes int) (any, *MessageError) {
	if !contents.IsArray() {
		return nil, fail(path, ErrInvalidMessage, "contents must be an array")
	}
	entries := contents.Array()
	if len(entries) == 1 && entries[0].IsObject() {
		if k := entries[0].Get("key"); k.Type == gjson.String && k.Str == "." {
			if name, v, ok := entryValue(entries[0]); ok {
				return convertEntryValue(name, v, path+"/0", maxBytes)
			}
		}
	}
	dm := dataModel{root: object{}}
	for i, e := range entries {
		epath := path + "/" + strconv.Itoa(i)
		if !e.IsObject() {
			return nil, fail(epath, ErrInvalidMessage, "a contents entry must be an object")
		}
		k := e.Get("key")
		if !k.Exists() {
			return nil, fail(epath+"/key", ErrInvalidMessage, "key is required")
		}
		if k.Type != gjson.String {
			return nil, fail(epath+"/key", ErrInvalidMessage, "key must be a string")
		}
		name, v, ok := entryValue(e)
		if !ok {
			continue
		}
		val, merr := convertEntryValue(name, v, epath, maxBytes)
		if merr != nil {
			return nil, merr
		}
		w, err := dm.prepareWrite(parsePathV08(k.Str), val, false, maxBytes)
		if err != nil {
			return nil, &MessageError{Path: epath + "/key", Err: err}
		}
		w.commit()
	}
	return dm.root, nil
}

// entryValue finds an entry's value property: the first one, in document
// order, whose name starts with "value".
func entryValue(e gjson.Result) (name string, v gjson.Result, ok bool) {
	e.ForEach(func(k, x gjson.Result) bool {
		if strings.HasPrefix(k.Str, "value") {
			name, v, ok = k.Str, x, true
			return false
		}
		return true
	})
	return name, v, ok
}

func convertEntryValue(name string, v gjson.Result, path string, maxBytes int) (any, *MessageError) {
	switch {
	case v.IsArray() && looksLikeAdjacency(v):
		return convertContents(v, path, maxBytes)
	case v.Type == gjson.String:
		t := strings.TrimSpace(v.Str)
		if len(t) >= 2 && ((t[0] == '{' && t[len(t)-1] == '}') || (t[0] == '[' && t[len(t)-1] == ']')) {
			// The parsed value joins the data model: it is held to the
			// depth limit of the messages themselves.
			var tp jsontape.Tape
			err := protocoltape.Parse(&tp, t)
			if errors.Is(err, protocol.ErrRecursionLimit) {
				return nil, &MessageError{Path: path + "/" + jsonwire.EscapePointerToken(name), Err: err}
			}
			if err == nil {
				return rawJSON(t), nil
			}
		}
	}
	return rawJSON(v.Raw), nil
}

// looksLikeAdjacency reports whether an array value is a v0.8 adjacency
// list (empty, or starting with an object that has a "key"), which the
// reference converts to a map wherever it appears.
func looksLikeAdjacency(v gjson.Result) bool {
	first := true
	adj := true
	v.ForEach(func(_, x gjson.Result) bool {
		first = false
		adj = x.IsObject() && x.Get("key").Exists()
		return false
	})
	return first || adj
}
