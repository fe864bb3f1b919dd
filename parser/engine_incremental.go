package parser

import (
	"fmt"

	"github.com/a2ui-stream/a2ui-stream/internal/deltaengine"
)

// incremental is the engine of the progressive and delta modes: it runs
// internal/deltaengine behind the engine interface, and turns its faults
// into the parser's errors at their stream offsets.
type incremental struct {
	k *deltaengine.Engine
	// failed is the number of blocks the engine had failed when the
	// current one began.
	failed int
	off    int64 // the stream offset of the current block's content
	// ended: a block ended in this call; its end lets go of the output
	// block, so that an idle stream holds none.
	ended, inBlock bool
	maxDepth       int
}

func newIncremental(cfg *config) *incremental {
	return &incremental{maxDepth: cfg.maxDepth, k: deltaengine.New(deltaengine.Options{
		Progressive:   cfg.mode == ModeProgressive,
		Lines:         cfg.framing == FramingJSONL,
		Catalog:       cfg.catalog,
		MaxDepth:      cfg.maxDepth,
		MaxSurfaces:   cfg.maxSurfaces,
		MaxComponents: cfg.maxComps,
	})}
}

func (d *incremental) blockStart(*emitter) error {
	d.failed, d.off, d.inBlock = d.k.Failed(), -1, true
	d.k.Begin()
	return nil
}

func (d *incremental) blockData(seg []byte, off int64, out *emitter) error {
	if d.off < 0 {
		d.off = off
	}
	d.lend(out)
	d.k.Data(seg)
	// The open component or data model message is healed at the end of
	// each segment.
	d.emit(d.k.Flush(), out)
	return d.err()
}

func (d *incremental) blockEnd(out *emitter) error {
	d.lend(out)
	d.k.End()
	d.emit(d.k.Messages(), out)
	d.k.Release() // (emit took them)
	d.ended, d.inBlock = true, false
	return d.err()
}

// feedEnd lets go of the output block at the end of a call in which a
// block ended and no other began: an idle stream holds none.
func (d *incremental) feedEnd(out *emitter) error {
	if d.ended && !d.inBlock {
		out.store.release()
	}
	d.ended = false
	return nil
}

func (d *incremental) blockFailed(out *emitter) {
	d.lend(out)
	d.k.Abort()
	d.emit(d.k.Messages(), out) // (the components held for the block's end)
	d.k.Release()
	d.ended, d.inBlock = true, false
}

// err is the error of a block the engine failed: complete mode's for its
// bytes (a deltaengine.Fault, at its stream offset), or the engine's
// (a protocol.ValidationError).
func (d *incremental) err() error {
	if d.k.Failed() == d.failed {
		return nil
	}
	err := d.k.Err()
	if l, ok := err.(*deltaengine.Limit); ok {
		return &LimitError{What: l.What, Max: l.Max, SurfaceID: l.SurfaceID}
	}
	f, ok := err.(*deltaengine.Fault)
	if !ok {
		return err
	}
	off := max(d.off, 0) + int64(f.At)
	switch f.Kind {
	case deltaengine.FaultUTF8:
		return &SyntaxError{Offset: off, Msg: "invalid UTF-8", Err: ErrInvalidUTF8}
	case deltaengine.FaultByte:
		return unexpectedByte(f.Byte, off, f.InList)
	case deltaengine.FaultUnterminated:
		return &SyntaxError{Offset: off, Msg: "block ended inside an unfinished message", Err: ErrUnterminated}
	case deltaengine.FaultTooDeep:
		return &SyntaxError{Offset: off, Msg: fmt.Sprintf("nesting deeper than %d", d.maxDepth), Err: ErrTooDeep}
	case deltaengine.FaultFenceOnly:
		return &SyntaxError{Offset: off, Msg: "markdown fence holds no A2UI message"}
	case deltaengine.FaultNothing:
		return &SyntaxError{Offset: max(d.off, 0), Msg: "No valid JSON object found in A2UI block."}
	}
	return &SyntaxError{Offset: off, Msg: f.Msg}
}

// lend has the engine write its next messages straight into the output
// store's block, with borrowed output (emit takes it back).
func (d *incremental) lend(out *emitter) {
	if out.store.borrow {
		d.k.UseOutput(out.store.lend())
	}
}

// emit places the engine's messages in the call's parts: with borrowed
// output, as the engine wrote them in the store's block (see lend); else
// each copied to storage of its own.
func (d *incremental) emit(msgs [][]byte, out *emitter) {
	if out.store.borrow {
		out.store.took(d.k.TakeOutput())
		for _, m := range msgs {
			out.message(m[:len(m):len(m)])
		}
		return
	}
	for _, m := range msgs {
		b := append(out.store.alloc(len(m)), m...)
		out.message(out.store.keep(b))
	}
}
