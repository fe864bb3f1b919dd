package consumer

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
)

// verdict of checking a delivered message against the input stream.
type verdict int

const (
	proceed verdict = iota // state is consistent: handle the message
	stale                  // already handled or purged: ack and skip
	retry                  // could not tell or rebuild: nak, try later
)

// process handles one message on its session's worker (shard).
func (j *JetStream) process(ctx context.Context, shard int, job jsJob) {
	states := j.states[shard]
	st, ok := states.get(job.session)
	if ok && job.seq <= st.lastSeq {
		// Redelivered (lost ack, ack wait passed, or already replayed).
		j.cfg.observer.Redelivery()
		j.ack(job)
		return
	}
	// Check the message against the stream: the previous owner of the
	// partition may have handled (and acknowledged, removing them from the
	// group's work queue) chunks this instance has not seen.
	v, fresh, err := j.prepare(ctx, job, st, ok)
	switch v {
	case stale:
		j.cfg.observer.Redelivery()
		j.ack(job)
		return
	case retry:
		var he *handlerError
		if !errors.As(err, &he) {
			err = fmt.Errorf("%w: %w", ErrStream, err)
		}
		j.fail(shard, job, err)
		return
	}
	if !ok {
		st = &sessState{}
		if evicted, ok := states.put(job.session, st); ok {
			j.h.Reset(evicted)
		}
	}
	size := len(job.msg.Data())
	if !job.end || size > 0 {
		if size > j.cfg.maxChunk {
			j.cfg.report(&ChunkError{Subject: job.subject, Session: job.session, Seq: job.seq,
				Err: fmt.Errorf("%w: %d bytes (max %d)", ErrTooLarge, size, j.cfg.maxChunk)})
		} else if err := j.h.Feed(ctx, job.session, job.msg.Data()); err != nil {
			j.fail(shard, job, &handlerError{op: "feed", err: err})
			return
		}
	}
	st.lastSeq = job.seq
	if !job.end {
		j.ack(job)
		return
	}

	// The session ends.
	if fresh && size == 0 {
		j.cfg.report(&ChunkError{Subject: job.subject, Session: job.session, Seq: job.seq, Err: ErrUnknownSession})
	} else if err := j.h.End(ctx, job.session); err != nil {
		j.fail(shard, job, &handlerError{op: "end", err: err})
		return
	}
	states.remove(job.session)
	// Forget its chunks: the state stays bounded and the id can be reused.
	// Should the purge fail, a later replay of a reused id starts after
	// this end marker anyway.
	if err := j.input.Purge(ctx, jetstream.WithPurgeSubject(job.subject), jetstream.WithPurgeSequence(job.seq+1)); err != nil {
		j.cfg.logger.Warn("consumer: purging an ended session", "session", job.session, "err", err)
	}
	j.ack(job)
}

// prepare checks that the message follows the last one this instance
// handled for its session (or is the session's first), and otherwise
// rebuilds the session's state by replay from the input stream. fresh
// reports a message that is the first of its session.
func (j *JetStream) prepare(ctx context.Context, job jsJob, st *sessState, have bool) (v verdict, fresh bool, err error) {
	from := uint64(1)
	if have {
		from = st.lastSeq + 1
	}
	m, err := j.nextMsg(ctx, from, job.subject)
	switch {
	case errors.Is(err, jetstream.ErrMsgNotFound):
		return stale, false, nil // purged: the session ended
	case err != nil:
		return retry, false, err
	case m.Sequence > job.seq:
		return stale, false, nil // purged, and the id reused since
	case m.Sequence == job.seq:
		if have {
			return proceed, false, nil // contiguous
		}
		j.h.Reset(job.session) // first chunk: start clean
		return proceed, true, nil
	}
	// Earlier chunks this instance has not handled: rebuild from the start.
	if have {
		if m, err = j.nextMsg(ctx, 1, job.subject); err != nil {
			if errors.Is(err, jetstream.ErrMsgNotFound) {
				return stale, false, nil
			}
			return retry, false, err
		}
	}
	return j.replay(ctx, job, m)
}

// replay resets the session and feeds its chunks from first up to, not
// including, the delivered one. An end marker met on the way ended an
// earlier session with the same id whose subject was not purged: the state
// restarts after it.
func (j *JetStream) replay(ctx context.Context, job jsJob, first *jetstream.RawStreamMsg) (verdict, bool, error) {
	j.h.Reset(job.session)
	j.cfg.observer.Replay(job.session)
	fresh := true
	for m := first; ; {
		if m.Sequence > job.seq {
			return stale, false, nil
		}
		if m.Sequence == job.seq {
			return proceed, fresh, nil
		}
		if isEnd(m.Header.Get) {
			j.h.Reset(job.session)
			fresh = true
		} else if len(m.Data) <= j.cfg.maxChunk {
			if err := j.h.Feed(ctx, job.session, m.Data); err != nil {
				return retry, false, &handlerError{op: "replay", err: err}
			}
			fresh = false
		} else {
			fresh = false
		}
		next, err := j.nextMsg(ctx, m.Sequence+1, job.subject)
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			return stale, false, nil
		}
		if err != nil {
			return retry, false, err
		}
		m = next
	}
}

// nextMsg returns the first message on subject at or after seq.
func (j *JetStream) nextMsg(ctx context.Context, seq uint64, subject string) (*jetstream.RawStreamMsg, error) {
	return j.input.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(subject))
}

// fail reports a message not handled, forgets the session (its handler
// state is unknown now) and has the message redelivered later; the next
// message of the session rebuilds the state by replay.
func (j *JetStream) fail(shard int, job jsJob, err error) {
	j.cfg.report(&ChunkError{Subject: job.subject, Session: job.session, Seq: job.seq, Err: err})
	j.states[shard].remove(job.session)
	j.h.Reset(job.session)
	if err := job.msg.NakWithDelay(j.cfg.retryDelay); err != nil {
		j.cfg.logger.Debug("consumer: nak", "session", job.session, "err", err)
	}
}

// ack acknowledges a message (without waiting for the server: a lost ack
// means a redelivery, which is detected and skipped).
func (j *JetStream) ack(job jsJob) {
	if err := job.msg.Ack(); err != nil {
		j.cfg.logger.Debug("consumer: ack", "session", job.session, "seq", job.seq, "err", err)
	}
}
