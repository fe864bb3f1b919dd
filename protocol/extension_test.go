package protocol

import (
	"testing"
)

func TestExtensionURI(t *testing.T) {
	tests := []struct {
		name, version, want string
		wantErr             bool
	}{
		{name: "bare version", version: "0.9.1", want: "https://a2ui.org/a2a-extension/a2ui/v0.9.1"},
		{name: "v prefix", version: "v0.9.1", want: "https://a2ui.org/a2a-extension/a2ui/v0.9.1"},
		{name: "two components", version: "1.0", want: "https://a2ui.org/a2a-extension/a2ui/v1.0"},
		{name: "padded", version: " v0.8 ", want: "https://a2ui.org/a2a-extension/a2ui/v0.8"},
		{name: "empty", version: "", wantErr: true},
		{name: "garbage", version: "latest", wantErr: true},
		{name: "one component", version: "1", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ExtensionURI(tt.version)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestExtensionVersion(t *testing.T) {
	tests := []struct {
		name, uri string
		want      Version
		ok        bool
	}{
		{name: "v0.9.1", uri: "https://a2ui.org/a2a-extension/a2ui/v0.9.1", want: "0.9.1", ok: true},
		{name: "v1.10.0", uri: "https://a2ui.org/a2a-extension/a2ui/v1.10.0", want: "1.10.0", ok: true},
		{name: "padded", uri: "  https://a2ui.org/a2a-extension/a2ui/v0.8 ", want: "0.8", ok: true},
		{name: "other extension", uri: "https://example.com/ext/v1.0", ok: false},
		{name: "base only", uri: ExtensionBaseURI, ok: false},
		{name: "no v", uri: ExtensionBaseURI + "/0.8", ok: false},
		{name: "double v", uri: ExtensionBaseURI + "/vv0.8", ok: false},
		{name: "bad version", uri: ExtensionBaseURI + "/vlatest", ok: false},
		{name: "trailing path", uri: ExtensionBaseURI + "/v0.8/x", ok: false},
		{name: "empty", uri: "", ok: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ExtensionVersion(tt.uri)
			if ok != tt.ok || got != tt.want {
				t.Errorf("ExtensionVersion(%q) = %q, %v; want %q, %v", tt.uri, got, ok, tt.want, tt.ok)
			}
			if IsExtensionURI(tt.uri) != tt.ok {
				t.Errorf("IsExtensionURI(%q) = %v, want %v", tt.uri, !tt.ok, tt.ok)
			}
		})
	}
}

func TestMIMETypeFor(t *testing.T) {
	tests := []struct {
		name    string
		version Version
		want    string
	}{
		{name: "v0.8 legacy", version: "0.8", want: LegacyMIMEType},
		{name: "v0.9 legacy", version: "0.9", want: LegacyMIMEType},
		{name: "v0.9.0 legacy", version: "0.9.0", want: LegacyMIMEType},
		{name: "v0.9.1 current", version: "0.9.1", want: MIMEType},
		{name: "v prefix", version: "v0.9.1", want: MIMEType},
		{name: "v0.10 current", version: "0.10", want: MIMEType},
		{name: "v1.0 current", version: "1.0", want: MIMEType},
		{name: "unknown legacy", version: "", want: LegacyMIMEType},
		{name: "malformed legacy", version: "x", want: LegacyMIMEType},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := MIMETypeFor(tt.version); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestIsA2UIMIMEType(t *testing.T) {
	tests := []struct {
		name, in string
		want     bool
	}{
		{"current", "application/a2ui+json", true},
		{"legacy", "application/json+a2ui", true},
		{"upper case", "Application/A2UI+JSON", true},
		{"with parameter", "application/a2ui+json; charset=utf-8", true},
		{"padded", " application/a2ui+json ", true},
		{"plain json", "application/json", false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsA2UIMIMEType(tt.in); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
