package protocol

import (
	"mime"
	"strings"
)

// MIME types that mark an A2A data part as carrying A2UI messages.
const (
	// MIMEType is the A2UI MIME type from v0.9.1 on.
	MIMEType = "application/a2ui+json"
	// LegacyMIMEType is the MIME type used before v0.9.1.
	LegacyMIMEType = "application/json+a2ui"
)

// MIMETypeFor returns the MIME type for parts of protocol version v:
// MIMEType from v0.9.1 on, LegacyMIMEType before it and when v is empty or
// malformed.
func MIMETypeFor(v Version) string {
	if _, err := ParseVersion(string(v)); err != nil {
		return LegacyMIMEType
	}
	if v.Compare(V091) >= 0 {
		return MIMEType
	}
	return LegacyMIMEType
}

// IsA2UIMIMEType reports whether s names either A2UI MIME type. Case and
// media-type parameters (";charset=utf-8") are ignored.
func IsA2UIMIMEType(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	if mt, _, err := mime.ParseMediaType(s); err == nil {
		s = mt
	}
	s = strings.ToLower(s)
	return s == MIMEType || s == LegacyMIMEType
}
