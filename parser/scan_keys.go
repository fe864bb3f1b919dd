package parser

import (
	"github.com/a2ui-stream/a2ui-stream/internal/deltaengine"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// What the progressive scan learns from the keys and string values it
// reads: the message kinds and data model tokens in the buffered message,
// the family, and a message's surface, root and version (the reference
// sniffs these with patterns; here only where they belong, see msgDepth).

// Flags of an open object: which keys it has at its own level.
const (
	flagID        = 1 << iota // "id"
	flagComponent             // "component"
	flagDataV08               // "dataModelUpdate"
	flagDataV09               // "updateDataModel"
	flagKindV08               // a v0.8 message kind (beginRendering, surfaceUpdate, dataModelUpdate, deleteSurface)
	flagKindV09               // a v0.9-family kind the reference recognises (createSurface, updateComponents, updateDataModel)
)

// keyClass classifies a key for the scanner.
type keyClass uint8

const (
	keyOther keyClass = iota
	keyID
	keyComponent
	keySurfaceID
	keyRoot
	keyVersion
	keyComponents       // "components"
	keyUpdateComponents // "updateComponents"
	keySurfaceUpdate    // "surfaceUpdate"
)

func classifyKey(k []byte) (keyClass, uint8) {
	switch string(k) {
	case "id":
		return keyID, flagID
	case "component":
		return keyComponent, flagComponent
	case "surfaceId":
		return keySurfaceID, 0
	case "root":
		return keyRoot, 0
	case "version":
		return keyVersion, 0
	case "surfaceUpdate":
		return keySurfaceUpdate, flagKindV08
	case "beginRendering", "deleteSurface":
		return keyOther, flagKindV08
	case "dataModelUpdate":
		return keyOther, flagKindV08 | flagDataV08
	case "components":
		return keyComponents, 0
	case "createSurface":
		return keyOther, flagKindV09
	case "updateComponents":
		return keyUpdateComponents, flagKindV09
	case "updateDataModel":
		return keyOther, flagKindV09 | flagDataV09
	}
	return keyOther, 0
}

func familyOfKindFlag(fl uint8) protocol.Family {
	switch {
	case fl&flagKindV08 != 0:
		return protocol.FamilyV08
	case fl&flagKindV09 != 0:
		return protocol.FamilyV09
	}
	return protocol.FamilyUnknown
}

// stringClosed handles the closing quote of a string.
func (e *progressiveEngine) stringClosed() {
	s := &e.sc
	a, b := s.strStart+1, len(s.buf)-1
	content := s.buf[a:b]
	s.lastStrA, s.lastStrB = a, b
	s.afterStr, s.afterStrAdj = true, true
	switch string(content) {
	case "components":
		s.compTok = true
	case "dataModelUpdate":
		s.dataTokV08 = true
	case "updateDataModel":
		s.dataTokV09 = true
	}
	if !s.strIsVal {
		return
	}
	switch s.strKey {
	case keySurfaceID, keyRoot, keyVersion:
	default:
		return
	}
	// The reference reads these with "key"\s*:\s*"([^"]+)": the value stops
	// at the first quote byte and must not be empty.
	for k, ch := range content {
		if ch == '"' {
			content = content[:k]
			break
		}
	}
	if len(content) == 0 {
		return
	}
	want := 2 // a body's member
	if s.strKey == keyVersion {
		want = 1 // the message's
	}
	if s.msgDepth() != want {
		// A component's or a data value's "surfaceId", "root" or
		// "version" member names no surface, root or version: those are
		// the body's and the message's (the reference's pattern matched
		// them anywhere in the message).
		return
	}
	switch s.strKey {
	case keySurfaceID:
		s.bufSurface = e.surface // most messages name the current surface
		if string(content) != s.bufSurface {
			s.bufSurface = string(content)
		}
	case keyRoot:
		s.bufRoot, s.hasBufRoot = string(content), true
	case keyVersion:
		s.bufVersion = string(content)
		return
	}
	e.resniff()
}

// msgDepth is the nesting of the innermost open container in the
// top-level message: 1 for the message object (`{"version": …}`), 2 for a
// body (`{"beginRendering": {…}}`), in a list of messages or not, and 0
// when the stack does not have that shape.
func (s *progScan) msgDepth() int {
	base := 0
	if s.inList {
		base = 1
	}
	d := len(s.stack) - base
	if d < 1 || s.stack[base].open != '{' || s.stack[len(s.stack)-1].open != '{' {
		return 0
	}
	return d
}

// keyFound handles a ':' after a string: the string was a key.
func (e *progressiveEngine) keyFound() {
	s := &e.sc
	key := s.buf[s.lastStrA:s.lastStrB]
	cls, fl := classifyKey(key)
	s.valKey = cls
	s.valKeyCut = deltaengine.CuttableKey(key)
	if fl == 0 {
		return
	}
	if top := &s.stack[len(s.stack)-1]; top.open == '{' {
		top.flags |= fl
		if fl&(flagID|flagComponent) != 0 {
			s.compLow = min(s.compLow, len(s.stack)-1)
		}
	}
	if fl&(flagKindV08|flagKindV09) != 0 && s.afterStrAdj {
		// `"kind":` present in the buffer: the reference's message-type sniff.
		e.kindSeen = true
		if !e.famFixed && e.fam == protocol.FamilyUnknown {
			e.setFamily(familyOfKindFlag(fl))
		}
	}
}
