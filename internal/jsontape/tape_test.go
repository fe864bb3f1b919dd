package jsontape_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/a2ui-stream/a2ui-stream/internal/jsontape"
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
	var tp jsontape.Tape
	err := tp.Parse(s)
	want := json.Valid([]byte(s)) && utf8.ValidString(s)
	if errors.Is(err, jsontape.ErrDepth) {
		if !want {
			return // deeper than the limit before the syntax error
		}
		return
	}
	if (err == nil) != want {
		t.Fatalf("%q: tape error %v, encoding/json valid %v", s, err, want)
	}
	if err != nil {
		if !errors.Is(err, jsontape.ErrSyntax) {
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
		if tp.Kind(i) == jsontape.String {
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
	var tp jsontape.Tape
	ok := strings.Repeat("[", 50) + strings.Repeat("]", 50)
	if err := tp.Parse(ok); err != nil {
		t.Errorf("50 levels: %v", err)
	}
	// The error is at the first value too deep, 51 containers deep.
	for _, tc := range []struct {
		name, doc string
		offset    int
	}{
		{"51 levels with an item", strings.Repeat("[", 51) + "1" + strings.Repeat("]", 51), 51},
		{"100000 levels", strings.Repeat("[", 100000), 51},
		{"51 objects", strings.Repeat(`{"":`, 51) + "1" + strings.Repeat("}", 51), 51 * 4},
	} {
		var de *jsontape.DepthError
		err := tp.Parse(tc.doc)
		if !errors.As(err, &de) || !errors.Is(err, jsontape.ErrDepth) || de.Offset != tc.offset {
			t.Errorf("%s: %v, want a *DepthError at offset %d", tc.name, err, tc.offset)
		}
	}
}

func TestTapeReaders(t *testing.T) {
	var tp jsontape.Tape
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
	if v := tp.Member(0, "a"); v < 0 || tp.Kind(v) != jsontape.True {
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
	var se *jsontape.SyntaxError
	if err := tp.Parse(`{"a":}`); !errors.As(err, &se) || se.Offset != 5 {
		t.Errorf("Parse error = %v, want a syntax error at offset 5", err)
	}
}

func Example() {
	var tp jsontape.Tape
	if err := tp.Parse(`{"updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text"}]}}`); err != nil {
		panic(err)
	}
	body := tp.Member(0, "updateComponents")
	for _, c := range tp.Items(tp.Member(body, "components")) {
		fmt.Println(tp.Str(tp.Member(c, "id")), tp.Raw(c))
	}
	// Output: root {"id":"root","component":"Text"}
}

// TestTapeUTF8 holds the UTF-8 check that Parse folds into its string scan
// to utf8.ValidString: every lead byte above 0x7F with every second byte
// and representative third and fourth bytes, inside a string (through
// both the eight-byte scan and the byte-by-byte tail) and outside one.
func TestTapeUTF8(t *testing.T) {
	more := []byte{0x00, 0x22, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC3, 0xF0, 0xFF}
	var seqs []string
	for c0 := 0x80; c0 <= 0xFF; c0++ {
		for c1 := 0; c1 <= 0xFF; c1++ {
			seqs = append(seqs, string([]byte{byte(c0), byte(c1), 'A', 'A'}), string([]byte{byte(c0), byte(c1), 0x80, 0xBF}))
		}
		for _, c1 := range more {
			for _, c2 := range more {
				for _, c3 := range more {
					seqs = append(seqs, string([]byte{byte(c0), c1, c2, c3}))
				}
			}
		}
	}
	var tp jsontape.Tape
	for _, seq := range seqs {
		for _, doc := range []string{`"` + seq + `"`, `["` + seq + `", "0123456789abcdef"]`, `[1,` + seq + `]`} {
			err := tp.Parse(doc)
			if utf8.ValidString(doc) {
				if (err == nil) != json.Valid([]byte(doc)) {
					t.Fatalf("%q: %v", doc, err)
				}
				continue
			}
			var se *jsontape.SyntaxError
			if !errors.As(err, &se) || *se != (jsontape.SyntaxError{Offset: strings.Index(doc, seq) + validPrefix(seq), Reason: "invalid UTF-8"}) {
				t.Fatalf("%q (not UTF-8): %v", doc, err)
			}
		}
	}
}

// TestTapeErrors pins Parse's errors, offset and reason, case by case.
func TestTapeErrors(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		offset    int
		reason    string
	}{
		{"empty", ``, 0, "unexpected end of input"},
		{"blank", "  \n", 3, "unexpected end of input"},
		{"bad character", ` @`, 1, "unexpected character '@'"},
		{"non-ASCII outside a string", `[1,é]`, 3, "unexpected character 'Ã'"},
		{"invalid UTF-8 anywhere", "[1,\"a\",\xff", 7, "invalid UTF-8"},
		{"invalid UTF-8 after a syntax error", "[1 2,\"\xc3\"]", 6, "invalid UTF-8"},
		{"invalid UTF-8 too deep", strings.Repeat("[", 60) + "\xe2", 60, "invalid UTF-8"},
		{"trailing data", `{} {}`, 3, "unexpected data after the JSON value"},
		{"unterminated string", `["abc`, 5, "unterminated string"},
		{"unterminated long string", `["0123456789abcdefghij`, 22, "unterminated string"},
		{"unterminated escape", `"ab\`, 3, "unterminated escape"},
		{"invalid escape", `"0123456789\x"`, 11, "invalid escape"},
		{"invalid unicode escape", `"\u12g4"`, 1, "invalid \\u escape"},
		{"control character", "[\"0123456789\x1f\"]", 12, "control character in string"},
		{"number without digits", `[-]`, 1, "invalid number"},
		{"fraction without digits", `[1.]`, 1, "invalid number"},
		{"exponent without digits", `[1e+]`, 1, "invalid number"},
		{"leading zero", `01`, 1, "unexpected data after the JSON value"},
		{"bad literal", `[nul]`, 1, "invalid literal"},
		{"missing key", `{1:2}`, 1, "expected a string key"},
		{"trailing comma in an object", `{"a":1,}`, 7, "expected a string key"},
		{"trailing comma in an array", `[1,]`, 3, "unexpected character ']'"},
		{"missing colon", `{"a" 1}`, 5, "expected ':'"},
		{"missing comma in an object", `{"a":1 "b":2}`, 7, "expected ',' or '}'"},
		{"missing comma in an array", `[1 2]`, 3, "expected ',' or ']'"},
		{"unclosed array", `[[]`, 3, "expected ',' or ']'"},
		{"unclosed object", `{"a":{}`, 7, "expected ',' or '}'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tp jsontape.Tape
			err := tp.Parse(tc.doc)
			var se *jsontape.SyntaxError
			if !errors.As(err, &se) || se.Offset != tc.offset || se.Reason != tc.reason {
				t.Fatalf("Parse(%q) = %v, want offset %d: %s", tc.doc, err, tc.offset, tc.reason)
			}
			if !errors.Is(err, jsontape.ErrSyntax) {
				t.Fatalf("Parse(%q) = %v, not ErrJSONSyntax", tc.doc, err)
			}
		})
	}
}

// TestTapeGrows parses texts denser in tokens than the tape first makes
// room for, and a small text after a large one on the same tape.
func TestTapeGrows(t *testing.T) {
	items := make([]string, 5000)
	members := make([]string, 5000)
	for i := range items {
		items[i] = strconv.Itoa(i % 10)
		members[i] = fmt.Sprintf(`"%c":[%d]`, 'a'+i%26, i%10)
	}
	for _, doc := range []string{
		"[" + strings.Join(items, ",") + "]",
		"{" + strings.Join(members, ",") + "}",
		`[[` + strings.Join(items, "],[") + `]]`,
		`{"a":1}`,
	} {
		checkTape(t, doc)
	}
	var tp jsontape.Tape
	for _, tc := range []struct {
		doc   string
		count int
	}{
		{"[" + strings.Join(items, ",") + "]", len(items)},
		{`{"a":1}`, 1},
		{"{" + strings.Join(members, ",") + "}", len(members)},
	} {
		if err := tp.Parse(tc.doc); err != nil {
			t.Fatal(err)
		}
		if tp.Count(0) != tc.count || tp.Next(0) != tp.Len() {
			t.Errorf("%.20q...: Count(root) = %d, Next(root) = %d of %d tokens, want count %d", tc.doc, tp.Count(0), tp.Next(0), tp.Len(), tc.count)
		}
	}
}

// TestTapeParseAllocs checks that Parse, on a tape already used, allocates
// nothing.
func TestTapeParseAllocs(t *testing.T) {
	msgs := []string{
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["a","b"]},{"id":"a","component":"Text","text":"h\u00e9llo \"x\""},{"id":"b","component":"Slider","value":0.5,"max":10,"enabled":true,"label":null}]}}`,
		"[\n  {\"id\": \"é\", \"n\": [1, 2, 3]},\n  {}\n]",
	}
	var tp jsontape.Tape
	if allocs := testing.AllocsPerRun(100, func() {
		for _, m := range msgs {
			if err := tp.Parse(m); err != nil {
				t.Fatal(err)
			}
		}
	}); allocs != 0 {
		t.Errorf("Parse allocates %v times per run", allocs)
	}
}

// validPrefix is the length of the longest prefix of s that is UTF-8, up
// to a rune boundary: the offset of its first invalid byte.
func validPrefix(s string) int {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(s)
}

// TestTapeForget: a forgotten tape holds no text and no tokens, and parses
// again as a fresh one.
func TestTapeForget(t *testing.T) {
	var tp jsontape.Tape
	if err := tp.Parse(`{"a": [1, "x"]}`); err != nil {
		t.Fatal(err)
	}
	tp.Forget()
	if tp.Len() != 0 || tp.PlainKeys() {
		t.Fatalf("after Forget: %d tokens, PlainKeys %v", tp.Len(), tp.PlainKeys())
	}
	if err := tp.Parse(`{"b": true}`); err != nil {
		t.Fatal(err)
	}
	if got := tp.Kind(tp.Member(0, "b")); got != jsontape.True {
		t.Fatalf("after Forget and Parse: member b is %v, want True", got)
	}
}
