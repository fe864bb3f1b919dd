package deltaengine

import (
	"unsafe"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// With a catalog (Options.Catalog), the engine judges what it yields as
// the parser does:
//
//   - each component's form, as the component message of that form alone
//     (judge): a surface yields nothing while one of its reachable
//     components, or a placeholder it writes, does not pass; what it would
//     have yielded then counts as yielded, as in the parser;
//   - a v0.8 definition without the required properties of its type is
//     not taken (renderable);
//   - a data model message healed is yielded only when it passes;
//   - each complete message, which fails the block with the catalog's
//     error when it does not pass (checkMessage).
//
// The catalog's reference fields of a component's type are references as
// the well-known ones are; a type with reference fields of its own makes
// its components odd (walk.go).

// verdict reports whether msg, one message's JSON, passes the catalog (as
// a one-message list, without the root and orphan checks).
func (k *Engine) verdict(msg []byte) bool {
	if valid, decided := k.cat.MessageVerdict(unsafe.String(unsafe.SliceData(msg), len(msg))); decided {
		return valid
	}
	return k.cat.ValidateJSON(msg, protocol.WithStrictIntegrity(false)) == nil
}

// judge records whether form, component e's (of surface s), passes the
// catalog as a component message of it alone.
func (k *Engine) judge(s *surface, e *entry, form []byte) {
	r := k.rare()
	b := k.openMessage(r.cbuf[:0])
	b = append(b, form...)
	r.cbuf = k.closeMessage(b, s)
	bad := !k.verdict(r.cbuf)
	if e.reach && bad != e.bad {
		if bad {
			s.bad++
		} else {
			s.bad--
		}
	}
	e.bad = bad
}

// placeholdersPass reports whether the placeholders of phs pass the
// catalog (see placeholderPasses).
func (k *Engine) placeholdersPass(s *surface, phs []*entry) bool {
	for _, p := range phs {
		if !k.placeholderPasses(s, p) {
			return false
		}
	}
	return true
}

// placeholderPasses reports whether the placeholder of p passes the
// catalog as a component message of it alone for surface s (judged once).
func (k *Engine) placeholderPasses(s *surface, p *entry) bool {
	if p.phVerdict == 0 {
		r := k.rare()
		b := k.openMessage(r.cbuf[:0])
		b = k.placeholder(b, p)
		r.cbuf = k.closeMessage(b, s)
		p.phVerdict = -1
		if k.verdict(r.cbuf) {
			p.phVerdict = 1
		}
	}
	return p.phVerdict > 0
}

// renderable reports whether the v0.8 component c (compact) has the
// required properties of its definition's type (the first, the parser's
// reading), when there is a catalog.
func (k *Engine) renderable(c []byte) bool {
	if k.cat == nil || !k.v08 {
		return true
	}
	def := valueOf(c, 0, "component")
	if def < 0 || c[def] != '{' || c[def+1] != '"' {
		return true
	}
	var typ []byte
	props := -1
	each(c, def, func(key []byte, v int) {
		if props < 0 {
			typ, props = key, v
		}
	})
	if c[props] != '{' {
		return true
	}
	for _, req := range k.cat.RequiredFields(string(typ)) {
		if valueOf(c, props, req) < 0 {
			return false
		}
	}
	return true
}

// checkMessage fails the block when the message that just ended (msg)
// does not pass the catalog (strict: with the root and orphan checks, as
// for a message the engine yields whole), and reports whether it passed.
func (k *Engine) checkMessage(msg []byte, strict bool) bool {
	if k.cat == nil {
		return true
	}
	// The verdict is the schema's and the limits': enough without the
	// root and orphan checks, and for a message of a kind that holds no
	// components with them.
	if valid, decided := k.cat.MessageVerdict(unsafe.String(unsafe.SliceData(msg), len(msg))); valid && decided && (!strict || k.msgKind != 0 && k.msgKind != kUpdate) {
		return true
	}
	if err := k.cat.ValidateJSON(msg, protocol.WithStrictIntegrity(strict)); err != nil {
		k.failWith(err)
		return false
	}
	return true
}
