package protocol

import (
	"fmt"
	"strings"
)

// ExtensionBaseURI is the prefix of every A2UI extension URI. The URI of a
// version appends "/v" and the version.
const ExtensionBaseURI = "https://a2ui.org/a2a-extension/a2ui"

const extensionPrefix = ExtensionBaseURI + "/v"

// ExtensionURI returns the extension URI of a protocol version: "0.9.1" and
// "v0.9.1" both give "https://a2ui.org/a2a-extension/a2ui/v0.9.1". A
// malformed version is an error.
func ExtensionURI(version string) (string, error) {
	v, err := ParseVersion(version)
	if err != nil {
		return "", fmt.Errorf("protocol: extension URI: %w", err)
	}
	return extensionPrefix + string(v), nil
}

// ExtensionVersion returns the version an A2UI extension URI names, and false
// for any other URI (including an A2UI URI with a malformed version).
func ExtensionVersion(uri string) (Version, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(uri), extensionPrefix)
	if !ok {
		return "", false
	}
	v, err := ParseVersion(rest)
	if err != nil || strings.HasPrefix(rest, "v") || strings.TrimSpace(rest) != rest {
		return "", false
	}
	return v, true
}

// IsExtensionURI reports whether uri is an A2UI extension URI naming a
// well-formed version.
func IsExtensionURI(uri string) bool {
	_, ok := ExtensionVersion(uri)
	return ok
}
