package parser

import (
	"bytes"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// textsVerdict is a catalog verdict on a component kept with the texts it
// did not read (see protocoltape.ComponentVerdict): the component's bytes
// (comp), those texts' spans in them, the wrapper the verdict was given in
// (epoch, closingEnc's; 0: none), the verdict, and the entry whose form
// comp was (ent: only which of the kept verdicts to try; the verdict is
// the bytes').
//
// A component being read is judged at each of its healed forms, and they
// most often differ only in such texts: its last text growing, or a
// placeholder id in a list of children giving way to the child's id when
// the child arrives. Such a form has the same verdict, and the schema walk
// is spared: on the v0.9 corpus with the basic catalog, about half the
// verdicts.
type textsVerdict struct {
	ent   *compEntry
	comp  []byte
	texts []int32
	epoch uint32
	valid bool
}

// keptVerdicts is how many textsVerdicts an engine keeps: the component
// being read and the parents waiting for children, most often.
const keptVerdicts = 8

// maxKeptComponent bounds the bytes of a component whose verdict is kept.
const maxKeptComponent = 16 << 10

// match reports the verdict on comp in wrapper epoch when comp is the
// component kept with some of its texts changed to plain ones (printable
// ASCII without quote or backslash: a JSON string's text as it is).
func (v *textsVerdict) match(comp []byte, epoch uint32) (valid, ok bool) {
	if v.epoch == 0 || v.epoch != epoch || epoch == noWrapper {
		return false, false
	}
	at, prev := 0, 0
	for i := 0; i < len(v.texts); i += 2 {
		fixed := v.comp[prev:v.texts[i]]
		if !bytes.HasPrefix(comp[at:], fixed) {
			return false, false
		}
		// The text ends at the first byte that is not plain, which must be
		// the quote the next fixed bytes start with.
		at = jsonwire.PlainRun(comp, at+len(fixed))
		prev = int(v.texts[i+1])
	}
	return v.valid, bytes.Equal(comp[at:], v.comp[prev:])
}

// keep records valid as the verdict on ent's form comp in wrapper epoch,
// which did not read texts (none: nothing is kept).
func (v *textsVerdict) keep(ent *compEntry, comp []byte, texts []int32, epoch uint32, valid bool) {
	v.ent, v.epoch = ent, 0
	if len(texts) == 0 || len(comp) > maxKeptComponent || epoch == noWrapper {
		return
	}
	v.comp = append(v.comp[:0], comp...)
	v.texts = append(v.texts[:0], texts...)
	v.epoch, v.valid = epoch, valid
}

// keptVerdict returns the verdict on ent's form comp kept in cs, if one
// matches.
func (cs *catalogScratch) keptVerdict(ent *compEntry, comp []byte, epoch uint32) (valid, ok bool) {
	for i := range cs.kept {
		if v := &cs.kept[i]; v.ent == ent {
			return v.match(comp, epoch)
		}
	}
	return false, false
}

// keepVerdict keeps the verdict on ent's form comp, in ent's place or the
// oldest one.
func (cs *catalogScratch) keepVerdict(ent *compEntry, comp []byte, texts []int32, epoch uint32, valid bool) {
	at := -1
	for i := range cs.kept {
		if cs.kept[i].ent == ent {
			at = i
		}
	}
	if at < 0 {
		at = cs.nextKept
		cs.nextKept = (cs.nextKept + 1) % keptVerdicts
	}
	cs.kept[at].keep(ent, comp, texts, epoch, valid)
}

// releaseKept forgets the kept verdicts (and their entries), keeping
// small buffers.
func (cs *catalogScratch) releaseKept() {
	for i := range cs.kept {
		v := &cs.kept[i]
		*v = textsVerdict{comp: shrink(v.comp, 4*keepScratch), texts: shrink(v.texts, keepScratch)}
	}
	cs.texts = shrink(cs.texts, keepScratch)
}
