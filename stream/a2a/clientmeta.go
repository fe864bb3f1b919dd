package a2a

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tidwall/gjson"

	"github.com/a2ui-stream/a2ui-stream/processor"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// Message metadata keys of the A2UI extension.
const (
	MetadataClientCapabilities = "a2uiClientCapabilities"
	MetadataClientDataModel    = "a2uiClientDataModel"
)

// CatalogSupport is what a client renders for one protocol version (see
// processor.CatalogSupport).
type CatalogSupport = processor.CatalogSupport

// ClientCapabilities is the a2uiClientCapabilities metadata entry, in its
// keyed (v0.9 on) or flat (v0.8) form. It is processor.ClientCapabilities,
// defined once there so that what a processor computes is what this
// package reads and writes; its MarshalJSON and Newest methods live there.
type ClientCapabilities = processor.ClientCapabilities

// ParseClientCapabilities reads an a2uiClientCapabilities value in either
// form. In the keyed form, keys that are not versions are ignored, as the
// schemas allow. A wrong shape is a *MetadataError.
func ParseClientCapabilities(b []byte) (ClientCapabilities, error) {
	r := gjson.ParseBytes(b)
	if !r.IsObject() || !json.Valid(b) {
		return ClientCapabilities{}, capsErr("not a JSON object")
	}
	if r.Get("supportedCatalogIds").Exists() || r.Get("inlineCatalogs").Exists() {
		cs, err := parseCatalogSupport(r, "")
		if err != nil {
			return ClientCapabilities{}, err
		}
		return ClientCapabilities{Flat: &cs}, nil
	}
	c := ClientCapabilities{Versions: map[protocol.Version]CatalogSupport{}}
	var err error
	var others []string
	r.ForEach(func(k, v gjson.Result) bool {
		ver, perr := protocol.ParseVersion(k.String())
		if perr != nil {
			// The schemas do not forbid other keys: skip them, but name
			// them if no version is found.
			others = append(others, k.String())
			return true
		}
		cs, perr := parseCatalogSupport(v, k.String())
		if perr != nil {
			err = perr
			return false
		}
		c.Versions[ver] = cs
		return true
	})
	if err != nil {
		return ClientCapabilities{}, err
	}
	if len(c.Versions) == 0 {
		if len(others) > 0 {
			return ClientCapabilities{}, capsErr(fmt.Sprintf("no version key and no supportedCatalogIds (key %q is not a protocol version)", others[0]))
		}
		return ClientCapabilities{}, capsErr("no version and no supportedCatalogIds")
	}
	return c, nil
}

func parseCatalogSupport(r gjson.Result, at string) (CatalogSupport, error) {
	where := ""
	if at != "" {
		where = at + "."
	}
	if !r.IsObject() {
		return CatalogSupport{}, capsErr(fmt.Sprintf("%q is not an object", at))
	}
	ids := r.Get("supportedCatalogIds")
	if !ids.Exists() {
		return CatalogSupport{}, capsErr(where + "supportedCatalogIds is required")
	}
	if !ids.IsArray() {
		return CatalogSupport{}, capsErr(where + "supportedCatalogIds is not a list")
	}
	cs := CatalogSupport{SupportedCatalogIDs: []string{}}
	for _, id := range ids.Array() {
		if id.Type != gjson.String {
			return CatalogSupport{}, capsErr(where + "supportedCatalogIds holds a non-string")
		}
		cs.SupportedCatalogIDs = append(cs.SupportedCatalogIDs, id.String())
	}
	if inl := r.Get("inlineCatalogs"); inl.Exists() {
		if !inl.IsArray() {
			return CatalogSupport{}, capsErr(where + "inlineCatalogs is not a list")
		}
		for _, c := range inl.Array() {
			if !c.IsObject() {
				return CatalogSupport{}, capsErr(where + "inlineCatalogs holds a non-object")
			}
			cs.InlineCatalogs = append(cs.InlineCatalogs, json.RawMessage(c.Raw))
		}
	}
	return cs, nil
}

func capsErr(msg string) error { return &MetadataError{Key: MetadataClientCapabilities, Msg: msg} }

// ClientDataModel is the a2uiClientDataModel metadata entry: the data model
// of each surface that syncs it. It is processor.ClientDataModel (see
// ClientCapabilities); it marshals as {"version":"v<version>","surfaces":{…}}.
type ClientDataModel = processor.ClientDataModel

// ParseClientDataModel reads an a2uiClientDataModel value. A wrong shape is
// a *MetadataError.
func ParseClientDataModel(b []byte) (ClientDataModel, error) {
	r := gjson.ParseBytes(b)
	if !r.IsObject() || !json.Valid(b) {
		return ClientDataModel{}, dmErr("not a JSON object")
	}
	var dm ClientDataModel
	var err error
	r.ForEach(func(k, v gjson.Result) bool {
		switch k.String() {
		case "version":
			if v.Type != gjson.String {
				err = dmErr("version is not a string")
				return false
			}
			ver, perr := protocol.ParseVersion(v.String())
			if perr != nil {
				err = dmErr(fmt.Sprintf("malformed version %q", v.String()))
				return false
			}
			dm.Version = ver
		case "surfaces":
			if !v.IsObject() {
				err = dmErr("surfaces is not an object")
				return false
			}
			dm.Surfaces = map[string]json.RawMessage{}
			v.ForEach(func(id, model gjson.Result) bool {
				if !model.IsObject() {
					err = dmErr(fmt.Sprintf("surface %q data model is not an object", id.String()))
					return false
				}
				dm.Surfaces[id.String()] = json.RawMessage(model.Raw)
				return true
			})
		default:
			err = dmErr(fmt.Sprintf("unexpected key %q", k.String()))
		}
		return err == nil
	})
	if err != nil {
		return ClientDataModel{}, err
	}
	if dm.Version == "" {
		return ClientDataModel{}, dmErr("version is required")
	}
	if dm.Surfaces == nil {
		return ClientDataModel{}, dmErr("surfaces is required")
	}
	return dm, nil
}

func dmErr(msg string) error { return &MetadataError{Key: MetadataClientDataModel, Msg: msg} }

// ClientMetadata is the A2UI content of an A2A message's metadata. A nil
// field means the entry is absent.
type ClientMetadata struct {
	Capabilities *ClientCapabilities
	DataModel    *ClientDataModel
}

// ParseClientMetadata reads the A2UI entries of a message's metadata object.
// Absent metadata or entries are not errors; a malformed entry is a
// *MetadataError, and the other entry is still returned.
func ParseClientMetadata(metadata []byte) (ClientMetadata, error) {
	var m ClientMetadata
	if len(bytes.TrimSpace(metadata)) == 0 {
		return m, nil
	}
	r := gjson.ParseBytes(metadata)
	if r.Type == gjson.Null {
		return m, nil
	}
	if !r.IsObject() {
		return m, &MetadataError{Key: "metadata", Msg: "not a JSON object"}
	}
	var errs []error
	if v := r.Get(MetadataClientCapabilities); v.Exists() {
		c, err := ParseClientCapabilities([]byte(v.Raw))
		if err != nil {
			errs = append(errs, err)
		} else {
			m.Capabilities = &c
		}
	}
	if v := r.Get(MetadataClientDataModel); v.Exists() {
		dm, err := ParseClientDataModel([]byte(v.Raw))
		if err != nil {
			errs = append(errs, err)
		} else {
			m.DataModel = &dm
		}
	}
	return m, errors.Join(errs...)
}

// AddTo sets the entries of m that are present in metadata (creating the map
// when nil) and returns it.
func (m ClientMetadata) AddTo(metadata map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	if metadata == nil {
		metadata = map[string]json.RawMessage{}
	}
	if m.Capabilities != nil {
		b, err := json.Marshal(m.Capabilities)
		if err != nil {
			return nil, err
		}
		metadata[MetadataClientCapabilities] = b
	}
	if m.DataModel != nil {
		b, err := json.Marshal(m.DataModel)
		if err != nil {
			return nil, err
		}
		metadata[MetadataClientDataModel] = b
	}
	return metadata, nil
}
