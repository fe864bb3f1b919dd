package a2a

import (
	"fmt"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// AgentExtension is an entry of an agent card's capabilities.extensions.
type AgentExtension struct {
	URI         string           `json:"uri"`
	Description string           `json:"description,omitempty"`
	Required    bool             `json:"required"`
	Params      *ExtensionParams `json:"params,omitempty"`
}

// ExtensionParams are the A2UI server capabilities an agent advertises. Each
// field is omitted when it has its default value.
type ExtensionParams struct {
	SupportedCatalogIDs   []string `json:"supportedCatalogIds,omitempty"`
	AcceptsInlineCatalogs bool     `json:"acceptsInlineCatalogs,omitempty"`
}

// ExtensionOption configures NewAgentExtension.
type ExtensionOption func(*AgentExtension)

// WithSupportedCatalogIDs lists the catalogs the agent can generate
// (default: none, and the param is omitted).
func WithSupportedCatalogIDs(ids ...string) ExtensionOption {
	return func(e *AgentExtension) {
		if len(ids) == 0 {
			return
		}
		e.params().SupportedCatalogIDs = append([]string(nil), ids...)
	}
}

// WithAcceptsInlineCatalogs says whether the agent accepts inline catalogs
// from clients (default false, and the param is omitted).
func WithAcceptsInlineCatalogs(accepts bool) ExtensionOption {
	return func(e *AgentExtension) {
		if accepts {
			e.params().AcceptsInlineCatalogs = true
		}
	}
}

// WithExtensionDescription sets the entry's description (default
// "Ability to render A2UI v<version>").
func WithExtensionDescription(d string) ExtensionOption {
	return func(e *AgentExtension) { e.Description = d }
}

func (e *AgentExtension) params() *ExtensionParams {
	if e.Params == nil {
		e.Params = &ExtensionParams{}
	}
	return e.Params
}

// NewAgentExtension returns the A2UI entry for an agent card's
// capabilities.extensions for a protocol version ("0.9.1" or "v0.9.1"). Each
// param appears only when it differs from its default, and Params is nil
// when no param does.
func NewAgentExtension(version string, opts ...ExtensionOption) (AgentExtension, error) {
	uri, err := protocol.ExtensionURI(version)
	if err != nil {
		return AgentExtension{}, err
	}
	v, _ := protocol.ParseVersion(version)
	e := AgentExtension{URI: uri, Description: fmt.Sprintf("Ability to render A2UI v%s", v)}
	for _, o := range opts {
		o(&e)
	}
	return e, nil
}
