//go:build !unix

package main

import (
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
)

// TestMain runs the tests and reports the ones skipped for want of the
// shared reference data (see shareddata.Main).
func TestMain(m *testing.M) { shareddata.Main(m) }
