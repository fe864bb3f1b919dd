package processor

import (
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// Default memory bounds. Each can be changed with its option; a message
// that would exceed a bound fails with ErrLimit and changes nothing.
const (
	DefaultMaxSurfaces             = 1024
	DefaultMaxComponentsPerSurface = 10000
	DefaultMaxDataModelBytes       = 8 << 20 // 8 MiB per surface
)

// Option configures a Processor.
type Option func(*options) error

type options struct {
	logger         *slog.Logger
	maxSurfaces    int
	maxComponents  int
	maxDataBytes   int
	topology       bool
	strictTopology bool
	catalogs       []*protocol.Catalog
	catalogIDs     []string
}

func defaultOptions() options {
	return options{
		logger:        slog.New(slog.NewTextHandler(io.Discard, nil)),
		maxSurfaces:   DefaultMaxSurfaces,
		maxComponents: DefaultMaxComponentsPerSurface,
		maxDataBytes:  DefaultMaxDataModelBytes,
		topology:      true,
	}
}

// WithLogger sets the logger failures are reported to (one Warn record per
// failed message). The default discards logs.
func WithLogger(l *slog.Logger) Option {
	return func(o *options) error {
		if l == nil {
			return errors.New("processor: WithLogger: nil logger")
		}
		o.logger = l
		return nil
	}
}

// WithMaxSurfaces bounds the number of live surfaces (default
// DefaultMaxSurfaces). n must be positive.
func WithMaxSurfaces(n int) Option {
	return func(o *options) error {
		if n <= 0 {
			return fmt.Errorf("processor: WithMaxSurfaces: %d is not positive", n)
		}
		o.maxSurfaces = n
		return nil
	}
}

// WithMaxComponents bounds the number of components a surface holds
// (default DefaultMaxComponentsPerSurface). n must be positive.
func WithMaxComponents(n int) Option {
	return func(o *options) error {
		if n <= 0 {
			return fmt.Errorf("processor: WithMaxComponents: %d is not positive", n)
		}
		o.maxComponents = n
		return nil
	}
}

// WithMaxDataModelBytes bounds the size of a surface's data model, measured
// as an estimate of the length of its JSON encoding, counting its values as
// received (within a few bytes per value; default DefaultMaxDataModelBytes).
// n must be positive.
func WithMaxDataModelBytes(n int) Option {
	return func(o *options) error {
		if n <= 0 {
			return fmt.Errorf("processor: WithMaxDataModelBytes: %d is not positive", n)
		}
		o.maxDataBytes = n
		return nil
	}
}

// WithTopology turns the component topology checks on or off (default on):
// duplicate ids within an update, self-references, cycles and the depth
// limit, checked on the surface's whole component graph as it would be
// after the message (incrementally: a small update costs its own size, not
// the surface's). It is fixed for the processor's life.
func WithTopology(on bool) Option {
	return func(o *options) error {
		o.topology = on
		return nil
	}
}

// WithStrictTopology additionally requires, after every component update,
// a complete tree: the root present, no reference to a missing component
// and no component unreachable from the root. It is off by default because
// the protocol allows progressive rendering, where references to components
// that have not arrived yet are normal. It implies WithTopology(true).
func WithStrictTopology(on bool) Option {
	return func(o *options) error {
		o.strictTopology = on
		if on {
			o.topology = true
		}
		return nil
	}
}

// WithCatalog validates every message of the catalog's version family
// against the catalog's JSON Schema (and the protocol's depth, function-call
// and path limits) before applying it; a failure fails the message. The
// catalog's reference fields drive the topology checks. It may be given once
// per catalog; a message is checked against the catalog its surface names,
// else the first one of its family. When any catalog is given, createSurface
// may only name a configured catalog, and messages of a family no catalog
// covers fail with ErrUnknownCatalog.
func WithCatalog(c *protocol.Catalog) Option {
	return func(o *options) error {
		if c == nil {
			return errors.New("processor: WithCatalog: nil catalog")
		}
		o.catalogs = append(o.catalogs, c)
		if id := c.CatalogID(); id != "" {
			o.catalogIDs = append(o.catalogIDs, id)
		}
		return nil
	}
}

// WithCatalogIDs restricts the catalogs createSurface (and v0.8
// beginRendering) may name. Without it, and without WithCatalog, any
// catalog id is accepted.
func WithCatalogIDs(ids ...string) Option {
	return func(o *options) error {
		for _, id := range ids {
			if id == "" {
				return errors.New("processor: WithCatalogIDs: empty catalog id")
			}
		}
		o.catalogIDs = append(o.catalogIDs, ids...)
		return nil
	}
}
