package parser

import (
	"bytes"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
	"github.com/a2ui-stream/a2ui-stream/internal/protocoltape"
)

// keptVerdict is a catalog verdict on a component kept with what of it
// the verdict did not read (protocoltape.Unread): the component's bytes
// (comp), the spans of the texts it did not read and the closing brackets
// of the lists of such texts whose count it did not read, the wrapper the
// verdict was given in (epoch, closingEnc's; 0: none), the verdict, and
// the entry whose form comp was (ent: only which of the kept verdicts to
// try; the verdict is the bytes').
//
// A component being read is judged at each of its healed forms, and they
// most often differ only there: its last text growing, a placeholder id in
// a list of children giving way to the child's id when the child arrives,
// the list growing by a child id. Such a form has the same verdict, and
// the schema walk is spared.
type keptVerdict struct {
	ent          *compEntry
	comp         []byte
	texts, lists []int32
	epoch        uint32
	valid        bool
}

// keptVerdicts is how many keptVerdicts an engine keeps: the component
// being read and the parents waiting for children, most often.
const keptVerdicts = 8

// maxKeptComponent bounds the bytes of a component whose verdict is kept.
const maxKeptComponent = 16 << 10

// match reports the verdict on comp in wrapper epoch when comp is the
// component kept with some of its unread texts changed to plain ones
// (printable ASCII without quote or backslash: a JSON string's text as it
// is), and its unread lists grown by string items of plain texts.
func (v *keptVerdict) match(comp []byte, epoch uint32) (valid, ok bool) {
	if v.epoch == 0 || v.epoch != epoch || epoch == noWrapper {
		return false, false
	}
	at, prev := 0, 0 // where comp and v.comp are matched to
	texts, lists := v.texts, v.lists
	for len(texts) > 0 || len(lists) > 0 {
		// The next of the texts and lists, in order.
		next, isList := 0, len(texts) == 0 || len(lists) > 0 && lists[0] < texts[0]
		if isList {
			next = int(lists[0])
		} else {
			next = int(texts[0])
		}
		fixed := v.comp[prev:next]
		if !bytes.HasPrefix(comp[at:], fixed) {
			return false, false
		}
		at += len(fixed)
		if isList {
			// More items: ,"text" each.
			for bytes.HasPrefix(comp[at:], []byte(`,"`)) {
				end := jsonwire.PlainRun(comp, at+2)
				if end == len(comp) || comp[end] != '"' {
					return false, false
				}
				at = end + 1
			}
			prev, lists = next, lists[1:]
			continue
		}
		// The text ends at the first byte that is not plain, which must be
		// the quote the next fixed bytes start with.
		at = jsonwire.PlainRun(comp, at)
		prev, texts = int(texts[1]), texts[2:]
	}
	return v.valid, bytes.Equal(comp[at:], v.comp[prev:])
}

// keep records valid as the verdict on ent's form comp in wrapper epoch,
// which did not read u (nothing: nothing is kept).
func (v *keptVerdict) keep(ent *compEntry, comp []byte, u *protocoltape.Unread, epoch uint32, valid bool) {
	v.ent, v.epoch = ent, 0
	if len(u.Texts) == 0 || len(comp) > maxKeptComponent || epoch == noWrapper {
		return
	}
	v.comp = append(v.comp[:0], comp...)
	v.texts = append(v.texts[:0], u.Texts...)
	v.lists = append(v.lists[:0], u.Lists...)
	v.epoch, v.valid = epoch, valid
}

// verdictAgain returns the verdict on ent's form comp kept in cs, if one
// matches.
func (cs *catalogScratch) verdictAgain(ent *compEntry, comp []byte, epoch uint32) (valid, ok bool) {
	for i := range cs.kept {
		if v := &cs.kept[i]; v.ent == ent {
			return v.match(comp, epoch)
		}
	}
	return false, false
}

// keepVerdict keeps the verdict on ent's form comp, in ent's place or the
// oldest one.
func (cs *catalogScratch) keepVerdict(ent *compEntry, comp []byte, u *protocoltape.Unread, epoch uint32, valid bool) {
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
	cs.kept[at].keep(ent, comp, u, epoch, valid)
}
