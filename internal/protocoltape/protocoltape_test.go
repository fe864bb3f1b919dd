package protocoltape_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/jsontape"
	"github.com/a2ui-stream/a2ui-stream/internal/protocoltape"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

func TestValidTapeNeedsAParsedTape(t *testing.T) {
	var c *protocol.Catalog // no schema: the limits only
	var tp jsontape.Tape
	if protocoltape.ValidTape(c, &tp) {
		t.Error("ValidTape on a tape never parsed = true")
	}
	if err := tp.Parse(`{"deleteSurface":{"surfaceId":"s"}}`); err != nil {
		t.Fatal(err)
	}
	if !protocoltape.ValidTape(c, &tp) {
		t.Error("ValidTape on a parsed valid message = false")
	}
	if !protocoltape.ValidTape(nil, &tp) {
		t.Error("ValidTape with an untyped nil catalog = false")
	}
	if err := tp.Parse(`{"deleteSurface":{"surfaceId":"s"}`); err == nil {
		t.Fatal("Parse accepted an unclosed object")
	}
	if protocoltape.ValidTape(c, &tp) {
		t.Error("ValidTape after a failed Parse = true")
	}
	if err := tp.Parse(`{"a":{"path":"not a path ~2"}}`); err != nil {
		t.Fatal(err)
	}
	if protocoltape.ValidTape(c, &tp) {
		t.Error("ValidTape accepted an invalid path")
	}
	if protocol.CheckLimits(map[string]any{"a": map[string]any{"path": "not a path ~2"}}) == nil {
		t.Error("CheckLimits accepted the path ValidTape refuses")
	}
}

func TestValidTapeRefusesOtherCatalogs(t *testing.T) {
	var tp jsontape.Tape
	if err := tp.Parse(`{}`); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "not a *protocol.Catalog") {
			t.Errorf("recover() = %v, want a panic naming *protocol.Catalog", r)
		}
	}()
	protocoltape.ValidTape("catalog", &tp)
}

// TestParseErrors checks that Parse reports the tape's errors as package
// protocol's public ones.
func TestParseErrors(t *testing.T) {
	var tp jsontape.Tape
	for _, tc := range []struct {
		name, doc string
		check     func(error) bool
	}{
		{"valid", `{"a":[1]}`, func(err error) bool { return err == nil }},
		{"syntax", `{"a":}`, func(err error) bool {
			var se *protocol.JSONSyntaxError
			return errors.As(err, &se) && errors.Is(err, protocol.ErrJSONSyntax) &&
				*se == protocol.JSONSyntaxError{Offset: 5, Reason: "unexpected character '}'"}
		}},
		{"not UTF-8", "[\"\xff\"]", func(err error) bool {
			var se *protocol.JSONSyntaxError
			return errors.As(err, &se) && *se == protocol.JSONSyntaxError{Offset: 2, Reason: "invalid UTF-8"}
		}},
		{"too deep", strings.Repeat("[", 51) + "1" + strings.Repeat("]", 51), func(err error) bool {
			var ve *protocol.ValidationError
			return errors.As(err, &ve) && errors.Is(err, protocol.ErrRecursionLimit) && ve.MessageIndex == -1 &&
				ve.Message == "Global recursion limit exceeded: Depth > 50"
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := protocoltape.Parse(&tp, tc.doc); !tc.check(err) {
				t.Errorf("Parse(%.40q) = %#v", tc.doc, err)
			}
		})
	}
}
