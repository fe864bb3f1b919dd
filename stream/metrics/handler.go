package metrics

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Paths served by Handler.
const (
	MetricsPath = "/metrics"
	HealthPath  = "/healthz"
	ReadyPath   = "/readyz"
)

// maxScrapesInFlight bounds concurrent /metrics requests; more get 503.
const maxScrapesInFlight = 8

// Handler serves:
//
//   - /metrics: reg's metrics in the Prometheus exposition formats
//     (promhttp.HandlerFor, at most 8 scrapes at once);
//   - /healthz: 200 "ok": the process is up;
//   - /readyz: 200 "ok" when ready returns nil (or ready is nil), else 503
//     with the error's text.
//
// Only GET and HEAD are served (other methods get 405); other paths get
// 404. A nil reg serves /metrics as 500. ready is called once per /readyz
// request and must be safe for concurrent use. The handler is.
func Handler(reg prometheus.Gatherer, ready func() error) http.Handler {
	mux := http.NewServeMux()
	if reg == nil {
		mux.HandleFunc("GET "+MetricsPath, func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "metrics: no gatherer configured", http.StatusInternalServerError)
		})
	} else {
		mux.Handle("GET "+MetricsPath, promhttp.HandlerFor(reg, promhttp.HandlerOpts{
			ErrorHandling:       promhttp.ContinueOnError,
			MaxRequestsInFlight: maxScrapesInFlight,
		}))
	}
	mux.HandleFunc("GET "+HealthPath, func(w http.ResponseWriter, _ *http.Request) {
		writeText(w, http.StatusOK, "ok")
	})
	mux.HandleFunc("GET "+ReadyPath, func(w http.ResponseWriter, _ *http.Request) {
		if ready != nil {
			if err := ready(); err != nil {
				writeText(w, http.StatusServiceUnavailable, err.Error())
				return
			}
		}
		writeText(w, http.StatusOK, "ok")
	})
	return mux
}

func writeText(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body + "\n"))
}
