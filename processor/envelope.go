package processor

import (
	"errors"

	"github.com/a2ui-stream/a2ui-stream/internal/jsontape"
	"github.com/a2ui-stream/a2ui-stream/internal/protocoltape"
	"github.com/a2ui-stream/a2ui-stream/protocol"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// Message kinds added after v0.9; recognised, not applied.
const (
	kindCallFunction   protocol.Kind = "callFunction"
	kindActionResponse protocol.Kind = "actionResponse"
)

// envelope is a message's outer object, decoded.
type envelope struct {
	tp        *jsontape.Tape
	kind      protocol.Kind
	family    protocol.Family
	version   protocol.Version
	body      int // token of the body object
	surfaceID string

	// The body's properties, read in one pass.
	names [4]string
	vals  [4]int
	n     int
}

// get returns a body property's token, or -1 when absent.
func (e *envelope) get(name string) int {
	for i := 0; i < e.n; i++ {
		if e.names[i] == name {
			return e.vals[i]
		}
	}
	return -1
}

// getString returns a body property that must be a non-empty string when
// present; ok is false when it is absent.
func (e *envelope) getString(name string) (s string, ok bool, merr *MessageError) {
	t := e.get(name)
	if t < 0 {
		return "", false, nil
	}
	if !e.tp.IsString(t) {
		return "", true, fail("/"+name, ErrInvalidMessage, "%s must be a non-empty string", name)
	}
	if s = e.tp.Str(t); s == "" {
		return "", true, fail("/"+name, ErrInvalidMessage, "%s must be a non-empty string", name)
	}
	return s, true, nil
}

func isKind(k string) bool {
	switch protocol.Kind(k) {
	case protocol.KindCreateSurface, protocol.KindUpdateComponents, protocol.KindUpdateDataModel,
		protocol.KindDeleteSurface, protocol.KindBeginRendering, protocol.KindSurfaceUpdate,
		protocol.KindDataModelUpdate, kindCallFunction, kindActionResponse:
		return true
	}
	return false
}

// bodyKeys lists the properties each kind's body may have (the message
// schemas are closed: additionalProperties is false).
func bodyKeys(k protocol.Kind) []string {
	switch k {
	case protocol.KindCreateSurface:
		return []string{"surfaceId", "catalogId", "theme", "sendDataModel"}
	case protocol.KindUpdateComponents, protocol.KindSurfaceUpdate:
		return []string{"surfaceId", "components"}
	case protocol.KindUpdateDataModel:
		return []string{"surfaceId", "path", "value"}
	case protocol.KindBeginRendering:
		return []string{"surfaceId", "catalogId", "root", "styles"}
	case protocol.KindDataModelUpdate:
		return []string{"surfaceId", "path", "contents"}
	}
	return []string{"surfaceId"}
}

// readBody reads the body's properties, failing on one the kind does not
// allow. A repeated property keeps its last value.
func (e *envelope) readBody() *MessageError {
	allowed := bodyKeys(e.kind)
	var ferr *MessageError
	e.tp.Members(e.body)(func(k string, v int) bool {
		for _, a := range allowed {
			if k == a {
				j := 0
				for j < e.n && e.names[j] != a {
					j++
				}
				e.names[j], e.vals[j] = a, v
				if j == e.n {
					e.n++
				}
				return true
			}
		}
		ferr = fail("/"+jsonwire.EscapePointerToken(k), ErrInvalidMessage, "unknown property %q", k)
		return false
	})
	return ferr
}

// decodeEnvelope parses a message onto tp and checks its outer structure:
// valid JSON no deeper than the protocol allows, an object with exactly
// one kind key, a version that fits the kind, and a body object with only
// the kind's properties and a non-empty string surfaceId.
func decodeEnvelope(tp *jsontape.Tape, msg string) (envelope, *MessageError) {
	env := envelope{tp: tp, body: -1}
	if err := protocoltape.Parse(tp, msg); err != nil {
		var se *protocol.JSONSyntaxError
		if errors.As(err, &se) {
			return env, fail("", ErrInvalidMessage, "message is not valid JSON: offset %d: %s", se.Offset, se.Reason)
		}
		return env, &MessageError{Err: err}
	}
	if !tp.IsObject(0) {
		return env, fail("", ErrInvalidMessage, "message must be a JSON object")
	}
	var (
		ferr     *MessageError
		verTok   = -1
		extraKey string
	)
	tp.Members(0)(func(key string, v int) bool {
		switch {
		case key == "version":
			verTok = v
		case isKind(key):
			if env.kind != "" {
				ferr = fail("", ErrInvalidMessage, "message has more than one kind: %s and %s", env.kind, key)
				return false
			}
			env.kind, env.body = protocol.Kind(key), v
		case key == "functionCallId" || key == "wantResponse" || key == "actionId":
			extraKey = key // v0.10 envelope fields of callFunction / actionResponse
		default:
			ferr = fail("", ErrInvalidMessage, "unknown message property %q", key)
			return false
		}
		return true
	})
	if ferr != nil {
		return env, ferr
	}
	if env.kind == "" {
		return env, fail("", ErrInvalidMessage, "message has no kind (expected one of createSurface, updateComponents, updateDataModel, deleteSurface, beginRendering, surfaceUpdate, dataModelUpdate)")
	}
	verText := ""
	if verTok >= 0 {
		if !tp.IsString(verTok) {
			return env, fail("", ErrInvalidMessage, "version must be a string")
		}
		verText = tp.Str(verTok)
		v, err := protocol.ParseVersion(verText)
		if err != nil {
			return env, fail("", ErrVersion, "malformed version %q", verText)
		}
		env.version = v
	}
	var bodyErr *MessageError
	if tp.IsObject(env.body) {
		bodyErr = env.readBody()
		if t := env.get("surfaceId"); tp.IsString(t) {
			env.surfaceID = tp.Str(t)
		}
	}

	switch env.kind {
	case kindCallFunction, kindActionResponse:
		return env, fail("", ErrUnsupported, "%s (added in v0.10) is not supported", env.kind)
	case protocol.KindCreateSurface, protocol.KindUpdateComponents, protocol.KindUpdateDataModel:
		if verTok < 0 {
			return env, fail("", ErrInvalidMessage, "version is required for %s", env.kind)
		}
		if env.version.Family() != protocol.FamilyV09 {
			return env, fail("", ErrVersion, "%s is a v0.9 message but version is %q", env.kind, verText)
		}
		env.family = protocol.FamilyV09
	case protocol.KindBeginRendering, protocol.KindSurfaceUpdate, protocol.KindDataModelUpdate:
		if verTok >= 0 && env.version.Family() != protocol.FamilyV08 {
			return env, fail("", ErrVersion, "%s is a v0.8 message but version is %q", env.kind, verText)
		}
		env.family = protocol.FamilyV08
	case protocol.KindDeleteSurface:
		env.family = protocol.FamilyV08
		if verTok >= 0 {
			env.family = env.version.Family()
		}
	}
	if extraKey != "" {
		return env, fail("", ErrInvalidMessage, "unknown message property %q", extraKey)
	}
	if !tp.IsObject(env.body) {
		return env, fail("", ErrInvalidMessage, "%s must be an object", env.kind)
	}
	if bodyErr != nil {
		return env, bodyErr
	}
	sid := env.get("surfaceId")
	if sid < 0 {
		return env, fail("/surfaceId", ErrInvalidMessage, "surfaceId is required")
	}
	if !tp.IsString(sid) || env.surfaceID == "" {
		return env, fail("/surfaceId", ErrInvalidMessage, "surfaceId must be a non-empty string")
	}
	return env, nil
}
