package sinks

import (
	"bufio"
	"context"
	"strconv"
	"strings"
	"sync"

	"github.com/nats-io/nats.go"
)

// ev returns event seq of session s1: a text event, or an end event.
func ev(seq uint64) Event { return evOf("s1", seq, KindText) }

// evOf returns an event of the given session and kind whose line names
// them.
func evOf(session string, seq uint64, kind Kind) Event {
	line := `{"event":"` + string(kind) + `","session":` + strconv.Quote(session) + `,"seq":` + strconv.FormatUint(seq, 10) + `}`
	return Event{Session: session, Seq: seq, Kind: kind, Line: []byte(line)}
}

// fakePublisher records what it publishes.
type fakePublisher struct {
	mu      sync.Mutex
	msgs    []*nats.Msg
	flushed int
	err     error
}

func (f *fakePublisher) PublishMsg(_ context.Context, m *nats.Msg) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return f.err
	}
	cp := *m
	cp.Data = append([]byte(nil), m.Data...)
	f.msgs = append(f.msgs, &cp)
	return nil
}

func (f *fakePublisher) FlushWithContext(context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.flushed++
	return nil
}

func (f *fakePublisher) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.msgs)
}

// sseMsg is one message of an event stream, or a comment.
type sseMsg struct {
	id, event, data, comment string
}

// readSSE reads the next message (the lines up to a blank line) from r.
func readSSE(r *bufio.Reader) (sseMsg, error) {
	var m sseMsg
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return m, err
		}
		line = strings.TrimSuffix(line, "\n")
		if line == "" {
			return m, nil
		}
		name, value, _ := strings.Cut(line, ": ")
		switch name {
		case "id":
			m.id = value
		case "event":
			m.event = value
		case "data":
			m.data = value
		case "":
			m.comment = value
		}
	}
}

// msgOf is the message the SSE sink makes of e.
func msgOf(e Event) sseMsg {
	return sseMsg{id: strconv.FormatUint(e.Seq, 10), event: string(e.Kind), data: string(e.Line)}
}
