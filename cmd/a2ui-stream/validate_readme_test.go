package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
)

// TestREADMEValidateExample runs the README's validate example from a
// directory outside the repository (a clone that does not sit beside the
// shared material), with A2UI_SHARED naming the shared material: the
// catalog it writes must load, and the payload must fail as the README
// says. The example's shell lines run under sh, in a temporary directory
// that stands for /tmp; its last line, go run, is run in-process.
func TestREADMEValidateExample(t *testing.T) {
	shared := shareddata.Dir(t)
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?s)Validate a payload against a catalog.*?```sh\n(.*?)```").FindSubmatch(readme)
	if block == nil {
		t.Fatal("no validate example in the README")
	}
	script, run, ok := strings.Cut(string(block[1]), "go run ./cmd/a2ui-stream validate ")
	if !ok {
		t.Fatalf("the example does not end with go run: %s", block[1])
	}
	tmp := t.TempDir()
	script = strings.ReplaceAll(script, "/tmp/", tmp+"/")
	outside := t.TempDir() // the working directory: no ../shared here
	cmd := exec.Command(sh, "-e", "-c", script)
	cmd.Dir = outside
	cmd.Env = append(os.Environ(), shareddata.Env+"="+shared)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the example's shell lines: %v\n%s", err, out)
	}
	args := strings.Fields(strings.ReplaceAll(strings.TrimSpace(run), "/tmp/", tmp+"/"))
	t.Chdir(outside) // the catalog's paths resolve from here
	var stdout, stderr bytes.Buffer
	code := runValidate(context.Background(), args, nil, &stdout, &stderr)
	if code != 1 || !strings.Contains(stdout.String(), `'catalogId' is a required property`) {
		t.Errorf("exit %d (want 1), stdout %s, stderr %s", code, stdout.String(), stderr.String())
	}
}
