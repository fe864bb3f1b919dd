package a2a

import (
	"net/http"
	"strconv"
	"strings"
)

// HeaderVersion is the request header in which an A2A client names the
// A2A protocol version whose semantics it expects ("1.0", "0.3").
const HeaderVersion = "A2A-Version"

// ServedVersions are the A2A protocol versions (major.minor) the endpoint
// speaks, on the same URL: the request's method names select the dialect.
var ServedVersions = []string{"1.0", "0.3"}

// checkVersion answers a request whose A2A-Version header names a version
// the endpoint does not speak with VersionNotSupportedError, as A2A 1.0
// requires. Versions match on major.minor ("1.0.2" is 1.0, "1" is 1.0). A
// request without the header is served (A2A 0.3 clients send none).
func checkVersion(h http.Header) *RPCError {
	v := strings.TrimSpace(h.Get(HeaderVersion))
	if v == "" {
		return nil
	}
	if mm, ok := majorMinor(v); ok {
		for _, s := range ServedVersions {
			if mm == s {
				return nil
			}
		}
	}
	return rpcErr(CodeVersionNotSupported, "Version not supported: A2A-Version %q; this agent speaks A2A %s", v, strings.Join(ServedVersions, " and "))
}

// majorMinor reduces a version to its major.minor form ("1" is "1.0"). It
// reports false for anything but dot-separated decimal numbers.
func majorMinor(v string) (string, bool) {
	parts := strings.Split(v, ".")
	if len(parts) > 3 {
		return "", false
	}
	nums := []int{0, 0}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || p[0] == '+' {
			return "", false
		}
		if i < 2 {
			nums[i] = n
		}
	}
	return strconv.Itoa(nums[0]) + "." + strconv.Itoa(nums[1]), true
}
