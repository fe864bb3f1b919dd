package parser

import (
	"errors"
	"io"
	"log/slog"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
	"github.com/a2ui-stream/a2ui-stream/parser/internal/frame"
)

// Markers of the tags framing, for ParseResponse.
var (
	tagOpen  = []byte(frame.TagOpen)
	tagClose = []byte(frame.TagClose)
)

// Parser is a push parser for streamed model output. Feed it chunks as they
// arrive, in order, then call Close once. It returns completed parts as soon
// as the bytes completing them arrive, whatever the chunk boundaries.
//
// A Parser is not safe for concurrent use: feed one stream from one
// goroutine. Parts it returns belong to the caller: the parser never reads or
// writes them again (text-only parts of several calls may share one array,
// but each returned slice's capacity ends at its last part, so appending to
// it never reaches another call's parts), unless WithBorrowedOutput lends
// them until the next call. The parser keeps no reference to the chunks
// passed to Feed after Feed returns.
type Parser struct {
	cfg   config
	eng   engine
	tags  *frame.Tags     // the tags framing, called directly: the hot path
	split frame.SplitFunc // the other framings (parser/internal/frame)

	inBlock   bool
	skipping  bool   // dropping the rest of a failed block
	hold      []byte // bytes the framing held back, for the next call
	work      []byte
	consumed  int64 // stream bytes received before the current Feed's chunk
	blocks    int   // blocks opened so far
	blockOff  int64
	blockSize int
	closed    bool
	repair    *payloadRepairer // with WithPayloadRepair, else nil
	// repairedOff is, with WithPayloadRepair, the offset the engine is
	// given for the next repaired bytes of the block: the block's start
	// plus the repaired bytes so far.
	repairedOff int64

	errs     []error
	out      emitter
	slab     []Part // slots for text-only results (see takeParts)
	slabUsed int    // slots of slab handed out
}

// partSlab is the number of Part slots allocated at once for text-only
// results.
const partSlab = 16

// New returns a Parser configured by opts. Defaults: ModeComplete,
// FramingTags, DefaultMaxBlockSize, DefaultMaxDepth, DefaultMaxSurfaces,
// DefaultMaxComponents, no catalog.
func New(opts ...Option) (*Parser, error) {
	cfg := config{
		mode:         ModeComplete,
		framing:      FramingTags,
		maxBlockSize: DefaultMaxBlockSize,
		maxDepth:     DefaultMaxDepth,
		maxSurfaces:  DefaultMaxSurfaces,
		maxComps:     DefaultMaxComponents,
		logger:       slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	p := &Parser{cfg: cfg}
	switch cfg.framing {
	case FramingJSONL:
		p.split = new(frame.Lines).Split
	case FramingFences:
		p.split = new(frame.Fences).Split
	default:
		p.tags = new(frame.Tags)
	}
	if cfg.repair {
		p.repair = &payloadRepairer{}
	}
	p.out.store.borrow = cfg.borrow
	eng, err := newEngine(&cfg)
	if err != nil {
		return nil, err
	}
	p.eng = eng
	return p, nil
}

// Feed parses the next chunk of the stream and returns the parts it
// completed, possibly none: needing more bytes is not an error.
//
// A non-nil error reports blocks that failed in this chunk (a *BlockError,
// or several joined); the parts returned alongside it are still valid, the
// failed block is dropped, and the Parser stays usable: parsing continues
// after the failed block's end.
func (p *Parser) Feed(chunk []byte) ([]Part, error) {
	if p.closed {
		return nil, ErrClosed
	}
	if len(p.hold) == 0 && p.tags != nil && p.repair == nil && p.tags.AllData(chunk) {
		// The common call, a chunk of a block's content: no framing to
		// do (runFrame would say so, at the cost of a call and a token
		// per chunk), nothing to repair, and the engine's end of the call
		// has nothing to do unless the block failed.
		p.seedParts()
		base := p.consumed
		p.consumed += int64(len(chunk))
		p.engineBytes(chunk, base)
		if len(p.errs) > 0 {
			p.endCall() // (a failed block's end lets go of the output)
		}
		return p.takeParts(), p.takeErr()
	}
	data, base := chunk, p.consumed
	if len(p.hold) > 0 {
		p.work = append(append(p.work[:0], p.hold...), chunk...)
		data = p.work
		base -= int64(len(p.hold))
		p.hold = p.hold[:0]
	}
	p.consumed += int64(len(chunk))
	p.seedParts()
	if rest := p.runFrame(data, base, false); len(rest) > 0 {
		p.hold = append(p.hold[:0], rest...)
	}
	p.endCall()
	return p.takeParts(), p.takeErr()
}

// Close ends the stream and returns the parts still pending: held-back text,
// and the last block when the framing allows it to end with the stream. In
// complete mode, a stream that ends inside an unfinished message reports
// ErrUnterminated; the progressive modes yield what was healed of it (see
// the package doc). After Close, Feed and Close return ErrClosed.
func (p *Parser) Close() ([]Part, error) {
	if p.closed {
		return nil, ErrClosed
	}
	p.closed = true
	p.seedParts()
	rest := p.hold
	p.hold = nil
	p.runFrame(rest, p.consumed-int64(len(rest)), true)
	p.endCall()
	return p.takeParts(), p.takeErr()
}

// Blocks returns the number of blocks the stream has opened so far (the
// next block's Part.List).
func (p *Parser) Blocks() int { return p.blocks }

// seedParts lets this call's parts go to the free slots of the slab. The
// emitter stays seeded across calls that complete nothing.
func (p *Parser) seedParts() {
	switch {
	case p.cfg.borrow:
		if p.out.lentAny() {
			p.out.startBorrowed()
		}
	case cap(p.out.parts) == 0:
		p.seedSlab()
	}
}

// seedSlab is seedParts for owned output when the emitter has no slots.
func (p *Parser) seedSlab() {
	if p.slabUsed == len(p.slab) {
		p.slab, p.slabUsed = make([]Part, partSlab), 0
	}
	p.out.parts = p.slab[p.slabUsed:p.slabUsed]
}

// takeParts returns the parts completed by this call, or nil. Text-only
// results keep the slab slots they were written to, capped so that appends
// by the caller cannot reach the slots handed out later; the parser never
// touches them again. Results with messages get storage of their own (see
// emitter.take), so that the slab never keeps messages alive after the
// caller drops them.
func (p *Parser) takeParts() []Part {
	if len(p.out.parts) == 0 {
		return nil // (small enough to inline: the common call)
	}
	return p.takeSome()
}

// takeSome is takeParts for a call that completed parts.
func (p *Parser) takeSome() []Part {
	parts := p.out.take()
	if p.cfg.borrow {
		return parts
	}
	n := len(parts)
	free := p.slab[p.slabUsed:]
	if n > len(free) || &parts[0] != &free[0] {
		return parts // an array of its own
	}
	p.slabUsed += n
	return parts[:n:n]
}

// runFrame splits data, the stream from offset base, into prose and blocks
// with the framing's split function, and returns the bytes it holds back
// (none at EOF). The hold is empty here: Feed took it.
func (p *Parser) runFrame(data []byte, base int64, atEOF bool) []byte {
	for len(data) > 0 || atEOF {
		var adv int
		var tok frame.Token
		if p.tags != nil {
			adv, tok = p.tags.Split(data, atEOF)
		} else {
			adv, tok = p.split(data, atEOF)
		}
		switch tok.Kind {
		case frame.None:
			return data
		case frame.Text:
			p.out.text(string(tok.Bytes))
		case frame.Start:
			p.startBlock(base + int64(adv))
		case frame.Data:
			p.blockBytes(tok.Bytes, base)
		case frame.End:
			p.endBlock()
		}
		data, base = data[adv:], base+int64(adv)
	}
	return data
}

func (p *Parser) startBlock(off int64) {
	p.inBlock, p.skipping = true, false
	p.blocks++
	p.blockOff, p.blockSize, p.repairedOff = off, 0, off
	p.out.startList(p.blocks - 1)
	if err := p.eng.blockStart(&p.out); err != nil {
		p.fail(err)
	}
}

// blockBytes passes the next bytes of the current block's content to the
// engine, repaired first with WithPayloadRepair (then the offsets the
// engine sees count the repaired bytes from the block's start).
func (p *Parser) blockBytes(seg []byte, off int64) {
	if p.skipping || len(seg) == 0 {
		return
	}
	if p.repair != nil {
		seg, off = p.repair.feed(seg), p.repairedOff
		p.repairedOff += int64(len(seg))
	}
	p.engineBytes(seg, off)
}

// engineBytes passes block content to the engine. The block fails with
// ErrTooLarge at the byte that crosses the maximum block size: the bytes
// before it are read first, so the messages that complete within the
// limit are yielded however the block is chunked.
func (p *Parser) engineBytes(seg []byte, off int64) {
	if p.skipping || len(seg) == 0 {
		return
	}
	room := p.cfg.maxBlockSize - p.blockSize
	over := len(seg) > room
	if over {
		if jsonwire.SkipSpace(seg, room) == len(seg) {
			// Whitespace past the bound: the bound is on the JSON, so
			// only content after it fails the block.
			over = false
		}
		seg = seg[:room]
	}
	p.blockSize += len(seg)
	if len(seg) > 0 {
		if err := p.eng.blockData(seg, off, &p.out); err != nil {
			p.fail(err)
			return
		}
	}
	if over {
		p.fail(ErrTooLarge)
	}
}

func (p *Parser) endBlock() {
	if p.repair != nil {
		// What the repairer still holds (a comma, part of a character)
		// ends the block's content.
		tail := p.repair.end()
		p.engineBytes(tail, p.repairedOff)
		p.repairedOff += int64(len(tail))
	}
	if !p.skipping {
		if err := p.eng.blockEnd(&p.out); err != nil {
			p.fail(err)
		} else {
			p.out.endList(p.cfg.listEnds)
		}
	}
	p.inBlock, p.skipping = false, false
}

// fail records a block failure, drops the block's state and skips the rest
// of the block.
func (p *Parser) fail(err error) {
	// What the block's bytes before the failure yield comes before it.
	p.eng.blockFailed(&p.out)
	be := &BlockError{Block: p.blocks - 1, Offset: p.blockOff, Before: len(p.out.parts), Err: err}
	p.errs = append(p.errs, be)
	p.cfg.logger.Warn("parser: block dropped", "block", be.Block, "offset", be.Offset, "err", err)
	if p.inBlock {
		p.skipping = true
	}
}

// endCall lets the engine finish the call's parts. An engine never removes
// a part, so each failure's Before still counts the parts that precede it.
func (p *Parser) endCall() {
	if err := p.eng.feedEnd(&p.out); err != nil {
		p.fail(err)
	}
}

func (p *Parser) takeErr() error {
	if len(p.errs) == 0 {
		return nil // (small enough to inline: the common call)
	}
	return p.takeErrs()
}

// takeErrs is takeErr for a call in which blocks failed.
func (p *Parser) takeErrs() error {
	switch len(p.errs) {
	case 1:
		err := p.errs[0]
		p.errs = p.errs[:0]
		return err
	}
	err := errors.Join(append([]error(nil), p.errs...)...)
	p.errs = p.errs[:0]
	return err
}
