package parser

import (
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
)

// TestMain runs the tests and says, in one line, how many were skipped for
// want of the shared reference data (see shareddata.Main).
func TestMain(m *testing.M) { shareddata.Main(m) }
