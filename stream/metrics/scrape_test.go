package metrics

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// series is one scraped sample: its value for counters and gauges, its
// sample count and sum for histograms.
type series struct {
	value, count, sum float64
}

// scrape serves reg through Handler, GETs /metrics and parses the text
// exposition with expfmt's TextParser. The result is keyed by
// name{label="value",...}, labels sorted by name.
func scrape(t *testing.T, reg prometheus.Gatherer) map[string]series {
	t.Helper()
	srv := httptest.NewServer(Handler(reg, nil))
	defer srv.Close()
	req, err := http.NewRequest(http.MethodGet, srv.URL+MetricsPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/plain; version=0.0.4")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatalf("scrape: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("scrape: status %s", resp.Status)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parsing the scrape: %v", err)
	}
	out := map[string]series{}
	for name, f := range families {
		for _, m := range f.GetMetric() {
			key := seriesKey(name, m.GetLabel())
			switch f.GetType() {
			case dto.MetricType_COUNTER:
				out[key] = series{value: m.GetCounter().GetValue()}
			case dto.MetricType_GAUGE:
				out[key] = series{value: m.GetGauge().GetValue()}
			case dto.MetricType_HISTOGRAM:
				h := m.GetHistogram()
				out[key] = series{count: float64(h.GetSampleCount()), sum: h.GetSampleSum()}
			default:
				t.Fatalf("unexpected metric type %v of %s", f.GetType(), name)
			}
		}
	}
	return out
}

func seriesKey(name string, labels []*dto.LabelPair) string {
	if len(labels) == 0 {
		return name
	}
	parts := make([]string, 0, len(labels))
	for _, l := range labels {
		parts = append(parts, fmt.Sprintf("%s=%q", l.GetName(), l.GetValue()))
	}
	sort.Strings(parts)
	return name + "{" + strings.Join(parts, ",") + "}"
}

// checkScrape fails unless every series in want has exactly its value and
// every other scraped series of the namespace is zero.
func checkScrape(t *testing.T, got map[string]series, want map[string]series) {
	t.Helper()
	for key, w := range want {
		g, ok := got[key]
		if !ok {
			t.Errorf("%s: missing from the scrape", key)
			continue
		}
		if !near(g.value, w.value) || !near(g.count, w.count) || !near(g.sum, w.sum) {
			t.Errorf("%s: got %+v, want %+v", key, g, w)
		}
	}
	for key, g := range got {
		if _, ok := want[key]; ok || !strings.HasPrefix(key, Namespace+"_") {
			continue
		}
		if g != (series{}) {
			t.Errorf("%s: got %+v, want zero (nothing was sent to it)", key, g)
		}
	}
}

// near compares float sums that may differ in their last bits.
func near(a, b float64) bool {
	d := a - b
	return d < 1e-9 && d > -1e-9
}
