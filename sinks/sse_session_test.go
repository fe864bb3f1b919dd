package sinks

import (
	"context"
	"slices"
	"testing"
)

func TestRing(t *testing.T) {
	f := func(seq uint64, size int) *frame { return &frame{seq: seq, data: make([]byte, size)} }
	tests := []struct {
		name     string
		maxN     int
		maxBytes int
		sizes    []int // frame i+1 has sizes[i] bytes
		after    uint64
		want     []uint64
	}{
		{"keeps all within bounds", 4, 100, []int{1, 1, 1}, 0, []uint64{1, 2, 3}},
		{"count bound drops the oldest", 2, 100, []int{1, 1, 1, 1, 1}, 0, []uint64{4, 5}},
		{"grows past its first size", 20, 1000, slices.Repeat([]int{1}, 12), 9, []uint64{10, 11, 12}},
		{"byte bound drops the oldest", 10, 10, []int{4, 4, 4}, 0, []uint64{2, 3}},
		{"a frame over the byte bound empties it", 10, 10, []int{4, 11, 4}, 0, []uint64{3}},
		{"the latest over the byte bound", 10, 10, []int{4, 4, 11}, 0, nil},
		{"after skips what was seen", 10, 100, []int{1, 1, 1, 1}, 2, []uint64{3, 4}},
		{"nothing kept", 0, 100, []int{1, 1}, 0, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var r ring
			for i, size := range tc.sizes {
				r.push(f(uint64(i+1), size), tc.maxN, tc.maxBytes)
			}
			var got []uint64
			for _, fr := range r.after(tc.after) {
				got = append(got, fr.seq)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("after(%d) = %v, want %v", tc.after, got, tc.want)
			}
			sum := 0
			for _, fr := range r.after(0) {
				sum += len(fr.data)
			}
			if r.bytes != sum || r.n > tc.maxN || r.bytes > tc.maxBytes {
				t.Errorf("ring counts %d frames, %d bytes (holds %d bytes); bounds %d, %d", r.n, r.bytes, sum, tc.maxN, tc.maxBytes)
			}
		})
	}
}

func TestSSEForgetsAwaitedSessionWhenItsClientsLeave(t *testing.T) {
	s, err := NewSSE()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, _, _, _, err := s.join(ctx, "x", 0)
	if err != nil {
		t.Fatal(err)
	}
	b, _, _, _, err := s.join(ctx, "x", 0)
	if err != nil {
		t.Fatal(err)
	}
	s.leave(a)
	if _, ok := s.sessions["x"]; !ok {
		t.Fatal("the session was forgotten while a client still waits")
	}
	s.leave(b)
	if len(s.sessions) != 0 || s.live.Len() != 0 || len(s.clients) != 0 {
		t.Errorf("left %d sessions, %d listed, %d clients", len(s.sessions), s.live.Len(), len(s.clients))
	}
	if b.ctx.Err() == nil {
		t.Error("a client that left still has a live context")
	}
}

func TestSSEEndedSessionsAreLRU(t *testing.T) {
	s, err := NewSSE(WithEndedSessions(2))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	emit(t, s, evOf("a", 1, KindEnd), evOf("b", 1, KindEnd))
	c, _, _, _, err := s.join(ctx, "a", 0) // uses a: b is now the least recently used
	if err != nil {
		t.Fatal(err)
	}
	s.leave(c)
	emit(t, s, evOf("c", 1, KindEnd))
	var kept []string
	for id := range s.sessions {
		kept = append(kept, id)
	}
	slices.Sort(kept)
	if !slices.Equal(kept, []string{"a", "c"}) || s.ended.Len() != 2 {
		t.Errorf("kept %v (%d listed as ended), want [a c]", kept, s.ended.Len())
	}
}

func TestSSEEvictsLiveSessionWithoutClients(t *testing.T) {
	s, err := NewSSE(WithMaxSessions(2))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	emit(t, s, evOf("a", 1, KindText), evOf("b", 1, KindText))
	c, _, _, _, err := s.join(ctx, "a", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer s.leave(c)
	emit(t, s, evOf("a", 2, KindText), evOf("n", 1, KindText)) // b has no client: it goes
	if _, ok := s.sessions["b"]; ok || len(s.sessions) != 2 {
		t.Errorf("sessions %v, want a and n", s.sessions)
	}
}
