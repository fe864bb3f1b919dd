package protocol

import (
	"errors"
	"fmt"
)

// ValidateOption tunes Validate and ValidateIntegrity.
type ValidateOption func(*validateConfig)

type validateConfig struct {
	strict bool
	rootID string // WithRootID's; "" means none
}

func newValidateConfig(opts []ValidateOption) validateConfig {
	cfg := validateConfig{strict: true}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	return cfg
}

// WithStrictIntegrity selects full integrity checks (the default, true):
// missing root, dangling references and orphans are errors. With false
// (e.g. while a stream is still arriving) only duplicates, cycles,
// self-references, recursion limits and paths are checked, as the
// reference's strict_integrity=False.
func WithStrictIntegrity(strict bool) ValidateOption {
	return func(c *validateConfig) { c.strict = strict }
}

// WithRootID gives the root component id to use for a surface whose root
// the payload itself does not name (no beginRendering / createSurface for
// it in the list), e.g. when a stream parser validates one updateComponents
// message for a surface created earlier. Without it such an update is
// treated as incremental (no root, no orphan or dangling-reference checks),
// which is what the reference SDK does. An empty id means no root.
func WithRootID(id string) ValidateOption {
	return func(c *validateConfig) { c.rootID = id }
}

// Validate validates a list of A2UI messages as one payload, as the
// reference validator does:
//
//  1. the JSON Schema built from the catalog (see LoadCatalog); on failure
//     no further checks run;
//  2. for each surfaceUpdate (v0.8) / updateComponents (v0.9 family) with
//     components: duplicate ids, then (strict) the root — found in the
//     payload's beginRendering.root or, for createSurface, "root" — and
//     dangling references, then cycles, self-references, depth and (strict)
//     orphans (see CheckIntegrity, AnalyzeTopology). A declared root is a
//     root even when empty ("root": "" is missing unless a component has
//     the id ""); only an update whose surface the payload does not
//     create is incremental;
//  3. for every message: JSON depth, functionCall depth and path syntax
//     (see CheckLimits).
//
// Messages must be decoded JSON (map[string]any, []any, string, bool, nil,
// json.Number or float64); YAML-decoded int values are accepted too.
//
// The result is nil, a *ValidationError, or ValidationErrors when several
// messages fail (at most one error per message). Every error matches
// ErrValidation and one specific sentinel. A nil *Catalog skips the schema
// step and uses only the well-known reference fields.
func (c *Catalog) Validate(messages []any, opts ...ValidateOption) error {
	cfg := newValidateConfig(opts)
	if c != nil {
		if err := c.ValidateSchema(messages); err != nil {
			return err
		}
		return validateIntegrity(messages, c.RefFields, cfg)
	}
	return validateIntegrity(messages, nil, cfg)
}

// ValidateMessage validates one message on its own (Validate of a
// one-element list).
func (c *Catalog) ValidateMessage(msg any, opts ...ValidateOption) error {
	return c.Validate([]any{msg}, opts...)
}

// ValidateJSON decodes a JSON payload (an array of messages, or a single
// message object) and validates it. Malformed JSON, anything but
// whitespace after the value included, gives a *ValidationError of kind
// ErrSchema whose message names the byte offset at fault.
func (c *Catalog) ValidateJSON(payload []byte, opts ...ValidateOption) error {
	v, err := decodeJSON(payload)
	if err != nil {
		msg := err.Error()
		var se *JSONSyntaxError
		if errors.As(err, &se) {
			msg = fmt.Sprintf("%s at offset %d", se.Reason, se.Offset)
		}
		return &ValidationError{MessageIndex: -1, Message: "Invalid JSON: " + msg, Kind: ErrSchema}
	}
	msgs, ok := v.([]any)
	if !ok {
		msgs = []any{v}
	}
	return c.Validate(msgs, opts...)
}

// ValidateIntegrity runs the non-schema checks of Validate (steps 2 and 3)
// with the given reference fields (nil: the well-known names only). It
// needs no catalog, for processors that run without one.
func ValidateIntegrity(messages []any, refs RefFieldsFunc, opts ...ValidateOption) error {
	return validateIntegrity(messages, refs, newValidateConfig(opts))
}

// ValidateSchema runs only the JSON Schema step of Validate.
//
// Numbers with a very long text or a magnitude beyond 10^±400 are checked
// through a short stand-in with the same sign, integrality and order
// against the schema's bounds (see numbers.go): the schema library would
// otherwise take time exponential in their exponent's length. A
// json.Number whose text is not a JSON number is a schema failure.
func (c *Catalog) ValidateSchema(messages []any) error {
	if c == nil || c.schema == nil {
		return nil
	}
	if messages == nil {
		messages = []any{}
	}
	msgs, err := boundMessages(messages)
	if err != nil {
		return invalidNumberFailure(err, messages)
	}
	if !c.schemaDispatches && c.quick != nil && c.quick.Validate(msgs) == nil {
		return nil
	}
	verr := c.schema.Validate(msgs)
	if verr == nil {
		return nil
	}
	// Reports show the payload as given (the stand-ins keep its shape).
	return schemaFailure(verr, messages, c.typeSchemaURLs)
}

// FindRootID returns the root component id the payload declares for a
// surface: beginRendering.root (default "root") in v0.8, "root" for a
// createSurface in the v0.9 family. The first matching message wins; an
// empty surfaceID matches any surface.
func FindRootID(messages []any, surfaceID string) (string, bool) {
	for _, m := range messages {
		body, root, ok := declaredRoot(m)
		if !ok || surfaceID != "" && body["surfaceId"] != surfaceID {
			continue
		}
		return root, true
	}
	return "", false
}

// declaredRoot reports whether m is a beginRendering or createSurface
// message, with its body (nil if not an object) and the root id it
// declares. A message with both keys is read as beginRendering.
func declaredRoot(m any) (body map[string]any, root string, ok bool) {
	msg, isObj := m.(map[string]any)
	if !isObj {
		return nil, "", false
	}
	if br, has := msg[string(KindBeginRendering)]; has {
		body, _ = br.(map[string]any)
		if r, has := body["root"]; has {
			if s, isStr := r.(string); isStr {
				return body, s, true
			}
			return body, fmt.Sprint(r), true
		}
		return body, "root", true
	}
	if cs, has := msg[string(KindCreateSurface)]; has {
		body, _ = cs.(map[string]any)
		return body, "root", true
	}
	return nil, "", false
}

// rootIndex answers FindRootID for every surface of a payload of at least
// rootIndexMin messages after one pass over it (n updates would otherwise
// cost n passes). A shorter payload (the common single message) has none:
// its lookups search the payload directly.
type rootIndex struct {
	first     string // the first declared root, for an empty surface id
	hasFirst  bool
	bySurface map[string]string // the first root declared per string surfaceId
}

// rootIndexMin is the payload length from which lookups use an index.
const rootIndexMin = 8

func indexRoots(messages []any) *rootIndex {
	idx := &rootIndex{bySurface: map[string]string{}}
	for _, m := range messages {
		body, root, ok := declaredRoot(m)
		if !ok {
			continue
		}
		if !idx.hasFirst {
			idx.first, idx.hasFirst = root, true
		}
		if s, isStr := body["surfaceId"].(string); isStr {
			if _, seen := idx.bySurface[s]; !seen {
				idx.bySurface[s] = root
			}
		}
	}
	return idx
}

// findRoot is FindRootID(messages, surfaceID), through idx when there is
// one.
func findRoot(idx *rootIndex, messages []any, surfaceID string) (string, bool) {
	if idx == nil {
		return FindRootID(messages, surfaceID)
	}
	if surfaceID == "" {
		return idx.first, idx.hasFirst
	}
	root, ok := idx.bySurface[surfaceID]
	return root, ok
}

// MessageComponents returns the components of a surfaceUpdate (v0.8) or
// updateComponents (v0.9 family) message and its surface id. Entries that
// are not objects are dropped.
func MessageComponents(msg map[string]any) (components []map[string]any, surfaceID string, ok bool) {
	var body map[string]any
	if b, has := msg[string(KindSurfaceUpdate)]; has {
		body, _ = b.(map[string]any)
	} else if b, has := msg[string(KindUpdateComponents)]; has {
		body, _ = b.(map[string]any)
	}
	if body == nil {
		return nil, "", false
	}
	surfaceID, _ = body["surfaceId"].(string)
	list, _ := body["components"].([]any)
	for _, item := range list {
		if m, isObj := item.(map[string]any); isObj {
			components = append(components, m)
		}
	}
	return components, surfaceID, true
}

// messageSurface returns the kind key and surfaceId of a message: of its
// first key (in sorted order, so that a message with several kind keys
// always reads the same) whose body has a string surfaceId, else the
// first key with an object body and "".
func messageSurface(msg map[string]any) (kind string, surfaceID string) {
	for _, k := range sortedKeys(msg) {
		if k == "version" {
			continue
		}
		if body, ok := msg[k].(map[string]any); ok {
			if s, ok := body["surfaceId"].(string); ok {
				return k, s
			}
			if kind == "" {
				kind = k
			}
		}
	}
	return kind, ""
}

func validateIntegrity(messages []any, refs RefFieldsFunc, cfg validateConfig) error {
	var errs ValidationErrors
	var roots *rootIndex
	if len(messages) >= rootIndexMin {
		roots = indexRoots(messages)
	}
	for i, m := range messages {
		msg, ok := m.(map[string]any)
		if !ok {
			continue
		}
		if err := checkMessage(roots, messages, msg, refs, cfg); err != nil {
			var ve *ValidationError
			if !errors.As(err, &ve) {
				ve = &ValidationError{Message: err.Error(), Kind: ErrSchema}
			}
			ve.MessageIndex = i
			if ve.SurfaceID == "" {
				_, ve.SurfaceID = messageSurface(msg)
			}
			errs = append(errs, ve)
		}
	}
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	return errs
}

func checkMessage(roots *rootIndex, messages []any, msg map[string]any, refs RefFieldsFunc, cfg validateConfig) error {
	comps, surfaceID, ok := MessageComponents(msg)
	if ok && len(comps) > 0 {
		// A root the payload declares is a root even when empty (a v0.8
		// beginRendering with "root": ""), as in the reference: no
		// component has that id, so the root is missing. The empty id of
		// WithRootID means none, as before.
		root, hasRoot := findRoot(roots, messages, surfaceID)
		if !hasRoot && cfg.rootID != "" {
			root, hasRoot = cfg.rootID, true
		}
		if err := checkIntegrity(root, hasRoot, comps, refs, !cfg.strict); err != nil {
			return inComponents(err, surfaceID)
		}
		if _, err := analyzeTopology(root, hasRoot, comps, refs, TopologyOptions{RaiseOnOrphans: cfg.strict}); err != nil {
			return inComponents(err, surfaceID)
		}
	}
	return CheckLimits(msg)
}

// inComponents places an integrity error at the components of the update
// of surfaceID.
func inComponents(err error, surfaceID string) error {
	var ve *ValidationError
	if errors.As(err, &ve) {
		if ve.Path == "" {
			ve.Path = "/components"
		}
		if ve.SurfaceID == "" {
			ve.SurfaceID = surfaceID
		}
	}
	return err
}
