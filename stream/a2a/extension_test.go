package a2a

import (
	"errors"
	"testing"
)

func TestNewAgentExtension(t *testing.T) {
	tests := []struct {
		name    string
		version string
		opts    []ExtensionOption
		want    string
		wantErr bool
	}{
		{name: "minimal", version: "0.9.1",
			want: `{"uri":"https://a2ui.org/a2a-extension/a2ui/v0.9.1","description":"Ability to render A2UI v0.9.1","required":false}`},
		{name: "defaults stay out", version: "v0.8", opts: []ExtensionOption{WithAcceptsInlineCatalogs(false), WithSupportedCatalogIDs()},
			want: `{"uri":"https://a2ui.org/a2a-extension/a2ui/v0.8","description":"Ability to render A2UI v0.8","required":false}`},
		{name: "both params", version: "0.9.1", opts: []ExtensionOption{WithSupportedCatalogIDs("a", "b"), WithAcceptsInlineCatalogs(true), WithExtensionDescription("d")},
			want: `{"uri":"https://a2ui.org/a2a-extension/a2ui/v0.9.1","description":"d","required":false,"params":{"supportedCatalogIds":["a","b"],"acceptsInlineCatalogs":true}}`},
		{name: "bad version", version: "nope", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := NewAgentExtension(tt.version, tt.opts...)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v", err)
			}
			if err != nil {
				if errors.Is(err, ErrNotExtensionURI) {
					t.Errorf("unexpected sentinel: %v", err)
				}
				return
			}
			if got := mustJSON(t, e); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}
