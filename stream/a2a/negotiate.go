package a2a

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// Extension activation headers. A2A 1.0 uses HeaderExtensions; A2A 0.3 and
// the A2UI extension specification use LegacyHeaderExtensions. Both are read
// on requests and both are written on responses.
const (
	HeaderExtensions       = "A2A-Extensions"
	LegacyHeaderExtensions = "X-A2A-Extensions"
)

// RequestedExtensions returns the A2UI extension URIs among values, in order
// and without duplicates. Each value may be a single URI or a comma-separated
// list of them, as the extension headers carry; spaces around entries are
// ignored and other URIs are dropped.
func RequestedExtensions(values ...string) []string {
	var out []string
	for _, v := range values {
		for entry := range strings.SplitSeq(v, ",") {
			entry = strings.TrimSpace(entry)
			if !protocol.IsExtensionURI(entry) || contains(out, entry) {
				continue
			}
			out = append(out, entry)
		}
	}
	return out
}

// RequestedFromHeader returns the A2UI extension URIs an HTTP request asks
// for in its A2A-Extensions and X-A2A-Extensions headers (repeated headers
// included, names matched without regard to case).
func RequestedFromHeader(h http.Header) []string {
	var vals []string
	for _, name := range []string{HeaderExtensions, LegacyHeaderExtensions} {
		for k, v := range h {
			if strings.EqualFold(k, name) {
				vals = append(vals, v...)
			}
		}
	}
	return RequestedExtensions(vals...)
}

// RequestedFromMetadata returns the A2UI extension URIs requested in request
// metadata under "X-A2A-Extensions" or "A2A-Extensions", as gRPC-style
// transports carry them. A value may be a string (comma-separated URIs) or a
// list of strings. metadata is a JSON object; anything else yields nil.
func RequestedFromMetadata(metadata json.RawMessage) []string {
	if len(metadata) == 0 {
		return nil
	}
	m := gjson.ParseBytes(metadata)
	if !m.IsObject() {
		return nil
	}
	var vals []string
	m.ForEach(func(k, v gjson.Result) bool {
		if !strings.EqualFold(k.String(), HeaderExtensions) && !strings.EqualFold(k.String(), LegacyHeaderExtensions) {
			return true
		}
		switch {
		case v.Type == gjson.String:
			vals = append(vals, v.String())
		case v.IsArray():
			for _, e := range v.Array() {
				if e.Type == gjson.String {
					vals = append(vals, e.String())
				}
			}
		}
		return true
	})
	return RequestedExtensions(vals...)
}

// AdvertisedExtensions returns the A2UI extension URIs an agent card (as JSON)
// lists in capabilities.extensions, in order. A card that is not JSON or
// lists none yields nil.
func AdvertisedExtensions(card []byte) []string {
	var out []string
	gjson.GetBytes(card, "capabilities.extensions").ForEach(func(_, ext gjson.Result) bool {
		if uri := ext.Get("uri").String(); protocol.IsExtensionURI(uri) && !contains(out, uri) {
			out = append(out, uri)
		}
		return true
	})
	return out
}

// SelectNewest returns the newest A2UI extension URI that is both requested
// and advertised, and false when there is none. Versions compare as SemVer:
// v1.10.0 is newer than v1.2.0, and a request for v0.9 matches an
// advertised v0.9.0. The URI returned is the one the client requested.
func SelectNewest(requested, advertised []string) (string, bool) {
	var best string
	var bestV protocol.Version
	for _, r := range requested {
		rv, ok := protocol.ExtensionVersion(r)
		if !ok {
			continue
		}
		for _, a := range advertised {
			av, ok := protocol.ExtensionVersion(a)
			if !ok || av.Compare(rv) != 0 {
				continue
			}
			if best == "" || rv.Compare(bestV) > 0 {
				best, bestV = r, rv
			}
			break
		}
	}
	return best, best != ""
}

// Activation is the outcome of extension negotiation: the activated URI and
// the protocol version it names.
type Activation struct {
	URI     string
	Version protocol.Version
}

// Activate activates the newest A2UI extension that is both requested and
// advertised. It reports false, and a zero Activation, when there is none.
func Activate(requested, advertised []string) (Activation, bool) {
	uri, ok := SelectNewest(requested, advertised)
	if !ok {
		return Activation{}, false
	}
	v, _ := protocol.ExtensionVersion(uri)
	return Activation{URI: uri, Version: v}, true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
