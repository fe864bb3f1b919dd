package jsonwire

// NumState is a position in the JSON number grammar,
//
//	number = [ "-" ] ( "0" / [1-9] *DIGIT ) [ "." 1*DIGIT ] [ ( "e" / "E" ) [ "+" / "-" ] 1*DIGIT ]
//
// after the bytes read so far. A scanner that keeps it can stop at any
// byte and go on with the next chunk.
type NumState uint8

// The states of the number grammar.
const (
	NumStart NumState = iota // before the number's first byte
	NumMinus                 // after its '-'
	NumZero                  // after its leading '0'
	NumInt                   // in its integer digits
	NumDot                   // after its '.'
	NumFrac                  // in its fraction digits
	NumE                     // after its 'e' or 'E'
	NumESign                 // after the exponent's sign
	NumExp                   // in the exponent's digits
)

// Complete reports whether the bytes read so far are a whole number (one
// that may also go on).
func (s NumState) Complete() bool {
	return s == NumZero || s == NumInt || s == NumFrac || s == NumExp
}

// Next returns the state after c, and false (with s unchanged) when c does
// not continue the number.
func (s NumState) Next(c byte) (NumState, bool) {
	digit := c >= '0' && c <= '9'
	switch s {
	case NumStart:
		switch {
		case c == '-':
			return NumMinus, true
		case c == '0':
			return NumZero, true
		case digit:
			return NumInt, true
		}
	case NumMinus:
		switch {
		case c == '0':
			return NumZero, true
		case digit:
			return NumInt, true
		}
	case NumZero, NumInt:
		switch {
		case digit && s == NumInt:
			return NumInt, true
		case c == '.':
			return NumDot, true
		case c == 'e' || c == 'E':
			return NumE, true
		}
	case NumDot, NumFrac:
		switch {
		case digit:
			return NumFrac, true
		case s == NumFrac && (c == 'e' || c == 'E'):
			return NumE, true
		}
	case NumE:
		switch {
		case c == '+' || c == '-':
			return NumESign, true
		case digit:
			return NumExp, true
		}
	case NumESign, NumExp:
		if digit {
			return NumExp, true
		}
	}
	return s, false
}

// ScanNumber reads the number grammar from state s over s[i:] for as long
// as the bytes continue the number, and returns the index of the first
// byte that does not (len(b) when b ended first) and the state there. The
// number is whole when it stops before len(b) in a Complete state; at
// len(b) it may go on in the next chunk.
func ScanNumber[T Text](b T, i int, s NumState) (int, NumState) {
	for i < len(b) {
		c := b[i]
		if c-'0' <= 9 && (s == NumInt || s == NumFrac || s == NumExp) {
			for i++; i < len(b) && b[i]-'0' <= 9; i++ {
			}
			continue
		}
		next, ok := s.Next(c)
		if !ok {
			break
		}
		s = next
		i++
	}
	return i, s
}
