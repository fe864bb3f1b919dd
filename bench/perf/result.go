package perf

// Result is what a run measured: its settings and machine, and for each
// input its floor and its cells. Counts (messages, blocks, latencies in
// bytes) are deterministic; rates, times, allocations and heap sizes are
// measurements. See result.schema.json (Schema) for its JSON form.
type Result struct {
	Tool     string       `json:"tool"`
	Machine  Machine      `json:"machine"`
	Settings Settings     `json:"settings"`
	Files    []FileResult `json:"files"`
	// Scaling is the scaling check (WithScaling), absent without it.
	Scaling []ScalePoint `json:"scaling,omitempty"`
}

// Machine describes where the run ran.
type Machine struct {
	Go         string `json:"go"`
	OS         string `json:"os"`
	Arch       string `json:"arch"`
	CPUs       int    `json:"cpus"`
	GOMAXPROCS int    `json:"gomaxprocs"`
}

// Settings are the run's options.
type Settings struct {
	Stages          []string `json:"stages"`
	Modes           []string `json:"modes"`
	Chunks          []int    `json:"chunks"`
	Rounds          int      `json:"rounds,omitempty"`
	DurationSeconds float64  `json:"durationSeconds,omitempty"`
	MinRoundSeconds float64  `json:"minRoundSeconds"`
	Sessions        int      `json:"sessions"`
	// Clock is what rates are measured by: "process CPU time".
	Clock string `json:"clock"`
}

// FileResult is one input's results.
type FileResult struct {
	Name      string `json:"name"`
	Bytes     int    `json:"bytes"`
	FedBytes  int    `json:"fedBytes"`
	Turns     int    `json:"turns"`
	TurnsFile string `json:"turnsFile,omitempty"`
	// Messages and Blocks are what the floor scanner found in the turns.
	Messages int           `json:"messages"`
	Blocks   int           `json:"blocks"`
	Floor    []FloorResult `json:"floor"`
	Cells    []Cell        `json:"cells"`
}

// FloorResult is the floor at one chunk size: the bare boundary scan's
// MB/s over every round taken beside the cells of that chunk size.
type FloorResult struct {
	Chunk  int    `json:"chunk"`
	MBps   Spread `json:"mbps"`
	Rounds int    `json:"rounds"`
}

// Cell is one stage × mode × chunk size.
type Cell struct {
	Stage    string `json:"stage"`
	Mode     string `json:"mode"`
	Chunk    int    `json:"chunk"`
	Sessions int    `json:"sessions"`
	// Messages per pass, summed over the sessions: yielded (parse) or
	// applied (process, pipeline). Failed messages and dropped blocks per
	// pass, likewise.
	Messages      int `json:"messages"`
	Failed        int `json:"failed"`
	DroppedBlocks int `json:"droppedBlocks"`
	Rounds        int `json:"rounds"`
	Passes        int `json:"passes"`
	// MBps is input MB (of every session) per second of process CPU
	// time, over the rounds; MessagesPerSecond likewise.
	MBps              Spread `json:"mbps"`
	MessagesPerSecond Spread `json:"messagesPerSecond"`
	// FloorPercent is MBps as a percentage of the floor's rate in the
	// round taken right after it, over the rounds.
	FloorPercent Spread `json:"floorPercent"`
	// Allocations and bytes allocated per MB of input, over the timed
	// passes.
	AllocsPerMB     float64 `json:"allocsPerMB"`
	AllocBytesPerMB float64 `json:"allocBytesPerMB"`
	// GCCPUShare is the collector's share of the busy CPU time of the
	// timed rounds (runtime/metrics), from 0 to 1.
	GCCPUShare float64 `json:"gcCPUShare"`
	// Latency is from a message's closing brace to the first yield
	// (parse) or batch (pipeline) in the call that fed it or a later
	// one; absent for the process stage.
	Latency *Latency `json:"latency,omitempty"`
	// BatchMicros is, for the pipeline, each batch's latency from the
	// start of the Feed (or EndTurn, End) call that emitted it.
	BatchMicros *Percentiles `json:"batchMicros,omitempty"`
	Heap        Heap         `json:"heap"`
}

// Latency is the latency of messages from their closing brace.
type Latency struct {
	// Bytes: the bytes fed after the brace, up to the end of the chunk
	// whose call yielded (0: the brace ended the chunk). Deterministic.
	Bytes Percentiles `json:"bytes"`
	// Micros: wall time from the start of the call that fed the brace
	// to the yield.
	Micros Percentiles `json:"micros"`
	// Unresolved counts braces no yield followed (in a dropped block).
	Unresolved int `json:"unresolved"`
}

// Heap is the live heap a session holds, in bytes (the live heap after a
// collection, less the one before the stage started, divided by the
// sessions). In the parse stage a session is one parser, in the process
// stage one processor.
type Heap struct {
	// Turns samples it after some turns were fed (1, 2, 5, 10, 20, 50, …
	// and the last), before the turn is closed.
	Turns []HeapPoint `json:"turns"`
	// End is after the whole input was fed, the sessions still open;
	// AfterEnd after they ended (what they leave behind).
	End      float64 `json:"end"`
	AfterEnd float64 `json:"afterEnd"`
}

// HeapPoint is the heap per session after Turns turns.
type HeapPoint struct {
	Turns int     `json:"turns"`
	Bytes float64 `json:"bytes"`
}

// ScalePoint is the parser's cost on one generated answer of Components
// components (one updateComponents message) in one mode.
type ScalePoint struct {
	Mode       string `json:"mode"`
	Components int    `json:"components"`
	Bytes      int    `json:"bytes"`
	Chunk      int    `json:"chunk"`
	// NsPerByte is CPU time per input byte, over the rounds.
	NsPerByte Spread `json:"nsPerByte"`
}
