package sinks

import "bytes"

// hasLineBreak reports whether b holds a '\n' or '\r'.
func hasLineBreak(b []byte) bool {
	return bytes.IndexByte(b, '\n') >= 0 || bytes.IndexByte(b, '\r') >= 0
}

// checkLine checks that e's Line fits on one line: not empty, no line
// break (a line break would split a JSONL record or an SSE data field).
func checkLine(sink string, e Event) error {
	switch {
	case len(e.Line) == 0:
		return &EventError{Sink: sink, Session: e.Session, Seq: e.Seq, Field: "line", Reason: "is empty"}
	case hasLineBreak(e.Line):
		return &EventError{Sink: sink, Session: e.Session, Seq: e.Seq, Field: "line", Reason: "holds a line break"}
	}
	return nil
}

// checkEvent checks what the NATS and SSE sinks write besides the line:
// a non-zero Seq and a Kind fit for a header or an SSE field.
func checkEvent(sink string, e Event) error {
	if err := checkLine(sink, e); err != nil {
		return err
	}
	if e.Seq == 0 {
		return &EventError{Sink: sink, Session: e.Session, Seq: e.Seq, Field: "seq", Reason: "is zero (events count from 1)"}
	}
	if e.Kind == "" {
		return &EventError{Sink: sink, Session: e.Session, Seq: e.Seq, Field: "kind", Reason: "is empty"}
	}
	for i := 0; i < len(e.Kind); i++ {
		if c := e.Kind[i]; c < 0x20 || c == 0x7f {
			return &EventError{Sink: sink, Session: e.Session, Seq: e.Seq, Field: "kind", Reason: "holds a control byte"}
		}
	}
	return nil
}
