// Package protocoltape is how the module's packages reach package
// protocol's entry points on a token tape (internal/jsontape) without
// those being protocol's public API: a tape is an implementation detail
// that the processor and protocol share, so that a message is parsed once.
//
// Package protocol registers its entry points here from its init
// function (protocol imports this package, never the reverse, so there is
// no import cycle); a caller imports protocol too (the processor does, for
// its catalogs), which makes sure the registration has run before any
// call. The catalog is passed as an any because this package cannot name
// *protocol.Catalog; ValidTape panics on anything else.
//
// Everything here is safe for concurrent use once protocol's init has
// run: the hooks are set once and only read afterwards.
package protocoltape

import "github.com/a2ui-stream/a2ui-stream/internal/jsontape"

// Hooks are package protocol's entry points on a tape.
type Hooks struct {
	// ValidTape is the fast validity check of a *protocol.Catalog (nil:
	// the protocol's limits only) on a message already parsed onto tp:
	// true means certainly valid (the catalog's schema and the protocol's
	// limits), false invalid or not decided (then the caller takes the
	// full path, ValidateSchema and CheckLimits).
	ValidTape func(c any, tp *jsontape.Tape) bool
	// Error maps an error of jsontape's Parse to the protocol's public
	// errors.
	Error func(err error) error
	// Components is ComponentVerdicts.
	Components func(c any, open, close []byte) ComponentVerdict
	// Lists is ListVerdicts.
	Lists func(c any, open, close []byte) ListVerdict
}

// ComponentVerdict is a catalog's MessageVerdict on the message
// open+comp+close of one component, judged on comp alone (open and close,
// the wrapper, were judged once): when decided, the answer is
// MessageVerdict's on the message, which decides it too; undecided, the
// caller takes the message's path. With a key, free also reports that the
// verdict is the same for every comp' that is comp but for the value of
// comp's member key, a string (as long as comp' is JSON).
//
// With unread non-nil, a decided verdict also sets *unread (reusing its
// storage) to what of comp it did not read (see Unread): the verdict is
// the same for every comp' that is comp with any of those texts changed
// and any of those lists grown (as long as comp' is JSON). A component
// being read changes mostly there (its last text growing, a placeholder
// id giving way to the child's, a list of children growing), so that a
// caller that keeps a verdict with what it did not read can give it
// again (see parser's keptVerdict).
type ComponentVerdict func(comp, key string, unread *Unread) (valid, decided, free bool)

// Unread is what of a component a verdict did not read, as offsets in the
// component, in order.
type Unread struct {
	// Texts are the string values whose text the verdict did not read,
	// as offset pairs (after the opening quote, at the closing one); never
	// a "path" member's (the protocol's limits read it).
	Texts []int32
	// Lists are the arrays, at the offset of their closing bracket, of
	// string items whose texts are all among Texts and whose count the
	// verdict did not read: more string items may follow the last one.
	Lists []int32
}

// ComponentVerdicts returns the verdict of catalog c (a *protocol.Catalog)
// on the messages of one component that open and close wrap (which it
// does not keep). Safe for concurrent use, as the verdict it returns.
func ComponentVerdicts(c any, open, close []byte) ComponentVerdict {
	return hooks.Components(c, open, close)
}

// ListVerdict is a catalog's MessageVerdict on the message
// open+C1,...,Cn+close (n >= 1 components, each one JSON value, separated
// by commas, the whole under 1 GiB) where the caller knows that each Ci
// alone, open+Ci+close, has MessageVerdict valid and decided: judged on n
// alone. When decided, the answer is
// MessageVerdict's; undecided, the caller takes the message's path.
type ListVerdict func(n int) (valid, decided bool)

// ListVerdicts returns the verdict of catalog c (a *protocol.Catalog) on
// the messages of components known valid alone that open and close wrap
// (which it does not keep). Safe for concurrent use, as the verdict it
// returns.
func ListVerdicts(c any, open, close []byte) ListVerdict {
	return hooks.Lists(c, open, close)
}

var hooks Hooks

// Register sets the hooks; package protocol calls it once, from its init
// function.
func Register(h Hooks) { hooks = h }

// ValidTape reports whether the message on tp is certainly valid for the
// catalog c, a *protocol.Catalog (a nil one checks the protocol's limits
// only), without parsing it again. It is false when tp's last Parse failed
// or there was none. It reads tp without changing it.
func ValidTape(c any, tp *jsontape.Tape) bool { return hooks.ValidTape(c, tp) }

// Parse parses msg onto tp (see jsontape.Tape.Parse) and reports its
// errors as package protocol does: a *protocol.JSONSyntaxError
// (protocol.ErrJSONSyntax), or a *protocol.ValidationError of kind
// protocol.ErrRecursionLimit (MessageIndex -1) for nesting deeper than
// protocol.MaxComponentDepth.
func Parse(tp *jsontape.Tape, msg string) error {
	if err := tp.Parse(msg); err != nil {
		return hooks.Error(err)
	}
	return nil
}
