package processor

import (
	"encoding/json"
	"strings"

	"github.com/a2ui-stream/a2ui-stream/internal/protocoltape"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// apply validates and applies one message. On failure the state is exactly
// as before. msg must be a string the processor may keep (it is:
// ProcessListFrom copies the caller's bytes).
func (p *Processor) apply(msg, agent string, t *tracker) (protocol.Kind, string, *MessageError) {
	env, merr := decodeEnvelope(&p.tp, msg)
	if merr != nil {
		return env.kind, env.surfaceID, merr
	}
	if merr := p.checkSchema(msg, &env); merr != nil {
		return env.kind, env.surfaceID, merr
	}
	switch env.kind {
	case protocol.KindCreateSurface:
		merr = p.createSurface(&env, agent, t)
	case protocol.KindUpdateComponents:
		merr = p.updateComponents(&env, t)
	case protocol.KindUpdateDataModel:
		merr = p.updateDataModel(&env, t)
	case protocol.KindDeleteSurface:
		merr = p.deleteSurface(&env, t)
	case protocol.KindBeginRendering:
		merr = p.beginRendering(&env, agent, t)
	case protocol.KindSurfaceUpdate:
		merr = p.surfaceUpdate(&env, agent, t)
	case protocol.KindDataModelUpdate:
		merr = p.dataModelUpdate(&env, agent, t)
	}
	return env.kind, env.surfaceID, merr
}

// checkSchema validates a message against its catalog's JSON Schema and
// the protocol's limits, when catalogs are configured.
func (p *Processor) checkSchema(msg string, env *envelope) *MessageError {
	if len(p.opts.catalogs) == 0 {
		return nil
	}
	catalogID := ""
	if s, ok := p.surfaces[env.surfaceID]; ok {
		catalogID = s.catalogID
	} else if env.kind == protocol.KindCreateSurface || env.kind == protocol.KindBeginRendering {
		if c, ok, _ := env.getString("catalogId"); ok {
			catalogID = c
		}
	}
	c := p.catalogFor(env.family, catalogID)
	if c == nil {
		return fail("", ErrUnknownCatalog, "no catalog is configured for %s messages", env.family)
	}
	// The message is already on the processor's tape (decodeEnvelope
	// parsed it): the fast check reads the same tokens.
	if protocoltape.ValidTape(c, env.tp) {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(msg))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return fail("", ErrInvalidMessage, "message is not valid JSON")
	}
	if err := c.ValidateSchema([]any{v}); err != nil {
		return &MessageError{Err: firstValidationError(err)}
	}
	if err := protocol.CheckLimits(v); err != nil {
		return &MessageError{Err: firstValidationError(err)}
	}
	return nil
}

// firstValidationError reduces a protocol error list to its first entry.
func firstValidationError(err error) error {
	if list := protocol.AsValidationErrors(err); len(list) > 0 {
		return list[0]
	}
	return err
}
