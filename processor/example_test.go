package processor_test

import (
	"encoding/json"
	"fmt"

	"github.com/a2ui-stream/a2ui-stream/processor"
)

func Example() {
	p, err := processor.New()
	if err != nil {
		panic(err)
	}
	p.OnBatch(func(b processor.Batch) {
		fmt.Printf("batch %d: %d applied, %d failed\n", b.Seq, b.Applied, b.Failed)
	})
	list := []json.RawMessage{
		json.RawMessage(`{"version":"v0.9","createSurface":{"surfaceId":"s1","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}`),
		json.RawMessage(`{"version":"v0.9","updateComponents":{"surfaceId":"nope","components":[{"id":"root","component":"Text","text":"lost"}]}}`),
		json.RawMessage(`{"version":"v0.9","updateComponents":{"surfaceId":"s1","components":[{"id":"root","component":"Text","text":{"path":"/greeting"}}]}}`),
		json.RawMessage(`{"version":"v0.9","updateDataModel":{"surfaceId":"s1","path":"/greeting","value":"hello"}}`),
	}
	b := p.ProcessList(list)
	for _, e := range b.Errors() {
		r := e.Report()
		fmt.Printf("message %d: %s %s\n", e.Index, r.Code, r.Message)
	}
	s, _ := p.Surface("s1")
	dm, _ := s.DataModel()
	fmt.Println(s.ComponentIDs(), string(dm))
	// Output:
	// batch 1: 3 applied, 1 failed
	// message 1: VALIDATION_FAILED unknown surface: surface "nope" does not exist
	// [root] {"greeting":"hello"}
}
