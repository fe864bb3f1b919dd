package consumer

import (
	"container/list"
	"fmt"
	"strings"
)

// MaxSessionLen is the longest session token.
const MaxSessionLen = 128

// EndHeader is the header that ends a session: "A2UI-End: true". The
// message's body, if any, is the session's last chunk.
const EndHeader = "A2UI-End"

// ValidSession reports whether s can be a session token: 1 to 128 bytes of
// ASCII letters, digits, '-' and '_'. (The output event ids are
// "<session>:<seq>", so ':' is excluded, and NATS subjects exclude '.', '*',
// '>' and white space.)
func ValidSession(s string) error {
	if s == "" || len(s) > MaxSessionLen {
		return fmt.Errorf("%w: session token of %d bytes (want 1-%d)", ErrBadSubject, len(s), MaxSessionLen)
	}
	for i := 0; i < len(s); i++ {
		if !validNameRune(rune(s[i])) {
			return fmt.Errorf("%w: byte %q at %d in session token", ErrBadSubject, s[i], i)
		}
	}
	return nil
}

// sessionOf returns the session of subject <prefix>.<session>.
func sessionOf(prefix, subject string) (string, error) {
	rest, ok := strings.CutPrefix(subject, prefix)
	if !ok || !strings.HasPrefix(rest, ".") {
		return "", fmt.Errorf("%w: not under prefix %q", ErrBadSubject, prefix)
	}
	s := rest[1:]
	if strings.Contains(s, ".") {
		return "", fmt.Errorf("%w: more than one token after prefix %q", ErrBadSubject, prefix)
	}
	if err := ValidSession(s); err != nil {
		return "", err
	}
	return s, nil
}

// isEnd reports whether the header ends the session.
func isEnd(get func(string) string) bool {
	return strings.EqualFold(strings.TrimSpace(get(EndHeader)), "true")
}

// shardOf maps a session onto one of n workers.
func shardOf(session string, n int) int {
	h := uint32(2166136261) // FNV-1a, inline: no allocation per message
	for i := 0; i < len(session); i++ {
		h ^= uint32(session[i])
		h *= 16777619
	}
	return int(h % uint32(n))
}

// lru is a bounded map of session state, least recently used first out.
// It is owned by one worker goroutine and not safe for concurrent use.
type lru[V any] struct {
	max   int
	ll    *list.List // front: most recent; values are *lruEntry[V]
	items map[string]*list.Element
}

type lruEntry[V any] struct {
	key string
	val V
}

func newLRU[V any](max int) *lru[V] {
	return &lru[V]{max: max, ll: list.New(), items: make(map[string]*list.Element)}
}

// get returns the value of key, marking it recently used.
func (l *lru[V]) get(key string) (V, bool) {
	if e, ok := l.items[key]; ok {
		l.ll.MoveToFront(e)
		return e.Value.(*lruEntry[V]).val, true
	}
	var zero V
	return zero, false
}

// put sets key's value; it returns the key evicted to make room, if any.
func (l *lru[V]) put(key string, val V) (evicted string, ok bool) {
	if e, found := l.items[key]; found {
		e.Value.(*lruEntry[V]).val = val
		l.ll.MoveToFront(e)
		return "", false
	}
	l.items[key] = l.ll.PushFront(&lruEntry[V]{key: key, val: val})
	if l.ll.Len() > l.max {
		back := l.ll.Back()
		k := back.Value.(*lruEntry[V]).key
		l.ll.Remove(back)
		delete(l.items, k)
		return k, true
	}
	return "", false
}

func (l *lru[V]) remove(key string) {
	if e, ok := l.items[key]; ok {
		l.ll.Remove(e)
		delete(l.items, key)
	}
}

func (l *lru[V]) len() int { return l.ll.Len() }

// perShard divides the session bound among n workers (at least 1 each).
func perShard(total, n int) int {
	return max(1, (total+n-1)/n)
}
