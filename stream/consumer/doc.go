// Package consumer consumes streamed model output from NATS and hands it,
// chunk by chunk and in order, to a Handler (in production a
// *stream.Pipeline, which parses each chunk, applies it and publishes the
// resulting events).
//
// # Input
//
// A session's chunks arrive on <prefix>.<session> (prefix "a2ui.in" by
// default, WithPrefix), one NATS message per chunk, in publish order. The
// session token is 1 to 128 bytes of ASCII letters, digits, '-' and '_'
// (ValidSession). A message with the header "A2UI-End: true" (EndHeader)
// ends the session; its body, if any, is the last chunk. What cannot be
// handled is reported, with a *ChunkError, to the OnError hook
// (WithOnError) and the Observer, and other sessions go on: a subject that
// is not <prefix>.<valid session> (ErrBadSubject), a chunk larger than
// WithMaxChunk (ErrTooLarge, 1 MiB by default: not fed, the session goes on
// without it), an end without body for a session without chunks
// (ErrUnknownSession), a Handler error (ErrHandler).
//
// # Two consumers
//
// Core subscribes <prefix>.> on core NATS. Core NATS neither persists nor
// shares out messages: Core is one instance, it does not scale out (every
// subscriber gets every chunk) and chunks in flight when it dies are lost.
//
// JetStream consumes a JetStream input stream with a partitioned consumer
// group: instances started with the same stream, group and partitions and
// a member name unique per instance (WithMember, <hostname>-<pid> by
// default) share the partitions; a session's chunks are handled by one
// instance at a time, in order; when an instance dies, the others take over
// its partitions and rebuild its sessions.
//
// Both shard sessions by hash onto a fixed number of worker goroutines
// (WithWorkers), each with a bounded queue (WithQueueSize): sessions
// proceed concurrently, a session's chunks in order. A full queue blocks
// the delivery of further messages (back-pressure); nothing grows without
// bound. On core NATS, messages the NATS client then drops past the
// subscription's pending limits (WithPendingLimits) are counted and
// reported as ErrSlowConsumer (Observer.SlowConsumer), never silently.
//
// Run consumes until its context is done, then drains: it stops fetching,
// finishes the chunks already received (the handler's context is cancelled
// after WithDrainTimeout; with JetStream, what is left unacknowledged goes
// to another instance) and returns nil. Ready reports, for a /readyz
// endpoint, whether the consumer is connected and bound.
//
// # JetStream design
//
// Streams. The input stream (WithStream, "A2UI_IN") holds <prefix>.> with
// limits retention, so chunks stay readable after their acknowledgement,
// until their session ends or WithMaxAge (24 h, the safety net for sessions
// that never end). Run creates it if missing (EnsureInputStream). The
// events go to an output stream with a duplicate window; EnsureOutputStream
// creates one.
//
// Partitions. The group is an elastic partitioned consumer group of
// github.com/synadia-io/orbit.go/pcgroups: a work-queue stream named
// <stream>-<group> sources the input stream and prefixes each subject with
// a partition number, a hash of the subject modulo WithPartitions; each
// member's consumer (named after the member, pinned to one client, with
// explicit acks) filters its share of the partitions. The members are
// listed in the group's configuration (a KV bucket of pcgroups). Each
// instance adds itself, heartbeats in the KV bucket a2ui-live-<stream>-<group>
// every WithMemberInterval (a heartbeat lives three intervals), and drops
// members whose heartbeat is missing on two checks in a row, deleting
// their consumer; pcgroups then moves their partitions, with the chunks
// they left unacknowledged, to the others. An instance shutting down leaves
// the group at once.
//
// Crash safety. A chunk is acknowledged only after Handler.Feed (or End)
// returned nil for it. Parser state cannot be acknowledged half-way, so the
// consumer remembers, per session, the input stream sequence of the last
// chunk it handled (the delivered message names it in its
// Nats-Stream-Source header), and checks every delivered chunk against the
// input stream with one direct get (the session subject's first message
// after that sequence):
//
//   - it is this chunk: the session goes on;
//   - earlier chunks come first, or this instance holds no state for the
//     session: it calls Handler.Reset and replays the session's chunks from
//     the stream, in stream order, up to this one (Observer.Replay), then
//     goes on. The replayed events are identical, with identical
//     Nats-Msg-Id, and the output stream's duplicate window drops them;
//   - this chunk was handled already (a redelivery) or its session was
//     purged: it is acknowledged and skipped (Observer.Redelivery).
//
// The check runs for every chunk, not only after a crash: when partitions
// move, the previous owner may still handle and acknowledge chunks it had
// received, which removes them from the work queue before the new owner
// sees them. At a session's end, after End returned nil, the consumer
// purges the session's subject from the input stream (so the stream stays
// bounded and the id can be reused) and forgets the session. When a Feed
// fails, the chunk is redelivered after WithRetryDelay and the session is
// rebuilt by replay.
//
// Holding every chunk of a session unacknowledged until its end would need
// no replay, but it breaks under MaxAckPending with many concurrent
// sessions (the consumer would stop delivering), and an ack wait as long as
// the longest session; this design keeps acknowledgements per chunk.
//
// While partitions move, the old and the new owner can briefly handle the
// same session both; their events are identical and deduplicated. The
// Handler must therefore publish deterministic events with deterministic
// ids ("<session>:<seq>", counting from Reset), and the output stream's
// duplicate window (DefaultDuplicates, 10 minutes) must outlast a session
// plus a failover. Reuse a session id only after its end and that window.
//
// # Tuning (JetStream)
//
//   - WithPartitions (16): the most instances that share the work; fixed
//     for the life of a group (another value needs another group).
//   - WithAckWait (5 s): above the longest time a chunk waits in this
//     instance's queues plus its Feed, or chunks are redelivered (then
//     skipped). pcgroups derives the pin TTL and the consumer's inactive
//     threshold from it.
//   - WithMaxAckPending (1,000): chunks in flight per instance; keep it near
//     WithWorkers × WithQueueSize so that chunks wait on the server, where
//     the ack wait does not run, rather than in the instance's queues.
//   - WithMemberInterval (the ack wait): failover takes about three to four
//     intervals, plus the survivors' consumer changes (at most about the ack
//     wait).
//   - WithMaxSessions (100,000): sessions remembered per instance; a
//     forgotten one is rebuilt by replay when its next chunk arrives.
//
// Subjects with more than one token after the prefix are terminated in the
// group but stay in the input stream until WithMaxAge.
//
// # Concurrency
//
// Core and JetStream are safe for concurrent use (Ready from any
// goroutine); Run may be called once. The Handler is called from several
// goroutines, never for the same session at once; the OnError hook and the
// Observer from several goroutines at once.
package consumer
