package parser

import (
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
)

// TestMain runs the tests and says, in one line, how many were skipped for
// want of the shared reference data (see shareddata.Main). It fails the
// run when a component read ended compUnread anywhere in it: such a
// component is not recorded, silently, and none is known (unreadReads).
func TestMain(m *testing.M) { shareddata.Main(unreadChecked{m}) }

// unreadChecked runs the tests, then checks unreadReads.
type unreadChecked struct{ m *testing.M }

func (u unreadChecked) Run() int {
	flag.Parse()
	deltaFirstAll = *deltaFirstFlag
	code := u.m.Run()
	if n := unreadReads.Load(); n > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: parser: %d component reads ended compUnread (the component is not recorded): find the stream with unreadReads\n", n)
		if code == 0 {
			code = 1
		}
	}
	return code
}
