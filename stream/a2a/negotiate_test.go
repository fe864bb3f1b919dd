package a2a

import (
	"net/http"
	"reflect"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

const (
	uri08  = "https://a2ui.org/a2a-extension/a2ui/v0.8"
	uri09  = "https://a2ui.org/a2a-extension/a2ui/v0.9"
	uri091 = "https://a2ui.org/a2a-extension/a2ui/v0.9.1"
	uri10  = "https://a2ui.org/a2a-extension/a2ui/v1.0"
)

func TestRequestedExtensions(t *testing.T) {
	tests := []struct {
		name   string
		values []string
		want   []string
	}{
		{name: "single", values: []string{uri091}, want: []string{uri091}},
		{name: "comma separated", values: []string{uri08 + "," + uri091}, want: []string{uri08, uri091}},
		{name: "padded with spaces", values: []string{"  " + uri08 + " ,  " + uri091 + "  "}, want: []string{uri08, uri091}},
		{name: "repeated values", values: []string{uri08, uri091}, want: []string{uri08, uri091}},
		{name: "duplicates dropped", values: []string{uri08, uri08 + "," + uri08}, want: []string{uri08}},
		{name: "other extensions dropped", values: []string{"https://example.com/x/v1, " + uri10}, want: []string{uri10}},
		{name: "empty entries", values: []string{",, ,", ""}, want: nil},
		{name: "none", values: nil, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RequestedExtensions(tt.values...); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRequestedFromHeader(t *testing.T) {
	tests := []struct {
		name   string
		header http.Header
		want   []string
	}{
		{name: "A2A-Extensions", header: http.Header{"A2A-Extensions": {uri10}}, want: []string{uri10}},
		{name: "X-A2A-Extensions", header: http.Header{"X-A2A-Extensions": {uri08}}, want: []string{uri08}},
		{name: "both headers", header: http.Header{"A2A-Extensions": {uri10}, "X-A2A-Extensions": {uri08}}, want: []string{uri10, uri08}},
		{name: "repeated header", header: http.Header{"X-A2A-Extensions": {uri08, uri091 + " , " + uri10}}, want: []string{uri08, uri091, uri10}},
		{name: "lower-case name canonicalised", header: func() http.Header { h := http.Header{}; h.Add("x-a2a-extensions", uri091); return h }(), want: []string{uri091}},
		{name: "absent", header: http.Header{}, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RequestedFromHeader(tt.header); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRequestedFromMetadata(t *testing.T) {
	tests := []struct {
		name, metadata string
		want           []string
	}{
		{name: "string", metadata: `{"X-A2A-Extensions":"` + uri091 + `"}`, want: []string{uri091}},
		{name: "comma string", metadata: `{"A2A-Extensions":"` + uri08 + `, ` + uri10 + `"}`, want: []string{uri08, uri10}},
		{name: "list", metadata: `{"X-A2A-Extensions":["` + uri08 + `","` + uri091 + `"]}`, want: []string{uri08, uri091}},
		{name: "case-insensitive key", metadata: `{"x-a2a-extensions":"` + uri091 + `"}`, want: []string{uri091}},
		{name: "other keys ignored", metadata: `{"foo":"` + uri091 + `"}`, want: nil},
		{name: "not an object", metadata: `["` + uri091 + `"]`, want: nil},
		{name: "empty", metadata: ``, want: nil},
		{name: "wrong type", metadata: `{"X-A2A-Extensions":42}`, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RequestedFromMetadata([]byte(tt.metadata)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestAdvertisedExtensions(t *testing.T) {
	tests := []struct {
		name, card string
		want       []string
	}{
		{name: "two A2UI and one other", card: `{"capabilities":{"extensions":[{"uri":"` + uri08 + `"},{"uri":"https://x/y"},{"uri":"` + uri091 + `","params":{}}]}}`, want: []string{uri08, uri091}},
		{name: "no extensions", card: `{"capabilities":{}}`, want: nil},
		{name: "not JSON", card: `nope`, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := AdvertisedExtensions([]byte(tt.card)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSelectNewestAndActivate(t *testing.T) {
	v := func(s string) string { return protocol.ExtensionBaseURI + "/v" + s }
	tests := []struct {
		name                  string
		requested, advertised []string
		want                  string
		wantVersion           protocol.Version
	}{
		{name: "SemVer not lexical", requested: []string{v("1.2.0"), v("1.10.0"), v("1.9.0")}, advertised: []string{v("1.2.0"), v("1.10.0"), v("1.9.0")}, want: v("1.10.0"), wantVersion: "1.10.0"},
		{name: "only common versions", requested: []string{v("0.8"), v("2.0.0")}, advertised: []string{v("0.8"), v("0.9.1")}, want: v("0.8"), wantVersion: "0.8"},
		{name: "0.9 equals 0.9.0", requested: []string{v("0.9")}, advertised: []string{v("0.9.0")}, want: v("0.9"), wantVersion: "0.9"},
		{name: "patch beats minor", requested: []string{v("0.9"), v("0.9.1")}, advertised: []string{v("0.9"), v("0.9.1")}, want: v("0.9.1"), wantVersion: "0.9.1"},
		{name: "nothing requested", requested: nil, advertised: []string{v("0.8")}},
		{name: "nothing advertised", requested: []string{v("0.8")}, advertised: nil},
		{name: "no overlap", requested: []string{v("0.8")}, advertised: []string{v("0.9.1")}},
		{name: "non-A2UI ignored", requested: []string{"other"}, advertised: []string{"other"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := SelectNewest(tt.requested, tt.advertised)
			if got != tt.want || ok != (tt.want != "") {
				t.Errorf("SelectNewest = %q, %v; want %q", got, ok, tt.want)
			}
			act, ok := Activate(tt.requested, tt.advertised)
			if act.URI != tt.want || act.Version != tt.wantVersion || ok != (tt.want != "") {
				t.Errorf("Activate = %+v, %v; want %q %q", act, ok, tt.want, tt.wantVersion)
			}
		})
	}
}
