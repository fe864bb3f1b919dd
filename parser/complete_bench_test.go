package parser

import "testing"

// Complete mode over the corpora in one stream (one parser), as the
// progressive and delta benchmarks in progressive_bench_test.go, with
// owned output (the default) and with WithBorrowedOutput.

func BenchmarkCompleteV09Chunk16(b *testing.B) { benchCorpus(b, "stream_v09.txt", ModeComplete, 16) }
func BenchmarkCompleteV09Chunk16Borrowed(b *testing.B) {
	benchCorpus(b, "stream_v09.txt", ModeComplete, 16, WithBorrowedOutput())
}
func BenchmarkCompleteV09Chunk64K(b *testing.B) {
	benchCorpus(b, "stream_v09.txt", ModeComplete, 65536)
}
func BenchmarkCompleteV09Chunk64KBorrowed(b *testing.B) {
	benchCorpus(b, "stream_v09.txt", ModeComplete, 65536, WithBorrowedOutput())
}
func BenchmarkCompleteV08Chunk16(b *testing.B) { benchCorpus(b, "stream_v08.txt", ModeComplete, 16) }
func BenchmarkCompleteV08Chunk16Borrowed(b *testing.B) {
	benchCorpus(b, "stream_v08.txt", ModeComplete, 16, WithBorrowedOutput())
}
func BenchmarkCompleteV08Chunk64K(b *testing.B) {
	benchCorpus(b, "stream_v08.txt", ModeComplete, 65536)
}
func BenchmarkCompleteV08Chunk64KBorrowed(b *testing.B) {
	benchCorpus(b, "stream_v08.txt", ModeComplete, 65536, WithBorrowedOutput())
}

// The fences and JSONL framings, on the corpora rewritten to them as the
// golden hashes' derived corpora are (golden_hash_framing_test.go; the
// rewrite of the whole stream is that of its turns one after the other).
// The JSONL stream has no prose, so it is shorter: MB/s counts its own
// bytes.
func benchFramed(b *testing.B, name string, f Framing, chunk int) {
	benchData(b, goldenFramed(b, f, readCorpus(b, name)), ModeComplete, chunk, WithFraming(f))
}

func BenchmarkCompleteFencesV09Chunk16(b *testing.B) {
	benchFramed(b, "stream_v09.txt", FramingFences, 16)
}
func BenchmarkCompleteFencesV08Chunk16(b *testing.B) {
	benchFramed(b, "stream_v08.txt", FramingFences, 16)
}
func BenchmarkCompleteJSONLV09Chunk16(b *testing.B) {
	benchFramed(b, "stream_v09.txt", FramingJSONL, 16)
}
func BenchmarkCompleteJSONLV08Chunk16(b *testing.B) {
	benchFramed(b, "stream_v08.txt", FramingJSONL, 16)
}
