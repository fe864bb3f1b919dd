package protocol

import "github.com/a2ui-stream/a2ui-stream/internal/jsonwire"

// The fast validator's compiler, keyword by keyword (see fast_schema.go).

func (c *fsCompiler) fill(n *fsNode, d *fsDoc, ptr string, m map[string]any) error {
	var err error
	for k, v := range m {
		if fastUnsupported[k] {
			return errFastUnsupported
		}
		kp := ptr + "/" + jsonwire.EscapePointerToken(k)
		switch k {
		case "$schema", "$id":
			if ptr != "" {
				return errFastUnsupported // embedded resources
			}
		case "type":
			switch t := v.(type) {
			case string:
				if n.types, err = addType(n.types, t); err != nil {
					return err
				}
			case []any:
				for _, item := range t {
					s, ok := item.(string)
					if !ok {
						return errFastUnsupported
					}
					if n.types, err = addType(n.types, s); err != nil {
						return err
					}
				}
				if n.types == 0 {
					return errFastUnsupported
				}
			default:
				return errFastUnsupported
			}
		case "const":
			n.hasConst, n.constV = true, v
		case "enum":
			list, ok := v.([]any)
			if !ok {
				return errFastUnsupported
			}
			n.enum = list
			if n.enum == nil {
				n.enum = []any{}
			}
		case "required":
			list, ok := v.([]any)
			if !ok {
				return errFastUnsupported
			}
			for _, item := range list {
				s, ok := item.(string)
				if !ok {
					return errFastUnsupported
				}
				n.required = append(n.required, s)
			}
		case "properties":
			props, ok := v.(map[string]any)
			if !ok {
				return errFastUnsupported
			}
			for name, ps := range props {
				pn, err := c.sub(d, kp+"/"+jsonwire.EscapePointerToken(name), ps)
				if err != nil {
					return err
				}
				n.props = append(n.props, fsProp{name, pn})
			}
		case "additionalProperties":
			if n.addl, err = c.sub(d, kp, v); err != nil {
				return err
			}
		case "unevaluatedProperties":
			if n.uneval, err = c.sub(d, kp, v); err != nil {
				return err
			}
		case "items":
			if n.items, err = c.sub(d, kp, v); err != nil {
				return err
			}
		case "$ref":
			s, ok := v.(string)
			if !ok {
				return errFastUnsupported
			}
			if n.ref, err = c.resolve(s, d); err != nil {
				return err
			}
		case "allOf":
			if n.allOf, err = c.subs(d, kp, v); err != nil {
				return err
			}
		case "anyOf":
			if n.anyOf, err = c.subs(d, kp, v); err != nil {
				return err
			}
		case "oneOf":
			if n.oneOf, err = c.subs(d, kp, v); err != nil {
				return err
			}
		case "not":
			if n.not, err = c.sub(d, kp, v); err != nil {
				return err
			}
		case "if":
			if n.ifN, err = c.sub(d, kp, v); err != nil {
				return err
			}
		case "then":
			if n.thenN, err = c.sub(d, kp, v); err != nil {
				return err
			}
		case "else":
			if n.elseN, err = c.sub(d, kp, v); err != nil {
				return err
			}
		case "minItems", "maxItems", "minProperties", "maxProperties", "minLength", "maxLength":
			i, ok := fastInt(v)
			if !ok {
				return errFastUnsupported
			}
			switch k {
			case "minItems":
				n.minItems = i
			case "maxItems":
				n.maxItems = i
			case "minProperties":
				n.minProps = i
			case "maxProperties":
				n.maxProps = i
			case "minLength":
				n.minLen = i
			case "maxLength":
				n.maxLen = i
			}
		case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
			r, ok := fastRat(v)
			if !ok {
				return errFastUnsupported
			}
			switch k {
			case "minimum":
				n.minimum = r
			case "maximum":
				n.maximum = r
			case "exclusiveMinimum":
				n.exMin = r
			case "exclusiveMaximum":
				n.exMax = r
			}
		case "pattern":
			s, ok := v.(string)
			if !ok {
				return errFastUnsupported
			}
			re, err := schemaRegexp(s)
			if err != nil {
				return errFastUnsupported
			}
			n.pattern = re
		}
		// Anything else is an annotation (description, default, format,
		// $defs, ...) or an unknown keyword: the library ignores both.
	}
	// then/else without if are ignored, as by the library.
	if n.ifN == nil {
		n.thenN, n.elseN = nil, nil
	}
	if len(n.required) > 64 {
		return errFastUnsupported
	}
	for _, p := range n.props {
		n.names = append(n.names, fsName{name: p.name, node: p.node})
	}
	for i, req := range n.required {
		bit := uint64(1) << uint(i)
		n.allRequired |= bit
		at := -1
		for k := range n.names {
			if n.names[k].name == req {
				at = k
			}
		}
		if at < 0 {
			n.names = append(n.names, fsName{name: req})
			at = len(n.names) - 1
		}
		n.names[at].reqBit |= bit
	}
	if all, ok := m["allOf"].([]any); ok && len(all) == len(n.allOf) {
		n.switchKey, n.switchRequired, n.switchThen = allOfSwitch(all, n.allOf)
	}
	return nil
}

// allOfSwitch recognises an allOf that dispatches on a discriminator
// (see fsNode.switchKey); key "" when it is not one.
func allOfSwitch(raw []any, compiled []*fsNode) (key string, required bool, thens map[string][]*fsNode) {
	thens = map[string][]*fsNode{}
	for i, item := range raw {
		m, ok := item.(map[string]any)
		if !ok || len(m) != 2 || m["if"] == nil || m["then"] == nil {
			return "", false, nil
		}
		ifm, ok := m["if"].(map[string]any)
		if !ok {
			return "", false, nil
		}
		props, ok := ifm["properties"].(map[string]any)
		if !ok || len(props) != 1 {
			return "", false, nil
		}
		var k string
		var cs string
		for pk, pv := range props {
			pm, ok := pv.(map[string]any)
			if !ok || len(pm) != 1 {
				return "", false, nil
			}
			if cs, ok = pm["const"].(string); !ok {
				return "", false, nil
			}
			k = pk
		}
		req := false
		switch len(ifm) {
		case 1:
		case 2:
			r, ok := ifm["required"].([]any)
			if !ok || len(r) != 1 || r[0] != k {
				return "", false, nil
			}
			req = true
		default:
			return "", false, nil
		}
		if i == 0 {
			key, required = k, req
		} else if k != key || req != required {
			return "", false, nil
		}
		then := compiled[i].thenN
		if then == nil {
			return "", false, nil
		}
		thens[cs] = append(thens[cs], then)
	}
	return key, required, thens
}

func addType(bits uint8, t string) (uint8, error) {
	switch t {
	case "null":
		return bits | ftNull, nil
	case "boolean":
		return bits | ftBoolean, nil
	case "object":
		return bits | ftObject, nil
	case "array":
		return bits | ftArray, nil
	case "number":
		return bits | ftNumber, nil
	case "integer":
		return bits | ftInteger, nil
	case "string":
		return bits | ftString, nil
	}
	return bits, errFastUnsupported
}
