package a2a

import (
	"encoding/json"
	"time"
)

// Dialect is the A2A protocol version a request speaks.
type Dialect int

const (
	// A2A10 is A2A 1.0: methods SendMessage and SendStreamingMessage,
	// results wrapped by type ({"message":…}, {"statusUpdate":…}), enum
	// names such as ROLE_AGENT and TASK_STATE_COMPLETED, parts in ShapeV10.
	A2A10 Dialect = iota + 1
	// A2A03 is A2A 0.3: methods message/send and message/stream, results
	// and parts discriminated by "kind", lower-case enums, parts in ShapeV03.
	A2A03
)

func (d Dialect) String() string {
	switch d {
	case A2A10:
		return "1.0"
	case A2A03:
		return "0.3"
	}
	return "unknown"
}

// Shape is the part shape of the dialect.
func (d Dialect) Shape() Shape {
	if d == A2A10 {
		return ShapeV10
	}
	return ShapeV03
}

// methods maps JSON-RPC method names to their dialect and whether they stream.
var methods = map[string]struct {
	dialect Dialect
	stream  bool
}{
	"SendMessage":          {A2A10, false},
	"SendStreamingMessage": {A2A10, true},
	"message/send":         {A2A03, false},
	"message/stream":       {A2A03, true},
}

// unserved maps the A2A methods (both dialects) that the endpoint knows but
// does not serve to the A2A error it answers them with. Replies are not
// stored, so no task can be found again.
var unserved = map[string]*RPCError{}

func init() {
	for code, names := range map[int][]string{
		CodeTaskNotFound: {"GetTask", "tasks/get", "CancelTask", "tasks/cancel", "SubscribeToTask", "tasks/resubscribe"},
		CodePushNotificationNotSupported: {"CreateTaskPushNotificationConfig", "GetTaskPushNotificationConfig",
			"ListTaskPushNotificationConfigs", "DeleteTaskPushNotificationConfig", "tasks/pushNotificationConfig/set",
			"tasks/pushNotificationConfig/get", "tasks/pushNotificationConfig/list", "tasks/pushNotificationConfig/delete"},
		CodeUnsupportedOperation:      {"ListTasks"},
		CodeExtendedCardNotConfigured: {"GetExtendedAgentCard", "agent/getAuthenticatedExtendedCard"},
	} {
		msg := map[int]string{
			CodeTaskNotFound:                 "Task not found: this agent does not keep tasks",
			CodePushNotificationNotSupported: "Push notifications are not supported",
			CodeUnsupportedOperation:         "This operation is not supported",
			CodeExtendedCardNotConfigured:    "No extended agent card is configured",
		}[code]
		for _, n := range names {
			unserved[n] = &RPCError{Code: code, Message: msg}
		}
	}
}

// taskState is a task state in dialect-neutral form.
type taskState int

const (
	stateWorking taskState = iota
	stateCompleted
	stateFailed
	stateCanceled
)

func (s taskState) name(d Dialect) string {
	v10 := [...]string{"TASK_STATE_WORKING", "TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED"}
	v03 := [...]string{"working", "completed", "failed", "canceled"}
	if d == A2A10 {
		return v10[s]
	}
	return v03[s]
}

// wireMessage is an agent message in either dialect.
type wireMessage struct {
	Kind      string `json:"kind,omitempty"`
	MessageID string `json:"messageId"`
	ContextID string `json:"contextId,omitempty"`
	TaskID    string `json:"taskId,omitempty"`
	Role      string `json:"role"`
	Parts     []Part `json:"parts"`
}

func agentMessage(d Dialect, contextID, taskID string, parts []Part) wireMessage {
	m := wireMessage{MessageID: newID(), ContextID: contextID, TaskID: taskID, Role: "ROLE_AGENT", Parts: parts}
	if m.Parts == nil {
		m.Parts = []Part{}
	}
	if d == A2A03 {
		m.Kind, m.Role = "message", "agent"
	}
	return m
}

type wireStatus struct {
	State     string       `json:"state"`
	Message   *wireMessage `json:"message,omitempty"`
	Timestamp string       `json:"timestamp"`
}

// timestampLayout is the A2A 1.0 timestamp form: UTC, millisecond precision
// (also valid RFC 3339 for A2A 0.3).
const timestampLayout = "2006-01-02T15:04:05.000Z"

func status(d Dialect, s taskState, msg *wireMessage) wireStatus {
	return wireStatus{State: s.name(d), Message: msg, Timestamp: time.Now().UTC().Format(timestampLayout)}
}

// wrap returns the dialect's result for an object of a type: {"<type>":v} in
// A2A 1.0, v with "kind" set in A2A 0.3 (v must then carry a Kind field).
func wrap(d Dialect, typ10 string, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if d == A2A03 {
		return b, nil
	}
	return json.Marshal(map[string]json.RawMessage{typ10: b})
}

// messageResult is the result of a non-streaming send.
func messageResult(d Dialect, m wireMessage) ([]byte, error) { return wrap(d, "message", m) }

type wireTask struct {
	Kind      string     `json:"kind,omitempty"`
	ID        string     `json:"id"`
	ContextID string     `json:"contextId"`
	Status    wireStatus `json:"status"`
}

func taskEvent(d Dialect, taskID, contextID string) ([]byte, error) {
	t := wireTask{ID: taskID, ContextID: contextID, Status: status(d, stateWorking, nil)}
	if d == A2A03 {
		t.Kind = "task"
	}
	return wrap(d, "task", t)
}

type wireStatusUpdate struct {
	Kind      string     `json:"kind,omitempty"`
	TaskID    string     `json:"taskId"`
	ContextID string     `json:"contextId"`
	Status    wireStatus `json:"status"`
	Final     *bool      `json:"final,omitempty"`
}

func statusUpdateEvent(d Dialect, taskID, contextID string, s taskState, msg *wireMessage, final bool) ([]byte, error) {
	u := wireStatusUpdate{TaskID: taskID, ContextID: contextID, Status: status(d, s, msg)}
	if d == A2A03 {
		u.Kind = "status-update"
		u.Final = &final
	}
	return wrap(d, "statusUpdate", u)
}

type wireArtifact struct {
	ArtifactID string `json:"artifactId"`
	Parts      []Part `json:"parts"`
}

type wireArtifactUpdate struct {
	Kind      string       `json:"kind,omitempty"`
	TaskID    string       `json:"taskId"`
	ContextID string       `json:"contextId"`
	Artifact  wireArtifact `json:"artifact"`
	Append    bool         `json:"append"`
	LastChunk bool         `json:"lastChunk"`
}

func artifactUpdateEvent(d Dialect, taskID, contextID, artifactID string, parts []Part, appendTo, last bool) ([]byte, error) {
	u := wireArtifactUpdate{TaskID: taskID, ContextID: contextID,
		Artifact: wireArtifact{ArtifactID: artifactID, Parts: parts}, Append: appendTo, LastChunk: last}
	if d == A2A03 {
		u.Kind = "artifact-update"
	}
	return wrap(d, "artifactUpdate", u)
}
