package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/a2ui-stream/a2ui-stream/parser"
)

// threeBlocks is a stream with three blocks (the second spaced out, the
// third empty) and prose around them.
const threeBlocks = `Here you go.
<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"hi"}]}}]</a2ui-json>
More.
<a2ui-json>[ {"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/a b", "value": "x  y"}} ]</a2ui-json>
<a2ui-json>[]</a2ui-json>
Bye.`

func TestParseEmitLists(t *testing.T) {
	first := `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"hi"}]}}]`
	second := `[{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/a b","value":"x  y"}}]`
	tests := []struct {
		name    string
		args    []string
		in      string
		want    []string // an error line's "error" is given as "ERR"
		wantErr string   // substring every "error" must contain
	}{
		{name: "whole_input", in: threeBlocks, want: []string{first, second}},
		{name: "one_byte_chunks", args: []string{"--chunk", "1"}, in: threeBlocks, want: []string{first, second}},
		{name: "seven_byte_chunks", args: []string{"--chunk", "7"}, in: threeBlocks, want: []string{first, second}},
		{name: "no_blocks", in: "just prose", want: nil},
		{name: "failed_block_keeps_yielded_messages",
			in:      `<a2ui-json>[{"a":1},{"b":tru}]</a2ui-json><a2ui-json>[{"c":1}]</a2ui-json>`,
			want:    []string{`[{"a":1}]`, `{"error":"ERR"}`, `[{"c":1}]`},
			wantErr: "block 0"},
		{name: "failed_block_split_across_chunks", args: []string{"--chunk", "3"},
			in:      `<a2ui-json>[{"a":1},{"b":tru}]</a2ui-json><a2ui-json>[{"c":1}]</a2ui-json>`,
			want:    []string{`[{"a":1}]`, `{"error":"ERR"}`, `[{"c":1}]`},
			wantErr: "block 0"},
		{name: "failed_block_without_messages",
			in:      `<a2ui-json>oops</a2ui-json><a2ui-json>[{"c":1}]</a2ui-json>`,
			want:    []string{`{"error":"ERR"}`, `[{"c":1}]`},
			wantErr: "block 0"},
		{name: "unterminated_block_at_the_end", args: []string{"--chunk", "4"},
			in:      `<a2ui-json>[{"a":1},{"b":`,
			want:    []string{`[{"a":1}]`, `{"error":"ERR"}`},
			wantErr: "block 0"},
		{name: "jsonl_framing_one_list_per_line", args: []string{"--framing", "jsonl", "--chunk", "5"},
			in:   "{\"a\": 1}\n{\"b\":2}\n",
			want: []string{`[{"a":1}]`, `[{"b":2}]`}},
		{name: "delta_mode_sorts_envelope_keys", args: []string{"--mode", "delta"}, in: threeBlocks,
			want: []string{
				`[{"createSurface":{"catalogId":"c","surfaceId":"s"},"version":"v0.9"},{"updateComponents":{"components":[{"id":"root","component":"Text","text":"hi"}],"surfaceId":"s"},"version":"v0.9"}]`,
				`[{"updateDataModel":{"path":"/a b","surfaceId":"s","value":"x  y"},"version":"v0.9"}]`,
				`{"error":"ERR"}`, // the empty block: "No valid JSON object found in A2UI block."
			},
			wantErr: "block 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"parse", "--emit", "lists"}, tt.args...)
			out, errOut, code := runCLI(t, tt.in, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			got := splitLines(out)
			for i := range got {
				got[i] = maskError(t, got[i], tt.wantErr)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Fatalf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestParseEmitListsMatchesParts: the lists hold, in order, exactly the
// messages the parts hold.
func TestParseEmitListsMatchesParts(t *testing.T) {
	for _, chunk := range []string{"0", "1", "16"} {
		t.Run("chunk_"+chunk, func(t *testing.T) {
			partsOut, _, _ := runCLI(t, threeBlocks, "parse", "--chunk", chunk)
			listsOut, _, _ := runCLI(t, threeBlocks, "parse", "--emit", "lists", "--chunk", chunk)
			var fromParts, fromLists []string
			for _, l := range splitLines(partsOut) {
				var p struct{ A2UI []json.RawMessage }
				if err := json.Unmarshal([]byte(l), &p); err != nil {
					t.Fatal(err)
				}
				for _, m := range p.A2UI {
					fromParts = append(fromParts, string(m))
				}
			}
			for _, l := range splitLines(listsOut) {
				var list []json.RawMessage
				if err := json.Unmarshal([]byte(l), &list); err != nil {
					t.Fatalf("line %q: %v", l, err)
				}
				for _, m := range list {
					fromLists = append(fromLists, string(m))
				}
			}
			if len(fromParts) != 3 || strings.Join(fromParts, "\n") != strings.Join(fromLists, "\n") {
				t.Errorf("messages of the parts:\n%s\nof the lists:\n%s", strings.Join(fromParts, "\n"), strings.Join(fromLists, "\n"))
			}
		})
	}
}

// TestParseEmitListsPipedToApply runs "parse --emit lists | apply"
// in-process through a pipe: apply reads each list as parse writes it.
func TestParseEmitListsPipedToApply(t *testing.T) {
	weather, err := os.ReadFile("../../examples/weather.txt")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name        string
		in          string
		applyArgs   []string
		wantBatches int
		wantApplied int
	}{
		{"weather", string(weather), nil, 1, 3},
		{"three_blocks", threeBlocks, nil, 2, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pr, pw := io.Pipe()
			parsed := make(chan int, 1)
			var parseErr bytes.Buffer
			go func() {
				code := runParse(context.Background(), []string{"--emit", "lists", "--chunk", "16"}, strings.NewReader(tt.in), pw, &parseErr)
				pw.Close()
				parsed <- code
			}()
			var out, applyErr bytes.Buffer
			applyCode := runApply(context.Background(), tt.applyArgs, pr, &out, &applyErr)
			pr.Close() // lets parse end if apply stopped early
			if code := <-parsed; code != 0 {
				t.Errorf("parse exited %d: %s", code, parseErr.String())
			}
			if applyCode != 0 {
				t.Fatalf("apply exited %d: %s\n%s", applyCode, applyErr.String(), out.String())
			}
			batches, applied := 0, 0
			sc := bufio.NewScanner(&out)
			for sc.Scan() {
				var b struct{ Applied, Failed int }
				if err := json.Unmarshal(sc.Bytes(), &b); err != nil {
					t.Fatalf("batch %q: %v", sc.Text(), err)
				}
				if b.Failed != 0 {
					t.Errorf("batch %s has failures", sc.Text())
				}
				batches++
				applied += b.Applied
			}
			if batches != tt.wantBatches || applied != tt.wantApplied {
				t.Errorf("%d batches applying %d messages, want %d and %d:\n%s", batches, applied, tt.wantBatches, tt.wantApplied, out.String())
			}
		})
	}
}

// TestParseEmitPartsFailsApply: what the default --emit parts writes is not
// what apply reads (the reason for --emit lists).
func TestParseEmitPartsFailsApply(t *testing.T) {
	parts, _, _ := runCLI(t, threeBlocks, "parse")
	out, _, code := runCLI(t, parts, "apply")
	if code != 1 || !strings.Contains(out, "is not a JSON array of messages") {
		t.Errorf("apply of parts: exit %d, output %s", code, out)
	}
}

// TestParseChunksIgnoreReadSizes: --chunk N feeds N-byte chunks however the
// input arrives (here one byte per read), and a chunk larger than the read
// buffer is read whole.
func TestParseChunksIgnoreReadSizes(t *testing.T) {
	weather, err := os.ReadFile("../../examples/weather.txt")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		chunk  int
		golden string
	}{
		{"16_bytes", 16, "parse_weather_chunk16.golden"},
		{"1_byte", 1, "parse_weather_bytes.golden"},
		{"larger_than_the_read_buffer", readBufferSize + 1, "parse_weather.golden"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			in := iotest.OneByteReader(bytes.NewReader(weather))
			if code := run(context.Background(), []string{"parse", "--chunk", itoa(tt.chunk)}, in, &out, &errOut); code != 0 {
				t.Fatalf("exit %d: %s", code, errOut.String())
			}
			golden(t, tt.golden, out.Bytes())
		})
	}
}

// TestListTooLong: a block whose messages make a list longer than the
// limit is replaced by an error line, and the next block is written.
func TestListTooLong(t *testing.T) {
	msg := func(s string) []json.RawMessage { return []json.RawMessage{json.RawMessage(s)} }
	calls := [][]parser.Part{
		{{Text: "x", Messages: msg(`{"a":"0123456789"}`), List: 0}},
		{{Messages: msg(`{"b": 1}`), List: 0}},
		{{List: 0, ListEnd: true}}, // the marker of WithListEnds
		{{Messages: msg(`{"c": 1}`), List: 1, ListEnd: true}},
	}
	var out bytes.Buffer
	w := bufio.NewWriter(&out)
	l := &listLines{max: 20}
	for i, parts := range calls {
		if err := l.write(w, parts, nil, i == len(calls)-1); err != nil {
			t.Fatal(err)
		}
	}
	w.Flush()
	want := `{"error":"a2ui-stream parse: the messages of block 0 make a list longer than 20 bytes; dropped"}` + "\n" + `[{"c":1}]` + "\n"
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}

// TestParseChunkLargerThanReadBuffer: a chunk larger than readBufferSize
// is fed whole, the last chunk holding the rest.
func TestParseChunkLargerThanReadBuffer(t *testing.T) {
	n := readBufferSize + 1
	in := strings.Repeat("a", n+9)
	out, errOut, code := runCLI(t, in, "parse", "--chunk", itoa(n))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := `{"text":"` + strings.Repeat("a", n) + `"}` + "\n" + `{"text":"aaaaaaaaa"}` + "\n"
	if out != want {
		t.Errorf("got %d bytes %.40q…, want two parts of %d and 9 bytes", len(out), out, n)
	}
}

// TestParseReadError: an input that fails mid-stream exits 2 after
// writing what it parsed.
func TestParseReadError(t *testing.T) {
	in := io.MultiReader(strings.NewReader("hello "), iotest.ErrReader(io.ErrUnexpectedEOF))
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"parse"}, in, &out, &errOut)
	if code != 2 || out.String() != `{"text":"hello "}`+"\n" || !strings.Contains(errOut.String(), "unexpected EOF") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
