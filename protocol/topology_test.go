package protocol_test

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// v09 builds a flat (v0.9) component.
func v09(id, typ string, props ...any) map[string]any {
	m := map[string]any{"id": id, "component": typ}
	for i := 0; i+1 < len(props); i += 2 {
		m[props[i].(string)] = props[i+1]
	}
	return m
}

// v08 builds a nested (v0.8) component.
func v08(id, typ string, props ...any) map[string]any {
	p := map[string]any{}
	for i := 0; i+1 < len(props); i += 2 {
		p[props[i].(string)] = props[i+1]
	}
	return map[string]any{"id": id, "component": map[string]any{typ: p}}
}

func ids(list ...string) []any {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}

func chain(n int) []map[string]any {
	comps := make([]map[string]any, 0, n+1)
	for i := 0; i < n; i++ {
		comps = append(comps, v09(fmt.Sprintf("c%d", i), "Card", "child", fmt.Sprintf("c%d", i+1)))
	}
	return append(comps, v09(fmt.Sprintf("c%d", n), "Text", "text", "leaf"))
}

func TestAnalyzeTopology(t *testing.T) {
	tests := []struct {
		name      string
		root      string
		comps     []map[string]any
		refs      protocol.RefFieldsFunc
		orphans   bool
		want      []string // reachable ids, sorted
		wantErr   error
		wantMatch string
	}{
		{name: "tree_v09", root: "root", comps: []map[string]any{
			v09("root", "Column", "children", ids("a", "b")),
			v09("a", "Text", "text", "x"),
			v09("b", "Card", "child", "c"),
			v09("c", "Text", "text", "y"),
		}, orphans: true, want: []string{"a", "b", "c", "root"}},
		{name: "tree_v08_explicit_list", root: "r", comps: []map[string]any{
			v08("r", "Column", "children", map[string]any{"explicitList": ids("a")}),
			v08("a", "Text", "text", "x"),
		}, orphans: true, want: []string{"a", "r"}},
		{name: "template_reference", root: "root", comps: []map[string]any{
			v09("root", "List", "children", map[string]any{"componentId": "item", "path": "/items"}),
			v09("item", "Text", "text", "x"),
		}, orphans: true, want: []string{"item", "root"}},
		{name: "v08_template_reference", root: "root", comps: []map[string]any{
			v08("root", "List", "children", map[string]any{"template": map[string]any{"componentId": "item", "dataBinding": "/items"}}),
			v08("item", "Text", "text", "x"),
		}, orphans: true, want: []string{"item", "root"}},
		{name: "tabs_child_in_array", root: "root", comps: []map[string]any{
			v09("root", "Tabs", "tabs", []any{map[string]any{"title": "t", "child": "p"}}),
			v09("p", "Text", "text", "x"),
		}, orphans: true, want: []string{"p", "root"}},
		{name: "catalog_ref_field", root: "root", comps: []map[string]any{
			v09("root", "Modal", "body", "inner"),
			v09("inner", "Text", "text", "x"),
		}, refs: func(typ string) ([]string, []string) {
			if typ == "Modal" {
				return []string{"body"}, nil
			}
			return nil, nil
		}, orphans: true, want: []string{"inner", "root"}},
		{name: "unknown_field_is_not_a_reference", root: "root", comps: []map[string]any{
			v09("root", "Modal", "body", "inner"),
			v09("inner", "Text", "text", "x"),
		}, orphans: false, want: []string{"root"}},
		{name: "orphan", root: "root", comps: []map[string]any{
			v09("root", "Text", "text", "x"),
			v09("zeta", "Text", "text", "y"),
			v09("orphan", "Text", "text", "y"),
		}, orphans: true, wantErr: protocol.ErrOrphan, wantMatch: "Component 'orphan' is not reachable from 'root'"},
		{name: "orphans_allowed", root: "root", comps: []map[string]any{
			v09("root", "Text", "text", "x"),
			v09("orphan", "Text", "text", "y"),
		}, want: []string{"root"}},
		{name: "self_reference", root: "root", comps: []map[string]any{
			v09("root", "Card", "child", "root"),
		}, wantErr: protocol.ErrSelfReference, wantMatch: "Self-reference detected: Component 'root' references itself in field 'child'"},
		{name: "cycle", root: "a", comps: []map[string]any{
			v09("a", "Card", "child", "b"),
			v09("b", "Card", "child", "a"),
		}, wantErr: protocol.ErrCycle, wantMatch: "Circular reference detected involving component 'a'"},
		{name: "cycle_without_root", comps: []map[string]any{
			v09("x", "Text", "text", "t"),
			v09("a", "Card", "child", "b"),
			v09("b", "Card", "child", "a"),
		}, wantErr: protocol.ErrCycle, wantMatch: "Circular reference detected"},
		{name: "incremental_returns_all", comps: []map[string]any{
			v09("a", "Card", "child", "b"),
			v09("b", "Text", "text", "t"),
			v09("c", "Card", "child", "elsewhere"),
		}, want: []string{"a", "b", "c", "elsewhere"}},
		{name: "diamond_is_not_a_cycle", root: "root", comps: []map[string]any{
			v09("root", "Column", "children", ids("a", "b")),
			v09("a", "Card", "child", "d"),
			v09("b", "Card", "child", "d"),
			v09("d", "Text", "text", "x"),
		}, orphans: true, want: []string{"a", "b", "d", "root"}},
		{name: "depth_50_ok", root: "c0", comps: chain(50), orphans: true, want: nil},
		{name: "depth_51_too_deep", root: "c0", comps: chain(51), wantErr: protocol.ErrRecursionLimit, wantMatch: "Global recursion limit exceeded: logical depth > 50"},
		{name: "missing_root_is_not_an_error_here", root: "nope", comps: []map[string]any{
			v09("a", "Text", "text", "x"),
		}, want: []string{}},
		{name: "component_without_id_ignored", root: "root", comps: []map[string]any{
			v09("root", "Text", "text", "x"),
			{"component": "Text"},
		}, orphans: true, want: []string{"root"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := protocol.AnalyzeTopology(tt.root, tt.comps, tt.refs, protocol.TopologyOptions{RaiseOnOrphans: tt.orphans})
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || !errors.Is(err, protocol.ErrValidation) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				if !strings.Contains(err.Error(), tt.wantMatch) {
					t.Fatalf("err = %q, want it to contain %q", err, tt.wantMatch)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			if tt.want == nil { // only check the size for generated cases
				if len(got) != len(tt.comps) {
					t.Fatalf("reachable %d ids, want %d", len(got), len(tt.comps))
				}
				return
			}
			keys := make([]string, 0, len(got))
			for k, ok := range got {
				if ok {
					keys = append(keys, k)
				}
			}
			sort.Strings(keys)
			if !reflect.DeepEqual(keys, tt.want) {
				t.Fatalf("reachable = %v, want %v", keys, tt.want)
			}
		})
	}
}

func TestCheckIntegrity(t *testing.T) {
	tests := []struct {
		name      string
		root      string
		comps     []map[string]any
		skipRoot  bool
		wantErr   error
		wantMatch string
	}{
		{name: "ok", root: "root", comps: []map[string]any{v09("root", "Card", "child", "a"), v09("a", "Text")}},
		{name: "duplicate", root: "root", comps: []map[string]any{v09("root", "Text"), v09("root", "Text")},
			wantErr: protocol.ErrDuplicateID, wantMatch: "Duplicate component ID: root"},
		{name: "duplicate_even_when_skipping_root", comps: []map[string]any{v09("a", "Text"), v09("a", "Text")}, skipRoot: true,
			wantErr: protocol.ErrDuplicateID, wantMatch: "Duplicate component ID: a"},
		{name: "missing_root", root: "root", comps: []map[string]any{v09("a", "Text")},
			wantErr: protocol.ErrMissingRoot, wantMatch: "Missing root component: No component has id='root'"},
		{name: "missing_root_skipped", root: "root", comps: []map[string]any{v09("a", "Text")}, skipRoot: true},
		{name: "dangling", root: "root", comps: []map[string]any{v09("root", "Column", "children", ids("a", "ghost")), v09("a", "Text")},
			wantErr: protocol.ErrDanglingRef, wantMatch: "Component 'root' references non-existent component 'ghost' in field 'children'"},
		{name: "dangling_explicit_list_v08", root: "root", comps: []map[string]any{v08("root", "Column", "children", map[string]any{"explicitList": ids("ghost")})},
			wantErr: protocol.ErrDanglingRef, wantMatch: "in field 'children.explicitList'"},
		{name: "dangling_allowed_without_root", comps: []map[string]any{v09("a", "Card", "child", "elsewhere")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := protocol.CheckIntegrity(tt.root, tt.comps, nil, tt.skipRoot)
			if tt.wantErr == nil {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantMatch) {
				t.Fatalf("err = %q, want it to contain %q", err, tt.wantMatch)
			}
		})
	}
}

func nest(depth int, leaf any) any {
	v := leaf
	for i := 0; i < depth; i++ {
		v = map[string]any{"next": v}
	}
	return v
}

func fnCalls(n int) any {
	var v any = map[string]any{}
	for i := n - 1; i >= 0; i-- {
		v = map[string]any{"call": fmt.Sprintf("f%d", i), "args": v}
	}
	return v
}

func TestCheckLimits(t *testing.T) {
	tests := []struct {
		name      string
		msg       any
		wantErr   error
		wantMatch string
	}{
		{name: "flat", msg: map[string]any{"a": "b"}},
		{name: "depth_50", msg: nest(50, "x")},
		{name: "depth_51", msg: nest(51, "x"), wantErr: protocol.ErrRecursionLimit, wantMatch: "Global recursion limit exceeded: Depth > 50"},
		{name: "deep_arrays", msg: func() any {
			var v any = "x"
			for i := 0; i < 60; i++ {
				v = []any{v}
			}
			return v
		}(), wantErr: protocol.ErrRecursionLimit, wantMatch: "Depth > 50"},
		{name: "function_calls_5", msg: fnCalls(5)},
		{name: "function_calls_6", msg: fnCalls(6), wantErr: protocol.ErrRecursionLimit, wantMatch: "Recursion limit exceeded: functionCall depth > 5"},
		{name: "valid_path", msg: map[string]any{"path": "/a~0b/c~1d"}},
		{name: "relative_path", msg: map[string]any{"path": "items/0"}},
		{name: "invalid_escape", msg: map[string]any{"x": map[string]any{"path": "/a/~2"}}, wantErr: protocol.ErrInvalidPath, wantMatch: "Invalid path syntax: '/a/~2'"},
		{name: "trailing_tilde", msg: map[string]any{"path": "/a~"}, wantErr: protocol.ErrInvalidPath, wantMatch: "Invalid path syntax"},
		{name: "quote_in_path_as_reference", msg: map[string]any{"path": "/it's/~2"}, wantErr: protocol.ErrInvalidPath, wantMatch: "Invalid path syntax: '/it's/~2'"},
		{name: "newline_in_path_as_reference", msg: map[string]any{"path": "/a\n~"}, wantErr: protocol.ErrInvalidPath, wantMatch: "Invalid path syntax: '/a\n~'"},
		{name: "non_string_path_ignored", msg: map[string]any{"path": 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := protocol.CheckLimits(tt.msg)
			if tt.wantErr == nil {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if !errors.Is(err, tt.wantErr) || !strings.Contains(err.Error(), tt.wantMatch) {
				t.Fatalf("err = %v, want %v containing %q", err, tt.wantErr, tt.wantMatch)
			}
		})
	}
}

func TestComponentRefs(t *testing.T) {
	tests := []struct {
		name     string
		comp     map[string]any
		wantType string
		want     []protocol.ComponentRef
	}{
		{"v09_child", v09("a", "Card", "child", "b"), "Card", []protocol.ComponentRef{{ID: "b", Field: "child"}}},
		{"v09_children_list", v09("a", "Row", "children", ids("b", "c")), "Row", []protocol.ComponentRef{{ID: "b", Field: "children"}, {ID: "c", Field: "children"}}},
		{"v09_template", v09("a", "List", "children", map[string]any{"componentId": "t", "path": "/x"}), "List", []protocol.ComponentRef{{ID: "t", Field: "children.componentId"}}},
		{"v08_explicit_list", v08("a", "Column", "children", map[string]any{"explicitList": ids("b")}), "Column", []protocol.ComponentRef{{ID: "b", Field: "children.explicitList"}}},
		{"v08_template", v08("a", "List", "children", map[string]any{"template": map[string]any{"componentId": "t"}}), "List", []protocol.ComponentRef{{ID: "t", Field: "children.template.componentId"}}},
		{"tabs", v09("a", "Tabs", "tabs", []any{map[string]any{"child": "p"}, map[string]any{"child": "q"}}), "Tabs", []protocol.ComponentRef{{ID: "p", Field: "tabs[0].child"}, {ID: "q", Field: "tabs[1].child"}}},
		{"non_string_ignored", v09("a", "Card", "child", 5), "Card", nil},
		{"no_component", map[string]any{"id": "a"}, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			typ, _ := protocol.ComponentType(tt.comp)
			if typ != tt.wantType {
				t.Errorf("ComponentType = %q, want %q", typ, tt.wantType)
			}
			got := protocol.ComponentRefs(nil, tt.comp, nil)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ComponentRefs = %v, want %v", got, tt.want)
			}
		})
	}
}
