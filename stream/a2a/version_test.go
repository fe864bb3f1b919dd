package a2a

import (
	"net/http"
	"strings"
	"testing"
)

func TestA2AVersionHeader(t *testing.T) {
	srv := newTestServer(t, StaticRunner(answer))
	tests := []struct {
		name    string
		method  string
		version string // "" sends no header
		query   string // the A2A-Version query parameter, if any
		wantErr bool
	}{
		{name: "query parameter 1.0", method: "SendMessage", query: "1.0"},
		{name: "unknown query parameter", method: "SendMessage", query: "2.0", wantErr: true},
		{name: "the header wins over the query", method: "SendMessage", version: "1.0", query: "2.0"},
		{name: "no header", method: "SendMessage"},
		{name: "1.0", method: "SendMessage", version: "1.0"},
		{name: "1.0 with a patch version", method: "SendMessage", version: "1.0.2"},
		{name: "major only is 1.0", method: "SendMessage", version: "1"},
		{name: "0.3 for a 0.3 method", method: "message/send", version: "0.3"},
		{name: "spaces around", method: "SendMessage", version: " 1.0 "},
		{name: "unknown major", method: "SendMessage", version: "99.0", wantErr: true},
		{name: "unknown minor", method: "SendMessage", version: "1.1", wantErr: true},
		{name: "older 0.2", method: "message/send", version: "0.2", wantErr: true},
		{name: "not a number", method: "SendMessage", version: "latest", wantErr: true},
		{name: "signed", method: "SendMessage", version: "+1.0", wantErr: true},
		{name: "too many parts", method: "SendMessage", version: "1.0.0.0", wantErr: true},
		{name: "empty part", method: "SendMessage", version: "1..0", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var h http.Header
			if tt.version != "" {
				h = http.Header{"A2a-Version": {tt.version}}
			}
			body := `{"jsonrpc":"2.0","id":"v","method":"` + tt.method + `","params":{"message":{"role":"ROLE_USER","parts":[{"text":"hi"}]}}}`
			url := srv.URL + "/"
			if tt.query != "" {
				url += "?A2A-Version=" + tt.query
			}
			_, r := post(t, url, body, h)
			if string(r.ID) != `"v"` {
				t.Errorf("id %s, want \"v\"", r.ID)
			}
			if !tt.wantErr {
				if r.Error != nil || r.Result == nil {
					t.Fatalf("error %+v, result %s; want a result", r.Error, r.Result)
				}
				return
			}
			if r.Error == nil || r.Error.Code != CodeVersionNotSupported {
				t.Fatalf("error %+v, want code %d", r.Error, CodeVersionNotSupported)
			}
			if !strings.Contains(r.Error.Message, "1.0 and 0.3") {
				t.Errorf("message %q does not name the versions served", r.Error.Message)
			}
		})
	}
}
