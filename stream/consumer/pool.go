package consumer

import "sync"

// pool runs one worker goroutine per shard, each draining its own bounded
// queue in order. Enqueue blocks while the shard's queue is full
// (back-pressure) until the pool stops. The pool owns its goroutines: stop
// makes them finish their queues and return, wait waits for them.
type pool[J any] struct {
	queues   []chan J
	mu       sync.RWMutex // held shared by enqueue, exclusive to close queues
	stopping chan struct{}
	stopOnce sync.Once
	wg       sync.WaitGroup
}

func newPool[J any](shards, size int, work func(shard int, j J)) *pool[J] {
	p := &pool[J]{queues: make([]chan J, shards), stopping: make(chan struct{})}
	for i := range p.queues {
		q := make(chan J, size)
		p.queues[i] = q
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for j := range q {
				work(i, j)
			}
		}()
	}
	return p
}

// enqueue queues j on shard, blocking while the queue is full. It returns
// false, without queueing, once the pool is stopping.
func (p *pool[J]) enqueue(shard int, j J) bool {
	p.mu.RLock()
	defer p.mu.RUnlock()
	select {
	case <-p.stopping:
		return false
	default:
	}
	select {
	case p.queues[shard] <- j:
		return true
	case <-p.stopping:
		return false
	}
}

// stop refuses further enqueues; the workers finish what is queued and
// return. It is idempotent.
func (p *pool[J]) stop() {
	p.stopOnce.Do(func() {
		close(p.stopping)
		p.mu.Lock() // no enqueue in progress past this point
		for _, q := range p.queues {
			close(q)
		}
		p.mu.Unlock()
	})
}

// wait waits for the workers to return (after stop).
func (p *pool[J]) wait() { p.wg.Wait() }
