package processor

import (
	"github.com/tidwall/gjson"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// Message kinds added after v0.9; recognised, not applied.
const (
	kindCallFunction   protocol.Kind = "callFunction"
	kindActionResponse protocol.Kind = "actionResponse"
)

// envelope is a message's outer object, decoded.
type envelope struct {
	kind      protocol.Kind
	family    protocol.Family
	version   protocol.Version
	body      gjson.Result
	surfaceID string
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

// decodeEnvelope checks a message's outer structure: a JSON object, no
// deeper than the protocol allows, with exactly one kind key, a version
// that fits the kind, and a body object with a string surfaceId.
func decodeEnvelope(msg string) (envelope, *MessageError) {
	var env envelope
	if !gjson.Valid(msg) {
		return env, fail("", ErrInvalidMessage, "message is not valid JSON")
	}
	if err := checkDepth(msg); err != nil {
		return env, &MessageError{Err: err}
	}
	top := gjson.Parse(msg)
	if !top.IsObject() {
		return env, fail("", ErrInvalidMessage, "message must be a JSON object")
	}
	var (
		ferr       *MessageError
		versionRaw gjson.Result
		haveVer    bool
	)
	top.ForEach(func(k, v gjson.Result) bool {
		key := k.Str
		switch {
		case key == "version":
			versionRaw, haveVer = v, true
		case isKind(key):
			if env.kind != "" {
				ferr = fail("", ErrInvalidMessage, "message has more than one kind: %s and %s", env.kind, key)
				return false
			}
			env.kind, env.body = protocol.Kind(key), v
		case key == "functionCallId" || key == "wantResponse" || key == "actionId":
			// v0.10 envelope fields of callFunction / actionResponse.
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
	if haveVer {
		if versionRaw.Type != gjson.String {
			return env, fail("", ErrInvalidMessage, "version must be a string")
		}
		v, err := protocol.ParseVersion(versionRaw.Str)
		if err != nil {
			return env, fail("", ErrVersion, "malformed version %q", versionRaw.Str)
		}
		env.version = v
	}
	if env.body.IsObject() {
		if sid := env.body.Get("surfaceId"); sid.Type == gjson.String {
			env.surfaceID = sid.Str
		}
	}

	switch env.kind {
	case kindCallFunction, kindActionResponse:
		return env, fail("", ErrUnsupported, "%s (added in v0.10) is not supported", env.kind)
	case protocol.KindCreateSurface, protocol.KindUpdateComponents, protocol.KindUpdateDataModel:
		if !haveVer {
			return env, fail("", ErrInvalidMessage, "version is required for %s", env.kind)
		}
		if env.version.Family() != protocol.FamilyV09 {
			return env, fail("", ErrVersion, "%s is a v0.9 message but version is %q", env.kind, versionRaw.Str)
		}
		env.family = protocol.FamilyV09
	case protocol.KindBeginRendering, protocol.KindSurfaceUpdate, protocol.KindDataModelUpdate:
		if haveVer && env.version.Family() != protocol.FamilyV08 {
			return env, fail("", ErrVersion, "%s is a v0.8 message but version is %q", env.kind, versionRaw.Str)
		}
		env.family = protocol.FamilyV08
	case protocol.KindDeleteSurface:
		env.family = protocol.FamilyV08
		if haveVer {
			env.family = env.version.Family()
		}
	}
	if !env.body.IsObject() {
		return env, fail("", ErrInvalidMessage, "%s must be an object", env.kind)
	}
	sid := env.body.Get("surfaceId")
	if !sid.Exists() {
		return env, fail("/surfaceId", ErrInvalidMessage, "surfaceId is required")
	}
	if sid.Type != gjson.String || sid.Str == "" {
		return env, fail("/surfaceId", ErrInvalidMessage, "surfaceId must be a non-empty string")
	}
	return env, nil
}

// checkDepth enforces the protocol's nesting limit on the raw message: no
// value may sit more than protocol.MaxComponentDepth levels below the
// message object (the reference validator's global recursion limit). It
// assumes msg is valid JSON.
func checkDepth(msg string) error {
	const limit = protocol.MaxComponentDepth
	depth := 0 // open containers
	var inObj [limit + 2]bool
	expectKey := false
	for i := 0; i < len(msg); i++ {
		c := msg[i]
		switch c {
		case ' ', '\t', '\n', '\r', ':', ']', '}':
			if c == ']' || c == '}' {
				depth--
				expectKey = false
			}
			continue
		case ',':
			expectKey = depth > 0 && inObj[depth]
			continue
		}
		// A key, or a value with depth containers around it (the message
		// object itself is at depth 0).
		isKey := expectKey
		expectKey = false
		if !isKey && depth > limit {
			return depthErr()
		}
		switch c {
		case '"':
			for i++; i < len(msg) && msg[i] != '"'; i++ {
				if msg[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
			inObj[depth] = c == '{'
			expectKey = c == '{'
		default:
			// number or literal: skip to its end
			for i+1 < len(msg) {
				switch msg[i+1] {
				case ',', ']', '}', ' ', '\t', '\n', '\r':
					goto done
				}
				i++
			}
		done:
		}
	}
	return nil
}

func depthErr() error {
	return &protocol.ValidationError{
		MessageIndex: -1,
		Message:      "Global recursion limit exceeded: Depth > 50",
		Kind:         protocol.ErrRecursionLimit,
	}
}
