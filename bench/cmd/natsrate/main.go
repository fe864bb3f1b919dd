// Command natsrate measures the NATS service end to end, as "a2ui-stream
// serve" runs it on core NATS: an embedded NATS server, a stream.Pipeline
// fed by a stream/consumer.Core and publishing its events through a
// sinks.NATS, all in this process, with a publisher and a subscriber on
// connections of their own. SESSIONS sessions each stream one corpus turn
// (turns taken in order from TURNS, the corpus's .turns.json) in CHUNK-byte
// NATS messages, interleaved one chunk of each session at a time, then
// their end markers. It prints, for each round and as the median of the
// rounds: chunks/s and MB/s of input over the wall time from the first
// publish to the last end event received, and the p50, p99 and max
// latency from publishing the chunk that closes a list to receiving that
// list's batch event. By default the chunks are published as fast as the
// publisher can (a saturating load: latency is then mostly queueing);
// -pace D waits D between rounds of chunks, one chunk of each session per
// round, as sessions streaming at a model's pace.
//
// usage: natsrate [-sessions 50] [-chunk 16] [-rounds 5] [-pace 0] FILE TURNS
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/a2ui-stream/a2ui-stream/bench/perf"
	"github.com/a2ui-stream/a2ui-stream/internal/natsembed"
	"github.com/a2ui-stream/a2ui-stream/sinks"
	"github.com/a2ui-stream/a2ui-stream/stream"
	"github.com/a2ui-stream/a2ui-stream/stream/consumer"
)

func main() {
	sessions := flag.Int("sessions", 50, "concurrent sessions")
	chunk := flag.Int("chunk", 16, "chunk size in bytes")
	rounds := flag.Int("rounds", 5, "rounds")
	flag.DurationVar(&pace, "pace", 0, "pause between rounds of chunks (0: publish as fast as possible)")
	flag.Parse()
	if flag.NArg() != 2 || *sessions < 1 || *chunk < 1 || *rounds < 1 {
		fmt.Fprintln(os.Stderr, "usage: natsrate [-sessions N] [-chunk N] [-rounds N] FILE TURNS")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), flag.Arg(1), *sessions, *chunk, *rounds); err != nil {
		fmt.Fprintln(os.Stderr, "natsrate:", err)
		os.Exit(1)
	}
}

// pace is the pause between rounds of chunks.
var pace time.Duration

// result is one round's figures.
type result struct {
	chunksPerSec, mbPerSec float64
	p50, p99, maxLat       time.Duration
}

func run(file, turnsFile string, sessions, chunk, rounds int) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	offsets, err := perf.ReadTurns(turnsFile, len(data)) // checked against the input's size
	if err != nil {
		return err
	}
	if len(offsets) < sessions {
		return fmt.Errorf("%d turns, fewer than %d sessions", len(offsets), sessions)
	}
	turns := make([][]byte, sessions)
	for i := range turns {
		turns[i] = data[offsets[i].Start:offsets[i].End]
	}
	srv, err := natsembed.Start(natsembed.WithoutJetStream())
	if err != nil {
		return err
	}
	defer srv.Shutdown()
	var res []result
	for r := range rounds {
		x, err := round(srv.URL(), turns, chunk, r)
		if err != nil {
			return err
		}
		fmt.Printf("round %d: %.0f chunks/s, %.2f MB/s, batch latency p50 %v p99 %v max %v\n",
			r+1, x.chunksPerSec, x.mbPerSec, x.p50, x.p99, x.maxLat)
		res = append(res, x)
	}
	med := func(f func(result) float64) float64 {
		v := make([]float64, len(res))
		for i, x := range res {
			v[i] = f(x)
		}
		return perf.SpreadOf(v).Median
	}
	fmt.Printf("median: %d sessions, %d-byte chunks: %.0f chunks/s, %.2f MB/s, batch latency p50 %v p99 %v max %v\n",
		sessions, chunk, med(func(x result) float64 { return x.chunksPerSec }), med(func(x result) float64 { return x.mbPerSec }),
		time.Duration(med(func(x result) float64 { return float64(x.p50) })).Round(time.Microsecond),
		time.Duration(med(func(x result) float64 { return float64(x.p99) })).Round(time.Microsecond),
		time.Duration(med(func(x result) float64 { return float64(x.maxLat) })).Round(time.Microsecond))
	return nil
}

// round runs the service and streams every turn through it once.
func round(url string, turns [][]byte, chunk, r int) (result, error) {
	var res result
	svc, err := nats.Connect(url)
	if err != nil {
		return res, err
	}
	defer svc.Close()
	out, err := sinks.NewNATS(sinks.CorePublisher(svc), "a2ui.out")
	if err != nil {
		return res, err
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	pl, err := stream.NewPipeline(stream.WithSinks(out), stream.WithLogger(log))
	if err != nil {
		return res, err
	}
	cons, err := consumer.NewCore(svc, pl, consumer.WithLogger(log))
	if err != nil {
		return res, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- cons.Run(ctx) }()
	defer func() {
		cancel()
		<-done
		_ = pl.Close(context.Background())
	}()
	for cons.Ready() != nil {
		time.Sleep(time.Millisecond)
	}

	sub, err := nats.Connect(url)
	if err != nil {
		return res, err
	}
	defer sub.Close()
	pub, err := nats.Connect(url)
	if err != nil {
		return res, err
	}
	defer pub.Close()
	ids := make([]string, len(turns))
	// listEnds[i] is the chunk index that closes session i's list.
	listEnds := make([]int, len(turns))
	for i, t := range turns {
		ids[i] = fmt.Sprintf("r%d-s%d", r, i)
		listEnds[i] = (bytes.Index(t, []byte("</a2ui-json>")) + len("</a2ui-json>") - 1) / chunk
	}
	var mu sync.Mutex
	closed := make([]time.Time, len(turns)) // when the list-closing chunk was published
	var lats []time.Duration
	ended := make(chan struct{}, len(turns))
	index := map[string]int{}
	for i, id := range ids {
		index[id] = i
	}
	s, err := sub.Subscribe("a2ui.out.>", func(m *nats.Msg) {
		now := time.Now()
		i := index[strings.TrimPrefix(m.Subject, "a2ui.out.")]
		switch m.Header.Get(sinks.HeaderEvent) {
		case string(sinks.KindBatch):
			mu.Lock()
			lats = append(lats, now.Sub(closed[i]))
			mu.Unlock()
		case string(sinks.KindEnd):
			ended <- struct{}{}
		}
	})
	if err != nil {
		return res, err
	}
	s.SetPendingLimits(-1, -1)
	if err := sub.Flush(); err != nil {
		return res, err
	}
	start := time.Now()
	chunks, total := 0, 0
	for k := 0; ; k++ {
		sent := false
		for i, t := range turns {
			off := k * chunk
			if off >= len(t) {
				continue
			}
			if k == listEnds[i] {
				// Before publishing: the batch may come back before Publish
				// returns, and must find the time its list closed.
				mu.Lock()
				closed[i] = time.Now()
				mu.Unlock()
			}
			if err := pub.Publish("a2ui.in."+ids[i], t[off:min(off+chunk, len(t))]); err != nil {
				return res, err
			}
			chunks++
			total += min(chunk, len(t)-off)
			sent = true
		}
		if !sent {
			break
		}
		if pace > 0 {
			time.Sleep(pace)
		}
	}
	for _, id := range ids {
		end := nats.NewMsg("a2ui.in." + id)
		end.Header.Set(consumer.EndHeader, "true")
		if err := pub.PublishMsg(end); err != nil {
			return res, err
		}
	}
	if err := pub.Flush(); err != nil {
		return res, err
	}
	timeout := time.After(5 * time.Minute)
	for range turns {
		select {
		case <-ended:
		case <-timeout:
			return res, fmt.Errorf("round %d: not every session ended within 5 minutes", r+1)
		}
	}
	wall := time.Since(start)
	mu.Lock()
	defer mu.Unlock()
	res.chunksPerSec = float64(chunks) / wall.Seconds()
	res.mbPerSec = float64(total) / 1e6 / wall.Seconds()
	v := make([]float64, len(lats))
	for i, l := range lats {
		v[i] = float64(l)
	}
	p := perf.Summarize(v) // nearest rank, as a2ui-stream bench reports
	res.p50 = time.Duration(p.P50).Round(time.Microsecond)
	res.p99 = time.Duration(p.P99).Round(time.Microsecond)
	res.maxLat = time.Duration(p.Max).Round(time.Microsecond)
	return res, nil
}
