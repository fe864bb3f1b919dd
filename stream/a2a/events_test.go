package a2a

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

func TestDecodeClientEvent(t *testing.T) {
	const act = `{"name":"submit","surfaceId":"s","sourceComponentId":"b","timestamp":"2026-01-15T12:00:00Z","context":{"email":"e"}}`
	tests := []struct {
		name    string
		in      string
		kind    EventKind
		version protocol.Version
		wantErr bool
	}{
		{name: "v0.9.1 action", in: `{"version":"v0.9.1","action":` + act + `}`, kind: ActionEvent, version: "0.9.1"},
		{name: "v0.9 action", in: `{"version":"v0.9","action":` + act + `}`, kind: ActionEvent, version: "0.9"},
		{name: "v0.8 userAction", in: `{"userAction":` + act + `}`, kind: UserActionEvent},
		{name: "v0.8 free-form error", in: `{"error":{"anything":1}}`, kind: ErrorEvent},
		{name: "v0.9 generic error", in: `{"version":"v0.9","error":{"code":"BOOM","surfaceId":"s","message":"m","extra":1}}`, kind: ErrorEvent, version: "0.9"},
		{name: "v0.9 validation error", in: `{"version":"v0.9","error":{"code":"VALIDATION_FAILED","surfaceId":"s","path":"/a","message":"m"}}`, kind: ErrorEvent, version: "0.9"},
		{name: "v0.10 error with functionCallId", in: `{"version":"v0.10","error":{"code":"X","functionCallId":"f","message":"m"}}`, kind: ErrorEvent, version: "0.10"},
		{name: "v0.10 action with wantResponse", in: `{"version":"v0.10","action":{"name":"n","surfaceId":"s","sourceComponentId":"c","timestamp":"2026-01-15T12:00:00.5+01:00","context":{},"wantResponse":true,"actionId":"a1"}}`, kind: ActionEvent, version: "0.10"},
		{name: "v0.10 functionResponse", in: `{"version":"v0.10","functionResponse":{"functionCallId":"f","call":"c","value":null}}`, kind: FunctionResponseEvent, version: "0.10"},
		{name: "functionResponse before v0.10", in: `{"version":"v0.9","functionResponse":{"functionCallId":"f","call":"c","value":1}}`, wantErr: true},
		{name: "v0.9 event without version", in: `{"action":` + act + `}`, wantErr: true},
		{name: "v0.8 userAction with version", in: `{"version":"v0.9","userAction":` + act + `}`, wantErr: true},
		{name: "both action and error", in: `{"version":"v0.9","action":` + act + `,"error":{}}`, wantErr: true},
		{name: "v0.8 version in v0.9 envelope", in: `{"version":"v0.8","action":` + act + `}`, wantErr: true},
		{name: "version not a string", in: `{"version":0.9,"action":` + act + `}`, wantErr: true},
		{name: "action missing context", in: `{"version":"v0.9","action":{"name":"n","surfaceId":"s","sourceComponentId":"c","timestamp":"2026-01-15T12:00:00Z"}}`, wantErr: true},
		{name: "action context not an object", in: `{"version":"v0.9","action":{"name":"n","surfaceId":"s","sourceComponentId":"c","timestamp":"2026-01-15T12:00:00Z","context":[]}}`, wantErr: true},
		{name: "action bad timestamp", in: `{"version":"v0.9","action":{"name":"n","surfaceId":"s","sourceComponentId":"c","timestamp":"yesterday","context":{}}}`, wantErr: true},
		{name: "action name not a string", in: `{"version":"v0.9","action":{"name":1,"surfaceId":"s","sourceComponentId":"c","timestamp":"2026-01-15T12:00:00Z","context":{}}}`, wantErr: true},
		{name: "v0.10 wantResponse not a bool", in: `{"version":"v0.10","action":{"name":"n","surfaceId":"s","sourceComponentId":"c","timestamp":"2026-01-15T12:00:00Z","context":{},"wantResponse":"yes"}}`, wantErr: true},
		{name: "v0.9 error missing surfaceId", in: `{"version":"v0.9","error":{"code":"X","message":"m"}}`, wantErr: true},
		{name: "validation error missing path", in: `{"version":"v0.9","error":{"code":"VALIDATION_FAILED","surfaceId":"s","message":"m"}}`, wantErr: true},
		{name: "validation error extra field", in: `{"version":"v0.9","error":{"code":"VALIDATION_FAILED","surfaceId":"s","path":"/","message":"m","x":1}}`, wantErr: true},
		{name: "v0.10 error with both ids", in: `{"version":"v0.10","error":{"code":"X","surfaceId":"s","functionCallId":"f","message":"m"}}`, wantErr: true},
		{name: "v0.10 error with neither id", in: `{"version":"v0.10","error":{"code":"X","message":"m"}}`, wantErr: true},
		{name: "v0.8 two keys", in: `{"userAction":` + act + `,"error":{}}`, wantErr: true},
		{name: "not an object", in: `[]`, wantErr: true},
		{name: "broken JSON", in: `{"version":`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := DecodeClientEvent(json.RawMessage(tt.in))
			if tt.wantErr {
				var ee *EventError
				if !errors.As(err, &ee) || !errors.Is(err, ErrInvalidEvent) {
					t.Fatalf("err = %v, want an *EventError", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ev.Kind != tt.kind || ev.Version != tt.version {
				t.Errorf("got kind %q version %q", ev.Kind, ev.Version)
			}
			switch ev.Kind {
			case ActionEvent, UserActionEvent:
				if ev.Action == nil || ev.Action.Name == "" || ev.Action.Timestamp.IsZero() || len(ev.Action.Context) == 0 {
					t.Errorf("action not decoded: %+v", ev.Action)
				}
			case ErrorEvent:
				if ev.Error == nil || len(ev.Error.Raw) == 0 {
					t.Errorf("error not decoded: %+v", ev.Error)
				}
			}
		})
	}
}

func TestDecodeClientEventFields(t *testing.T) {
	ev, err := DecodeClientEvent(json.RawMessage(`{"version":"v0.10","action":{"name":"submit","surfaceId":"s1","sourceComponentId":"b1","timestamp":"2026-01-15T12:00:00Z","context":{"k":"v"},"wantResponse":true,"actionId":"a7"}}`))
	if err != nil {
		t.Fatal(err)
	}
	a := ev.Action
	if a.Name != "submit" || a.SurfaceID != "s1" || a.SourceComponentID != "b1" || string(a.Context) != `{"k":"v"}` || !a.WantResponse || a.ActionID != "a7" || a.Timestamp.Year() != 2026 {
		t.Errorf("got %+v", a)
	}
}

func TestDecodeClientEvents(t *testing.T) {
	parts, err := ParseParts([]byte(`[
		{"kind":"text","text":"ignored"},
		{"kind":"data","data":[{"version":"v0.9.1","action":{"name":"a","surfaceId":"s","sourceComponentId":"c","timestamp":"2026-01-15T12:00:00Z","context":{}}},{"version":"v0.9.1","bogus":{}}],"metadata":{"mimeType":"application/a2ui+json"}},
		{"data":{"value":[{"version":"v0.9.1","error":{"code":"X","surfaceId":"s","message":"m"}}]},"mediaType":"application/a2ui+json"}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	evs, err := DecodeClientEvents(parts)
	var ee *EventError
	if !errors.As(err, &ee) || ee.Index != 1 {
		t.Fatalf("err = %v, want an *EventError at index 1", err)
	}
	if len(evs) != 2 || evs[0].Kind != ActionEvent || evs[1].Kind != ErrorEvent {
		t.Errorf("events = %+v", evs)
	}
}
