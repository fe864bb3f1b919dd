package protocol

import (
	"errors"
	"fmt"

	"github.com/a2ui-stream/a2ui-stream/internal/jsontape"
	"github.com/a2ui-stream/a2ui-stream/internal/protocoltape"
)

// The package's entry points on a token tape (internal/jsontape), which
// the processor shares with it so that a message is parsed once, are not
// public API: they are unexported here and registered at init into
// internal/protocoltape, which only the module's own packages can import.

func init() {
	protocoltape.Register(protocoltape.Hooks{ValidTape: validTapeHook, Error: tapeError, Components: componentsHook, Lists: listsHook})
}

// MaxComponentDepth and jsontape.MaxDepth are one limit: the tape parser
// enforces it. This does not compile when they differ (a negative
// constant does not convert to uint).
const _ = uint(MaxComponentDepth-jsontape.MaxDepth) + uint(jsontape.MaxDepth-MaxComponentDepth)

// validTapeHook is (*Catalog).validTape for protocoltape.ValidTape, whose
// catalog comes as an any.
func validTapeHook(c any, tp *jsontape.Tape) bool {
	cat, ok := c.(*Catalog)
	if !ok && c != nil {
		panic(fmt.Sprintf("protocol: ValidTape of a %T, not a *protocol.Catalog", c))
	}
	return cat.validTape(tp)
}

// componentsHook is (*Catalog).componentPlan for
// protocoltape.ComponentVerdicts.
func componentsHook(c any, open, close []byte) protocoltape.ComponentVerdict {
	cat, ok := c.(*Catalog)
	if !ok && c != nil {
		panic(fmt.Sprintf("protocol: ComponentVerdicts of a %T, not a *protocol.Catalog", c))
	}
	return cat.componentPlan(open, close).judge
}

// listsHook is (*Catalog).listPlan for protocoltape.ListVerdicts.
func listsHook(c any, open, close []byte) protocoltape.ListVerdict {
	cat, ok := c.(*Catalog)
	if !ok && c != nil {
		panic(fmt.Sprintf("protocol: ListVerdicts of a %T, not a *protocol.Catalog", c))
	}
	return cat.listPlan(open, close).verdict
}

// tapeError maps an error of jsontape's Parse to the package's public
// errors: a *JSONSyntaxError with the same offset and reason, or the
// global recursion limit's *ValidationError (as CheckLimits reports it).
func tapeError(err error) error {
	var se *jsontape.SyntaxError
	switch {
	case errors.As(err, &se):
		return &JSONSyntaxError{Offset: se.Offset, Reason: se.Reason}
	case errors.Is(err, jsontape.ErrDepth):
		return depthLimitError()
	}
	return err
}
