// Package parser is an incremental push parser for model output that mixes
// prose with A2UI messages.
//
// A model streams its answer token by token: prose interleaved with
// <a2ui-json>[ …messages… ]</a2ui-json> blocks (or ```a2ui fences, or bare
// JSON lines, by option). Feed the chunks in order as they arrive; each call
// returns the parts that its bytes completed:
//
//	p, _ := parser.New()
//	parts, err := p.Feed(chunk) // zero or more parts; need-more-bytes is not an error
//	...
//	parts, err = p.Close()      // the rest, at the end of the stream
//
// Tags may be split anywhere across chunks: text before a possible partial
// tag is released at once and only the possible tag prefix is held back, as
// is a multi-byte UTF-8 character split at the end of a chunk (and, in the
// progressive modes, an arriving string is yielded only up to its last whole
// character). Each byte is examined a bounded number of times however small
// the chunks, so the cost is linear in the input.
//
// Three modes choose what a block yields: ModeComplete (each top-level message
// once, as the exact bytes the model produced, or the repaired bytes with
// WithPayloadRepair), ModeProgressive (healed, reachable component
// snapshots as the A2UI streaming conformance suite specifies) and
// ModeDelta (progressive without repetition). The progressive modes run
// internal/deltaengine, which reads each block once and keeps per surface
// the components' ids and references as they arrive; its package doc says
// how.
//
// Errors: a block that fails is reported as a *BlockError wrapping the
// cause (a *SyntaxError with the stream byte offset, a *LimitError, a
// sentinel such as ErrTooLarge, or, for a snapshot that fails the catalog,
// a *protocol.ValidationError), dropped, and parsing continues after its
// end; messages it yielded before the failure stand. Every mode reads a
// block with one grammar, complete mode's: a byte it rejects (malformed
// JSON, invalid UTF-8, anything but whitespace, commas and fence markers
// between messages) fails the block in every mode with the same error at
// the same offset, when complete mode's fails (at once between messages,
// at the message's end inside one); the progressive modes yield only what
// the bytes before it yield. So do a block too large or too deep. Beyond
// that, what fails a block depends on the mode:
//
//   - complete mode: a block or stream that ends inside an unfinished
//     message (ErrUnterminated);
//   - progressive and delta modes: a block none of which parsed ("No
//     valid JSON object found in A2UI block."), a complete message that
//     fails validation, and the state limits (WithMaxSurfaces,
//     WithMaxComponents). A stream or block that ends inside a message
//     yields what was healed of it, with no error (unless the message
//     broke the grammar, or ends inside a character: ErrUnterminated, as
//     in complete mode). One exception, which the A2UI streaming
//     conformance suite requires: a block whose first fault is a lost
//     count of brackets (a closing bracket of the wrong kind after a
//     value, an object where a comma, a closing bracket or a key was due,
//     an extra '}' after the messages) is read to its end as the reference
//     parser reads it, tracking strings and brackets only.
//
// ParseResponse and FixPayload handle whole, non-streamed responses;
// WithPayloadRepair gives a stream the same repairs as it arrives (it holds
// back at most a comma, until the next byte shows whether it is a trailing
// one, and a split character that may be a typographic quote).
//
// Ownership: returned parts and their bytes belong to the caller; the parser
// keeps no reference to them nor to the chunks passed to Feed. With
// WithBorrowedOutput they are instead the parser's, valid until the next
// Feed or Close call (as bufio.Scanner.Bytes), which spares an allocation per
// yield: a consumer that writes or applies each call's parts before the
// next call should use it. After that call their storage may be reused by
// any Parser of the program (released blocks are pooled).
//
// A Parser is not safe for concurrent use; distinct Parsers may be used
// concurrently (they share only pools of released buffers).
package parser
