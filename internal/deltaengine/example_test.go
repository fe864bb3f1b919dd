package deltaengine_test

import (
	"fmt"

	"github.com/a2ui-stream/a2ui-stream/internal/deltaengine"
)

// A block read in three chunks: the root names a child that has not
// arrived, so its placeholder goes out first; when the child arrives, the
// root is yielded again with its real id.
func Example() {
	k := deltaengine.New(deltaengine.Options{})
	k.Begin()
	for _, chunk := range []string{
		`[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},`,
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"t"},`,
		`{"id":"t","component":"Text","text":"Hi"}]}}]`,
	} {
		k.Data([]byte(chunk))
		for _, m := range k.Flush() {
			fmt.Printf("%s\n", m)
		}
	}
	k.End()
	fmt.Println(len(k.Flush()), "more;", k.Failed(), "failed")
	// Output:
	// {"createSurface":{"catalogId":"c","surfaceId":"s"},"version":"v0.9"}
	// {"updateComponents":{"components":[{"id":"root","component":"Card","child":"loading_t"},{"children":[],"component":"Row","id":"loading_t"}],"surfaceId":"s"},"version":"v0.9"}
	// {"updateComponents":{"components":[{"id":"root","component":"Card","child":"t"},{"id":"t","component":"Text","text":"Hi"}],"surfaceId":"s"},"version":"v0.9"}
	// 0 more; 0 failed
}
