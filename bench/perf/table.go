package perf

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteTable writes res as text tables: for each input, its floor, a
// throughput table and a latency and memory table; then the scaling
// check, if any.
func WriteTable(w io.Writer, res *Result) error {
	ew := &errWriter{w: w}
	s := res.Settings
	rounds := fmt.Sprintf("%d rounds", s.Rounds)
	if s.DurationSeconds > 0 {
		rounds = fmt.Sprintf("rounds for %gs", s.DurationSeconds)
	}
	fmt.Fprintf(ew, "a2ui-stream bench: %s %s/%s, %d CPUs (GOMAXPROCS %d); MB/s by %s, median [min-max] of %s per cell; %d pipeline session(s)\n",
		res.Machine.Go, res.Machine.OS, res.Machine.Arch, res.Machine.CPUs, res.Machine.GOMAXPROCS, s.Clock, rounds, s.Sessions)
	for i := range res.Files {
		writeFile(ew, &res.Files[i])
	}
	if len(res.Scaling) > 0 {
		fmt.Fprintf(ew, "\nscaling: parse stage, one updateComponents of N components, %d-byte chunks, CPU ns per input byte\n", res.Scaling[0].Chunk)
		tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "mode\tcomponents\tbytes\tns/byte\trange\t")
		for _, p := range res.Scaling {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f\t%.1f-%.1f\t\n", p.Mode, p.Components, p.Bytes, p.NsPerByte.Median, p.NsPerByte.Min, p.NsPerByte.Max)
		}
		tw.Flush()
	}
	return ew.err
}

func writeFile(w io.Writer, f *FileResult) {
	turns := "1 turn"
	if f.Turns != 1 {
		turns = fmt.Sprintf("%d turns", f.Turns)
	}
	if f.TurnsFile != "" {
		turns += " (" + f.TurnsFile + ")"
	}
	fmt.Fprintf(w, "\n%s: %d bytes, %s, %d messages in %d blocks\n", f.Name, f.Bytes, turns, f.Messages, f.Blocks)
	var fl []string
	for _, x := range f.Floor {
		fl = append(fl, fmt.Sprintf("%d B: %.1f", x.Chunk, x.MBps.Median))
	}
	fmt.Fprintf(w, "floor (bare boundary scan, MB/s by chunk size): %s\n\n", strings.Join(fl, ", "))

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "stage\tmode\tchunk\tMB/s\trange\t% floor\tmsgs/s\tmessages\tallocs/MB\talloc KB/MB\tGC CPU\t")
	for _, c := range f.Cells {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s-%s\t%.1f%%\t%s\t%d\t%s\t%s\t%.1f%%\t\n",
			c.Stage, c.Mode, c.Chunk, num(c.MBps.Median), num(c.MBps.Min), num(c.MBps.Max),
			c.FloorPercent.Median, count(c.MessagesPerSecond.Median), c.Messages,
			count(c.AllocsPerMB), count(c.AllocBytesPerMB/1024), 100*c.GCCPUShare)
	}
	tw.Flush()

	fmt.Fprintln(w, "\nlatency: brace = from a message's closing brace to the first yield (parse) or batch (pipeline) after it;")
	fmt.Fprintln(w, "batch = from the start of the call that emitted a batch; heap = live heap per session, KB")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "stage\tmode\tchunk\tbrace B p50/p99/max\tbrace µs p50/p99/max\tbatch µs p50/p99/max\theap turn 1\theap end\tafter end\t")
	for _, c := range f.Cells {
		brace, braceUs, batch := "-", "-", "-"
		if c.Latency != nil {
			l := c.Latency.Bytes
			brace = fmt.Sprintf("%.0f/%.0f/%.0f", l.P50, l.P99, l.Max)
			braceUs = triple(c.Latency.Micros)
		}
		if c.BatchMicros != nil {
			batch = triple(*c.BatchMicros)
		}
		first := 0.0
		if len(c.Heap.Turns) > 0 {
			first = c.Heap.Turns[0].Bytes
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%.1f\t%.1f\t%.1f\t\n", c.Stage, c.Mode, c.Chunk,
			brace, braceUs, batch, first/1024, c.Heap.End/1024, c.Heap.AfterEnd/1024)
	}
	tw.Flush()
}

// triple formats percentiles in µs.
func triple(p Percentiles) string {
	return fmt.Sprintf("%s/%s/%s", us(p.P50), us(p.P99), us(p.Max))
}

// us formats microseconds with two significant decimals below 10.
func us(v float64) string {
	if v < 10 {
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.0f", v)
}

// num formats a rate: one decimal below 1000.
func num(v float64) string {
	if v < 1000 {
		return fmt.Sprintf("%.1f", v)
	}
	return count(v)
}

// count formats a number rounded to an integer, with thousands separators.
func count(v float64) string {
	s := fmt.Sprintf("%.0f", v)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// errWriter keeps the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
