package a2a

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"github.com/a2ui-stream/a2ui-stream/protocol"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a2ui-stream/a2ui-stream/parser"
)

type rpcReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *RPCError       `json:"error"`
}

// replyParts is the parts of the agent message an A2A 1.0 send returns
// ({"message":{"parts":[…]}}); a JSON-RPC error fails the test.
func replyParts(t *testing.T, r rpcReply) []Part {
	t.Helper()
	if r.Error != nil {
		t.Fatal(r.Error)
	}
	var res struct {
		Message struct {
			Parts []Part `json:"parts"`
		} `json:"message"`
	}
	if err := json.Unmarshal(r.Result, &res); err != nil {
		t.Fatalf("result %s: %v", r.Result, err)
	}
	return res.Message.Parts
}

func post(t *testing.T, url, body string, header http.Header) (*http.Response, rpcReply) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var r rpcReply
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("reply %q: %v", b, err)
	}
	return resp, r
}

// newServer returns a Server closed at cleanup.
func newServer(t *testing.T, runner Runner, opts ...Option) *Server {
	t.Helper()
	s, err := NewServer(runner, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(context.Background()); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return s
}

func newTestServer(t *testing.T, runner Runner, opts ...Option) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(newServer(t, runner, opts...))
	t.Cleanup(srv.Close)
	return srv
}

const answer = "Hello\n<a2ui-json>[{\"version\":\"v0.9.1\",\"deleteSurface\":{\"surfaceId\":\"s\"}}]</a2ui-json>"

func TestJSONRPCErrors(t *testing.T) {
	srv := newTestServer(t, StaticRunner(answer), WithMaxBodyBytes(256))
	tests := []struct {
		name       string
		body       string
		wantStatus int
		wantCode   int
		wantID     string
	}{
		{name: "bad JSON", body: `{"jsonrpc":"2.0",`, wantStatus: 200, wantCode: CodeParseError, wantID: "null"},
		{name: "batch not supported", body: `[{"jsonrpc":"2.0","id":1,"method":"SendMessage"}]`, wantStatus: 200, wantCode: CodeInvalidRequest, wantID: "null"},
		{name: "scalar body", body: `42`, wantStatus: 200, wantCode: CodeInvalidRequest, wantID: "null"},
		{name: "missing jsonrpc", body: `{"id":7,"method":"SendMessage","params":{}}`, wantStatus: 200, wantCode: CodeInvalidRequest, wantID: "7"},
		{name: "wrong jsonrpc", body: `{"jsonrpc":"1.0","id":"x","method":"SendMessage"}`, wantStatus: 200, wantCode: CodeInvalidRequest, wantID: `"x"`},
		{name: "missing id", body: `{"jsonrpc":"2.0","method":"SendMessage"}`, wantStatus: 200, wantCode: CodeInvalidRequest, wantID: "null"},
		{name: "object id", body: `{"jsonrpc":"2.0","id":{},"method":"SendMessage"}`, wantStatus: 200, wantCode: CodeInvalidRequest, wantID: "null"},
		{name: "missing method", body: `{"jsonrpc":"2.0","id":3}`, wantStatus: 200, wantCode: CodeInvalidRequest, wantID: "3"},
		{name: "unknown method", body: `{"jsonrpc":"2.0","id":"u-1","method":"tasks/teleport","params":{}}`, wantStatus: 200, wantCode: CodeMethodNotFound, wantID: `"u-1"`},
		{name: "GetTask: no task kept", body: `{"jsonrpc":"2.0","id":10,"method":"GetTask","params":{"id":"t"}}`, wantStatus: 200, wantCode: CodeTaskNotFound, wantID: "10"},
		{name: "tasks/cancel: no task kept", body: `{"jsonrpc":"2.0","id":11,"method":"tasks/cancel","params":{"id":"t"}}`, wantStatus: 200, wantCode: CodeTaskNotFound, wantID: "11"},
		{name: "push config unsupported", body: `{"jsonrpc":"2.0","id":12,"method":"tasks/pushNotificationConfig/set","params":{}}`, wantStatus: 200, wantCode: CodePushNotificationNotSupported, wantID: "12"},
		{name: "extended card not configured", body: `{"jsonrpc":"2.0","id":13,"method":"GetExtendedAgentCard"}`, wantStatus: 200, wantCode: CodeExtendedCardNotConfigured, wantID: "13"},
		{name: "missing params", body: `{"jsonrpc":"2.0","id":4,"method":"SendMessage"}`, wantStatus: 200, wantCode: CodeInvalidParams, wantID: "4"},
		{name: "missing message", body: `{"jsonrpc":"2.0","id":5,"method":"message/send","params":{}}`, wantStatus: 200, wantCode: CodeInvalidParams, wantID: "5"},
		{name: "parts not a list", body: `{"jsonrpc":"2.0","id":6,"method":"message/send","params":{"message":{"parts":{}}}}`, wantStatus: 200, wantCode: CodeInvalidParams, wantID: "6"},
		{name: "malformed part", body: `{"jsonrpc":"2.0","id":6,"method":"SendMessage","params":{"message":{"parts":[{"kind":"zip"}]}}}`, wantStatus: 200, wantCode: CodeInvalidParams, wantID: "6"},
		{name: "bad capabilities", body: `{"jsonrpc":"2.0","id":8,"method":"SendMessage","params":{"message":{"parts":[],"metadata":{"a2uiClientCapabilities":[]}}}}`, wantStatus: 200, wantCode: CodeInvalidParams, wantID: "8"},
		{name: "bad client event", body: `{"jsonrpc":"2.0","id":9,"method":"SendMessage","params":{"message":{"parts":[{"data":[{"version":"v0.9","action":{}}],"mediaType":"application/a2ui+json"}]}}}`, wantStatus: 200, wantCode: CodeInvalidParams, wantID: "9"},
		{name: "non-string contextId", body: `{"jsonrpc":"2.0","id":14,"method":"SendMessage","params":{"message":{"contextId":{"a":1},"parts":[]}}}`, wantStatus: 200, wantCode: CodeInvalidParams, wantID: "14"},
		{name: "invalid UTF-8 is a parse error", body: "{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"SendMessage\",\"params\":{\"message\":{\"parts\":[]}}}", wantStatus: 200, wantCode: CodeParseError, wantID: "null"},
		{name: "body too large", body: `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"parts":[{"text":"` + strings.Repeat("x", 300) + `"}]}}}`, wantStatus: 413, wantCode: CodeInvalidRequest, wantID: "null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, r := post(t, srv.URL+"/", tt.body, nil)
			if resp.StatusCode != tt.wantStatus {
				t.Errorf("status %d, want %d", resp.StatusCode, tt.wantStatus)
			}
			if r.Error == nil || r.Error.Code != tt.wantCode {
				t.Fatalf("error %+v, want code %d", r.Error, tt.wantCode)
			}
			if string(r.ID) != tt.wantID || r.JSONRPC != "2.0" || r.Result != nil {
				t.Errorf("envelope jsonrpc=%q id=%s result=%s", r.JSONRPC, r.ID, r.Result)
			}
		})
	}
}

func TestSendBothDialects(t *testing.T) {
	srv := newTestServer(t, StaticRunner(answer))
	tests := []struct {
		name, method, id string
		header           http.Header
		wantResult       string
		wantExtension    string
	}{
		{name: "A2A 1.0 with extension", method: "SendMessage", id: `"req-1"`, header: http.Header{"A2a-Extensions": {uri091}},
			wantResult:    `{"message":{"messageId":"*","contextId":"ctx","role":"ROLE_AGENT","parts":[{"text":"Hello"},{"data":{"version":"v0.9.1","deleteSurface":{"surfaceId":"s"}},"mediaType":"application/a2ui+json","metadata":{"mimeType":"application/a2ui+json"}}]}}`,
			wantExtension: uri091},
		{name: "A2A 0.3 with v0.8 extension gets the legacy MIME", method: "message/send", id: `12`, header: http.Header{"X-A2a-Extensions": {uri08 + ", https://example.com/other"}},
			wantResult:    `{"kind":"message","messageId":"*","contextId":"ctx","role":"agent","parts":[{"kind":"text","text":"Hello"},{"kind":"data","data":{"version":"v0.9.1","deleteSurface":{"surfaceId":"s"}},"metadata":{"mimeType":"application/json+a2ui"}}]}`,
			wantExtension: uri08},
		{name: "A2A 0.3 without extension", method: "message/send", id: `-1.5`,
			wantResult: `{"kind":"message","messageId":"*","contextId":"ctx","role":"agent","parts":[{"kind":"text","text":"Hello"},{"kind":"data","data":{"version":"v0.9.1","deleteSurface":{"surfaceId":"s"}},"metadata":{"mimeType":"application/a2ui+json"}}]}`},
		{name: "unadvertised extension not activated", method: "SendMessage", id: `null`, header: http.Header{"A2a-Extensions": {protocol.ExtensionBaseURI + "/v9.9"}},
			wantResult: `{"message":{"messageId":"*","contextId":"ctx","role":"ROLE_AGENT","parts":[{"text":"Hello"},{"data":{"version":"v0.9.1","deleteSurface":{"surfaceId":"s"}},"mediaType":"application/a2ui+json","metadata":{"mimeType":"application/a2ui+json"}}]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := `{"jsonrpc":"2.0","id":` + tt.id + `,"method":"` + tt.method + `","params":{"message":{"messageId":"m1","contextId":"ctx","role":"user","parts":[{"text":"hi"}]}}}`
			resp, r := post(t, srv.URL+"/", body, tt.header)
			if r.Error != nil {
				t.Fatal(r.Error)
			}
			if string(r.ID) != tt.id {
				t.Errorf("id %s, want %s", r.ID, tt.id)
			}
			var res map[string]any
			if err := json.Unmarshal(r.Result, &res); err != nil {
				t.Fatal(err)
			}
			msg := res
			if m, ok := res["message"].(map[string]any); ok {
				msg = m
			}
			if id, _ := msg["messageId"].(string); len(id) != 36 {
				t.Errorf("messageId %q is not a UUID", id)
			}
			msg["messageId"] = "*"
			if got := mustJSON(t, res); got != normalisedJSON(t, tt.wantResult) {
				t.Errorf("result\n got %s\nwant %s", got, normalisedJSON(t, tt.wantResult))
			}
			for _, h := range []string{HeaderExtensions, LegacyHeaderExtensions} {
				if got := resp.Header.Get(h); got != tt.wantExtension {
					t.Errorf("%s = %q, want %q", h, got, tt.wantExtension)
				}
			}
		})
	}
}

func normalisedJSON(t *testing.T, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return mustJSON(t, v)
}

// TestRunnerSeesRequest checks what the runner learns: dialect, text, events,
// client metadata, the extension activated from params.metadata, and a new
// context id when the client sends none.
func TestRunnerSeesRequest(t *testing.T) {
	got := make(chan *Request, 1)
	srv := newTestServer(t, RunnerFunc(func(ctx context.Context, req *Request, yield func([]byte) error) error {
		got <- req
		return yield([]byte("ok"))
	}))
	body := `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{
		"metadata":{"X-A2A-Extensions":"` + uri09 + `"},
		"message":{"role":"ROLE_USER","parts":[{"text":"line 1"},{"text":"line 2"},
			{"data":[{"version":"v0.9","action":{"name":"go","surfaceId":"s","sourceComponentId":"b","timestamp":"2026-01-15T12:00:00Z","context":{}}}],"mediaType":"application/a2ui+json"}],
		"metadata":{"a2uiClientCapabilities":{"v0.9":{"supportedCatalogIds":["cat"]}},"a2uiClientDataModel":{"version":"v0.9","surfaces":{"s":{"k":1}}}}}}}`
	_, r := post(t, srv.URL, body, nil)
	if r.Error != nil {
		t.Fatal(r.Error)
	}
	req := <-got
	if req.Dialect != A2A10 || req.Streaming || req.Text != "line 1\nline 2" || len(req.Parts) != 3 {
		t.Errorf("request %+v", req)
	}
	if len(req.Events) != 1 || req.Events[0].Action.Name != "go" {
		t.Errorf("events %+v", req.Events)
	}
	if req.Client.Capabilities == nil || req.Client.Capabilities.Versions["0.9"].SupportedCatalogIDs[0] != "cat" || req.Client.DataModel == nil {
		t.Errorf("client metadata %+v", req.Client)
	}
	if !req.Activated || req.Extension.URI != uri09 || req.Version() != "0.9" {
		t.Errorf("extension %+v activated=%v", req.Extension, req.Activated)
	}
	if len(req.ContextID) != 36 {
		t.Errorf("context id %q", req.ContextID)
	}
}

func TestRunnerFailureAndLimits(t *testing.T) {
	tests := []struct {
		name     string
		runner   Runner
		opts     []Option
		wantCode int
	}{
		{name: "runner error", runner: RunnerFunc(func(context.Context, *Request, func([]byte) error) error { return errors.New("model down") }), wantCode: CodeInternalError},
		{name: "response too large", runner: StaticRunner(strings.Repeat("x", 100)), opts: []Option{WithMaxResponseBytes(10)}, wantCode: CodeInternalError},
		{name: "response too large, runner drops the yield error", runner: RunnerFunc(func(_ context.Context, _ *Request, yield func([]byte) error) error {
			for range 10 {
				if yield([]byte("0123456789")) != nil {
					break // a careless runner: stops, but reports success
				}
			}
			return nil
		}), opts: []Option{WithMaxResponseBytes(25)}, wantCode: CodeInternalError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newTestServer(t, tt.runner, tt.opts...)
			_, r := post(t, srv.URL, `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"parts":[]}}}`, nil)
			if r.Error == nil || r.Error.Code != tt.wantCode {
				t.Errorf("error %+v, want %d", r.Error, tt.wantCode)
			}
		})
	}
}

func TestAuth(t *testing.T) {
	srv := newTestServer(t, StaticRunner("hi"), WithBearerToken("s3cret"))
	body := `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"parts":[]}}}`
	tests := []struct {
		name, auth string
		want       int
	}{
		{name: "no token", auth: "", want: 401},
		{name: "wrong token", auth: "Bearer nope", want: 401},
		{name: "wrong scheme", auth: "Basic s3cret", want: 401},
		{name: "right token", auth: "Bearer s3cret", want: 200},
		{name: "scheme case-insensitive", auth: "bearer s3cret", want: 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			if tt.auth != "" {
				h.Set("Authorization", tt.auth)
			}
			resp, r := post(t, srv.URL, body, h)
			if resp.StatusCode != tt.want {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.want)
			}
			if tt.want == 401 && (resp.Header.Get("WWW-Authenticate") == "" || r.Error == nil) {
				t.Errorf("401 without challenge or error body")
			}
			if tt.want == 200 && r.Error != nil {
				t.Errorf("error %v", r.Error)
			}
		})
	}
	t.Run("card stays public", func(t *testing.T) {
		resp, err := http.Get(srv.URL + AgentCardPath)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("card: %d %s", resp.StatusCode, b)
		}
		// The bearer scheme in both dialects: 0.3 clients read type/scheme
		// and security, 1.0 clients httpAuthSecurityScheme and
		// securityRequirements.
		var card struct {
			SecuritySchemes map[string]struct {
				Type                   string `json:"type"`
				Scheme                 string `json:"scheme"`
				HTTPAuthSecurityScheme *struct {
					Scheme string `json:"scheme"`
				} `json:"httpAuthSecurityScheme"`
			} `json:"securitySchemes"`
			Security             []map[string][]string `json:"security"`
			SecurityRequirements []struct {
				Schemes map[string]struct {
					List []string `json:"list"`
				} `json:"schemes"`
			} `json:"securityRequirements"`
		}
		if err := json.Unmarshal(b, &card); err != nil {
			t.Fatal(err)
		}
		bearer, ok := card.SecuritySchemes["bearer"]
		if !ok || bearer.Type != "http" || !strings.EqualFold(bearer.Scheme, "bearer") {
			t.Errorf("0.3 scheme: %s", b)
		}
		if bearer.HTTPAuthSecurityScheme == nil || !strings.EqualFold(bearer.HTTPAuthSecurityScheme.Scheme, "bearer") {
			t.Errorf("1.0 scheme: %s", b)
		}
		if len(card.Security) != 1 {
			t.Errorf("0.3 security: %s", b)
		} else if _, ok := card.Security[0]["bearer"]; !ok {
			t.Errorf("0.3 security: %s", b)
		}
		if len(card.SecurityRequirements) != 1 || card.SecurityRequirements[0].Schemes == nil {
			t.Errorf("1.0 securityRequirements: %s", b)
		} else if _, ok := card.SecurityRequirements[0].Schemes["bearer"]; !ok {
			t.Errorf("1.0 securityRequirements: %s", b)
		}
	})
}

func TestAgentCard(t *testing.T) {
	ext, err := NewAgentExtension("0.9.1", WithSupportedCatalogIDs("cat"))
	if err != nil {
		t.Fatal(err)
	}
	srv := newTestServer(t, StaticRunner(""), WithExtensions(ext), WithAgentInfo("demo", "A demo.", "2.0.0"))
	for _, path := range []string{AgentCardPath, LegacyAgentCardPath} {
		t.Run(path, func(t *testing.T) {
			resp, err := http.Get(srv.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			var card struct {
				Name                string `json:"name"`
				Version             string `json:"version"`
				URL                 string `json:"url"`
				ProtocolVersion     string `json:"protocolVersion"`
				PreferredTransport  string `json:"preferredTransport"`
				SupportedInterfaces []struct {
					URL, ProtocolBinding, ProtocolVersion string
				} `json:"supportedInterfaces"`
				Capabilities struct {
					Streaming  bool             `json:"streaming"`
					Extensions []AgentExtension `json:"extensions"`
				} `json:"capabilities"`
				DefaultInputModes  []string `json:"defaultInputModes"`
				DefaultOutputModes []string `json:"defaultOutputModes"`
				Skills             []struct {
					ID   string   `json:"id"`
					Tags []string `json:"tags"`
				} `json:"skills"`
			}
			if err := json.Unmarshal(b, &card); err != nil {
				t.Fatal(err)
			}
			base := srv.URL + "/"
			if card.Name != "demo" || card.Version != "2.0.0" || card.URL != base || card.ProtocolVersion != "0.3.0" || card.PreferredTransport != "JSONRPC" {
				t.Errorf("0.3 fields: %s", b)
			}
			if len(card.SupportedInterfaces) == 0 || card.SupportedInterfaces[0].URL != base || card.SupportedInterfaces[0].ProtocolBinding != "JSONRPC" || card.SupportedInterfaces[0].ProtocolVersion != "1.0" {
				t.Errorf("supportedInterfaces: %+v", card.SupportedInterfaces)
			}
			if !card.Capabilities.Streaming || len(card.Capabilities.Extensions) != 1 || card.Capabilities.Extensions[0].URI != uri091 ||
				card.Capabilities.Extensions[0].Params == nil || card.Capabilities.Extensions[0].Params.SupportedCatalogIDs[0] != "cat" {
				t.Errorf("capabilities: %+v", card.Capabilities)
			}
			if len(card.DefaultInputModes) == 0 || len(card.DefaultOutputModes) == 0 || len(card.Skills) == 0 || len(card.Skills[0].Tags) == 0 {
				t.Errorf("modes/skills: %s", b)
			}
			if got := AdvertisedExtensions(b); len(got) != 1 || got[0] != uri091 {
				t.Errorf("AdvertisedExtensions(card) = %q", got)
			}
		})
	}
	t.Run("public URL", func(t *testing.T) {
		srv := newTestServer(t, StaticRunner(""), WithPublicURL("https://agent.example.com/a2a"))
		resp, err := http.Get(srv.URL + AgentCardPath)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if bytes.Count(b, []byte(`"url":"https://agent.example.com/a2a"`)) != 3 {
			t.Errorf("card %s", b)
		}
	})
}

func TestMethodNotAllowed(t *testing.T) {
	srv := newTestServer(t, StaticRunner(""))
	resp, err := http.Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST" {
		t.Errorf("GET /: %d %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+AgentCardPath, nil)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST card: %d", resp.StatusCode)
	}
}

func TestNewServerOptions(t *testing.T) {
	tests := []struct {
		name   string
		runner Runner
		opts   []Option
	}{
		{name: "nil runner", runner: nil},
		{name: "bad public URL", runner: StaticRunner(""), opts: []Option{WithPublicURL("/relative")}},
		{name: "bad extension", runner: StaticRunner(""), opts: []Option{WithExtensions(AgentExtension{URI: "https://x/y"})}},
		{name: "zero body cap", runner: StaticRunner(""), opts: []Option{WithMaxBodyBytes(0)}},
		{name: "zero response cap", runner: StaticRunner(""), opts: []Option{WithMaxResponseBytes(0)}},
		{name: "nil logger", runner: StaticRunner(""), opts: []Option{WithLogger(nil)}},
		{name: "empty agent name", runner: StaticRunner(""), opts: []Option{WithAgentInfo("", "d", "1")}},
		{name: "empty CORS origin", runner: StaticRunner(""), opts: []Option{WithCORS("")}},
		{name: "zero max sessions", runner: StaticRunner(""), opts: []Option{WithMaxSessions(0)}},
		{name: "negative session idle timeout", runner: StaticRunner(""), opts: []Option{WithSessionIdleTimeout(-time.Second)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := NewServer(tt.runner, tt.opts...); err == nil {
				t.Error("no error")
			}
		})
	}
}

// TestParserOptionsNonStreaming checks that WithParserOptions also governs
// non-streaming replies (here JSONL framing), with the fallback when no
// block parses. Messages are those the session's processor applies (a
// deleteSurface of any surface); prose is joined between blocks and
// trimmed, as parser.ParseResponse does.
func TestParserOptionsNonStreaming(t *testing.T) {
	const (
		delS  = `{"version":"v0.9","deleteSurface":{"surfaceId":"s"}}`
		delT  = `{"version":"v0.9","deleteSurface":{"surfaceId":"t"}}`
		partS = `{"data":` + delS + `,"mediaType":"application/a2ui+json","metadata":{"mimeType":"application/a2ui+json"}}`
		partT = `{"data":` + delT + `,"mediaType":"application/a2ui+json","metadata":{"mimeType":"application/a2ui+json"}}`
	)
	tests := []struct {
		name, output, want string
		borrow, tags       bool
	}{
		{name: "jsonl lines", output: delS + "\n" + delT + "\n", want: `[` + partS + `,` + partT + `]`},
		{name: "broken line falls back", output: "{\"a\":\n", want: `[{"text":"{\"a\":\n"}]`},
		// Close resets the storage the Feed's messages were lent from: the
		// server must have kept its own copy of them.
		{name: "borrowed output kept across close", output: delS + "\n" + delT, borrow: true, want: `[` + partS + `,` + partT + `]`},
		// Close yields a part (the held-back marker prefix) into the lent
		// []Part array: the server must have kept the Feed's parts elsewhere.
		{name: "borrowed parts kept across a close that yields", tags: true, output: "Hi <a2ui-json>[" + delS + "]</a2ui-json> tail <a2ui", borrow: true, want: `[{"text":"Hi"},` + partS + `,{"text":"tail \u003ca2ui"}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := []parser.Option{parser.WithFraming(parser.FramingJSONL)}
			if tt.tags {
				opts[0] = parser.WithFraming(parser.FramingTags)
			}
			if tt.borrow {
				opts = append(opts, parser.WithBorrowedOutput())
			}
			srv := newTestServer(t, StaticRunner(tt.output), WithParserOptions(opts...))
			_, r := post(t, srv.URL, `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"parts":[]}}}`, nil)
			if r.Error != nil {
				t.Fatal(r.Error)
			}
			var res struct {
				Message struct {
					Parts json.RawMessage `json:"parts"`
				} `json:"message"`
			}
			if err := json.Unmarshal(r.Result, &res); err != nil {
				t.Fatal(err)
			}
			if got := string(res.Message.Parts); got != tt.want {
				t.Errorf("parts\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestActivationFromMessageMetadata checks the gRPC-style activation through
// message.metadata.
func TestActivationFromMessageMetadata(t *testing.T) {
	srv := newTestServer(t, StaticRunner("hi"))
	resp, r := post(t, srv.URL, `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"parts":[],"metadata":{"X-A2A-Extensions":["`+uri08+`","`+uri091+`"]}}}}`, nil)
	if r.Error != nil {
		t.Fatal(r.Error)
	}
	if got := resp.Header.Get(LegacyHeaderExtensions); got != uri091 {
		t.Errorf("activated %q, want %q", got, uri091)
	}
}

func TestCORS(t *testing.T) {
	srv := newTestServer(t, StaticRunner("hi"), WithCORS("https://app.example.com"))
	tests := []struct {
		name, method, path, origin, reqMethod string
		wantStatus                            int
		wantAllow                             string
	}{
		{name: "preflight from allowed origin", method: http.MethodOptions, path: "/", origin: "https://app.example.com", reqMethod: "POST", wantStatus: 204, wantAllow: "https://app.example.com"},
		{name: "preflight from other origin", method: http.MethodOptions, path: "/", origin: "https://evil.example.com", reqMethod: "POST", wantStatus: 405},
		{name: "card from allowed origin", method: http.MethodGet, path: AgentCardPath, origin: "https://app.example.com", wantStatus: 200, wantAllow: "https://app.example.com"},
		{name: "card without origin", method: http.MethodGet, path: AgentCardPath, wantStatus: 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, srv.URL+tt.path, nil)
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			if tt.reqMethod != "" {
				req.Header.Set("Access-Control-Request-Method", tt.reqMethod)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.wantStatus || resp.Header.Get("Access-Control-Allow-Origin") != tt.wantAllow {
				t.Errorf("status %d allow-origin %q, want %d %q", resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"), tt.wantStatus, tt.wantAllow)
			}
			// The answer depends on Origin whatever the origin (or its
			// absence): a shared cache must key on it.
			if !slices.Contains(resp.Header.Values("Vary"), "Origin") {
				t.Errorf("Vary %q, want Origin", resp.Header.Values("Vary"))
			}
			if tt.wantStatus == 204 && !strings.Contains(resp.Header.Get("Access-Control-Allow-Headers"), "A2A-Extensions") {
				t.Errorf("allow-headers %q", resp.Header.Get("Access-Control-Allow-Headers"))
			}
		})
	}
}

func TestGroupedMessages(t *testing.T) {
	out := "<a2ui-json>[{\"version\":\"v0.9\",\"deleteSurface\":{\"surfaceId\":\"a\"}},{\"version\":\"v0.9\",\"deleteSurface\":{\"surfaceId\":\"b\"}}]</a2ui-json>"
	for _, group := range []bool{false, true} {
		t.Run(map[bool]string{false: "one part per message", true: "one part per block"}[group], func(t *testing.T) {
			srv := newTestServer(t, StaticRunner(out), WithGroupedMessages(group))
			_, r := post(t, srv.URL, `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"parts":[]}}}`, nil)
			parts := replyParts(t, r)
			wantParts := map[bool]int{false: 2, true: 1}[group]
			msgs, err := Messages(parts)
			if len(parts) != wantParts || err != nil || len(msgs) != 2 {
				t.Errorf("%d parts carrying %d messages (%v), want %d parts carrying 2", len(parts), len(msgs), err, wantParts)
			}
		})
	}
}
