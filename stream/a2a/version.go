package a2a

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// HeaderVersion is the request header (and query parameter) in which an
// A2A client names the A2A protocol version whose semantics it expects
// ("1.0", "0.3").
const HeaderVersion = "A2A-Version"

// servedVersions are the A2A protocol versions (major.minor) the endpoint
// speaks, on the same URL: the request's method names select the dialect.
var servedVersions = [...]string{"1.0", "0.3"}

// checkVersion answers a request that names an A2A version the endpoint
// does not speak with VersionNotSupportedError, as A2A 1.0 requires. The
// version is read from the A2A-Version header, or else from the
// A2A-Version query parameter (A2A 1.0 allows either). Versions match on
// major.minor ("1.0.2" is 1.0, "1" is 1.0). A request that names none is
// served (A2A 0.3 clients send none).
func checkVersion(r *http.Request) *RPCError {
	v := strings.TrimSpace(r.Header.Get(HeaderVersion))
	if v == "" {
		v = strings.TrimSpace(r.URL.Query().Get(HeaderVersion))
	}
	if v == "" {
		return nil
	}
	if mm, ok := majorMinor(v); ok && slices.Contains(servedVersions[:], mm) {
		return nil
	}
	return rpcErr(CodeVersionNotSupported, "Version not supported: A2A-Version %q; this agent speaks A2A %s", v, strings.Join(servedVersions[:], " and "))
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
