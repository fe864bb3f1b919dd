package metrics

import (
	"github.com/a2ui-stream/a2ui-stream/protocol"
	"github.com/a2ui-stream/a2ui-stream/sinks"
	"github.com/a2ui-stream/a2ui-stream/stream"
)

// Other is the label value every value outside a label's known set is
// counted under, so that no input can grow the number of series.
const Other = "other"

// MessageKinds are the known values of messages_total's kind label: the
// message kinds of every supported protocol version.
var MessageKinds = []string{
	string(protocol.KindCreateSurface),
	string(protocol.KindUpdateComponents),
	string(protocol.KindUpdateDataModel),
	string(protocol.KindDeleteSurface),
	string(protocol.KindBeginRendering),
	string(protocol.KindSurfaceUpdate),
	string(protocol.KindDataModelUpdate),
	"callFunction",
	"actionResponse",
}

// FailureReasons are the known values of message_failures_total's reason
// label: the protocol's error codes.
var FailureReasons = []string{protocol.CodeValidationFailed}

// EventKinds are the known values of events_published_total's kind label.
var EventKinds = []string{
	string(sinks.KindText),
	string(sinks.KindBatch),
	string(sinks.KindError),
	string(sinks.KindEnd),
}

// EndReasons are the known values of sessions_ended_total's reason label.
var EndReasons = []string{stream.EndClosed, stream.EndIdle, stream.EndEvicted, stream.EndShutdown, stream.EndReset}

// DefaultListeners are the known values of http_rejected_total's listener
// label (the A2A endpoint, the one listener that reports rejections);
// WithListeners adds more.
var DefaultListeners = []string{"a2a"}

// DefaultRejectReasons are the known values of http_rejected_total's
// reason label: the HTTP-level reasons the A2A endpoint reports (its
// JSON-RPC ones are added with WithRejectReasons(a2a.RejectReasons...),
// as a2ui-stream a2a does); WithRejectReasons adds more.
var DefaultRejectReasons = []string{
	"bad_request",
	"unauthorized",
	"method_not_allowed",
	"body_too_large",
	"read_timeout",
}

// labelSet maps each known value of a label to itself and clamps every
// other value to Other. It is built once and only read afterwards.
type labelSet map[string]struct{}

func newLabelSet(values ...[]string) labelSet {
	s := labelSet{Other: {}}
	for _, vs := range values {
		for _, v := range vs {
			s[v] = struct{}{}
		}
	}
	return s
}

// clamp returns v if it is known, Other otherwise.
func (s labelSet) clamp(v string) string {
	if _, ok := s[v]; ok {
		return v
	}
	return Other
}
