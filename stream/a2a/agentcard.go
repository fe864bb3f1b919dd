package a2a

import (
	"encoding/json"
	"github.com/a2ui-stream/a2ui-stream/protocol"
	"net/http"
)

// Agent card paths. The current one and the pre-0.3 one both serve the card.
const (
	AgentCardPath       = "/.well-known/agent-card.json"
	LegacyAgentCardPath = "/.well-known/agent.json"
)

type agentInterface struct {
	URL             string `json:"url"`
	ProtocolBinding string `json:"protocolBinding"`
	ProtocolVersion string `json:"protocolVersion"`
}

type agentCapabilities struct {
	Streaming         bool             `json:"streaming"`
	PushNotifications bool             `json:"pushNotifications"`
	Extensions        []AgentExtension `json:"extensions"`
}

type agentSkill struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Tags        []string `json:"tags"`
	InputModes  []string `json:"inputModes,omitempty"`
	OutputModes []string `json:"outputModes,omitempty"`
}

// agentCard carries the A2A 1.0 fields (supportedInterfaces,
// securityRequirements) and the A2A 0.3 fields (url, protocolVersion,
// preferredTransport, security) side by side: 1.0 clients read the former,
// 0.3 clients the latter.
type agentCard struct {
	Name                string                     `json:"name"`
	Description         string                     `json:"description"`
	SupportedInterfaces []agentInterface           `json:"supportedInterfaces"`
	Version             string                     `json:"version"`
	Capabilities        agentCapabilities          `json:"capabilities"`
	DefaultInputModes   []string                   `json:"defaultInputModes"`
	DefaultOutputModes  []string                   `json:"defaultOutputModes"`
	Skills              []agentSkill               `json:"skills"`
	URL                 string                     `json:"url"`
	ProtocolVersion     string                     `json:"protocolVersion"`
	PreferredTransport  string                     `json:"preferredTransport"`
	SecuritySchemes     map[string]json.RawMessage `json:"securitySchemes,omitempty"`
	Security            []map[string][]string      `json:"security,omitempty"`
	// SecurityRequirements is the A2A 1.0 name (and shape) of Security.
	SecurityRequirements json.RawMessage `json:"securityRequirements,omitempty"`
}

// Card returns the agent card JSON for an endpoint reached at endpointURL.
func (s *Server) Card(endpointURL string) []byte {
	c := agentCard{
		Name:        s.cfg.name,
		Description: s.cfg.description,
		SupportedInterfaces: []agentInterface{
			{URL: endpointURL, ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0"},
			{URL: endpointURL, ProtocolBinding: "JSONRPC", ProtocolVersion: "0.3"},
		},
		Version:            s.cfg.agentVersion,
		Capabilities:       agentCapabilities{Streaming: true, Extensions: s.cfg.extensions},
		DefaultInputModes:  []string{"text/plain", "application/json", protocol.MIMEType},
		DefaultOutputModes: []string{"text/plain", protocol.MIMEType},
		Skills: []agentSkill{{
			ID: "a2ui", Name: "A2UI interface",
			Description: "Answers with prose and A2UI user interfaces, streamed part by part.",
			Tags:        []string{"a2ui", "ui", "streaming"},
		}},
		URL:                endpointURL,
		ProtocolVersion:    "0.3.0",
		PreferredTransport: "JSONRPC",
	}
	if c.Capabilities.Extensions == nil {
		c.Capabilities.Extensions = []AgentExtension{}
	}
	if s.cfg.token != "" {
		// The scheme in both shapes: A2A 0.3 discriminates by "type", A2A
		// 1.0 by the member name; each reader ignores the other's keys.
		c.SecuritySchemes = map[string]json.RawMessage{
			"bearer": json.RawMessage(`{"type":"http","scheme":"bearer","httpAuthSecurityScheme":{"scheme":"bearer"}}`),
		}
		c.Security = []map[string][]string{{"bearer": {}}}
		c.SecurityRequirements = json.RawMessage(`[{"schemes":{"bearer":{"list":[]}}}]`)
	}
	b, _ := json.Marshal(c) // plain data: cannot fail
	return b
}

// endpointURL is the public URL of the JSON-RPC endpoint for a request.
func (s *Server) endpointURL(r *http.Request) string {
	if s.cfg.publicURL != "" {
		return s.cfg.publicURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + "/"
}

func (s *Server) serveCard(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "a2a: method not allowed", http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	writeJSON(w, http.StatusOK, s.Card(s.endpointURL(r)))
}
