package protocol

import (
	"encoding/json"
	"errors"
	"math/big"
	"net/url"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// fastSchema is a validity-only JSON Schema (draft 2020-12) evaluator for
// the keywords A2UI catalogs use, compiled from the same documents as the
// Catalog's payload schema and run directly on a message's token tape:
// no decoding into maps, no error trees. It answers valid or invalid
// exactly as santhosh-tekuri/jsonschema does for the schemas it accepts;
// a schema using anything else (another draft, anchors, dynamic
// references, pattern properties, ...) is not compiled, and the Catalog
// keeps using the library alone. Error reports always come from the
// library (see Catalog.ValidMessageJSON).
type fastSchema struct {
	root *fsNode // one message
}

// errFastUnsupported: the schema uses something fastSchema does not
// implement.
var errFastUnsupported = errors.New("protocol: schema not supported by the fast validator")

// type bits of fsNode.types
const (
	ftNull uint8 = 1 << iota
	ftBoolean
	ftObject
	ftArray
	ftNumber
	ftInteger
	ftString
)

type fsName struct {
	name   string
	node   *fsNode
	reqBit uint64
}

type fsProp struct {
	name string
	node *fsNode
}

// fsNode is one compiled schema.
type fsNode struct {
	always int8 // +1: the true schema, -1: the false schema

	types    uint8
	typeOnly bool // only a "type" keyword applies (see finish)
	hasConst bool
	constV   any
	enum     []any
	enumStrs map[string]struct{} // enum, when it is a long list of strings only

	required []string
	props    []fsProp
	// names merges required and props for one pass over an object's
	// members: each distinct name with its property schema (nil if none)
	// and its bit among the required names (0 if not required);
	// allRequired has every required name's bit.
	names              []fsName
	allRequired        uint64
	addl               *fsNode
	uneval             *fsNode
	minProps, maxProps int

	items              *fsNode
	minItems, maxItems int

	minLen, maxLen int
	pattern        *regexp.Regexp

	minimum, maximum, exMin, exMax *big.Rat

	ref                 *fsNode
	allOf, anyOf, oneOf []*fsNode
	not                 *fsNode
	ifN, thenN, elseN   *fsNode

	// When every allOf member is {"if": {"properties": {K: {"const": C}}}
	// [, "required": [K]]}, "then": S} (a discriminator dispatch), the
	// "then"s by C: on an object, only the member whose C is the value of
	// K can apply.
	switchKey      string
	switchRequired bool
	switchThen     map[string][]*fsNode
}

type fsDoc struct {
	key  string // URL without fragment
	base *url.URL
	root any
}

type fsCompiler struct {
	docs map[string]*fsDoc
	memo map[string]*fsNode
}

// fastResource is one schema document and the URL it is registered at.
type fastResource struct {
	url string
	doc map[string]any
}

const draft2020 = "https://json-schema.org/draft/2020-12/schema"

// compileFastSchema compiles the message schema at rootURL over the given
// documents, or returns errFastUnsupported.
func compileFastSchema(rootURL string, resources []fastResource) (*fastSchema, error) {
	c := &fsCompiler{docs: map[string]*fsDoc{}, memo: map[string]*fsNode{}}
	for _, r := range resources {
		if s, ok := r.doc["$schema"]; ok && strings.TrimSuffix(toStr(s), "#") != draft2020 {
			return nil, errFastUnsupported
		}
		u, err := url.Parse(r.url)
		if err != nil {
			return nil, errFastUnsupported
		}
		u.Fragment, u.RawFragment = "", ""
		base := u
		if id, ok := r.doc["$id"].(string); ok {
			idURL, err := url.Parse(id)
			if err != nil {
				return nil, errFastUnsupported
			}
			base = u.ResolveReference(idURL)
			base.Fragment, base.RawFragment = "", ""
		}
		d := &fsDoc{base: base, root: r.doc}
		for _, k := range []string{u.String(), base.String()} {
			if old, dup := c.docs[k]; dup && !sameDoc(old.root, r.doc) {
				return nil, errFastUnsupported
			}
			if _, dup := c.docs[k]; !dup {
				c.docs[k] = d
			}
		}
		d.key = base.String()
	}
	root, err := c.resolve(rootURL, nil)
	if err != nil {
		return nil, err
	}
	for _, n := range c.memo {
		n.skipRefs()
		n.finish()
	}
	return &fastSchema{root: alias(root)}, nil
}

// pureRef reports whether n only applies its $ref (the rest being
// annotations): then n can be replaced by its target.
func (n *fsNode) pureRef() bool {
	return n.ref != nil && n.always == 0 && n.types == 0 && !n.hasConst && n.enum == nil &&
		n.names == nil && n.addl == nil && n.uneval == nil && n.minProps < 0 && n.maxProps < 0 &&
		n.items == nil && n.minItems < 0 && n.maxItems < 0 && n.minLen < 0 && n.maxLen < 0 &&
		n.pattern == nil && n.minimum == nil && n.maximum == nil && n.exMin == nil && n.exMax == nil &&
		n.allOf == nil && n.anyOf == nil && n.oneOf == nil && n.not == nil && n.ifN == nil
}

// alias follows chains of pure references (a bounded number of steps, so
// that a reference cycle stays as it is).
func alias(n *fsNode) *fsNode {
	for i := 0; i < 16 && n != nil && n.pureRef(); i++ {
		n = n.ref
	}
	return n
}

// finish precomputes shortcuts: typeOnly, enumStrs.
func (n *fsNode) finish() {
	if n.types != 0 {
		m := *n
		m.types = 0
		m.names, m.props, m.required, m.allRequired = nil, nil, nil, 0
		m.switchKey, m.switchThen = "", nil
		n.typeOnly = n.always == 0 && len(n.names) == 0 && len(n.switchThen) == 0 && m.empty()
	}
	if len(n.enum) > 8 {
		strs := make(map[string]struct{}, len(n.enum))
		for _, e := range n.enum {
			s, ok := e.(string)
			if !ok {
				return
			}
			strs[s] = struct{}{}
		}
		n.enumStrs = strs
	}
}

// empty reports whether n applies no keyword at all.
func (n *fsNode) empty() bool {
	return n.always == 0 && n.types == 0 && !n.hasConst && n.enum == nil &&
		n.names == nil && n.addl == nil && n.uneval == nil && n.minProps < 0 && n.maxProps < 0 &&
		n.items == nil && n.minItems < 0 && n.maxItems < 0 && n.minLen < 0 && n.maxLen < 0 &&
		n.pattern == nil && n.minimum == nil && n.maximum == nil && n.exMin == nil && n.exMax == nil &&
		n.ref == nil && n.allOf == nil && n.anyOf == nil && n.oneOf == nil && n.not == nil && n.ifN == nil
}

// skipRefs points n's subschemas past pure references, saving a step per
// reference at validation time; the result is the same.
func (n *fsNode) skipRefs() {
	n.ref = alias(n.ref)
	n.addl, n.uneval, n.items = alias(n.addl), alias(n.uneval), alias(n.items)
	n.not, n.ifN, n.thenN, n.elseN = alias(n.not), alias(n.ifN), alias(n.thenN), alias(n.elseN)
	for i := range n.names {
		n.names[i].node = alias(n.names[i].node)
	}
	for i := range n.props {
		n.props[i].node = alias(n.props[i].node)
	}
	for _, list := range [][]*fsNode{n.allOf, n.anyOf, n.oneOf} {
		for i := range list {
			list[i] = alias(list[i])
		}
	}
	for k, thens := range n.switchThen {
		for i := range thens {
			thens[i] = alias(thens[i])
		}
		n.switchThen[k] = thens
	}
}

// sameDoc reports whether two registrations are the same document (e.g. a
// catalog under its URL and its catalogId): the identical map.
func sameDoc(a, b any) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

func toStr(v any) string {
	s, _ := v.(string)
	return s
}

// resolve compiles the schema a reference names, relative to doc (nil:
// an absolute URL).
func (c *fsCompiler) resolve(ref string, doc *fsDoc) (*fsNode, error) {
	r, err := url.Parse(ref)
	if err != nil {
		return nil, errFastUnsupported
	}
	target := r
	if doc != nil {
		target = doc.base.ResolveReference(r)
	}
	frag := target.Fragment
	t := *target
	t.Fragment, t.RawFragment = "", ""
	d, ok := c.docs[t.String()]
	if !ok {
		return nil, errFastUnsupported
	}
	if frag != "" && !strings.HasPrefix(frag, "/") {
		return nil, errFastUnsupported // anchors
	}
	var cur any = d.root
	if frag != "" {
		for _, seg := range strings.Split(frag[1:], "/") {
			seg, _ = jsonwire.UnescapePointerToken(seg)
			switch x := cur.(type) {
			case map[string]any:
				v, ok := x[seg]
				if !ok {
					return nil, errFastUnsupported
				}
				cur = v
			case []any:
				i, err := strconv.Atoi(seg)
				if err != nil || i < 0 || i >= len(x) {
					return nil, errFastUnsupported
				}
				cur = x[i]
			default:
				return nil, errFastUnsupported
			}
		}
	}
	return c.node(d, frag, cur)
}

// Keywords fastSchema does not implement: a schema using one is not
// compiled.
var fastUnsupported = map[string]bool{
	"patternProperties": true, "propertyNames": true, "dependentSchemas": true,
	"dependentRequired": true, "prefixItems": true, "contains": true,
	"minContains": true, "maxContains": true, "uniqueItems": true,
	"unevaluatedItems": true, "multipleOf": true, "$anchor": true,
	"$dynamicRef": true, "$dynamicAnchor": true, "$recursiveRef": true,
	"$recursiveAnchor": true, "$vocabulary": true, "contentEncoding": true,
	"contentMediaType": true, "contentSchema": true, "dependencies": true,
	"additionalItems": true,
}

func (c *fsCompiler) node(d *fsDoc, ptr string, v any) (*fsNode, error) {
	key := d.key + "#" + ptr
	if n, ok := c.memo[key]; ok {
		return n, nil
	}
	n := &fsNode{minProps: -1, maxProps: -1, minItems: -1, maxItems: -1, minLen: -1, maxLen: -1}
	c.memo[key] = n
	switch x := v.(type) {
	case bool:
		if x {
			n.always = 1
		} else {
			n.always = -1
		}
		return n, nil
	case map[string]any:
		return n, c.fill(n, d, ptr, x)
	}
	return nil, errFastUnsupported
}

func (c *fsCompiler) sub(d *fsDoc, ptr string, v any) (*fsNode, error) {
	return c.node(d, ptr, v)
}

func (c *fsCompiler) subs(d *fsDoc, ptr string, v any) ([]*fsNode, error) {
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return nil, errFastUnsupported
	}
	out := make([]*fsNode, len(list))
	for i, item := range list {
		s, err := c.sub(d, ptr+"/"+strconv.Itoa(i), item)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

func fastInt(v any) (int, bool) {
	num, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(string(num))
	return i, err == nil && i >= 0
}

func fastRat(v any) (*big.Rat, bool) {
	num, ok := v.(json.Number)
	if !ok {
		return nil, false
	}
	return new(big.Rat).SetString(string(num))
}
