// Package natssubj checks NATS subject tokens and subject prefixes, one
// rule for the module's NATS sinks and consumers: a token is non-empty and
// holds no '.', no wildcard ('*' or '>'), no space and no control byte; a
// prefix is one or more such tokens joined by '.'. Safe for concurrent
// use (the functions are pure).
package natssubj

import "strconv"

// TokenProblem says why s is not a valid single subject token, or returns
// "" when it is one.
func TokenProblem(s string) string {
	if s == "" {
		return "is empty"
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.':
			return "holds '.'"
		case c == '*' || c == '>':
			return "holds a wildcard ('*' or '>')"
		case c == ' ':
			return "holds a space"
		case c < 0x20 || c == 0x7f:
			return "holds a control byte"
		}
	}
	return ""
}

// PrefixProblem says why p is not a valid subject prefix (tokens joined
// by '.'), naming the first bad token by its position from 1, or returns
// "" when it is one.
func PrefixProblem(p string) string {
	if p == "" {
		return "is empty"
	}
	for i, start := 1, 0; ; i++ {
		end := start
		for end < len(p) && p[end] != '.' {
			end++
		}
		if problem := TokenProblem(p[start:end]); problem != "" {
			return "token " + strconv.Itoa(i) + " " + problem
		}
		if end == len(p) {
			return ""
		}
		start = end + 1
	}
}
