package a2a

import (
	"errors"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/processor"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

func TestParseClientCapabilities(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		flat     []string
		versions map[protocol.Version][]string
		inline   int
		wantErr  bool
	}{
		{name: "keyed form", in: `{"v0.9.1":{"supportedCatalogIds":["a","b"]}}`, versions: map[protocol.Version][]string{"0.9.1": {"a", "b"}}},
		{name: "keyed, two versions", in: `{"v0.9":{"supportedCatalogIds":["a"]},"v0.10":{"supportedCatalogIds":[],"inlineCatalogs":[{"catalogId":"c"}]}}`,
			versions: map[protocol.Version][]string{"0.9": {"a"}, "0.10": {}}, inline: 1},
		{name: "flat form", in: `{"supportedCatalogIds":["https://a2ui.org/specification/v0_8/standard_catalog_definition.json"]}`,
			flat: []string{"https://a2ui.org/specification/v0_8/standard_catalog_definition.json"}},
		{name: "flat with inline", in: `{"supportedCatalogIds":[],"inlineCatalogs":[{}]}`, flat: []string{}, inline: 1},
		{name: "not an object", in: `[]`, wantErr: true},
		{name: "broken JSON", in: `{"v0.9":`, wantErr: true},
		{name: "empty object", in: `{}`, wantErr: true},
		{name: "key not a version", in: `{"latest":{"supportedCatalogIds":[]}}`, wantErr: true},
		{name: "keyed, other keys ignored as the schema allows", in: `{"v0.9.1":{"supportedCatalogIds":["a"]},"x-renderer":{"name":"lit"}}`,
			versions: map[protocol.Version][]string{"0.9.1": {"a"}}},
		{name: "version value not an object", in: `{"v0.9":[]}`, wantErr: true},
		{name: "missing supportedCatalogIds", in: `{"v0.9":{}}`, wantErr: true},
		{name: "ids not a list", in: `{"v0.9":{"supportedCatalogIds":"a"}}`, wantErr: true},
		{name: "id not a string", in: `{"supportedCatalogIds":[1]}`, wantErr: true},
		{name: "flat inline without ids", in: `{"inlineCatalogs":[]}`, wantErr: true},
		{name: "inline not a list", in: `{"supportedCatalogIds":[],"inlineCatalogs":{}}`, wantErr: true},
		{name: "inline entry not an object", in: `{"supportedCatalogIds":[],"inlineCatalogs":[1]}`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseClientCapabilities([]byte(tt.in))
			if tt.wantErr {
				var me *MetadataError
				if !errors.As(err, &me) || me.Key != MetadataClientCapabilities || !errors.Is(err, ErrMalformedMetadata) {
					t.Fatalf("err = %v, want a *MetadataError for %s", err, MetadataClientCapabilities)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			inline := 0
			if tt.flat != nil {
				if c.Flat == nil || !equalStrings(c.Flat.SupportedCatalogIDs, tt.flat) || len(c.Versions) != 0 {
					t.Fatalf("got %+v, want flat %q", c, tt.flat)
				}
				inline = len(c.Flat.InlineCatalogs)
			} else {
				if c.Flat != nil || len(c.Versions) != len(tt.versions) {
					t.Fatalf("got %+v, want %v", c, tt.versions)
				}
				for v, ids := range tt.versions {
					if !equalStrings(c.Versions[v].SupportedCatalogIDs, ids) {
						t.Errorf("%s: %q, want %q", v, c.Versions[v].SupportedCatalogIDs, ids)
					}
					inline += len(c.Versions[v].InlineCatalogs)
				}
			}
			if inline != tt.inline {
				t.Errorf("inline catalogs %d, want %d", inline, tt.inline)
			}
		})
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestClientCapabilitiesBuild(t *testing.T) {
	tests := []struct {
		name string
		caps ClientCapabilities
		want string
	}{
		{name: "keyed", caps: ClientCapabilities{Versions: map[protocol.Version]CatalogSupport{"0.9.1": {SupportedCatalogIDs: []string{"a"}}}},
			want: `{"v0.9.1":{"supportedCatalogIds":["a"]}}`},
		{name: "flat", caps: ClientCapabilities{Flat: &CatalogSupport{SupportedCatalogIDs: []string{"a"}}}, want: `{"supportedCatalogIds":["a"]}`},
		{name: "nil ids become a list", caps: ClientCapabilities{Versions: map[protocol.Version]CatalogSupport{"0.9": {}}}, want: `{"v0.9":{"supportedCatalogIds":[]}}`},
		{name: "empty", caps: ClientCapabilities{}, want: `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustJSON(t, tt.caps)
			if got != tt.want {
				t.Fatalf("got %s, want %s", got, tt.want)
			}
			if tt.want == `{}` {
				return
			}
			back, err := ParseClientCapabilities([]byte(got))
			if err != nil || mustJSON(t, back) != got {
				t.Errorf("round trip: %s, %v", mustJSON(t, back), err)
			}
		})
	}
}

func TestClientCapabilitiesNewest(t *testing.T) {
	c := ClientCapabilities{Versions: map[protocol.Version]CatalogSupport{
		"0.9": {SupportedCatalogIDs: []string{"old"}}, "0.10": {SupportedCatalogIDs: []string{"new"}}, "0.9.1": {},
	}}
	tests := []struct {
		name      string
		supported []protocol.Version
		want      protocol.Version
		ok        bool
	}{
		{name: "any: SemVer newest", want: "0.10", ok: true},
		{name: "restricted", supported: []protocol.Version{"0.9", "0.9.1"}, want: "0.9.1", ok: true},
		{name: "0.9.0 matches 0.9", supported: []protocol.Version{"0.9.0"}, want: "0.9", ok: true},
		{name: "none in common", supported: []protocol.Version{"1.0"}, ok: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, _, ok := c.Newest(tt.supported...)
			if v != tt.want || ok != tt.ok {
				t.Errorf("got %q %v, want %q %v", v, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestParseClientDataModel(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		version  protocol.Version
		surfaces int
		wantErr  bool
	}{
		{name: "spec example", in: `{"version":"v0.9.1","surfaces":{"main":{"user_id":"12345"}}}`, version: "0.9.1", surfaces: 1},
		{name: "no surfaces yet", in: `{"version":"v0.9","surfaces":{}}`, version: "0.9"},
		{name: "missing version", in: `{"surfaces":{}}`, wantErr: true},
		{name: "missing surfaces", in: `{"version":"v0.9"}`, wantErr: true},
		{name: "version not a string", in: `{"version":9,"surfaces":{}}`, wantErr: true},
		{name: "malformed version", in: `{"version":"new","surfaces":{}}`, wantErr: true},
		{name: "surfaces not an object", in: `{"version":"v0.9","surfaces":[]}`, wantErr: true},
		{name: "model not an object", in: `{"version":"v0.9","surfaces":{"s":1}}`, wantErr: true},
		{name: "extra key", in: `{"version":"v0.9","surfaces":{},"x":1}`, wantErr: true},
		{name: "not an object", in: `"x"`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dm, err := ParseClientDataModel([]byte(tt.in))
			if tt.wantErr {
				var me *MetadataError
				if !errors.As(err, &me) || me.Key != MetadataClientDataModel {
					t.Fatalf("err = %v, want a *MetadataError for %s", err, MetadataClientDataModel)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if dm.Version != tt.version || len(dm.Surfaces) != tt.surfaces {
				t.Errorf("got %+v", dm)
			}
			back, err := ParseClientDataModel([]byte(mustJSON(t, dm)))
			if err != nil || back.Version != dm.Version || len(back.Surfaces) != len(dm.Surfaces) {
				t.Errorf("round trip %s: %v", mustJSON(t, dm), err)
			}
		})
	}
}

func TestParseClientMetadata(t *testing.T) {
	tests := []struct {
		name              string
		in                string
		caps, dm, wantErr bool
	}{
		{name: "both", in: `{"a2uiClientCapabilities":{"v0.9.1":{"supportedCatalogIds":[]}},"a2uiClientDataModel":{"version":"v0.9.1","surfaces":{}}}`, caps: true, dm: true},
		{name: "none", in: `{"other":1}`},
		{name: "absent", in: ``},
		{name: "null", in: `null`},
		{name: "bad capabilities, good data model kept", in: `{"a2uiClientCapabilities":5,"a2uiClientDataModel":{"version":"v0.9","surfaces":{}}}`, dm: true, wantErr: true},
		{name: "not an object", in: `[1]`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ParseClientMetadata([]byte(tt.in))
			if (err != nil) != tt.wantErr || (err != nil && !errors.Is(err, ErrMalformedMetadata)) {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if (m.Capabilities != nil) != tt.caps || (m.DataModel != nil) != tt.dm {
				t.Errorf("got caps=%v dm=%v", m.Capabilities != nil, m.DataModel != nil)
			}
			if tt.caps && tt.dm {
				out, err := m.AddTo(nil)
				if err != nil || len(out) != 2 {
					t.Fatalf("AddTo: %v %v", out, err)
				}
				again, err := ParseClientMetadata([]byte(mustJSON(t, out)))
				if err != nil || again.Capabilities == nil || again.DataModel == nil {
					t.Errorf("round trip: %+v %v", again, err)
				}
			}
		})
	}
}

// TestClientMetadataOfAProcessor checks that the metadata a processor
// computes is the type this package reads and writes: it marshals to what
// ParseClientCapabilities and ParseClientDataModel read back, equal.
func TestClientMetadataOfAProcessor(t *testing.T) {
	p, err := processor.New(processor.WithCatalogIDs("urn:b", "urn:a"))
	if err != nil {
		t.Fatal(err)
	}
	var caps ClientCapabilities = p.ClientCapabilities()
	back, err := ParseClientCapabilities([]byte(mustJSON(t, caps)))
	if err != nil {
		t.Fatal(err)
	}
	if v, cs, ok := back.Newest(); !ok || v != "0.9" || !equalStrings(cs.SupportedCatalogIDs, []string{"urn:a", "urn:b"}) {
		t.Errorf("capabilities read back: %q %+v %v", v, cs, ok)
	}
	b, err := p.ProcessJSON([]byte(`[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"urn:a","sendDataModel":true}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/n","value":1}}]`))
	if err != nil || b.Failed != 0 {
		t.Fatalf("batch %+v: %v", b, err)
	}
	dm, err := p.ClientDataModel()
	if err != nil || dm == nil {
		t.Fatalf("data model %v: %v", dm, err)
	}
	var md ClientMetadata
	md.DataModel = dm
	got, err := ParseClientDataModel([]byte(mustJSON(t, *md.DataModel)))
	if err != nil || got.Version != "0.9" || string(got.Surfaces["s"]) != `{"n":1}` {
		t.Errorf("data model read back: %+v %v", got, err)
	}
}
