package protocol

import (
	"fmt"
	"strings"
)

// Version is an A2UI protocol version as written on the wire ("0.8", "0.9",
// "0.9.1", "0.10", "1.0"). A leading "v" is accepted by ParseVersion and
// dropped; the zero value means "unknown".
type Version string

// Known protocol versions.
const (
	V08  Version = "0.8"
	V09  Version = "0.9"
	V091 Version = "0.9.1"
	V010 Version = "0.10"
	V10  Version = "1.0" // the renamed successor of 0.10
)

// KnownVersions returns the known protocol versions, oldest first (a new
// slice each call).
func KnownVersions() []Version { return []Version{V08, V09, V091, V010, V10} }

// Family groups versions that share message rules.
type Family int

// Version families.
const (
	FamilyUnknown Family = iota
	// FamilyV08 is v0.8: beginRendering, surfaceUpdate, dataModelUpdate, deleteSurface.
	FamilyV08
	// FamilyV09 is v0.9, v0.9.1, v0.10 and 1.0: createSurface, updateComponents,
	// updateDataModel, deleteSurface (with v0.10/1.0 additions).
	FamilyV09
)

func (f Family) String() string {
	switch f {
	case FamilyV08:
		return "v0.8"
	case FamilyV09:
		return "v0.9"
	default:
		return "unknown"
	}
}

// ParseVersion normalises a version string: "v0.9.1" and "0.9.1" both give
// V091. Any "major.minor[.patch]" string is accepted and preserved, so that a
// later version is carried through unchanged; an empty or malformed string is
// an error.
func ParseVersion(s string) (Version, error) {
	t := strings.TrimPrefix(strings.TrimSpace(s), "v")
	if _, ok := semver(t); !ok {
		return "", fmt.Errorf("protocol: malformed version %q", s)
	}
	return Version(t), nil
}

// Family reports the message rules a version follows. v0.8 (and any 0.x
// below 0.9) is FamilyV08; 0.9 and everything after it is FamilyV09.
func (v Version) Family() Family {
	n, ok := semver(strings.TrimPrefix(string(v), "v"))
	if !ok {
		return FamilyUnknown
	}
	if n[0] == 0 && n[1] < 9 {
		return FamilyV08
	}
	return FamilyV09
}

// Compare orders versions as SemVer (missing parts count as 0, so "0.9"
// equals "0.9.0" and "1.10" is after "1.2"). Malformed versions sort first.
func (v Version) Compare(w Version) int {
	a, aok := semver(strings.TrimPrefix(string(v), "v"))
	b, bok := semver(strings.TrimPrefix(string(w), "v"))
	switch {
	case !aok && !bok:
		return strings.Compare(string(v), string(w))
	case !aok:
		return -1
	case !bok:
		return 1
	}
	for i := range a {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// semver parses "major.minor[.patch]" into three numbers (without
// allocating: it runs for every message).
func semver(s string) ([3]int, bool) {
	var n [3]int
	part, digits := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '.':
			if digits == 0 || part == 2 {
				return n, false
			}
			part++
			digits = 0
		case c >= '0' && c <= '9':
			if digits == 9 {
				return n, false
			}
			n[part] = n[part]*10 + int(c-'0')
			digits++
		default:
			return n, false
		}
	}
	if digits == 0 || part < 1 {
		return n, false
	}
	return n, true
}
