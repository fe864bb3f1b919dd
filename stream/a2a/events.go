package a2a

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tidwall/gjson"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// EventKind says what a client-to-server event reports.
type EventKind string

// Client event kinds. UserActionEvent is the v0.8 name of an action.
const (
	ActionEvent           EventKind = "action"
	UserActionEvent       EventKind = "userAction"
	ErrorEvent            EventKind = "error"
	FunctionResponseEvent EventKind = "functionResponse"
)

// ClientEvent is a client-to-server A2UI event decoded from a data part.
type ClientEvent struct {
	// Version is the event's protocol version; empty for v0.8 events, which
	// carry none.
	Version protocol.Version
	Kind    EventKind
	// Action is set for action (v0.9+) and userAction (v0.8) events.
	Action *Action
	// Error is set for error events.
	Error *ClientError
	// Raw is the event as received.
	Raw json.RawMessage
}

// Action reports a user-initiated action from a component.
type Action struct {
	Name              string
	SurfaceID         string
	SourceComponentID string
	Timestamp         time.Time
	// Context is the resolved action context, a JSON object.
	Context json.RawMessage
	// WantResponse and ActionID are v0.10+ fields.
	WantResponse bool
	ActionID     string
}

// ClientError reports a client-side error.
type ClientError struct {
	Code      string
	SurfaceID string
	// Path is the JSON pointer of a VALIDATION_FAILED error.
	Path           string
	Message        string
	FunctionCallID string
	// Raw is the error object, which may carry more fields.
	Raw json.RawMessage
}

// DecodeClientEvents decodes the client-to-server events that parts carry
// (see Messages), validating each against its version's rules. An event that
// breaks them is reported as an *EventError (joined with the others) and
// skipped; the valid events are returned in order.
func DecodeClientEvents(parts []Part) ([]ClientEvent, error) {
	msgs, perr := Messages(parts)
	var out []ClientEvent
	var errs []error
	if perr != nil {
		errs = append(errs, perr)
	}
	for i, m := range msgs {
		ev, err := DecodeClientEvent(m)
		if err != nil {
			errs = append(errs, &EventError{Index: i, Msg: err.(*EventError).Msg})
			continue
		}
		out = append(out, ev)
	}
	return out, errors.Join(errs...)
}

// DecodeClientEvent decodes and validates one client-to-server event: a v0.8
// event ({"userAction":…} or {"error":…}) or a v0.9+ event ({"version":…}
// with exactly one of action and error, or functionResponse from v0.10). A
// violation is an *EventError with Index 0.
func DecodeClientEvent(raw json.RawMessage) (ClientEvent, error) {
	r := gjson.ParseBytes(raw)
	if !r.IsObject() || !json.Valid(raw) {
		return ClientEvent{}, evErr("not a JSON object")
	}
	ev := ClientEvent{Raw: raw}
	keys := map[string]gjson.Result{}
	r.ForEach(func(k, v gjson.Result) bool { keys[k.String()] = v; return true })
	ver, hasVersion := keys["version"]
	if !hasVersion {
		return decodeV08(ev, keys)
	}
	if ver.Type != gjson.String {
		return ClientEvent{}, evErr("version is not a string")
	}
	v, err := protocol.ParseVersion(ver.String())
	if err != nil || v.Family() != protocol.FamilyV09 {
		return ClientEvent{}, evErr(fmt.Sprintf("unsupported version %q", ver.String()))
	}
	ev.Version = v
	if len(keys) != 2 {
		return ClientEvent{}, evErr("an event holds the version and exactly one of action, error or functionResponse")
	}
	v010 := v.Compare(protocol.V010) >= 0
	switch {
	case keys["action"].Exists():
		a, err := decodeAction(keys["action"], v010)
		if err != nil {
			return ClientEvent{}, err
		}
		ev.Kind, ev.Action = ActionEvent, a
	case keys["error"].Exists():
		e, err := decodeError(keys["error"], v010)
		if err != nil {
			return ClientEvent{}, err
		}
		ev.Kind, ev.Error = ErrorEvent, e
	case keys["functionResponse"].Exists() && v010:
		fr := keys["functionResponse"]
		if !fr.IsObject() || fr.Get("functionCallId").Type != gjson.String || fr.Get("call").Type != gjson.String || !fr.Get("value").Exists() {
			return ClientEvent{}, evErr("functionResponse needs functionCallId, call and value")
		}
		ev.Kind = FunctionResponseEvent
	default:
		return ClientEvent{}, evErr("no action or error")
	}
	return ev, nil
}

func decodeV08(ev ClientEvent, keys map[string]gjson.Result) (ClientEvent, error) {
	if len(keys) != 1 {
		return ClientEvent{}, evErr("a v0.8 event holds exactly one of userAction and error (or a v0.9+ event lacks its version)")
	}
	switch {
	case keys["userAction"].Exists():
		a, err := decodeAction(keys["userAction"], false)
		if err != nil {
			return ClientEvent{}, err
		}
		ev.Kind, ev.Action = UserActionEvent, a
	case keys["error"].Exists():
		e := keys["error"]
		if !e.IsObject() {
			return ClientEvent{}, evErr("error is not an object")
		}
		ev.Kind = ErrorEvent
		ev.Error = &ClientError{
			Code: e.Get("code").String(), SurfaceID: e.Get("surfaceId").String(),
			Message: e.Get("message").String(), Raw: json.RawMessage(e.Raw),
		}
	default:
		return ClientEvent{}, evErr("no userAction or error (a v0.9+ event needs a version)")
	}
	return ev, nil
}

func decodeAction(a gjson.Result, v010 bool) (*Action, error) {
	if !a.IsObject() {
		return nil, evErr("action is not an object")
	}
	var out Action
	for _, f := range []struct {
		key string
		dst *string
	}{{"name", &out.Name}, {"surfaceId", &out.SurfaceID}, {"sourceComponentId", &out.SourceComponentID}} {
		v := a.Get(f.key)
		if v.Type != gjson.String {
			return nil, evErr("action." + f.key + " must be a string")
		}
		*f.dst = v.String()
	}
	ts := a.Get("timestamp")
	if ts.Type != gjson.String {
		return nil, evErr("action.timestamp must be a string")
	}
	t, err := time.Parse(time.RFC3339Nano, ts.String())
	if err != nil {
		return nil, evErr(fmt.Sprintf("action.timestamp %q is not an RFC 3339 date-time", ts.String()))
	}
	out.Timestamp = t
	ctx := a.Get("context")
	if !ctx.IsObject() {
		return nil, evErr("action.context must be an object")
	}
	out.Context = json.RawMessage(ctx.Raw)
	if v010 {
		if w := a.Get("wantResponse"); w.Exists() {
			if !w.IsBool() {
				return nil, evErr("action.wantResponse must be a boolean")
			}
			out.WantResponse = w.Bool()
		}
		if id := a.Get("actionId"); id.Exists() {
			if id.Type != gjson.String {
				return nil, evErr("action.actionId must be a string")
			}
			out.ActionID = id.String()
		}
	}
	return &out, nil
}

func decodeError(e gjson.Result, v010 bool) (*ClientError, error) {
	if !e.IsObject() {
		return nil, evErr("error is not an object")
	}
	out := ClientError{Raw: json.RawMessage(e.Raw)}
	str := func(k string, required bool) (string, error) {
		v := e.Get(k)
		if !v.Exists() {
			if required {
				return "", evErr("error." + k + " is required")
			}
			return "", nil
		}
		if v.Type != gjson.String {
			return "", evErr("error." + k + " must be a string")
		}
		return v.String(), nil
	}
	var err error
	if out.Code, err = str("code", true); err != nil {
		return nil, err
	}
	if out.Message, err = str("message", true); err != nil {
		return nil, err
	}
	if out.SurfaceID, err = str("surfaceId", !v010); err != nil {
		return nil, err
	}
	if out.FunctionCallID, err = str("functionCallId", false); err != nil {
		return nil, err
	}
	if v010 && e.Get("surfaceId").Exists() == e.Get("functionCallId").Exists() {
		return nil, evErr("error needs exactly one of surfaceId and functionCallId")
	}
	if out.Code == "VALIDATION_FAILED" {
		if out.Path, err = str("path", true); err != nil {
			return nil, err
		}
		if !e.Get("surfaceId").Exists() {
			return nil, evErr("error.surfaceId is required for VALIDATION_FAILED")
		}
		bad := ""
		e.ForEach(func(k, _ gjson.Result) bool {
			switch k.String() {
			case "code", "surfaceId", "path", "message":
				return true
			}
			bad = k.String()
			return false
		})
		if bad != "" {
			return nil, evErr(fmt.Sprintf("error.%s is not allowed in a VALIDATION_FAILED error", bad))
		}
	}
	return &out, nil
}

func evErr(msg string) error { return &EventError{Msg: msg} }
