package deltaengine

import (
	"testing"
	"unsafe"
)

// engineSizeClass is the allocator's size class an Engine fits in, with
// the 8-byte header the Go allocator puts before an object of more than
// 512 bytes that holds pointers: one field past it puts every stream in
// the next class (1,152 bytes), 128 bytes more per stream (the parser's
// TestStreamHeld measures them). An Engine of 1,024 bytes measured so in
// session 24.
const (
	engineSizeClass = 1024
	mallocHeader    = 8
)

// TestEngineFitsItsSizeClass holds the Engine in its size class.
func TestEngineFitsItsSizeClass(t *testing.T) {
	if size := unsafe.Sizeof(Engine{}) + mallocHeader; size > engineSizeClass {
		t.Errorf("Engine takes %d bytes with its allocation header, over the %d-byte size class", size, engineSizeClass)
	}
}

// TestEntryFitsItsSizeClass holds an entry, one per component of every
// surface a stream keeps, in the allocator's 128-byte size class: it was
// 144 bytes (the 144-byte class) with its waiting parents in a list of
// its own, 16 bytes more per component a stream holds (the parser's
// TestStreamHeld measures them).
func TestEntryFitsItsSizeClass(t *testing.T) {
	if size := unsafe.Sizeof(entry{}); size > 128 {
		t.Errorf("an entry takes %d bytes, over the 128-byte size class", size)
	}
}

// TestProgEntryFitsItsSizeClass holds a progressive entry and its snapshot
// form, allocated together, in the 192-byte size class: what the two took
// apart (128 and 64 bytes).
func TestProgEntryFitsItsSizeClass(t *testing.T) {
	if size := unsafe.Sizeof(progEntry{}); size > 192 {
		t.Errorf("a progressive entry takes %d bytes, over the 192-byte size class", size)
	}
}
