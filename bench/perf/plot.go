package perf

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Plot sizes.
const (
	plotWidth  = 16 * vg.Centimeter
	plotHeight = 10 * vg.Centimeter
)

// WritePlots writes SVG plots of res into dir (created if needed) and
// returns their paths: for each input, throughput-NAME.svg (MB/s against
// chunk size, a line per stage and mode, the floor beside them) and
// heap-NAME.svg (live heap per session against turns fed, at HeapChunk);
// with the scaling check, scaling.svg (CPU time per byte against message
// size, a line per mode).
func WritePlots(dir string, res *Result) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("perf: plots: %w", err)
	}
	var paths []string
	save := func(p *plot.Plot, name string) error {
		path := filepath.Join(dir, name)
		if err := p.Save(plotWidth, plotHeight, path); err != nil {
			return fmt.Errorf("perf: plot %s: %w", path, err)
		}
		paths = append(paths, path)
		return nil
	}
	for i := range res.Files {
		f := &res.Files[i]
		p, err := throughputPlot(f)
		if err != nil {
			return paths, err
		}
		if err := save(p, "throughput-"+fileSlug(f.Name)+".svg"); err != nil {
			return paths, err
		}
		if p, err = heapPlot(f); err != nil {
			return paths, err
		}
		if err := save(p, "heap-"+fileSlug(f.Name)+".svg"); err != nil {
			return paths, err
		}
	}
	if len(res.Scaling) > 0 {
		p, err := scalingPlot(res.Scaling)
		if err != nil {
			return paths, err
		}
		if err := save(p, "scaling.svg"); err != nil {
			return paths, err
		}
	}
	return paths, nil
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// fileSlug is a file name fit to name a plot: its base without extension.
func fileSlug(name string) string {
	base := strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	if base = unsafeName.ReplaceAllString(base, "_"); base == "" {
		return "input"
	}
	return base
}

// logAxes gives a plot logarithmic axes.
func logAxes(p *plot.Plot) {
	p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
}

// positive keeps a value drawable on a log axis.
func positive(v, floor float64) float64 {
	if math.IsNaN(v) || v < floor {
		return floor
	}
	return v
}

// series builds AddLinePoints arguments: name, points, name, points, ….
type series []any

func (s *series) add(name string, pts plotter.XYs) {
	if len(pts) > 0 {
		*s = append(*s, name, pts)
	}
}

func throughputPlot(f *FileResult) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = f.Name + ": throughput by chunk size (process CPU time)"
	p.X.Label.Text = "chunk size (bytes)"
	p.Y.Label.Text = "MB/s (median of rounds)"
	logAxes(p)
	var s series
	var floor plotter.XYs
	for _, x := range f.Floor {
		floor = append(floor, plotter.XY{X: float64(x.Chunk), Y: positive(x.MBps.Median, 0.01)})
	}
	s.add("floor (boundary scan)", floor)
	for _, key := range cellKeys(f.Cells) {
		var pts plotter.XYs
		for _, c := range f.Cells {
			if c.Stage+" "+c.Mode == key {
				pts = append(pts, plotter.XY{X: float64(c.Chunk), Y: positive(c.MBps.Median, 0.01)})
			}
		}
		s.add(key, pts)
	}
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.TextStyle.Font.Size = 7
	return p, addLines(p, s)
}

// HeapChunk returns the chunk size heap-NAME.svg plots: 16 bytes when it
// was measured, else the smallest measured.
func HeapChunk(f *FileResult) int {
	chunk := 0
	for _, c := range f.Cells {
		if c.Chunk == 16 {
			return 16
		}
		if chunk == 0 || c.Chunk < chunk {
			chunk = c.Chunk
		}
	}
	return chunk
}

func heapPlot(f *FileResult) (*plot.Plot, error) {
	chunk := HeapChunk(f)
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: live heap per session by turns fed (%d-byte chunks)", f.Name, chunk)
	p.X.Label.Text = "turns fed"
	p.Y.Label.Text = "KB per session (below 1 KB drawn at 1)"
	logAxes(p)
	var s series
	for _, key := range cellKeys(f.Cells) {
		var pts plotter.XYs
		for _, c := range f.Cells {
			if c.Stage+" "+c.Mode != key || c.Chunk != chunk {
				continue
			}
			for _, h := range c.Heap.Turns {
				pts = append(pts, plotter.XY{X: float64(h.Turns), Y: positive(h.Bytes/1024, 1)})
			}
		}
		s.add(key, pts)
	}
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.TextStyle.Font.Size = 7
	return p, addLines(p, s)
}

func scalingPlot(pts []ScalePoint) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("parser: CPU time per byte by message size (%d-byte chunks)", pts[0].Chunk)
	p.X.Label.Text = "components in the message"
	p.Y.Label.Text = "ns per input byte (median of rounds)"
	logAxes(p)
	var modes []string
	for _, pt := range pts {
		if !slices.Contains(modes, pt.Mode) {
			modes = append(modes, pt.Mode)
		}
	}
	var s series
	for _, m := range modes {
		var xy plotter.XYs
		for _, pt := range pts {
			if pt.Mode == m {
				xy = append(xy, plotter.XY{X: float64(pt.Components), Y: positive(pt.NsPerByte.Median, 0.01)})
			}
		}
		s.add(m, xy)
	}
	p.Legend.Top, p.Legend.Left = true, true
	return p, addLines(p, s)
}

// cellKeys returns the "stage mode" of the cells, in order, once each.
func cellKeys(cells []Cell) []string {
	var keys []string
	for _, c := range cells {
		if k := c.Stage + " " + c.Mode; !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// addLines adds the series and widens a degenerate range (one point, or
// equal values), which a logarithmic axis cannot scale.
func addLines(p *plot.Plot, s series) error {
	if err := plotutil.AddLinePoints(p, s...); err != nil {
		return err
	}
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		if !(ax.Min < ax.Max) || ax.Min <= 0 {
			ax.Min, ax.Max = positive(ax.Min, 0.01)/2, positive(ax.Max, 0.01)*2
		}
	}
	return nil
}
