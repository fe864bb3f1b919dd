package consumer

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/synadia-io/orbit.go/pcgroups"
)

// leaveTimeout bounds leaving the group at shutdown.
const leaveTimeout = 5 * time.Second

// livenessFactor: a member's heartbeat lives this many member intervals.
const livenessFactor = 3

// createGroup creates the elastic consumer group if missing (retrying a
// few times: instances starting together race on its KV bucket and
// stream).
func (j *JetStream) createGroup(ctx context.Context) error {
	filters := []pcgroups.PartitioningFilter{{Filter: j.cfg.prefix + ".>", PartitioningWildcards: []int{}}}
	var err error
	for attempt := range 5 {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return &ConfigError{What: "create group " + j.cfg.group, Err: ctx.Err()}
			case <-time.After(time.Duration(attempt) * 100 * time.Millisecond):
			}
		}
		_, err = pcgroups.CreateElastic(ctx, j.js, j.cfg.stream, j.cfg.group, uint(j.cfg.partitions), filters, j.cfg.maxBufferedMsgs, 0)
		if err == nil {
			return nil
		}
		if strings.Contains(err.Error(), "can not be updated") {
			break // an existing group with another config: not transient
		}
	}
	return &ConfigError{What: "create group " + j.cfg.group, Err: err}
}

// groupStream is the name of the group's work-queue stream, as pcgroups
// names it (checked by a test).
func (j *JetStream) groupStream() string { return j.cfg.stream + "-" + j.cfg.group }

// livenessBucket names the KV bucket of the group's heartbeats.
func (j *JetStream) livenessBucket() string { return "a2ui-live-" + j.cfg.stream + "-" + j.cfg.group }

// createLiveness opens the heartbeat bucket, creating it if missing: one
// key per live member, which expires livenessFactor member intervals after
// the member's last heartbeat.
func (j *JetStream) createLiveness(ctx context.Context) error {
	name := j.livenessBucket()
	kv, err := j.js.KeyValue(ctx, name)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		kv, err = j.js.CreateKeyValue(ctx, jetstream.KeyValueConfig{
			Bucket:      name,
			Description: "a2ui-stream: heartbeats of the consumer group's live members",
			TTL:         livenessFactor * j.cfg.memberInterval,
			History:     1,
			Storage:     jetstream.FileStorage,
			Replicas:    j.cfg.replicas,
		})
		if errors.Is(err, jetstream.ErrBucketExists) {
			kv, err = j.js.KeyValue(ctx, name)
		}
	}
	if err != nil {
		return &ConfigError{What: "liveness bucket " + name, Err: err}
	}
	j.kv = kv
	return nil
}

// memberLoop heartbeats, keeps this instance in the group and drops the
// members whose heartbeat expired (their instance died).
func (j *JetStream) memberLoop(ctx context.Context) {
	t := time.NewTicker(j.cfg.memberInterval)
	defer t.Stop()
	absent := map[string]bool{}
	for {
		absent = j.checkMembers(ctx, absent)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// checkMembers runs one round of memberLoop; absent holds the members
// whose heartbeat was missing in the previous round: a member is dropped
// when it is missing in two rounds in a row.
func (j *JetStream) checkMembers(ctx context.Context, absent map[string]bool) map[string]bool {
	log := j.cfg.logger.With("group", j.cfg.group, "member", j.cfg.member)
	warn := func(msg string, err error) {
		if ctx.Err() == nil {
			log.Warn(msg, "err", err)
		}
	}
	// Heartbeat first: a member is in the group only while it is alive.
	if _, err := j.kv.Put(ctx, j.cfg.member, []byte(time.Now().UTC().Format(time.RFC3339Nano))); err != nil {
		warn("consumer: heartbeat", err)
		j.ready.Store(false)
		return absent
	}
	gc, err := pcgroups.GetElasticConsumerGroupConfig(ctx, j.js, j.cfg.stream, j.cfg.group)
	if err != nil {
		warn("consumer: reading the group's config", err)
		j.ready.Store(false)
		return absent
	}
	if !gc.IsInMembership(j.cfg.member) {
		j.ready.Store(false)
		// Instances starting together race on the config's revision:
		// retry a few times at once.
		for attempt := 0; ; attempt++ {
			_, err := pcgroups.AddMembers(ctx, j.js, j.cfg.stream, j.cfg.group, []string{j.cfg.member})
			if err == nil || ctx.Err() != nil {
				break
			}
			if attempt == 3 {
				log.Info("consumer: joining the group (will retry)", "err", err)
				break
			}
			select {
			case <-ctx.Done():
			case <-time.After(time.Duration(20+rand.IntN(80)) * time.Millisecond):
			}
		}
		return absent
	}
	_, err = j.js.Consumer(ctx, j.groupStream(), j.cfg.member)
	j.ready.Store(err == nil)

	live := map[string]bool{}
	lister, err := j.kv.ListKeys(ctx)
	if err != nil && !errors.Is(err, jetstream.ErrNoKeysFound) {
		warn("consumer: listing live members", err)
		return absent
	}
	if err == nil {
		for k := range lister.Keys() {
			live[k] = true
		}
	}
	var dead []string
	next := map[string]bool{}
	for _, m := range gc.Members {
		if m != j.cfg.member && !live[m] {
			next[m] = true
			if absent[m] {
				dead = append(dead, m)
			}
		}
	}
	if len(dead) == 0 {
		return next
	}
	// Delete the dead members' consumers first: the survivors' new
	// consumers cannot overlap them on the work-queue stream.
	for _, m := range dead {
		if err := j.js.DeleteConsumer(ctx, j.groupStream(), m); err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) {
			warn("consumer: deleting a dead member's consumer", err)
		}
	}
	if _, err := pcgroups.DeleteMembers(ctx, j.js, j.cfg.stream, j.cfg.group, dead); err != nil {
		if ctx.Err() == nil {
			log.Info("consumer: dropping dead members (will retry)", "members", dead, "err", err)
		}
		return next
	}
	log.Info("consumer: dropped members without a heartbeat", "members", dead)
	return next
}

// leave removes this member from the group and deletes its heartbeat and
// its consumer, so that the others take over its partitions (and its
// unacknowledged chunks) at once.
func (j *JetStream) leave() {
	if !j.nc.IsConnected() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), min(leaveTimeout, j.cfg.drainTimeout))
	defer cancel()
	log := j.cfg.logger.With("group", j.cfg.group, "member", j.cfg.member)
	if err := j.kv.Delete(ctx, j.cfg.member); err != nil {
		log.Info("consumer: deleting this member's heartbeat", "err", err)
	}
	if _, err := pcgroups.DeleteMembers(ctx, j.js, j.cfg.stream, j.cfg.group, []string{j.cfg.member}); err != nil {
		log.Info("consumer: leaving the group", "err", err)
	}
	if err := j.js.DeleteConsumer(ctx, j.groupStream(), j.cfg.member); err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) {
		log.Info("consumer: deleting this member's consumer", "err", err)
	}
}
