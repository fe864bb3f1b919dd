package speccatalog_test

import (
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
	"github.com/a2ui-stream/a2ui-stream/internal/speccatalog"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

func TestMain(m *testing.M) { shareddata.Main(m) }

// TestCatalogsLoad: both catalogs load and accept a message of their
// version and reject one with an unknown component type.
func TestCatalogsLoad(t *testing.T) {
	for _, tc := range []struct {
		name      string
		load      func(testing.TB) *protocol.Catalog
		good, bad string
	}{
		{"v0.9 basic", speccatalog.BasicV09,
			`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"hi"}]}}`,
			`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"NoSuchType","text":"hi"}]}}`},
		{"v0.8 standard", func(tb testing.TB) *protocol.Catalog {
			return speccatalog.StandardV08(tb)
		},
			`{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Text":{"text":{"literalString":"hi"}}}}]}}`,
			`{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"NoSuchType":{}}}]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cat := tc.load(t)
			if valid, decided := cat.MessageVerdict(tc.good); !decided || !valid {
				t.Errorf("good message: valid %v, decided %v", valid, decided)
			}
			if valid, decided := cat.MessageVerdict(tc.bad); decided && valid {
				t.Errorf("bad message: valid")
			}
		})
	}
}
