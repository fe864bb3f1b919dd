package sinks_test

import (
	"context"
	"os"

	"github.com/a2ui-stream/a2ui-stream/processor"
	"github.com/a2ui-stream/a2ui-stream/sinks"
)

func Example() {
	ctx := context.Background()
	sink := sinks.NewJSONL(os.Stdout)
	sink.Emit(ctx, processor.Batch{Seq: 1, Applied: 0, Results: []processor.Result{}})
	sink.Close(ctx)
	// Output:
	// {"seq":1,"applied":0,"failed":0,"results":[],"changes":{}}
}
