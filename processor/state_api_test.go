package processor

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStateFormattingNotExported: the command line's rendering of the
// state (StateJSON, StateError, MarshalCanonical) belongs to the command,
// not to the processor's API, which offers Snapshot.
func TestStateFormattingNotExported(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	exported := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				exported[d.Name.Name] = exported[d.Name.Name] || d.Name.IsExported()
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						exported[ts.Name.Name] = exported[ts.Name.Name] || ts.Name.IsExported()
					}
				}
			}
		}
	}
	if !exported["Snapshot"] {
		t.Fatal("found no Snapshot: the scan is broken")
	}
	for _, name := range []string{"StateJSON", "StateError", "MarshalCanonical"} {
		if exported[name] {
			t.Errorf("processor exports %s; the command line owns the state's formatting", name)
		}
	}
}
