package a2a

import (
	"net/http"
	"slices"
	"strings"
)

// corsAllowHeaders are the request headers browser clients of the endpoint
// send.
const corsAllowHeaders = "Content-Type, Accept, Authorization, A2A-Extensions, X-A2A-Extensions, A2A-Version"

// corsExposeHeaders are the response headers browser clients may read.
const corsExposeHeaders = "A2A-Extensions, X-A2A-Extensions"

// cors writes the CORS headers for an allowed origin and reports whether the
// request was a preflight it has answered.
func (s *Server) cors(w http.ResponseWriter, r *http.Request) bool {
	if len(s.cfg.corsOrigins) == 0 {
		return false
	}
	// Whether the CORS headers are written depends on Origin, so every
	// answer varies by it (a shared cache must not serve one origin's
	// answer, or a no-origin answer, to another).
	w.Header().Add("Vary", "Origin")
	origin := r.Header.Get("Origin")
	if origin == "" {
		return false
	}
	allowed := slices.Contains(s.cfg.corsOrigins, "*") || slices.ContainsFunc(s.cfg.corsOrigins, func(o string) bool {
		return strings.EqualFold(o, origin)
	})
	if !allowed {
		return false
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
	if r.Method != http.MethodOptions || r.Header.Get("Access-Control-Request-Method") == "" {
		return false
	}
	h.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
	h.Set("Access-Control-Allow-Headers", corsAllowHeaders)
	h.Set("Access-Control-Max-Age", "600")
	w.WriteHeader(http.StatusNoContent)
	return true
}
