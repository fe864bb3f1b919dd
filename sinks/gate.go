package sinks

import (
	"context"
	"fmt"
	"sync"
)

// gate tracks a sink's Emits in flight, so that Close can refuse new ones
// and wait, within its context, for those already running.
type gate struct {
	mu     sync.Mutex
	closed bool
	active int
	idle   chan struct{} // made by close; closed once no Emit is in flight
}

// enter admits an Emit, or returns ErrClosed. An admitted Emit must call
// leave when done.
func (g *gate) enter() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return ErrClosed
	}
	g.active++
	return nil
}

// leave ends an Emit admitted by enter.
func (g *gate) leave() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.active--
	if g.closed && g.active == 0 {
		close(g.idle)
	}
}

// close refuses further Emits and waits until none is in flight, or until
// ctx is done (then it returns an error wrapping ctx's; the Emits in
// flight finish on their own). A second close returns ErrClosed.
func (g *gate) close(ctx context.Context) error {
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return ErrClosed
	}
	g.closed = true
	g.idle = make(chan struct{})
	if g.active == 0 {
		close(g.idle)
	}
	idle := g.idle
	g.mu.Unlock()
	select {
	case <-idle: // done already, whatever ctx says
		return nil
	default:
	}
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("sinks: close: waiting for emits in flight: %w", ctx.Err())
	}
}
