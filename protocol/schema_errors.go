package protocol

import (
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// maxSchemaDetails caps the nested failures kept on one error.
const maxSchemaDetails = 32

// schemaEntry is one schema failure in the reference's vocabulary: a
// message about the value at loc (segments from the payload array), and,
// for anyOf/oneOf, the failures of each alternative (branches).
type schemaEntry struct {
	msg      string
	loc      []string
	branches [][]schemaEntry
}

// schemaFailure converts a jsonschema validation error on the payload array
// msgs into one *ValidationError per failing message, with texts in the
// wording of Python's jsonschema (which the suites' patterns expect).
//
// Message is the first failure as the reference reports it (for a message
// matching none of the oneOf alternatives, "... is not valid under any of
// the given schemas"); Details lists the nested failures, those of the
// most plausible alternative first; Summary and Path name the most
// specific failure of that alternative.
func schemaFailure(err error, msgs []any, typeURLs map[string]bool) error {
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return &ValidationError{MessageIndex: -1, Message: "Validation failed: " + err.Error(), Kind: ErrSchema}
	}
	entries := flattenSchemaError(verr, msgs, typeURLs)
	sortEntries(entries)
	byMsg := map[int][]schemaEntry{}
	var order []int
	for _, e := range entries {
		idx := -1
		if len(e.loc) > 0 {
			if n, err := strconv.Atoi(e.loc[0]); err == nil {
				idx = n
			}
		}
		if _, seen := byMsg[idx]; !seen {
			order = append(order, idx)
		}
		byMsg[idx] = append(byMsg[idx], e)
	}
	sort.Ints(order)
	var out ValidationErrors
	for _, idx := range order {
		group := byMsg[idx]
		primary := group[0]
		ve := &ValidationError{MessageIndex: idx, Message: "Validation failed: " + primary.msg, Kind: ErrSchema}
		seen := map[string]bool{}
		var addDetails func(e schemaEntry)
		addDetails = func(e schemaEntry) {
			for _, b := range rankBranches(e) {
				for _, c := range b {
					if !seen[c.msg] && len(ve.Details) < maxSchemaDetails {
						seen[c.msg] = true
						ve.Details = append(ve.Details, c.msg)
					}
					addDetails(c)
				}
			}
		}
		addDetails(primary)
		for _, e := range group[1:] {
			if !seen[e.msg] && len(ve.Details) < maxSchemaDetails {
				seen[e.msg] = true
				ve.Details = append(ve.Details, e.msg)
			}
			addDetails(e)
		}
		best := bestLeaf(primary)
		if len(primary.branches) > 0 {
			ve.Summary = "Validation failed: " + best.msg
		}
		if idx >= 0 && idx < len(msgs) {
			if m, ok := msgs[idx].(map[string]any); ok {
				_, ve.SurfaceID = messageSurface(m)
			}
		}
		if len(best.loc) > 2 {
			ve.Path = jsonwire.JoinPointer(best.loc[2:])
		}
		out = append(out, ve)
	}
	switch len(out) {
	case 0:
		return &ValidationError{MessageIndex: -1, Message: "Validation failed: " + err.Error(), Kind: ErrSchema}
	case 1:
		return out[0]
	}
	return out
}

// rankBranches orders the alternatives of an anyOf/oneOf failure, most
// plausible first: fewest failures at the level of the value itself (a
// missing kind key or an unexpected property means the value was meant
// for another alternative), then the deepest failure.
func rankBranches(e schemaEntry) [][]schemaEntry {
	if len(e.branches) < 2 {
		return e.branches
	}
	type ranked struct {
		b       []schemaEntry
		shallow int
		depth   int
	}
	rs := make([]ranked, len(e.branches))
	for i, b := range e.branches {
		rs[i].b = b
		for _, c := range b {
			if len(c.loc) <= len(e.loc) {
				rs[i].shallow++
			}
			if len(c.loc) > rs[i].depth {
				rs[i].depth = len(c.loc)
			}
		}
	}
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].shallow != rs[j].shallow {
			return rs[i].shallow < rs[j].shallow
		}
		return rs[i].depth > rs[j].depth
	})
	out := make([][]schemaEntry, len(rs))
	for i, r := range rs {
		out[i] = r.b
	}
	return out
}

// bestLeaf descends through the most plausible alternatives to the most
// specific (deepest) failure.
func bestLeaf(e schemaEntry) schemaEntry {
	for depth := 0; len(e.branches) > 0 && depth < 64; depth++ {
		b := rankBranches(e)[0]
		if len(b) == 0 {
			break
		}
		next := b[0]
		for _, c := range b[1:] {
			if len(c.loc) > len(next.loc) {
				next = c
			}
		}
		e = next
	}
	return e
}

func sortEntries(es []schemaEntry) {
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i].loc, es[j].loc
		for k := 0; k < len(a) && k < len(b); k++ {
			if a[k] != b[k] {
				ai, aerr := strconv.Atoi(a[k])
				bi, berr := strconv.Atoi(b[k])
				if aerr == nil && berr == nil && ai != bi {
					return ai < bi
				}
				return a[k] < b[k] // (also "0" and "00": equal numbers, other keys)
			}
		}
		if len(a) != len(b) {
			return len(a) < len(b)
		}
		return es[i].msg < es[j].msg
	})
	for i := range es {
		for _, b := range es[i].branches {
			sortEntries(b)
		}
	}
}

// flattenSchemaError walks the error tree. Wrappers ($ref, allOf, groups of
// keyword failures) dissolve into their causes, as in Python's jsonschema
// where those keywords yield their sub-errors directly; anyOf/oneOf keep
// their alternatives as context. An enum failure at one of typeURLs (the
// component-type check of a synthesised anyComponent, see
// withAnyComponent) reads as the reference's "Unknown component type: X".
func flattenSchemaError(e *jsonschema.ValidationError, root []any, typeURLs map[string]bool) []schemaEntry {
	var out []schemaEntry
	causes := func() []schemaEntry {
		var cs []schemaEntry
		for _, c := range e.Causes {
			cs = append(cs, flattenSchemaError(c, root, typeURLs)...)
		}
		return cs
	}
	branches := func() [][]schemaEntry {
		bs := make([][]schemaEntry, 0, len(e.Causes))
		for _, c := range e.Causes {
			bs = append(bs, flattenSchemaError(c, root, typeURLs))
		}
		return bs
	}
	inst := func() string { return pyRepr(valueAt(root, e.InstanceLocation)) }
	loc := e.InstanceLocation
	leaf := func(msg string) []schemaEntry { return append(out, schemaEntry{msg: msg, loc: loc}) }

	switch k := e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		return causes()
	case *kind.PropertyNames:
		if len(e.Causes) > 0 {
			return causes()
		}
		return leaf(fmt.Sprintf("%s does not match the propertyNames schema", pyStr(k.Property)))
	case *kind.AnyOf:
		return append(out, schemaEntry{msg: inst() + " is not valid under any of the given schemas", loc: loc, branches: branches()})
	case *kind.OneOf:
		if len(k.Subschemas) == 0 {
			return append(out, schemaEntry{msg: inst() + " is not valid under any of the given schemas", loc: loc, branches: branches()})
		}
		idx := make([]string, len(k.Subschemas))
		for i, s := range k.Subschemas {
			idx[i] = strconv.Itoa(s)
		}
		return leaf(fmt.Sprintf("%s is valid under each of subschemas %s", inst(), strings.Join(idx, ", ")))
	case *kind.Type:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = pyStr(w)
		}
		return leaf(fmt.Sprintf("%s is not of type %s", inst(), strings.Join(want, ", ")))
	case *kind.Required:
		for _, m := range k.Missing {
			out = append(out, schemaEntry{msg: pyStr(m) + " is a required property", loc: loc})
		}
		return out
	case *kind.Const:
		return leaf(pyRepr(k.Want) + " was expected")
	case *kind.Enum:
		if typeURLs[e.SchemaURL] {
			return leaf("Unknown component type: " + pyStrValue(valueAt(root, loc)))
		}
		return leaf(fmt.Sprintf("%s is not one of %s", inst(), pyRepr(k.Want)))
	case *kind.AdditionalProperties:
		return leaf("Additional properties are not allowed (" + unexpected(k.Properties) + ")")
	case *kind.FalseSchema:
		return leaf("False schema does not allow " + inst())
	case *kind.Not:
		return leaf(inst() + " should not be valid under the given schema")
	case *kind.MinItems:
		if k.Want == 1 {
			return leaf(inst() + " should be non-empty")
		}
		return leaf(inst() + " is too short")
	case *kind.MaxItems:
		if k.Want == 0 {
			return leaf(inst() + " is expected to be empty")
		}
		return leaf(inst() + " is too long")
	case *kind.MinLength:
		if k.Want == 1 {
			return leaf(inst() + " should be non-empty")
		}
		return leaf(inst() + " is too short")
	case *kind.MaxLength:
		if k.Want == 0 {
			return leaf(inst() + " is expected to be empty")
		}
		return leaf(inst() + " is too long")
	case *kind.MinProperties:
		if k.Want == 1 {
			return leaf(inst() + " should be non-empty")
		}
		return leaf(inst() + " does not have enough properties")
	case *kind.MaxProperties:
		if k.Want == 0 {
			return leaf(inst() + " is expected to be empty")
		}
		return leaf(inst() + " has too many properties")
	case *kind.Pattern:
		return leaf(fmt.Sprintf("%s does not match %s", pyStr(k.Got), pyStr(k.Want)))
	case *kind.Minimum:
		return leaf(fmt.Sprintf("%s is less than the minimum of %s", inst(), ratString(k.Want)))
	case *kind.Maximum:
		return leaf(fmt.Sprintf("%s is greater than the maximum of %s", inst(), ratString(k.Want)))
	case *kind.ExclusiveMinimum:
		return leaf(fmt.Sprintf("%s is less than or equal to the minimum of %s", inst(), ratString(k.Want)))
	case *kind.ExclusiveMaximum:
		return leaf(fmt.Sprintf("%s is greater than or equal to the maximum of %s", inst(), ratString(k.Want)))
	case *kind.MultipleOf:
		return leaf(fmt.Sprintf("%s is not a multiple of %s", inst(), ratString(k.Want)))
	case *kind.UniqueItems:
		return leaf(inst() + " has non-unique elements")
	case *kind.Contains:
		return leaf(inst() + " does not contain items matching the given schema")
	case *kind.Format:
		return leaf(fmt.Sprintf("%s is not a %s", inst(), pyStr(k.Want)))
	case *kind.DependentRequired:
		for _, m := range k.Missing {
			out = append(out, schemaEntry{msg: fmt.Sprintf("%s is a dependency of %s", pyStr(m), pyStr(k.Prop)), loc: loc})
		}
		return out
	case *kind.Dependency:
		for _, m := range k.Missing {
			out = append(out, schemaEntry{msg: fmt.Sprintf("%s is a dependency of %s", pyStr(m), pyStr(k.Prop)), loc: loc})
		}
		return out
	}
	if len(e.Causes) > 0 {
		return causes()
	}
	return leaf(e.ErrorKind.LocalizedString(englishPrinter))
}

var englishPrinter = message.NewPrinter(language.English)

// unexpected lists the unexpected properties, sorted: the validator reports
// them in map order, and the same failure must read the same every time.
func unexpected(props []string) string {
	q := make([]string, len(props))
	for i, p := range props {
		q[i] = pyStr(p)
	}
	sort.Strings(q)
	verb := " was unexpected"
	if len(q) > 1 {
		verb = " were unexpected"
	}
	return strings.Join(q, ", ") + verb
}

func ratString(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return pyFloat(f)
}

// valueAt follows instance location segments into a decoded JSON value.
func valueAt(root any, loc []string) any {
	var cur any = root
	for _, seg := range loc {
		switch x := cur.(type) {
		case map[string]any:
			cur = x[seg]
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			cur = x[i]
		default:
			return nil
		}
	}
	return cur
}
