package processor

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// A data model is a tree of nodes:
//
//	nil        JSON null, or an emptied array slot
//	rawJSON    a JSON value held as received (never re-encoded until read)
//	object     a JSON object whose values are nodes
//	*array     a JSON array whose items are nodes
//
// Values written by updateDataModel are held as rawJSON, so a write costs
// O(1) in the size of the value. A rawJSON object or array is expanded one
// level only when a later write goes through it.
type (
	rawJSON string
	object  map[string]any
	array   struct{ items []any }
)

// maxPathSegments bounds the segments of a data path, so that the data
// model stays about as shallow as the messages that build it.
const maxPathSegments = protocol.MaxComponentDepth

// dataModel is one surface's data model with its approximate size: the
// length of the JSON text it holds (raw values count as received).
type dataModel struct {
	root  any
	bytes int
}

// newDataModel returns an empty model: an empty object, held as raw JSON
// (most models are first replaced whole).
func newDataModel() dataModel { return dataModel{root: rawJSON("{}"), bytes: 2} }

// kindOf classifies a raw JSON value by its first byte.
func rawKind(r rawJSON) byte {
	if i := jsonwire.SkipSpace(r, 0); i < len(r) {
		return r[i]
	}
	return 0
}

func isNull(n any) bool {
	switch v := n.(type) {
	case nil:
		return true
	case rawJSON:
		return rawKind(v) == 'n'
	}
	return false
}

// expand turns a raw object or array into a container one level deep; any
// other node is returned unchanged. The result is semantically identical.
func expand(n any) any {
	r, ok := n.(rawJSON)
	if !ok {
		return n
	}
	switch rawKind(r) {
	case '{':
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(r), &m); err != nil {
			return n
		}
		o := make(object, len(m))
		for k, v := range m {
			o[k] = rawJSON(v)
		}
		return o
	case '[':
		var a []json.RawMessage
		if err := json.Unmarshal([]byte(r), &a); err != nil {
			return n
		}
		arr := &array{items: make([]any, len(a))}
		for i, v := range a {
			arr.items[i] = rawJSON(v)
		}
		return arr
	}
	return n
}

// sizeOf is the length of n's JSON text (raw values as held).
func sizeOf(n any) int {
	switch v := n.(type) {
	case nil:
		return 4
	case rawJSON:
		return len(v)
	case object:
		s := 2
		for k, c := range v {
			s += len(k) + 4 + sizeOf(c)
		}
		return s
	case *array:
		s := 2
		for _, c := range v.items {
			s += sizeOf(c) + 1
		}
		return s
	}
	return 0
}

// chain builds the containers a write creates below an absent or null
// node: the container holding segs[0] (an array when segs[0] is an index,
// an object otherwise), down to value at the last segment.
func chain(segs []string, value any) any {
	if len(segs) == 0 {
		return value
	}
	child := chain(segs[1:], value)
	if idx, ok, _ := arrayIndex(segs[0]); ok {
		a := &array{items: make([]any, idx+1)}
		a.items[idx] = child
		return a
	}
	return object{segs[0]: child}
}

// chainSize is sizeOf(chain(segs, value)) without building it.
func chainSize(segs []string, valueSize int) int {
	s := valueSize
	for i := len(segs) - 1; i >= 0; i-- {
		if idx, ok, _ := arrayIndex(segs[i]); ok {
			s += 2 + idx*5 + 1
		} else {
			s += 2 + len(segs[i]) + 4
		}
	}
	return s
}

// dataWrite is one prepared, validated write: commit applies it and cannot
// fail. Preparing a write may expand raw nodes (a change of representation
// only), so the model is semantically unchanged until commit.
type dataWrite struct {
	dm      *dataModel
	apply   func() // a write below the root
	root    bool   // else: a write of the whole model, value of size bytes
	value   any
	size    int
	delta   int
	changed bool // false for a removal of something absent
}

// commit applies the write.
func (w *dataWrite) commit() {
	if w.root {
		w.dm.root, w.dm.bytes = w.value, w.size
		return
	}
	w.apply()
}

// prepareWrite validates the upsert of value (or, with remove, the removal)
// at segs and returns the write to commit. Errors wrap ErrDataPath or
// ErrLimit.
func (dm *dataModel) prepareWrite(segs []string, value any, remove bool, maxBytes int) (dataWrite, error) {
	if len(segs) > maxPathSegments {
		return dataWrite{}, fmt.Errorf("%w: path has %d segments, more than %d", ErrLimit, len(segs), maxPathSegments)
	}
	for _, seg := range segs {
		if err := checkSegment(seg); err != nil {
			return dataWrite{}, err
		}
	}
	if len(segs) == 0 {
		if remove {
			value = object{}
		}
		size := sizeOf(value)
		if size > maxBytes {
			return dataWrite{}, limitErr(size, maxBytes)
		}
		return dataWrite{dm: dm, root: true, value: value, size: size, delta: size - dm.bytes, changed: true}, nil
	}
	w, err := dm.preparePathWrite(segs, value, remove, maxBytes)
	if err != nil {
		return dataWrite{}, err
	}
	return *w, nil
}

// preparePathWrite is prepareWrite below the root (segs is not empty).
func (dm *dataModel) preparePathWrite(segs []string, value any, remove bool, maxBytes int) (*dataWrite, error) {
	w := &dataWrite{dm: dm, changed: true}
	valueSize := 0
	if !remove {
		valueSize = sizeOf(value)
	}

	// setSlot stores a node back into the slot cur came from.
	setSlot := func(n any) { dm.root = n }
	cur := dm.root
	for d := 0; d < len(segs); d++ {
		seg := segs[d]
		last := d == len(segs)-1
		if _, isRaw := cur.(rawJSON); isRaw {
			// A received object or array: hold it expanded from now on.
			if x := expand(cur); x != nil {
				if _, still := x.(rawJSON); !still {
					setSlot(x)
					cur = x
				}
			}
		}
		if isNull(cur) {
			// Null or absent: create containers from here (root: object).
			if remove {
				w.changed = false
				w.apply = func() {}
				return w, nil
			}
			// The bound is checked before the containers are built: an
			// index in the path sizes an array.
			if d == 0 {
				w.delta = 2 + len(seg) + 4 + chainSize(segs[1:], valueSize) - sizeOf(cur)
			} else {
				w.delta = chainSize(segs[d:], valueSize) - sizeOf(cur)
			}
			if err := checkLimit(dm, w.delta, maxBytes); err != nil {
				return nil, err
			}
			var created any
			if d == 0 {
				created = object{seg: chain(segs[1:], value)}
			} else {
				created = chain(segs[d:], value)
			}
			slot := setSlot
			w.apply = func() { slot(created); dm.bytes += w.delta }
			return w, nil
		}
		switch c := cur.(type) {
		case object:
			child, ok := c[seg]
			if last || !ok {
				if remove {
					if !ok || !last {
						w.changed = false
						w.apply = func() {}
						return w, nil
					}
					w.delta = -(len(seg) + 4 + sizeOf(child))
					w.apply = func() { delete(c, seg); dm.bytes += w.delta }
					return w, nil
				}
				w.delta = len(seg) + 4 + chainSize(segs[d+1:], valueSize) // valueSize when last
				if ok {
					w.delta -= len(seg) + 4 + sizeOf(child)
				}
				if err := checkLimit(dm, w.delta, maxBytes); err != nil {
					return nil, err
				}
				nv := chain(segs[d+1:], value) // value itself when last
				w.apply = func() { c[seg] = nv; dm.bytes += w.delta }
				return w, nil
			}
			setSlot = func(n any) { c[seg] = n }
			cur = child
		case *array:
			idx, ok, tooBig := arrayIndex(seg)
			if !ok {
				if leadingZero(seg) {
					return nil, fmt.Errorf("%w: array index %q has a leading zero in path %q (RFC 6901: not an index)", ErrDataPath, seg, formatPointer(segs))
				}
				return nil, fmt.Errorf("%w: cannot use non-numeric segment %q on an array in path %q", ErrDataPath, seg, formatPointer(segs))
			}
			if tooBig {
				return nil, fmt.Errorf("%w: array index %s exceeds the data model bound", ErrLimit, seg)
			}
			var child any
			present := idx < len(c.items)
			if present {
				child = c.items[idx]
			}
			if last || !present {
				if remove {
					if !present || !last {
						w.changed = false
						w.apply = func() {}
						return w, nil
					}
					w.delta = 4 - sizeOf(child)
					w.apply = func() { c.items[idx] = nil; dm.bytes += w.delta }
					return w, nil
				}
				w.delta = chainSize(segs[d+1:], valueSize) // valueSize when last
				if present {
					w.delta -= sizeOf(child)
				} else {
					w.delta += (idx-len(c.items))*5 + 1
				}
				if err := checkLimit(dm, w.delta, maxBytes); err != nil {
					return nil, err
				}
				nv := chain(segs[d+1:], value) // value itself when last
				w.apply = func() {
					if idx >= len(c.items) {
						grown := make([]any, idx+1)
						copy(grown, c.items)
						c.items = grown
					}
					c.items[idx] = nv
					dm.bytes += w.delta
				}
				return w, nil
			}
			setSlot = func(n any) { c.items[idx] = n }
			cur = child
		default:
			return nil, fmt.Errorf("%w: cannot write %q: %q holds a primitive value", ErrDataPath, formatPointer(segs), formatPointer(segs[:d]))
		}
	}
	return nil, fmt.Errorf("%w: empty write", ErrDataPath) // not reached: the last segment always returns
}

// checkLimit fails a write that would make the model larger than maxBytes.
// The tracked size is an over-estimate (raw values count with their
// whitespace); before failing, it is recomputed exactly.
func checkLimit(dm *dataModel, delta, maxBytes int) error {
	if dm.bytes+delta <= maxBytes {
		return nil
	}
	dm.bytes = sizeOf(dm.root)
	if dm.bytes+delta <= maxBytes {
		return nil
	}
	return limitErr(dm.bytes+delta, maxBytes)
}

func limitErr(size, maxBytes int) error {
	return fmt.Errorf("%w: data model would hold %d bytes, more than the bound of %d", ErrLimit, size, maxBytes)
}

func errBadEscape(seg string) error {
	return fmt.Errorf("%w: invalid escape in path segment %q (only ~0 and ~1 are allowed)", ErrDataPath, seg)
}

// plain converts a node into plain Go JSON values (map[string]any, []any,
// json.Number, string, bool, nil) for encoding. Raw values are decoded.
func plain(n any) (any, error) {
	switch v := n.(type) {
	case nil:
		return nil, nil
	case rawJSON:
		dec := json.NewDecoder(strings.NewReader(string(v)))
		dec.UseNumber()
		var out any
		if err := dec.Decode(&out); err != nil {
			return nil, err
		}
		return out, nil
	case object:
		m := make(map[string]any, len(v))
		for k, c := range v {
			p, err := plain(c)
			if err != nil {
				return nil, err
			}
			m[k] = p
		}
		return m, nil
	case *array:
		a := make([]any, len(v.items))
		for i, c := range v.items {
			p, err := plain(c)
			if err != nil {
				return nil, err
			}
			a[i] = p
		}
		return a, nil
	}
	return nil, fmt.Errorf("processor: unexpected data model node %T", n)
}

// get returns the node at segs, or false when there is none.
func (dm *dataModel) get(segs []string) (any, bool) {
	cur := dm.root
	for _, seg := range segs {
		switch c := expand(cur).(type) {
		case object:
			v, ok := c[seg]
			if !ok {
				return nil, false
			}
			cur = v
		case *array:
			idx, ok, tooBig := arrayIndex(seg)
			if !ok || tooBig || idx >= len(c.items) {
				return nil, false
			}
			cur = c.items[idx]
		default:
			return nil, false
		}
	}
	return cur, true
}
