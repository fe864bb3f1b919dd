package metrics

import (
	"errors"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
)

// Sentinel errors.
var (
	// ErrNilRegisterer: New was given no Registerer.
	ErrNilRegisterer = errors.New("metrics: nil registerer")
	// ErrInvalidOption matches every *OptionError.
	ErrInvalidOption = errors.New("metrics: invalid option")
	// ErrAlreadyRegistered: a collector of the same name is already on
	// the registry, typically from an earlier New on it. One Metrics per
	// registry.
	ErrAlreadyRegistered = errors.New("metrics: already registered")
)

// OptionError reports an option given an unusable value.
type OptionError struct {
	// Option is the option's name, e.g. "WithDurationBuckets".
	Option string
	// Reason says what is wrong.
	Reason string
}

func (e *OptionError) Error() string {
	return fmt.Sprintf("metrics: %s: %s", e.Option, e.Reason)
}

// Unwrap returns ErrInvalidOption.
func (e *OptionError) Unwrap() error { return ErrInvalidOption }

// RegisterError reports a collector the registry refused. New leaves the
// registry as it found it: the collectors it registered before are
// unregistered again.
type RegisterError struct {
	// Metric is the refused collector's full name, e.g.
	// "a2ui_stream_chunks_total".
	Metric string
	// Err is the registry's error (a prometheus.AlreadyRegisteredError
	// when the name is taken).
	Err error
}

func (e *RegisterError) Error() string {
	if e.duplicate() {
		return fmt.Sprintf("metrics: %s is already registered on this registry (one metrics.New per registry)", e.Metric)
	}
	return fmt.Sprintf("metrics: register %s: %v", e.Metric, e.Err)
}

// Unwrap returns the registry's error and, when the name was taken,
// ErrAlreadyRegistered.
func (e *RegisterError) Unwrap() []error {
	if e.duplicate() {
		return []error{ErrAlreadyRegistered, e.Err}
	}
	return []error{e.Err}
}

func (e *RegisterError) duplicate() bool {
	var are prometheus.AlreadyRegisteredError
	return errors.As(e.Err, &are)
}
