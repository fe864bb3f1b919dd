package a2a

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
)

// a2aCase is one case of the a2a_integration.yaml conformance suite.
type a2aCase struct {
	Name   string         `yaml:"name"`
	Action string         `yaml:"action"`
	Args   map[string]any `yaml:"args"`
	Expect any            `yaml:"expect"`
}

// TestConformanceA2AIntegration runs every case of the official
// a2a_integration.yaml suite. handle_rpc cases go through the real HTTP
// handler on a loopback server. A case the harness cannot run counts as
// failed.
func TestConformanceA2AIntegration(t *testing.T) {
	path := shareddata.Path(t, "a2ui", "conformance", "suites", "a2a_integration.yaml")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []a2aCase
	if err := yaml.Unmarshal(raw, &cases); err != nil {
		t.Fatalf("parse suite: %v", err)
	}
	passed, failed := 0, 0
	for _, tc := range cases {
		ok := t.Run(tc.Name, func(t *testing.T) {
			if err := runA2ACase(tc); err != nil {
				t.Error(err)
			}
		})
		if ok {
			passed++
		} else {
			failed++
		}
	}
	fmt.Printf("conformance a2a_integration: %d passed, %d failed\n", passed, failed)
	if len(cases) == 0 {
		t.Fatal("suite has no cases")
	}
}

func runA2ACase(tc a2aCase) error {
	switch tc.Action {
	case "create_a2ui_part":
		return caseCreatePart(tc)
	case "is_a2ui_part":
		b, _ := json.Marshal(map[string]any{"kind": "data", "data": map[string]any{}, "metadata": map[string]any{"mimeType": tc.Args["mime_type"]}})
		return expectEqual(IsA2UIPart(b), tc.Expect)
	case "try_activate_extension":
		s, err := NewServer(StaticRunner(""))
		if err != nil {
			return err
		}
		_, ok := Activate(RequestedExtensions(stringList(tc.Args["uris"])...), s.Advertised())
		return expectEqual(ok, tc.Expect)
	case "get_extension":
		return caseGetExtension(tc)
	case "try_activate":
		act, ok := Activate(stringList(tc.Args["requested"]), stringList(tc.Args["advertised"]))
		exp, _ := tc.Expect.(map[string]any)
		if exp["activated"] == nil {
			if ok {
				return fmt.Errorf("activated %q, want none", act.URI)
			}
			return nil
		}
		if !ok {
			return fmt.Errorf("activated none, want %v", exp["activated"])
		}
		return expectEqual(map[string]any{"activated": act.URI, "version": string(act.Version)}, exp)
	case "select_newest":
		got, ok := SelectNewest(stringList(tc.Args["requested"]), stringList(tc.Args["advertised"]))
		exp, _ := tc.Expect.(map[string]any)
		if !ok {
			return fmt.Errorf("selected none, want %v", exp["newest"])
		}
		return expectEqual(got, exp["newest"])
	case "handle_rpc":
		return caseHandleRPC(tc)
	}
	return fmt.Errorf("unknown action %q: cannot run", tc.Action)
}

func caseCreatePart(tc a2aCase) error {
	data, err := json.Marshal(tc.Args["data"])
	if err != nil {
		return err
	}
	exp, _ := tc.Expect.(map[string]any)
	for _, shape := range []Shape{ShapeV03, ShapeV10} {
		p := NewDataPart(data, "", shape)
		if !p.IsA2UI() {
			return fmt.Errorf("%v: created part is not an A2UI part", shape)
		}
		b, err := json.Marshal(p)
		if err != nil {
			return err
		}
		var wire struct {
			Metadata map[string]any `json:"metadata"`
		}
		if err := json.Unmarshal(b, &wire); err != nil {
			return err
		}
		if err := expectEqual(wire.Metadata["mimeType"], exp["mime_type"]); err != nil {
			return fmt.Errorf("%v: metadata.mimeType: %w", shape, err)
		}
		if !IsA2UIPart(b) {
			return fmt.Errorf("%v: written part %s not detected as A2UI", shape, b)
		}
	}
	return nil
}

func caseGetExtension(tc a2aCase) error {
	var opts []ExtensionOption
	if v, ok := tc.Args["accepts_inline_catalogs"].(bool); ok {
		opts = append(opts, WithAcceptsInlineCatalogs(v))
	}
	if ids := stringList(tc.Args["supported_catalog_ids"]); ids != nil {
		opts = append(opts, WithSupportedCatalogIDs(ids...))
	}
	version, _ := tc.Args["version"].(string)
	ext, err := NewAgentExtension(version, opts...)
	if err != nil {
		return err
	}
	b, err := json.Marshal(ext)
	if err != nil {
		return err
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		return err
	}
	exp, _ := tc.Expect.(map[string]any)
	return expectEqual(map[string]any{"uri": got["uri"], "params": got["params"]}, map[string]any{"uri": exp["uri"], "params": exp["params"]})
}

// caseHandleRPC posts the request to the real handler, answering with the
// case's runner output, and compares the reply's parts.
func caseHandleRPC(tc a2aCase) error {
	output, _ := tc.Args["runner_output"].(string)
	s, err := NewServer(StaticRunner(output))
	if err != nil {
		return err
	}
	defer s.Close(context.Background())
	srv := httptest.NewServer(s)
	defer srv.Close()
	body, err := json.Marshal(tc.Args["request"])
	if err != nil {
		return err
	}
	resp, err := http.Post(srv.URL+"/", "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	rb, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	var reply struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *RPCError       `json:"error"`
		Result  struct {
			Kind  string           `json:"kind"`
			Role  string           `json:"role"`
			Parts []map[string]any `json:"parts"`
		} `json:"result"`
	}
	if err := json.Unmarshal(rb, &reply); err != nil {
		return fmt.Errorf("reply %s: %v", rb, err)
	}
	if reply.Error != nil {
		return fmt.Errorf("reply is an error: %v", reply.Error)
	}
	req, _ := tc.Args["request"].(map[string]any)
	wantID, _ := json.Marshal(req["id"])
	if !bytes.Equal(reply.ID, wantID) || reply.JSONRPC != "2.0" {
		return fmt.Errorf("reply envelope jsonrpc=%q id=%s, want 2.0 and %s", reply.JSONRPC, reply.ID, wantID)
	}
	if reply.Result.Kind != "message" || reply.Result.Role != "agent" {
		return fmt.Errorf("result kind=%q role=%q, want message and agent", reply.Result.Kind, reply.Result.Role)
	}
	exp, _ := tc.Expect.(map[string]any)
	wantParts, _ := exp["parts"].([]any)
	got := make([]any, 0, len(reply.Result.Parts))
	for _, p := range reply.Result.Parts {
		g := map[string]any{"kind": p["kind"]}
		switch p["kind"] {
		case "text":
			g["text"] = p["text"]
		case "data":
			g["data"] = p["data"]
			if md, ok := p["metadata"].(map[string]any); ok {
				g["mimeType"] = md["mimeType"]
			}
		}
		got = append(got, g)
	}
	return expectEqual(got, wantParts)
}

// expectEqual compares after a JSON round trip, so YAML and JSON values of
// the same content are equal.
func expectEqual(got, want any) error {
	g, err1 := normalise(got)
	w, err2 := normalise(want)
	if err1 != nil || err2 != nil {
		return fmt.Errorf("cannot compare: %v %v", err1, err2)
	}
	if !reflect.DeepEqual(g, w) {
		gb, _ := json.Marshal(g)
		wb, _ := json.Marshal(w)
		return fmt.Errorf("got %s\nwant %s", gb, wb)
	}
	return nil
}

func normalise(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	err = json.Unmarshal(b, &out)
	return out, err
}

func stringList(v any) []string {
	l, ok := v.([]any)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(l))
	for _, e := range l {
		s, _ := e.(string)
		out = append(out, s)
	}
	return out
}
