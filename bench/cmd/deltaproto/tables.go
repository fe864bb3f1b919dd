package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
)

// The parser's own test tables hold many small blocks of the shapes its
// rules are about: each row {"name", fastCS + `...`} (or fastCSv08) of its
// *_test.go files, the prefix being the test constant that begins a block
// with a surface. -tables compares the engine with the parser on each.

var (
	tablePrefix = regexp.MustCompile("(?m)^const (fastCS(?:v08)?) = `([^`]*)`")
	tableRow    = regexp.MustCompile("\\{\"([A-Za-z0-9_ ]+)\",\\s*(fastCS(?:v08)?)\\s*\\+\\s*`([^`]*)`")
)

// compareTables reads the parser's test files in dir and compares, for
// each table row, the engine with the parser at 1 and 7 bytes in both
// modes (compareGuarded): a row agrees when all four do.
func compareTables(dir string) (suiteReport, error) {
	var r suiteReport
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return r, err
	}
	sort.Strings(files)
	srcs := make([][]byte, len(files))
	prefix := map[string]string{}
	for i, f := range files {
		if srcs[i], err = os.ReadFile(f); err != nil {
			return r, err
		}
		for _, m := range tablePrefix.FindAllSubmatch(srcs[i], -1) {
			prefix[string(m[1])] = string(m[2])
		}
	}
	if len(prefix) != 2 {
		return r, fmt.Errorf("the test constants fastCS and fastCSv08 are not in %s", dir)
	}
	for i, src := range srcs {
		for _, m := range tableRow.FindAllSubmatch(src, -1) {
			in := []byte(prefix[string(m[2])] + string(m[3]))
			r.total++
			why := ""
			for _, progressive := range []bool{false, true} {
				for _, chunk := range []int{1, 7} {
					if why == "" {
						if w := compareGuarded(in, chunk, progressive); w != "" {
							why = fmt.Sprintf("%s %s, at %d-byte chunks, progressive %v: %s", filepath.Base(files[i]), m[1], chunk, progressive, w)
						}
					}
				}
			}
			if why == "" {
				r.agree++
			} else {
				r.differ = append(r.differ, why)
			}
		}
	}
	return r, nil
}
