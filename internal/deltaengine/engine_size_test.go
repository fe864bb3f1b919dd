package deltaengine

import (
	"testing"
	"unsafe"
)

// engineSizeClass is the allocator's size class an Engine fits in: one
// field past it puts every stream in the next class (1,152 bytes), 128
// bytes more per stream (the parser's TestStreamHeld measures them, with
// -deltafirst).
const engineSizeClass = 1024

// TestEngineFitsItsSizeClass holds the Engine in its size class.
func TestEngineFitsItsSizeClass(t *testing.T) {
	if size := unsafe.Sizeof(Engine{}); size > engineSizeClass {
		t.Errorf("Engine takes %d bytes, over the %d-byte size class", size, engineSizeClass)
	}
}
