package deltaengine

import (
	"cmp"
	"hash/maphash"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// frame is an open container; keyA:keyB is (in buf) the key of the object
// member being read, and key its class.
type frame struct {
	open, key         byte
	wantKey           bool
	keys              uint8  // v0.8, in a definition: its keys so far (to 2)
	path, pathOK, cid bool   // and whether one is "path", its value a string the walk keeps, one "componentId"
	idKey             bool   // in an object nested in a component: one is "id" (see nestedComponent)
	nkeys             uint8  // in a component: the keys read, to manyKeys+1
	start, keyA, keyB int    // its opener's offset in buf; its key's
	seen              uint64 // in a component: a bit for each key read (see keyTwice)
}

// slot is a child id in a component's bytes, and what it is (slotRewrite,
// slotRef).
type slot struct {
	a, b int32
	fl   uint8
	ord  uint16 // its rank in the reference's placeholder walk (see walkRanks)
}

// ref is a child reference of a component: the id in its bytes, and the
// entry of that id.
type ref struct {
	slot
	kid *entry
}

// entry is a component id of a surface: one that arrived (src holds its
// last healed bytes), or one only referenced so far.
type entry struct {
	s       *surface
	id      string
	src     []byte
	refs    []ref
	waiter  *entry // the first parent to yield again when it arrives (the others: surface.waiters)
	hash    uint64 // of the form last yielded
	parents int32  // references from reachable components
	// missing: its children still missing when it was last yielded;
	// woke: how many of them arrived since (see wake).
	missing, woke int32
	// Progressive mode: its form last yielded (nil until then), and the
	// snapshot that last wrote its own placeholder (see snapshot).
	snapGen uint32
	snap    *snapForm
	// arrival: its rank among its surface's components by first arrival
	// (saturated), the order in which the reference's component table
	// holds them (see topology).
	arrival       uint16
	arrived       bool
	reach, queued bool
	phYielded     bool // its placeholder was yielded
	deferred      bool // in engine.deferred
	counted       bool // its form counts in its surface's changed (see snapshot)
	bad           bool // its form last judged does not pass the catalog (catalog.go)
	phVerdict     int8 // its placeholder passes the catalog (1) or not (-1); 0: not judged
	// unsent, unsentPh: it, or its placeholder, waits in its surface's
	// unsent (see changes).
	unsent, unsentPh bool
}

// snapForm is what progressive mode keeps of a component it yielded: its
// form (nil: none kept), and the entries whose placeholders the form names
// (in one, while they are one: no allocation of their own).
type snapForm struct {
	form    []byte
	formOwn bool // form is its own, not the entry's src
	phs     []*entry
	one     [1]*entry
}

// progEntry is an entry of progressive mode and its snapForm, allocated
// together (one allocation of the 192-byte size class, not two of 128 and
// 64); delta mode's entries have none.
type progEntry struct {
	entry
	snap snapForm
}

// formed reports whether progressive mode keeps a form of e, a
// progressive entry (see dropQueue).
func (e *entry) formed() bool { return e.snap.form != nil }

type surface struct {
	id, version string
	comps       compTable
	root        string   // the id of its root component
	reach       []*entry // its reachable entries (progressive mode)
	sorted      int      // reach[:sorted] is sorted by id (see sortReach)
	arrived     int      // its components that arrived (see Options.MaxComponents)
	waiting     int      // v0.8: its component messages that ended before it began (bounded as its components)
	bad         int      // its reachable components whose form does not pass the catalog
	changed     int      // progressive mode: bytes of the forms changed since its last snapshot (each once, as it is now)
	snapSize    int      // progressive mode: the size of its last snapshot
	unsent      *unsent  // what its changes held back by the catalog would have yielded (see changes)
	// waiters holds, for a component not arrived that more than one
	// parent waits for, the parents after its first (entry.waiter), in
	// order (nil: none; a component has one parent, as a rule).
	waiters    map[*entry][]*entry
	begun      bool // its createSurface or beginRendering ended: it yields
	uncounted  bool // made for a message to a deleted v0.8 surface: not counted in MaxSurfaces
	loadingIDs bool // a component that arrived has an id starting "loading_" (see shadowed)
	// suspect: the surface is to be checked before it yields (see
	// topology.go); selfRef, a component may reference itself; filling,
	// a form of it holds a "children_<id>" placeholder (see refill);
	// deferred, progressive mode held its snapshot back (see snapshot).
	suspect, selfRef, filling, deferred bool
}

// Engine reads A2UI blocks and yields messages as the parser's delta or
// progressive mode does (see the package doc). It is not safe for
// concurrent use.
type Engine struct {
	buf   []byte // the block, without whitespace outside strings
	stack []frame
	errs  int   // blocks failed
	err   error // why the last one failed (see Err)

	strStart, cutAt, healLen int // open string (or scalar); end of the last complete member; len(buf) at the last heal
	comma                    int // the block's last ',' outside strings in buf (-1: none); commaD, the stack's depth there

	msgStart, verA, verB int
	msgRaw               int // the open message's offset in the block's content
	rootA, rootB         int // v0.8: the root a beginRendering names (-1: none)
	cur                  *surface
	last                 *surface // the surface a message last named

	compStart, idA, idB, typeZ int // the open component (-1: none), its id, the end of its type
	typeA, typeB               int // its type's name (v0.8: its definition's first type; -1: none)
	listA                      int // the '[' of its open children list (-1: none); listD, its depth
	compSniffed, msgSniffed    int // the open component's and message's size when last healed (see grown)
	ekStart, ekEnd             int // the open value of the empty key, and where it ends healed (see emptyKeyValue)
	spaces                     int // the block's bytes not in buf (spaces outside strings, commas between messages...): see raw
	compSpaces, msgSpaces      int // spaces when the open component and message opened

	// The open data model message: its value object's '{' and its path
	// (-1: none), and what it yielded of its entries (see dataEntries).
	valueA, pathA, pathB int
	dataLast             uint64      // v0.8, delta mode: hash of its message last yielded
	dataRec              *dataRecord // v0.8, delta mode: the record of the slot its last sniff yielded at
	dataFrom, openAt     int         // the first member not final in buf; delta mode: the open member last yielded (-1: none)
	openHash             uint64      // and the hash of its value then (progressive mode: see sniff09)
	dents                []dataEntry
	slots                []slot // the open component's child ids, at offsets from compStart, in order
	hslots               []slot // an odd form's (see oddForm)

	surfaces                               map[string]*surface
	deleted                                *deletedSurfaces // v0.8 surfaces deleted, not begun again (see messageEnd)
	queue, rest, ents, phs, walk, deferred []*entry
	kids                                   []*entry // a form's children not arrived (see changes)
	tail, canon                            []byte
	rx                                     *rareScratch // (see rare)
	cw                                     canonWriter

	out  []byte // the chunk's messages, bounded by offs in pairs
	offs []int
	msgs [][]byte
	seed maphash.Seed

	cat                             *protocol.Catalog
	scratch                         []byte
	maxDepth, maxSurfaces, maxComps int
	records                         []*dataRecord // v0.8: the records of yielded data (see data08.go)
	fenceAt                         int           // the block's first fence (see between)
	uncounted                       int           // surfaces not counted in MaxSurfaces (see surface.uncounted)
	snapGen                         uint32
	msgGen                          uint32 // counts the messages opened

	commaD, listD, bDepth int32 // (see comma and listA); the brackets open in a broken message (see fail)
	compEmpty             int32 // the first empty object ({}) in buf of the open component (-1: none; see component)

	inBlock                     bool
	lent                        bool // the messages of the last Flush are out: reset out first
	idle                        bool // a block ended: Messages lends the output to the caller until Release (held)
	held                        bool // the output is lent after a block ended, until Release or the next block
	ext                         bool // out is the caller's (see UseOutput)
	inStr, esc, isKey, inScalar bool
	pending                     uint8 // 1: a key awaits its colon, 2: a colon its value
	expect                      uint8 // what the grammar takes next (eListOpen...)
	hexLeft                     int8  // hex digits of a \u escape still to come
	strHigh                     bool  // the open string has a non-ASCII byte
	strEsc                      bool  // the open string (or the last one) has an escape
	idEsc                       bool  // the open component's id has an escape (see ownID)
	phSlot                      bool  // a child id of the open component starts "children_" (see component)
	failed                      bool  // the block failed: the rest of it is skipped
	broken, bStr, bEsc          bool  // the block failed inside a message that has not ended (see fail)
	lost                        bool  // the block lost count of its brackets (lost.go)
	bare                        bool  // stack[0] is no list's: the block's message is bare (see between)
	fence, fenced, content      bool  // in a markdown fence's marker; the block has one; the block has other than spaces
	found                       bool  // an object closed in the block (valid: see lost.go)
	v08, famSet                 bool  // the stream is of the v0.8 family; its family is fixed (see setFamily)
	msgKind                     uint8
	odd, pathSeen               bool      // the open component is of an odd shape (walk.go); v0.8: it has a path in its definition
	dataSent                    bool      // the open data model message yielded its value
	compDone                    bool      // a component ended in the chunk (see takeHeld)
	lines                       bool      // a block is one message (JSONL)
	progressive                 bool      // yield snapshots (progressive mode), not changes
	lostBlocks                  uint32    // blocks read the lost way (see LostBlocks)
	arriving                    *openForm // the form of the component arriving (see openSrc)
	body                        *snapBody // progressive mode: the forms of the last snapshot
}

// Options configures an Engine.
type Options struct {
	// Progressive yields snapshots, as the parser's progressive mode, not
	// changes (delta mode).
	Progressive bool
	// Lines reads each block as one message object (JSONL framing), not a
	// list of them.
	Lines bool
	// Catalog, when set, judges what the engine yields as the parser
	// does with it (catalog.go).
	Catalog *protocol.Catalog
	// MaxDepth bounds the containers open at once in a block, the list
	// included (a deeper one fails it: FaultTooDeep); 0 means 128.
	MaxDepth int
	// MaxSurfaces bounds the surfaces a stream holds (deleteSurface frees
	// one), MaxComponents the components of a surface: a message past
	// either fails its block with a *Limit (what the block yielded before
	// stands). 0 means no bound.
	MaxSurfaces, MaxComponents int
}

// New returns an engine, outside any block.
func New(o Options) *Engine {
	return &Engine{compStart: -1, listA: -1, valueA: -1, openAt: -1, healLen: -1,
		surfaces: map[string]*surface{}, seed: maphash.MakeSeed(), progressive: o.Progressive, lines: o.Lines, cat: o.Catalog, maxDepth: cmp.Or(o.MaxDepth, 128),
		maxSurfaces: o.MaxSurfaces, maxComps: o.MaxComponents}
}

// reset drops the messages of the last Flush (the caller's own output,
// see UseOutput, keeps its bytes).
func (k *Engine) reset() {
	if k.lent {
		k.offs, k.lent = k.offs[:0], false
		if !k.ext {
			k.out = k.out[:0]
		}
	}
}

// UseOutput has the engine append the messages of its next calls to dst,
// after the bytes dst holds, which it never touches, instead of to its own
// storage, until TakeOutput. The messages it returns meanwhile are slices
// of dst (their capacity runs to dst's end): a caller that lends its
// output can hand them out as they are, with no copy.
func (k *Engine) UseOutput(dst []byte) {
	if k.held {
		k.Release()
	}
	if !k.ext && cap(k.out) > 0 {
		outputs.Put(&output{out: k.out[:0]}) // (its own, for the next block of any stream)
	}
	k.out, k.offs, k.lent, k.ext = dst, k.offs[:0], false, true
}

// TakeOutput returns the output given by UseOutput, grown by the messages
// written to it since (a new array if it outgrew its capacity), and lets
// go of it: the engine's next messages go to its own storage.
func (k *Engine) TakeOutput() []byte {
	out := k.out
	k.out, k.ext = nil, false
	return out
}

// letGo drops the scratch a block grew (its buffer, the scanner's and
// writers' lists), so that a stream between blocks holds little more than
// its surfaces (see Messages for the output).
func (k *Engine) letGo() {
	if cap(k.buf) <= maxPooledBuf {
		b := k.buf[:0] // (its own header: the field is cleared below)
		bufs.Put(&b)
	}
	k.detach()
	sc := &blockScratch{k.stack, k.slots, k.hslots, k.dents, k.tail, k.canon, k.scratch, k.cw.ms,
		[7][]*entry{k.queue, k.rest, k.ents, k.phs, k.walk, k.deferred, k.kids}, k.arriving, k.body}
	if sc.keep() {
		scratches.Put(sc)
	}
	k.buf, k.stack, k.slots, k.hslots, k.dents, k.rx = nil, nil, nil, nil, nil, nil
	k.tail, k.canon, k.scratch, k.cw.ms, k.arriving, k.body = nil, nil, nil, nil, nil, nil
	k.queue, k.rest, k.ents, k.phs, k.walk, k.deferred, k.kids = nil, nil, nil, nil, nil, nil, nil
}

// bufs holds the block buffers of streams between blocks (*[]byte), for
// the next block of any stream: a stream holds none while it idles, and a
// block does not grow one anew.
var bufs sync.Pool

// maxPooledBuf bounds the buffers bufs keeps: a larger block's goes.
const maxPooledBuf = 64 << 10

// blockScratch is the storage of the lists a block grows (the scanner's,
// the heal's and the writers'), kept between blocks in scratches for the
// next block of any stream, as bufs keeps block buffers: a stream holds
// none while it idles, and a block does not grow them anew (about 37
// allocations a block: 55,827 to 48,331 per v0.9 delta pass of 200
// blocks).
type blockScratch struct {
	stack                []frame
	slots, hslots        []slot
	dents                []dataEntry
	tail, canon, scratch []byte
	ms                   []member
	ents                 [7][]*entry // queue, rest, ents, phs, walk, deferred, kids
	arriving             *openForm
	body                 *snapBody
}

var scratches sync.Pool

// keep empties sc's lists and reports whether it is small enough to
// keep: its entry lists are cleared to their capacity, so that a pooled
// list holds no stream's entries alive.
func (sc *blockScratch) keep() bool {
	n := cap(sc.stack)*int(unsafe.Sizeof(frame{})) + (cap(sc.slots)+cap(sc.hslots))*int(unsafe.Sizeof(slot{})) +
		cap(sc.dents)*int(unsafe.Sizeof(dataEntry{})) + cap(sc.tail) + cap(sc.canon) + cap(sc.scratch) +
		cap(sc.ms)*int(unsafe.Sizeof(member{}))
	sc.stack, sc.slots, sc.hslots, sc.dents = sc.stack[:0], sc.slots[:0], sc.hslots[:0], sc.dents[:0]
	sc.tail, sc.canon, sc.scratch, sc.ms = sc.tail[:0], sc.canon[:0], sc.scratch[:0], sc.ms[:0]
	for i, l := range sc.ents {
		clear(l[:cap(l)])
		sc.ents[i], n = l[:0], n+int(unsafe.Sizeof((*entry)(nil)))*cap(l)
	}
	if sc.arriving != nil {
		sc.arriving.buf, n = sc.arriving.buf[:0], n+cap(sc.arriving.buf)
	}
	if b := sc.body; b != nil {
		// (Bounded on its own: a large surface's body does not take the
		// lists with it.)
		b.s, b.b, b.ph, b.lens, b.last = nil, b.b[:0], b.ph[:0], b.lens[:0], nil
		if cap(b.b)+cap(b.ph)+4*cap(b.lens) > maxPooledBuf {
			sc.body = nil
		}
	}
	return n <= maxPooledBuf
}

// reuse gives k the lists of a blockScratch kept by an earlier block (of
// any stream), those k has none of.
func (k *Engine) reuse() {
	sc, _ := scratches.Get().(*blockScratch)
	if sc == nil {
		return
	}
	reuse(&k.stack, sc.stack)
	reuse(&k.slots, sc.slots)
	reuse(&k.hslots, sc.hslots)
	reuse(&k.dents, sc.dents)
	reuse(&k.tail, sc.tail)
	reuse(&k.canon, sc.canon)
	reuse(&k.scratch, sc.scratch)
	reuse(&k.cw.ms, sc.ms)
	for i, l := range []*[]*entry{&k.queue, &k.rest, &k.ents, &k.phs, &k.walk, &k.deferred, &k.kids} {
		reuse(l, sc.ents[i])
	}
	if k.arriving == nil {
		k.arriving = sc.arriving
	}
	if k.body == nil {
		k.body = sc.body
	}
}

// reuse sets *dst to the empty list src unless *dst has storage.
func reuse[T any](dst *[]T, src []T) {
	if cap(*dst) == 0 {
		*dst = src
	}
}

// Begin starts a block.
func (k *Engine) Begin() {
	k.reset()
	if k.held {
		// The last block's messages were not released: they are the
		// caller's.
		k.out, k.offs, k.msgs, k.lent, k.held = nil, nil, nil, false, false
	}
	if k.out == nil {
		if o, _ := outputs.Get().(*output); o != nil {
			k.out, k.offs, k.msgs = o.out, o.offs, o.msgs
		}
	}
	if k.buf == nil {
		if b, _ := bufs.Get().(*[]byte); b != nil {
			k.buf = *b
		}
		k.reuse()
	}
	k.inBlock = true
	k.buf, k.stack, k.compStart, k.healLen, k.msgKind = k.buf[:0], k.stack[:0], -1, -1, 0
	k.expect, k.failed, k.lost, k.found, k.comma, k.bare = eListOpen, false, false, false, -1, false
	k.fence, k.fenced, k.content = false, false, false
	k.inStr, k.esc, k.inScalar, k.hexLeft, k.strHigh, k.spaces = false, false, false, 0, false, 0
	if k.lines {
		k.open('[')                     // the line's message read as the list's only one
		k.expect, k.spaces = eValue, -1 // (that '[' is not the block's)
	}
}

// Abort drops the open block (its bytes yield nothing more), as when the
// caller fails it. The components whose yield waits for the block's end
// (see wake) are yielded: Messages takes them, as after End.
func (k *Engine) Abort() {
	k.reset()
	if k.inBlock {
		if k.broken {
			k.broken = false
			k.errs++
		}
		k.failWith(nil)
		k.inBlock, k.idle = false, true
		k.blockEnd()
		k.letGo()
	}
}

// Messages returns the messages yielded since the previous Flush or
// Messages, without healing (see Flush): what End yields, say. They are
// lent until the next call, or, after a block ended (End, Abort), until
// Release.
func (k *Engine) Messages() [][]byte {
	k.reset()
	k.msgs = k.msgs[:0]
	for i := 0; i < len(k.offs); i += 2 {
		k.msgs = append(k.msgs, k.out[k.offs[i]:k.offs[i+1]])
	}
	k.lent = true
	msgs := k.msgs
	if k.idle {
		// Between blocks the output is the caller's until Release (or
		// the next block).
		k.idle, k.held = false, true
	}
	return msgs
}

// Release tells the engine that the caller no longer reads the messages
// Messages returned after a block ended: their storage goes to a pool for
// the next block of any stream, so that the stream holds none while it
// idles and the next block does not grow it anew. Without it, the engine
// holds them until its next block begins, and leaves them to the caller
// then.
func (k *Engine) Release() {
	if !k.held {
		return
	}
	o := &output{k.out[:0], k.offs[:0], k.msgs}
	if k.ext {
		o.out, k.ext = nil, false // (the caller's: see UseOutput)
	}
	clear(o.msgs[:cap(o.msgs)])
	if o.msgs = o.msgs[:0]; cap(o.out) <= maxPooledBuf {
		outputs.Put(o)
	}
	k.out, k.offs, k.msgs, k.lent, k.held = nil, nil, nil, false, false
}

// output is the storage of an engine's messages, kept in outputs between
// blocks (see Release).
type output struct {
	out  []byte
	offs []int
	msgs [][]byte
}

var outputs sync.Pool

// End ends the block: a block with no message fails; the components whose
// yield waits for the block's end are queued (see wake).
func (k *Engine) End() {
	k.reset()
	if !k.inBlock {
		return
	}
	if k.broken {
		// The message that broke never ended: complete mode's verdict,
		// unless its break was one at once (a mismatched bracket).
		if k.broken = false; k.rx == nil || !k.rx.bFirm {
			k.err = &Fault{At: k.msgRaw, Kind: FaultUnterminated}
		}
		k.errs++
	}
	if !k.failed && k.runeCut() {
		// It ends inside a character: as in complete mode.
		k.failWith(&Fault{At: k.msgRaw, Kind: FaultUnterminated})
	}
	switch {
	case k.failed, k.found:
	case k.fenced && k.expect == eListOpen:
		k.failWith(&Fault{At: k.fenceAt, Kind: FaultFenceOnly}) // fences and nothing else
	case k.content:
		k.failWith(&Fault{Kind: FaultNothing}) // no object closed in it, as in the parser
	}
	k.inBlock, k.idle = false, true
	k.blockEnd()
	k.letGo()
}

// Failed returns the number of blocks that failed so far.
func (k *Engine) Failed() int { return k.errs }

// LostBlocks returns how many blocks lost count of their brackets and were
// read the reference's way (lost.go), where the verdict on their bytes may
// differ from complete mode's.
func (k *Engine) LostBlocks() int { return int(k.lostBlocks) }

// Err returns why the last block that failed did: a *Fault for its bytes,
// a *Limit for a bound passed, a *protocol.ValidationError for a
// self-reference, a cycle, a tree too deep, or a message the catalog
// rejects (nil: its caller aborted it).
func (k *Engine) Err() error { return k.err }

// Flush ends a chunk: the open component or data model message is healed
// and what changed is yielded. It returns the messages yielded since the
// previous Flush, each a complete JSON object; they and the slice are lent
// until the next call on k.
func (k *Engine) Flush() [][]byte {
	k.reset()
	k.endOfChunk()
	return k.Messages()
}

// rareScratch is the scratch of what few blocks need (odd components,
// healed data model messages, a catalog's verdicts): made on first use,
// let go at the block's end, so that a stream holds none of it.
type rareScratch struct {
	cbuf, pbuf, heald []byte
	empties           []emptyList
	spans             []memberSpan
	held              []heldComp
	// v0.8 data model messages (data08.go).
	msg08, sid, path, e08buf, flat []byte
	idDec, idEnc                   []byte // an escaped id (see idText)
	ptr, dkey                      []byte // a member's path (see entryPath)
	nest                           []byte // an open nested component healed (see nestedOpen)
	nulls                          []nullKey
	els                            []entry08
	read08                         read08 // what of els a later sniff of the same message keeps
	body08                         body08 // the open message's body as last read, and its msgGen (see openBody08)
	body08Msg                      uint32
	order                          []int32
	kv                             []keyVal
	deferred                       int  // progressive mode: surfaces whose snapshot is held back (see snapshot)
	filled                         bool // the block wrote a "children_<id>" placeholder in a form (oddForm): take looks for it
	// A message broken (see fail): the brackets open, the offset of the
	// next byte skipBroken reads, whether its fault is complete mode's
	// whatever follows (a mismatched bracket), and the UTF-8 of the bytes
	// since the break (checked when it ends): the character arriving and
	// its offset, and the offset of the first invalid one (-1: none).
	bOpen         []byte
	bAt           int
	bFirm         bool
	bRune         []byte
	bRuneAt, bBad int
}

// rare returns the block's rareScratch.
func (k *Engine) rare() *rareScratch {
	if k.rx == nil {
		k.rx = new(rareScratch)
	}
	return k.rx
}

// runeCut reports whether the open string (a key or a value) ends inside
// a character.
func (k *Engine) runeCut() bool {
	return k.inStr && k.strHigh && cutRune(k.buf[k.strStart+1:]) >= 0
}

// cutRune returns where the UTF-8 sequence b ends inside starts in b (its
// last lead byte, in the last three, starts a sequence b cuts), or -1.
func cutRune(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-3; i-- {
		switch c := b[i]; {
		case c >= 0xc0:
			if utf8.FullRune(b[i:]) {
				return -1
			}
			return i
		case c < 0x80:
			return -1
		}
	}
	return -1
}
