// Command testleaves counts the tests of `go test -json` output by their
// outcome, the leaves only: a test with subtests counts through them, so
// that a test whose subtests all skipped is not counted as passed. It also
// counts the top-level tests that passed with every subtest skipped.
//
//	go test ./parser -json | go run ./bench/cmd/testleaves
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// test is a test of a package.
type test struct{ pkg, name string }

func main() {
	outcome := map[test]string{} // pass, fail or skip
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var e struct{ Package, Test, Action string }
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Test == "" {
			continue
		}
		switch e.Action {
		case "pass", "fail", "skip":
			outcome[test{e.Package, e.Test}] = e.Action
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "testleaves:", err)
		os.Exit(1)
	}
	// A test's subtests are named test/...: parent marks the tests that
	// have one.
	parent := map[test]bool{}
	for t := range outcome {
		for i := strings.LastIndexByte(t.name, '/'); i > 0; i = strings.LastIndexByte(t.name[:i], '/') {
			parent[test{t.pkg, t.name[:i]}] = true
		}
	}
	leaves := map[string]int{}
	ran := map[test]bool{} // top-level tests with a leaf that did not skip
	for t, o := range outcome {
		if parent[t] {
			continue
		}
		leaves[o]++
		if o != "skip" {
			top, _, _ := strings.Cut(t.name, "/")
			ran[test{t.pkg, top}] = true
		}
	}
	onlySkipped := 0
	for t, o := range outcome {
		if !strings.Contains(t.name, "/") && o == "pass" && !ran[t] {
			onlySkipped++
		}
	}
	fmt.Printf("leaves: %d passed, %d failed, %d skipped\n", leaves["pass"], leaves["fail"], leaves["skip"])
	fmt.Printf("top-level tests passed with every subtest skipped: %d\n", onlySkipped)
}
