package processor_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/processor"
)

const basicCatalog = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"

// msgs turns JSON texts into a list.
func msgs(texts ...string) []json.RawMessage {
	out := make([]json.RawMessage, len(texts))
	for i, s := range texts {
		out[i] = json.RawMessage(s)
	}
	return out
}

func create(id string) string {
	return `{"version":"v0.9","createSurface":{"surfaceId":"` + id + `","catalogId":"` + basicCatalog + `"}}`
}

func createSend(id string) string {
	return `{"version":"v0.9","createSurface":{"surfaceId":"` + id + `","catalogId":"` + basicCatalog + `","sendDataModel":true}}`
}

func comps(id string, components ...string) string {
	return `{"version":"v0.9","updateComponents":{"surfaceId":"` + id + `","components":[` + strings.Join(components, ",") + `]}}`
}

func data(id, path, value string) string {
	body := `"surfaceId":"` + id + `"`
	if path != "-" {
		body += `,"path":"` + path + `"`
	}
	if value != "-" {
		body += `,"value":` + value
	}
	return `{"version":"v0.9","updateDataModel":{` + body + `}}`
}

func del(id string) string {
	return `{"version":"v0.9","deleteSurface":{"surfaceId":"` + id + `"}}`
}

func newProcessor(t testing.TB, opts ...processor.Option) *processor.Processor {
	t.Helper()
	p, err := processor.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// mustApply applies a list whose every message must succeed.
func mustApply(t testing.TB, p *processor.Processor, texts ...string) processor.Batch {
	t.Helper()
	b := p.ProcessList(msgs(texts...))
	for _, e := range b.Errors() {
		t.Fatalf("setup message failed: %v", e)
	}
	return b
}

func state(t testing.TB, p *processor.Processor) string {
	t.Helper()
	b, err := stateJSON(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// dataModel returns a surface's data model as compact JSON, or "<none>".
func dataModel(t testing.TB, p *processor.Processor, id string) string {
	t.Helper()
	s, ok := p.Surface(id)
	if !ok {
		return "<none>"
	}
	b, err := s.DataModel()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// component returns a component's JSON, compacted, or "<none>".
func component(t testing.TB, p *processor.Processor, sid, cid string) string {
	t.Helper()
	s, ok := p.Surface(sid)
	if !ok {
		return "<none>"
	}
	c, ok := s.Component(cid)
	if !ok {
		return "<none>"
	}
	var v any
	if err := json.Unmarshal([]byte(c.JSON), &v); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
