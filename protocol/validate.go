package protocol

import (
	"errors"
	"fmt"
)

// ValidateOption tunes Validate and ValidateIntegrity.
type ValidateOption func(*validateConfig)

type validateConfig struct {
	strict  bool
	rootID  string
	hasRoot bool
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
// which is what the reference SDK does.
func WithRootID(id string) ValidateOption {
	return func(c *validateConfig) { c.rootID, c.hasRoot = id, true }
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
//     orphans (see CheckIntegrity, AnalyzeTopology);
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
// message object) and validates it. Malformed JSON gives a
// *ValidationError of kind ErrSchema.
func (c *Catalog) ValidateJSON(payload []byte, opts ...ValidateOption) error {
	v, err := decodeJSON(payload)
	if err != nil {
		return &ValidationError{MessageIndex: -1, Message: "Invalid JSON: " + err.Error(), Kind: ErrSchema}
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
func (c *Catalog) ValidateSchema(messages []any) error {
	if c == nil || c.schema == nil {
		return nil
	}
	msgs := messages
	if msgs == nil {
		msgs = []any{}
	}
	if c.quick != nil && c.quick.Validate(msgs) == nil {
		return nil
	}
	verr := c.schema.Validate(msgs)
	if verr == nil {
		return nil
	}
	return schemaFailure(verr, msgs, c.typeSchemaURLs)
}

// FindRootID returns the root component id the payload declares for a
// surface: beginRendering.root (default "root") in v0.8, "root" for a
// createSurface in the v0.9 family. The first matching message wins; an
// empty surfaceID matches any surface.
func FindRootID(messages []any, surfaceID string) (string, bool) {
	for _, m := range messages {
		msg, ok := m.(map[string]any)
		if !ok {
			continue
		}
		if br, ok := msg[string(KindBeginRendering)]; ok {
			body, _ := br.(map[string]any)
			if surfaceID != "" && body["surfaceId"] != surfaceID {
				continue
			}
			if root, ok := body["root"]; ok {
				if s, ok := root.(string); ok {
					return s, true
				}
				return fmt.Sprint(root), true
			}
			return "root", true
		}
		if cs, ok := msg[string(KindCreateSurface)]; ok {
			body, _ := cs.(map[string]any)
			if surfaceID != "" && body["surfaceId"] != surfaceID {
				continue
			}
			return "root", true
		}
	}
	return "", false
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

// messageSurface returns the kind key and surfaceId of a message.
func messageSurface(msg map[string]any) (kind string, surfaceID string) {
	for k, v := range msg {
		if k == "version" {
			continue
		}
		if body, ok := v.(map[string]any); ok {
			if s, ok := body["surfaceId"].(string); ok {
				return k, s
			}
			kind = k
		}
	}
	return kind, ""
}

func validateIntegrity(messages []any, refs RefFieldsFunc, cfg validateConfig) error {
	var errs ValidationErrors
	for i, m := range messages {
		msg, ok := m.(map[string]any)
		if !ok {
			continue
		}
		if err := checkMessage(messages, msg, refs, cfg); err != nil {
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

func checkMessage(all []any, msg map[string]any, refs RefFieldsFunc, cfg validateConfig) error {
	comps, surfaceID, ok := MessageComponents(msg)
	if ok && len(comps) > 0 {
		root, found := FindRootID(all, surfaceID)
		if !found && cfg.hasRoot {
			root = cfg.rootID
		}
		if err := CheckIntegrity(root, comps, refs, !cfg.strict); err != nil {
			return withPath(err, "/components")
		}
		if _, err := AnalyzeTopology(root, comps, refs, TopologyOptions{RaiseOnOrphans: cfg.strict}); err != nil {
			return withPath(err, "/components")
		}
	}
	return CheckLimits(msg)
}

func withPath(err error, path string) error {
	var ve *ValidationError
	if errors.As(err, &ve) && ve.Path == "" {
		ve.Path = path
	}
	return err
}
