package protocol

import (
	"regexp"
	"strings"
)

// Schema patterns
//
// JSON Schema patterns are ECMA-262 regular expressions. The A2UI schemas
// use one feature Go's regexp lacks: the Unicode identifier properties
// \p{XID_Start} and \p{XID_Continue} (UAX #31), for extension keys in the
// v1.0 common types. schemaRegexp compiles a pattern with those rewritten
// as the general categories they are made of (Go's regexp has no property
// for the few characters NFKC normalisation removes from them, so those
// few are accepted as well).

// The class contents standing for the identifier properties: ID_Start is
// letters, letter numbers and Other_ID_Start; ID_Continue adds marks,
// digits, connector punctuation and Other_ID_Continue.
const (
	idStart    = `\p{L}\p{Nl}\x{1885}\x{1886}\x{2118}\x{212E}\x{309B}\x{309C}`
	idContinue = idStart + `\p{Mn}\p{Mc}\p{Nd}\p{Pc}\x{00B7}\x{0387}\x{1369}-\x{1371}\x{19DA}`
)

// identifierClasses maps each identifier property to its class contents.
var identifierClasses = map[string]string{
	"XID_Start":    idStart,
	"ID_Start":     idStart,
	"XID_Continue": idContinue,
	"ID_Continue":  idContinue,
}

// schemaRegexp compiles a schema pattern, rewriting \p{XID_Start},
// \p{XID_Continue}, \p{ID_Start} and \p{ID_Continue} (inside or outside a
// bracketed class) for Go's regexp.
func schemaRegexp(pattern string) (*regexp.Regexp, error) {
	if !strings.Contains(pattern, `\p{`) {
		return regexp.Compile(pattern)
	}
	var b strings.Builder
	inClass := false
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		if c == '\\' && i+1 < len(pattern) {
			if pattern[i+1] == 'p' && i+2 < len(pattern) && pattern[i+2] == '{' {
				if end := strings.IndexByte(pattern[i+3:], '}'); end >= 0 {
					if class, ok := identifierClasses[pattern[i+3:i+3+end]]; ok {
						if inClass {
							b.WriteString(class)
						} else {
							b.WriteString("[" + class + "]")
						}
						i += 3 + end
						continue
					}
				}
			}
			b.WriteByte(c)
			b.WriteByte(pattern[i+1])
			i++
			continue
		}
		switch c {
		case '[':
			inClass = true
		case ']':
			inClass = false
		}
		b.WriteByte(c)
	}
	return regexp.Compile(b.String())
}
