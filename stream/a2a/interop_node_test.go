package a2a

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// sdkDirEnv names a directory whose node_modules holds @a2a-js/sdk 1.x
// (npm install @a2a-js/sdk), for the interoperability test.
const sdkDirEnv = "A2A_JS_SDK_DIR"

// TestInteropA2AJS drives the endpoint with the official A2A JavaScript SDK
// client (testdata/interop_a2a_js.mjs): its default configuration (A2A 1.0)
// and its 0.3 compatibility mode, non-streaming and streaming. It needs node
// and $A2A_JS_SDK_DIR; without them it skips (and fails under CI=true when
// A2A_JS_SDK_DIR is set but unusable).
func TestInteropA2AJS(t *testing.T) {
	dir := os.Getenv(sdkDirEnv)
	if dir == "" {
		t.Skipf("set %s to a directory with node_modules/@a2a-js/sdk to run", sdkDirEnv)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is set but node is missing: %v", sdkDirEnv, err)
		}
		t.Skipf("node not found: %v", err)
	}
	modules, err := filepath.Abs(filepath.Join(dir, "node_modules"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(modules, "@a2a-js", "sdk", "package.json")); err != nil {
		t.Fatalf("%s: %v", sdkDirEnv, err)
	}
	script, err := os.ReadFile(filepath.Join("testdata", "interop_a2a_js.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	answer, err := os.ReadFile(filepath.Join("testdata", "answer.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// ES modules resolve packages next to the script: run it from a
	// directory whose node_modules is the SDK's.
	work := t.TempDir()
	if err := os.Symlink(modules, filepath.Join(work, "node_modules")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "interop.mjs"), script, 0o600); err != nil {
		t.Fatal(err)
	}
	srv := newLoopback(t, newServer(t, &ReplayRunner{Output: answer, ChunkSize: 16}))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(work, "interop.mjs"), srv.URL)
	out, err := cmd.CombinedOutput()
	t.Logf("node interop output:\n%s", out)
	if err != nil {
		t.Fatalf("interop failed: %v", err)
	}
}
