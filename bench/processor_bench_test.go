package bench

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
	"github.com/a2ui-stream/a2ui-stream/processor"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// corpusLists returns the lists of the v0.9 corpus: one per <a2ui-json>
// block, split into messages, with the total message and byte counts.
func corpusLists(tb testing.TB) (lists [][]json.RawMessage, nMsgs, nBytes int) {
	return corpusListsOf(tb, CorpusV09)
}

func corpusListsOf(tb testing.TB, name string) (lists [][]json.RawMessage, nMsgs, nBytes int) {
	tb.Helper()
	for _, block := range Blocks(LoadCorpus(tb, name)) {
		l, err := processor.SplitList(block)
		if err != nil {
			tb.Fatalf("corpus block is not a list: %v", err)
		}
		lists = append(lists, l)
		nMsgs += len(l)
		nBytes += len(block)
	}
	return lists, nMsgs, nBytes
}

// basicCatalogV09 loads the v0.9 basic catalog with the v0.9.1 message and
// common-type schemas.
func basicCatalogV09(tb testing.TB) *protocol.Catalog {
	tb.Helper()
	dir := shareddata.Path(tb, "a2ui", "specification", "v0_9_1")
	c, err := protocol.LoadCatalog(protocol.CatalogSpec{
		Version:           "0.9",
		S2CSchema:         "json/server_to_client.json",
		CatalogSchema:     "catalogs/basic/catalog.json",
		CommonTypesSchema: "json/common_types.json",
	}, dir)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

func applyAll(tb testing.TB, lists [][]json.RawMessage, opts []processor.Option) (failed int) {
	p, err := processor.New(opts...)
	if err != nil {
		tb.Fatal(err)
	}
	for _, l := range lists {
		failed += p.ProcessList(l).Failed
	}
	return failed
}

// BenchmarkProcessor applies the 200 lists (600 messages) of the v0.9
// corpus to a fresh processor per iteration and reports messages/s:
//
//   - structural: envelope checks only (topology off);
//   - topology: the default, with topology validation on;
//   - schema: topology plus the basic catalog's JSON Schema.
func BenchmarkProcessor(b *testing.B) {
	lists, nMsgs, nBytes := corpusLists(b)
	modes := []struct {
		name string
		opts func(testing.TB) []processor.Option
	}{
		{"structural", func(testing.TB) []processor.Option { return []processor.Option{processor.WithTopology(false)} }},
		{"topology", func(testing.TB) []processor.Option { return nil }},
		{"schema", func(tb testing.TB) []processor.Option {
			return []processor.Option{processor.WithCatalog(basicCatalogV09(tb))}
		}},
	}
	for _, m := range modes {
		b.Run(m.name, func(b *testing.B) {
			benchApply(b, lists, nMsgs, nBytes, m.opts(b))
		})
	}
}

// BenchmarkProcessorListSize applies lists made of k corpus lists joined
// (3k messages, k surfaces): ns/msg staying flat as k grows shows the cost
// of a list is linear in its size.
func BenchmarkProcessorListSize(b *testing.B) {
	lists, _, _ := corpusLists(b)
	for _, k := range []int{1, 10, 100} {
		var big []json.RawMessage
		for _, l := range lists[:k] {
			big = append(big, l...)
		}
		b.Run(fmt.Sprintf("messages=%d", len(big)), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p, _ := processor.New()
				if bt := p.ProcessList(big); bt.Failed != 0 {
					b.Fatalf("%d failed", bt.Failed)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(len(big)*b.N), "ns/msg")
		})
	}
}

// BenchmarkProcessorV08 applies the 200 lists (600 messages:
// beginRendering, surfaceUpdate, dataModelUpdate) of the v0.8 corpus with
// topology validation on.
func BenchmarkProcessorV08(b *testing.B) {
	lists, nMsgs, nBytes := corpusListsOf(b, CorpusV08)
	benchApply(b, lists, nMsgs, nBytes, nil)
}

// benchApply times applyAll over the corpus lists (every message must
// apply) and reports messages/s and ns/msg.
func benchApply(b *testing.B, lists [][]json.RawMessage, nMsgs, nBytes int, opts []processor.Option) {
	if failed := applyAll(b, lists, opts); failed != 0 {
		b.Fatalf("%d corpus messages failed", failed)
	}
	b.ReportAllocs()
	b.SetBytes(int64(nBytes))
	for b.Loop() {
		applyAll(b, lists, opts)
	}
	b.ReportMetric(float64(nMsgs)*float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(nMsgs*b.N), "ns/msg")
}

// BenchmarkProcessorProgressive applies one list of k+2 messages as a
// progressive stream would send them: a surface, a root Column that
// already names its k children, then each child in its own
// updateComponents. ns/msg staying flat as k grows shows that checking a
// small update does not cost the size of the surface.
func BenchmarkProcessorProgressive(b *testing.B) {
	const catalog = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"
	for _, k := range []int{100, 1000, 5000} {
		ids := make([]string, k)
		for i := range ids {
			ids[i] = fmt.Sprintf(`"c%d"`, i)
		}
		list := []json.RawMessage{
			json.RawMessage(`{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"` + catalog + `"}}`),
			json.RawMessage(`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":[` + strings.Join(ids, ",") + `]}]}}`),
		}
		for i := range k {
			list = append(list, json.RawMessage(fmt.Sprintf(`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"c%d","component":"Text","text":"item %d"}]}}`, i, i)))
		}
		b.Run(fmt.Sprintf("children=%d", k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p, _ := processor.New(processor.WithMaxComponents(k + 1))
				if bt := p.ProcessList(list); bt.Failed != 0 {
					b.Fatalf("%d failed: %v", bt.Failed, bt.Errors()[0])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(len(list)*b.N), "ns/msg")
		})
	}
}

// BenchmarkCatalogValidMessageJSON measures the basic catalog's fast
// validity check (protocol.Catalog.ValidMessageJSON) alone over the 600
// messages of the v0.9 corpus, the schema step of BenchmarkProcessor/schema.
func BenchmarkCatalogValidMessageJSON(b *testing.B) {
	lists, nMsgs, nBytes := corpusLists(b)
	cat := basicCatalogV09(b)
	var msgs []string
	for _, l := range lists {
		for _, m := range l {
			if !cat.ValidMessageJSON(string(m)) {
				b.Fatalf("corpus message not accepted by the fast check: %.200s", m)
			}
			msgs = append(msgs, string(m))
		}
	}
	b.ReportAllocs()
	b.SetBytes(int64(nBytes))
	for b.Loop() {
		for _, m := range msgs {
			cat.ValidMessageJSON(m)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(nMsgs*b.N), "ns/msg")
}

// BenchmarkSplitList measures processor.SplitList alone over the
// <a2ui-json> blocks of the v0.9 corpus: the step that turns a list's text
// into messages before ProcessList (ProcessJSON, a2ui-stream apply).
func BenchmarkSplitList(b *testing.B) {
	blocks := Blocks(LoadCorpus(b, CorpusV09))
	n, msgs := 0, 0
	for _, bl := range blocks {
		l, err := processor.SplitList(bl)
		if err != nil {
			b.Fatalf("corpus block is not a list: %v", err)
		}
		n += len(bl)
		msgs += len(l)
	}
	b.ReportAllocs()
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, bl := range blocks {
			if _, err := processor.SplitList(bl); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(msgs*b.N), "ns/msg")
}
