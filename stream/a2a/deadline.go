package a2a

import (
	"errors"
	"net/http"
	"time"
)

// boundedWrite runs write under a write deadline of d (none when d is 0 or
// the ResponseWriter cannot take one), flushes what it wrote and clears the
// deadline again: the pauses between writes stay unbounded (under HTTP/2 a
// deadline is a timer that resets the stream when it fires, whether or not
// a write is under way) and a kept-alive connection does not inherit it. A
// writer that cannot flush (a middleware that hides it) keeps what it got,
// buffered.
func boundedWrite(rc *http.ResponseController, d time.Duration, write func() error) error {
	bounded := d > 0
	if bounded {
		if err := rc.SetWriteDeadline(time.Now().Add(d)); err != nil {
			if !errors.Is(err, http.ErrNotSupported) {
				return err
			}
			bounded = false
		}
	}
	if err := write(); err != nil {
		return err
	}
	if err := rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	if bounded {
		return rc.SetWriteDeadline(time.Time{})
	}
	return nil
}
