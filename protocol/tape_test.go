package protocol_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

var tapeSeeds = []string{
	`{}`, `[]`, `{"a":1}`, ` [1, -0.5e+3, true, false, null, "x"] `, `{"a":{"b":[{"c":"d"}]}}`,
	`"\u00e9\ud83d\ude00\n\t\"\\\/"`, `"\ud800"`, `"\ud800\u0041"`, `01`, `1.`, `-`, `1e`, `.5`, `[1,]`, `{"a":1,}`,
	`{"a" 1}`, `{a:1}`, `[1 2]`, `"abc`, "\"a\x01\"", `tru`, `nul`, `[`, `{"a":[}`, `{} {}`, "\xff", `"\x"`, `"\u12"`,
	`-0`, `1E5`, `[[[]]]`, `{"":""}`,
	`"0123456789\\abcdef"`, `"01234567\u00e9abcdefgh\n"`, "\"0123456789\x1fabc\"", "\"é0123456789abcdéf\"",
	`{"0123456789abcdefgh":"0123456789abcdefghij\"k"}`, "\"01234567\x7f89\"",
}

// TestTapeAgreesWithEncodingJSON holds the tape's validation and string
// decoding to encoding/json's (plus the UTF-8 rule) on hand-made cases.
func TestTapeAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range tapeSeeds {
		checkTape(t, s)
	}
}

func FuzzTape(f *testing.F) {
	for _, s := range tapeSeeds {
		f.Add(s)
	}
	f.Fuzz(checkTape)
}

func checkTape(t *testing.T, s string) {
	var tp protocol.Tape
	err := tp.Parse(s)
	want := json.Valid([]byte(s)) && utf8.ValidString(s)
	if errors.Is(err, protocol.ErrRecursionLimit) {
		if !want {
			return // deeper than the limit before the syntax error
		}
		return
	}
	if (err == nil) != want {
		t.Fatalf("%q: tape error %v, encoding/json valid %v", s, err, want)
	}
	if err != nil {
		if !errors.Is(err, protocol.ErrJSONSyntax) {
			t.Fatalf("%q: error %v is neither a syntax error nor the recursion limit", s, err)
		}
		return
	}
	if got := tp.Raw(0); got != strings.TrimSpace(s) {
		t.Fatalf("%q: root raw %q", s, got)
	}
	for i := 0; i < tp.Len(); i++ {
		if next := tp.Next(i); next <= i || next > tp.Len() {
			t.Fatalf("%q: token %d next %d", s, i, next)
		}
		raw := tp.Raw(i)
		if !json.Valid([]byte(raw)) {
			t.Fatalf("%q: token %d raw %q is not JSON", s, i, raw)
		}
		if tp.Kind(i) == protocol.TapeString {
			var want string
			if err := json.Unmarshal([]byte(raw), &want); err != nil {
				t.Fatal(err)
			}
			if got := tp.Str(i); got != want {
				t.Fatalf("%q: token %d str %q, encoding/json %q", s, i, got, want)
			}
		}
	}
}

func TestTapeDepth(t *testing.T) {
	var tp protocol.Tape
	ok := strings.Repeat("[", 50) + strings.Repeat("]", 50)
	if err := tp.Parse(ok); err != nil {
		t.Errorf("50 levels: %v", err)
	}
	deep := strings.Repeat("[", 51) + "1" + strings.Repeat("]", 51)
	if err := tp.Parse(deep); !errors.Is(err, protocol.ErrRecursionLimit) {
		t.Errorf("51 levels with an item: %v", err)
	}
	huge := strings.Repeat("[", 100000)
	if err := tp.Parse(huge); !errors.Is(err, protocol.ErrRecursionLimit) {
		t.Errorf("100000 levels: %v", err)
	}
}

func TestTapeReaders(t *testing.T) {
	var tp protocol.Tape
	if err := tp.Parse(`{"a":[1,"x",{"b":null}],"k\u0065y":"v\n","a":true}`); err != nil {
		t.Fatal(err)
	}
	if tp.Count(0) != 3 {
		t.Errorf("Count(root) = %d, want 3", tp.Count(0))
	}
	var keys []string
	for k, v := range tp.Members(0) {
		keys = append(keys, k+"="+tp.Raw(v))
	}
	if got, want := strings.Join(keys, " "), `a=[1,"x",{"b":null}] key="v\n" a=true`; got != want {
		t.Errorf("Members = %s, want %s", got, want)
	}
	if v := tp.Member(0, "a"); v < 0 || tp.Kind(v) != protocol.TapeTrue {
		t.Errorf("Member(a) = %d, want the last a (true)", v)
	}
	if v := tp.Member(0, "key"); !tp.IsString(v) || tp.Str(v) != "v\n" {
		t.Errorf("Member(key) = %d", v)
	}
	if v := tp.Member(0, "missing"); v != -1 || tp.IsString(v) || tp.IsObject(v) || tp.IsArray(v) {
		t.Errorf("Member(missing) = %d, want -1 and no kind", v)
	}
	arr := tp.Member(tp.Member(0, "key")-1, "zzz") // a string token is no object: no members
	if arr != -1 {
		t.Errorf("Member on a non-object = %d", arr)
	}
	first := 2 // the first "a"'s value
	var items []string
	for i, v := range tp.Items(first) {
		items = append(items, strconv.Itoa(i)+":"+tp.Raw(v))
	}
	if got, want := strings.Join(items, " "), `0:1 1:"x" 2:{"b":null}`; got != want {
		t.Errorf("Items = %s, want %s", got, want)
	}
	var se *protocol.JSONSyntaxError
	if err := tp.Parse(`{"a":}`); !errors.As(err, &se) || se.Offset != 5 {
		t.Errorf("Parse error = %v, want a syntax error at offset 5", err)
	}
}

func ExampleTape() {
	var tp protocol.Tape
	if err := tp.Parse(`{"updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text"}]}}`); err != nil {
		panic(err)
	}
	body := tp.Member(0, "updateComponents")
	for _, c := range tp.Items(tp.Member(body, "components")) {
		fmt.Println(tp.Str(tp.Member(c, "id")), tp.Raw(c))
	}
	// Output: root {"id":"root","component":"Text"}
}

func TestValidTapeNeedsAParsedTape(t *testing.T) {
	var c *protocol.Catalog // no schema: the limits only
	var tp protocol.Tape
	if c.ValidTape(&tp) {
		t.Error("ValidTape on a tape never parsed = true")
	}
	if err := tp.Parse(`{"deleteSurface":{"surfaceId":"s"}}`); err != nil {
		t.Fatal(err)
	}
	if !c.ValidTape(&tp) {
		t.Error("ValidTape on a parsed valid message = false")
	}
	if err := tp.Parse(`{"deleteSurface":{"surfaceId":"s"}`); err == nil {
		t.Fatal("Parse accepted an unclosed object")
	}
	if c.ValidTape(&tp) {
		t.Error("ValidTape after a failed Parse = true")
	}
	if err := tp.Parse(`{"a":{"path":"not a path ["}}`); err != nil {
		t.Fatal(err)
	}
	if c.ValidTape(&tp) != (protocol.CheckLimits(map[string]any{"a": map[string]any{"path": "not a path ["}}) == nil) {
		t.Error("ValidTape disagrees with CheckLimits on a path")
	}
}
