package deltaengine_test

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"hash"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/deltaengine"
)

// manyChildren is a v0.9 root with n children listed before any arrives.
func manyChildren(n int) string {
	var ids, comps []string
	for i := range n {
		ids = append(ids, fmt.Sprintf(`"c%d"`, i))
		comps = append(comps, fmt.Sprintf(`{"id":"c%d","component":"Text","text":"t%d"}`, i, i))
	}
	return `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},` +
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":[` +
		strings.Join(ids, ",") + `]},` + strings.Join(comps, ",") + `]}}]`
}

// manyKeys is a v0.9 root with n keys, in the order of their numbers (not
// sorted), and a style object of as many.
func manyKeys(n int) string {
	var ks []string
	for i := range n {
		ks = append(ks, fmt.Sprintf(`"k%d":%d`, i, i))
	}
	return `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},` +
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Text","id":"root",` +
		strings.Join(ks, ",") + `,"style":{` + strings.Join(ks, ",") + `},"text":"t"}]}}]`
}

// sameCases are blocks that exercise the parser's rules the engine keeps
// (bench/README.md lists them).
var sameCases = []struct{ name, block string }{
	{"v0.9 child before it arrives", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"t"},{"id":"t","component":"Text","text":"Hello there"}]}}]`},
	{"v0.9 children list", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["alpha","beta"]},{"id":"alpha","component":"Text","text":"A"},{"id":"beta","component":"Text","text":"B"}]}}]`},
	{"v0.9 data model", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/","value":{"name":"Ada","count":1234,"city":"Oslo"}}}]`},
	{"v0.9 more than 16 children", manyChildren(20)},
	{"v0.8 components", `[{"beginRendering":{"surfaceId":"s","root":"top"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"top","component":{"Column":{"children":{"explicitList":["x","y"]}}}},{"id":"x","component":{"Text":{"text":{"literalString":"Hello"}}}},{"id":"y","component":{"Card":{"child":"x"}}}]}}]`},
	{"v0.8 data model", `[{"beginRendering":{"surfaceId":"s","root":"root"}},{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"name","valueString":"Ada Lovelace"},{"key":"n","valueNumber":42}]}}]`},
	// Braces in strings are no empty object (an empty object in a healed
	// form keeps it back).
	{"v0.9 braces in a text", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"use {} or {}] here"}]}}]`},
	{"v0.8 braces in a value", `[{"beginRendering":{"surfaceId":"s","root":"root"}},{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"a","valueString":"x{}]"},{"key":"b","valueString":"y {} z"}]}}]`},
	// A data model value is healed as the reference heals it: where the
	// healed text is no JSON, cut back at the last ',' (a key still
	// arriving, a string that may not be cut, a cut literal).
	{"v0.9 nested data values", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/p","value":{"l":[1,"ab",{"x":1}],"o":{"a":{"c":"d","e":5},"b":"yy"},"z":true,"k":-1.5e3}}}]`},
	{"v0.9 data without a path", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":{"text":"Hel lo","n":{"label":"ab \u00e9x"},"q":"a\"b\n"}}}]`},
	// Components of odd shapes are written in canonical form, their child
	// ids found by the reference's walk; v0.8 paths are normalised.
	{"v0.9 odd shapes", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Tabs","tabs":[{"title":"A","child":"a"},{"title":"B","child":"b"}],"detail":"d"},{"id":"a","component":"List","children":{"componentId":"t","path":"/items"}},{"id":"b","component":"Column","children":[]},{"id":"t","component":"Card","child":"x","extra":{"child":"y"}},{"id":"x","component":"Text","text":"x"}]}}]`},
	{"v0.8 odd shapes", `[{"beginRendering":{"surfaceId":"s","root":"root"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Column":{"children":{"template":{"componentId":"t","dataBinding":"/items"}}}}},{"id":"t","component":{"Container":{"children":["u","v"]}}},{"id":"u","component":{"Text":{"text":{"path":"rel/path"}}}},{"id":"v","component":{"Row":{"children":{"explicitList":[]}}}}]}}]`},
	{"v0.8 paths", `[{"beginRendering":{"surfaceId":"s","root":"root"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Column":{"children":{"explicitList":["a","b","c","d"]}}}},{"id":"a","component":{"Text":{"text":{"path":"//x","literalString":"y"}}}},{"id":"b","component":{"Text":{"text":{"path":5}}}},{"id":"c","component":{"Text":{"text":{"path":true,"literalString":"z"}}}},{"id":"d","component":{"Text":{"text":{"path":"/ok"}}}}]}}]`},
	// Messages: components before their surface begins wait for it; a
	// message of no kind the engine reads, or of the other family than the
	// stream's (fixed by its first kind), is yielded whole; a deleted
	// surface starts afresh; a deleteSurface before its surface is dropped.
	{"v0.9 components before the surface", `[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"t"},{"id":"t","component":"Text","text":"hi"}]}},{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}}]`},
	{"v0.9 messages of every kind", `[{"zeta":1,"unknownMessage":"x"},{"version":"v0.9","deleteSurface":{"surfaceId":"t"}},{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c","theme":{"b":1,"a":"\u00e9"}}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"x"}]}},{"version":"v0.9","deleteSurface":{"surfaceId":"s"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"y"}]}},{"version":"v0.9","callFunction":{"name":"f"}}]`},
	{"a v0.9 stream read as v0.8", `[{"zeta":1},{"version":"v0.9","deleteSurface":{"surfaceId":"s"}},{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"x"}]}}]`},
	// (Not a component message before the deleteSurface: in progressive
	// mode, when both are in one call, the parser yields no snapshot of
	// it, which the engine does.)
	{"v0.8 surface deleted and begun again", `[{"beginRendering":{"surfaceId":"s","root":"r"}},{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"a","valueString":"hello there"}]}},{"deleteSurface":{"surfaceId":"s"}},{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"b","valueString":"gone"}]}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"r","component":{"Text":{"text":{"literalString":"b"}}}}]}},{"beginRendering":{"surfaceId":"s","root":"q"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"q","component":{"Card":{"child":"r"}}}]}}]`},
	// v0.8 data model messages as the reference reads them: yielded when a
	// key's flattened value differs from the record of yielded data, the
	// last entry of each key, pruned; a complete message all of whose
	// entries were yielded is skipped; without a surfaceId, the last
	// surface named (or "default").
	{"v0.8 data record", `[{"beginRendering":{"surfaceId":"s","root":"root"}},{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"title","valueString":"Top"},{"key":"items","valueMap":[{"key":"i1","valueMap":[{"key":"name","valueString":"A"},{}]},{"key":"i2","valueMap":[]}]},{"key":"title","valueString":"Top 2"},{"key":"n","valueNumber":3}]}},{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"title","valueString":"Top 2"}]}},{"dataModelUpdate":{"contents":[{"key":"x","valueBoolean":false},{"key":"y","value":null,"valueString":"v"}]}}]`},
	{"v0.8 data contents as an object", `[{"beginRendering":{"surfaceId":"s","root":"root"}},{"dataModelUpdate":{"surfaceId":"s","path":"/p","contents":{"b":"two","a":{"z":1,"y":[1,2]}}}},{"dataModelUpdate":{"surfaceId":"s","path":"/p","contents":{"b":"two","c":3}}}]`},
	{"v0.8 data without a surface", `[{"dataModelUpdate":{"contents":[{"key":"k","valueString":"v w"}]}},{"beginRendering":{"surfaceId":"s","root":"root"}}]`},
	// A member's own path is a JSON pointer: its key escaped ("~0",
	// "~1"); the empty key has no path of its own, so delta mode yields
	// the whole value so far.
	{"v0.9 data keys to escape", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/p","value":{"a":1,"x/y~z":2,"q\"r":3,"":4,"b":5}}}]`},
	// A string cut inside an escape is cut at its last comma (the
	// reference cuts its text at the last one).
	{"v0.9 data string cut in an escape", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":{"a":{"text":"a, b\n, \u00e9, c"},"b":["x, \"y\", z"]}}}]`},
	{"v0.8 data string cut in an escape", `[{"beginRendering":{"surfaceId":"s","root":"root"}},{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"t","valueString":"one, two\t, th\u00e9ree"}]}}]`},
	{"v0.8 data text cut in a character", `[{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"t","valueString":"日本語 😀 é"},{"key":"m","valueMap":[{"key":"n","valueString":"ü"}]}]}}]`},
	// Keys sort by their text ("a" before "a!"); an entry's first value
	// present counts, null none; a key null from the start is nothing new.
	{"v0.8 entries with more members", `[{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"a","a!":1,"a":2,"valueString":"x y","A":true, "z" : null},{"valueNumber":-1.5e3,"key":7},{"key":"b","valueBoolean":null,"value":"v"},{"key":"c","valueString":"d","valueString":"e"}]}}]`},
	{"v0.8 valueMap that is no list", `[{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"a","valueMap":5},{"key":"b","valueString":"x","valueMap":"y"},{"key":"c","valueMap":{"z":1}}]}}]`},
	{"v0.8 contents object with a null", `[{"dataModelUpdate":{"surfaceId":"s","path":{"p":1},"contents":{"a":null,"b":{"c":[true,false]},"d":"x"}}}]`},
	// A v0.9 data model message naming its surface or path after its value
	// yields it again under them ("default" before); an empty value is
	// yielded when complete; a member null from the start waits for the
	// message's end.
	{"v0.9 data named after its value", `[{"version":"v0.9","createSurface":{"surfaceId":"s1","catalogId":"c"}},{"version":"v0.9","updateDataModel":{"value":{"k5":"imageUrl name","n":null},"path":"/","surfaceId":"s2"}},{"version":"v0.9","updateDataModel":{"value":{},"surfaceId":"s1","path":"/"}}]`},
	// An object with an id and a component nested in a component is a
	// component of its own, as the reference reads it.
	{"v0.9 component in a component", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"updateComponents":{"surfaceId":"s","components":[{"children":["a","n"],"component":"Column","extra":{"component":"Text","id":"n","text":"q"},"id":"root","more":"zzzz","z":["a"]},{"component":"Text","id":"a","text":"x"}]},"version":"v0.9"}]`},
	// A placeholder named like a component that arrived ("loading_x") is
	// not written over it in delta mode.
	{"v0.9 placeholder named like its parent", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["loading_x"]},{"id":"loading_x","component":"Card","child":"x"}]}}]`},
	// An element of a child list that is no id stays as it is.
	{"v0.9 child list with a number", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":7,"component":"Text"},{"id":"root","component":"Column","children":[7,"a"]},{"id":"a","component":"Text","text":"x"}]}}]`},
	{"v0.9 data values that are no objects", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/name","value":"Ada Lovelace"}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/l","value":[1,"ab",{"x":2}]}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/n","value":12.5}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/z"}}]`},
	// A v0.8 data model message's record is of its surface and its path
	// when they are strings (a path 3 is no path); a member given twice
	// is read as its last; delta mode yields a complete message whose
	// entries were all yielded at its slot no more; a character cut in a
	// value yields nothing, whether healing cuts the value back or not.
	{"v0.8 path that is no string", `[{"beginRendering":{"surfaceId":"s","root":"root"}},{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"k","valueString":"a"}]}},{"dataModelUpdate":{"surfaceId":"s","path":3,"contents":[{"key":"k","valueString":"a"},{"key":"m","valueString":"b"}]}}]`},
	{"v0.8 contents given twice", `[{"beginRendering":{"surfaceId":"s","root":"root"}},{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"k","valueNumber":20}],"contents":[{"key":"k","valueNumber":21}]}}]`},
	{"v0.8 contents object yielded before it ends", `[{"beginRendering":{"surfaceId":"s1","root":"root"}},{"dataModelUpdate":{"contents":{"k5":"","k0":"a value"},"surfaceId":"s1","path":3}}]`},
	{"v0.8 character cut in a value cut back", `[{"beginRendering":{"surfaceId":"s","root":"root"}},{"dataModelUpdate":{"contents":{"k0":[{"k2":"url","k3":"https://ex.com/a,b.png","k5":"name é"}]},"surfaceId":"s"}}]`},
	// A cut string drops the whitespace Python's rstrip drops, wider than
	// JSON's (U+2028, U+00A0, U+3000), as the reference heals it.
	{"v0.8 value ending in wide spaces", `[{"beginRendering":{"surfaceId":"s","root":"root"}},{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"k","valueString":"url ` + "\u2028\u00a0x\u3000 y" + `"}]}}]`},
	{"v0.9 text ending in wide spaces", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"a ` + "\u2028\u00a0x\u3000 y" + `"}]}}]`},
	// A component whose open string ends inside a character is left as
	// it was until the character is whole.
	{"v0.9 text cut inside characters", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"ab éééééé 日本語"}]}}]`},
	// Progressive mode keeps the reference's record of yielded v0.9 data
	// per surface and path for the stream: a message yields only what
	// differs from it, one whose body holds nothing new is not yielded
	// again, and a member named "value" or "path" meets the record of
	// the message's own value and path. A message naming no surface is
	// yielded whole when it ends, in both modes; a key with U+2028 is
	// written escaped.
	{"v0.9 data given again at its slot", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/","value":{"a":1,"b":"x"}}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/","value":{"a":1,"b":"yy","c":2}}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/","value":{"a":1,"b":"yy","c":2}}},{"version":"v0.9","updateDataModel":{"surfaceId":"s"}},{"version":"v0.9","updateDataModel":{"surfaceId":"s"}}]`},
	{"v0.9 members named like the body's", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/","value":{"value":5,"path":"x","surfaceId":"t","x":1}}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/","value":{"value":5,"x":2}}}]`},
	{"v0.9 data naming no surface", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateDataModel":{"value":{"k":"v","n":{"m":[1,2]}}}}]`},
	{"v0.9 key with a line separator", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":{"a` + "\u2028" + `b":"name a, b","c":1}}}]`},
	// A v0.9 data model message cut inside a character, of a key or a
	// value, yields nothing at that chunk; its first yield in delta mode
	// is whole even when its first members are null; one whose surface
	// has no version (deleted) is yielded under the default, as the
	// parser's versionFor.
	{"v0.9 data cut inside characters", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":{"é":"x ü","日本":"y 語","k":"z"}}}]`},
	{"v0.9 data whose first member is null", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateDataModel":{"path":"/","surfaceId":"s","value":{"a":null,"key":1.5e3}}}]`},
	{"v0.9 data of a deleted surface", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","deleteSurface":{"surfaceId":"s"}},{"updateDataModel":{"value":{"a":"x","b":2},"surfaceId":"s"},"version":"v0.9.1"}]`},
	// A v0.9 data model message yields when it ends, in delta mode, as
	// the parser does: whole (its path as it is, a number too) when it
	// yielded nothing before; a path given again, the same, is no new
	// slot.
	{"v0.9 data path that is a number", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":3,"value":{"k5":null}}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":{},"path":3}}]`},
	{"v0.9 data path given twice", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":{"url":70018,"k2":"city city"},"path":"/a","path":"/a"}}]`},
	// An object of a component with more than 32 keys is read in its
	// canonical form (keys sorted), as the parser reads it; one with 32
	// in the stream's order.
	{"v0.9 component of many keys", manyKeys(40)},
	{"v0.9 component of 32 keys", manyKeys(28)},
	{"v0.9 component of 33 keys", manyKeys(29)},
	// A v0.8 path that is an object or a list is the string "/" and its
	// JSON (encoding/json's), as the parser writes it: what it holds is
	// no child.
	{"v0.8 paths that are objects and lists", `[{"beginRendering":{"surfaceId":"s","root":"root"}},{"surfaceUpdate":{"components":[{"component":{"Column":{"children":{"explicitList":["a","b","d"]}}},"id":"root"},{"component":{"Text":{"text":{"path":{"child":"gone","children":[],"x":{"path":"/q","z":1.5e3}}},"usageHint":{"path":["<&>",{"children":["g2"]}]}}},"id":"a"},{"component":{"Card":{"child":"c","title":{"path":{}}}},"id":"b"},{"component":{"Text":{"text":{"literalString":"x"}},"path":["q"]},"id":"d"}],"surfaceId":"s"}}]`},
	// Components read before their message names its surface are taken
	// at the end of a chunk in which a component ended once it is named,
	// else when the message ends; one with an empty object (a v0.8 path
	// {} too) when the message ends.
	{"v0.9 components before their surface", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"components":[{"id":"root","component":"Column","children":["a","b"]},{"id":"a","component":"Text","text":"x"},{"id":"b","component":"Text","text":"y"}],"surfaceId":"s"}}]`},
	// v0.8 progressive mode yields one snapshot for the updates that end
	// in a chunk, before what follows them (a data model message).
	{"v0.8 two updates and data in a chunk", `[{"beginRendering":{"surfaceId":"s","root":"root"}},{"surfaceUpdate":{"components":[{"component":{"Column":{"children":{"explicitList":["aq","b"]}}},"id":"root"},{"component":{"Card":{"child":"tt"}},"id":"b"}],"surfaceId":"s"}},{"surfaceUpdate":{"components":[{"component":{"Text":{"text":{"literalString":"a"}}},"id":"aq"}],"surfaceId":"s"}},{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"k","valueString":"some text"}]}}]`},
	// A snapshot's placeholders of a component come in the order the
	// reference's walk meets them: its lists ("children", then
	// "explicitList"), then "child", "contentChild"..., then the objects
	// it holds.
	{"v0.9 lists and children together", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"c1","explicitList":[],"children":["z"],"contentChild":"c2"},{"id":"c2","component":"Text","text":"two"}]}}]`},
	{"v0.8 list property and child", `[{"beginRendering":{"surfaceId":"s","root":"root"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Card":{"explicitList":[],"child":"c","children":["d"]}}},{"id":"c","component":{"Text":{"text":{"literalString":"c"}}}}]}}]`},
	{"v0.8 children objects", `[{"beginRendering":{"surfaceId":"s","root":"root"}},{"surfaceUpdate":{"components":[{"component":{"List":{"children":{"child":"i5","explicitList":["i6"],"x":{"child":"i7"}},"child":"i8"}},"id":"root"}],"surfaceId":"s"}}]`},
	// A v0.8 definition of two types is read in canonical form.
	{"v0.8 definition of two types", `[{"beginRendering":{"surfaceId":"s","root":"root"}},{"surfaceUpdate":{"components":[{"id":"root","component":{"Panel":{"header":"b","slots":["c"]},"Card":{"child":"a"}}},{"component":{"Text":{"text":{"literalString":"C"}}},"id":"c"}],"surfaceId":"s"}}]`},
	// The open value of the empty key, still empty, heals as "", as the
	// parser heals it; with something in it, it is cut back.
	{"v0.9 empty key in a component", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"a","":"xy"}]}}]`},
	{"v0.9 empty key in data", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":{"k":"abcdef","":"xyz","m":"uvw"}}}]`},
	// An id of an open child list cut inside an escape is left out, as
	// any partial id: the component is healed without it.
	{"v0.9 child id cut in an escape", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{ "version" : "v0.9" , "updateComponents" : { "surfaceId" : "s" , "components" : [ { "id" : "root" , "component" : "Column" , "children" : [ "a" , "b\u0041" ] } , { "id" : "a" , "component" : "Text" , "text" : "q\"uote\\ \u00e9 ok" , "n": -1.5e3, "t": true, "f": false, "z": null } ] } } ]`},
	// An id of an open child list nested in a component counts once its
	// string ends, as one of a top-level list.
	{"v0.9 nested open lists", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"children":["k"],"component":"Card","extra":{"child":"c","children":[]},"id":"root","x":{"children":["a","b"]}},{"component":"Text","id":"b","text":"y"},{"component":"Text","id":"k","text":"k"}]}}]`},
	// A progressive snapshot holds what is reachable from the root then:
	// a root sent again without its children yet drops them until they
	// come back.
	{"v0.9 root sent again", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["a","b"]},{"id":"a","component":"Text","text":"first version"},{"id":"a","component":"Text","text":"second, longer version"},{"id":"b","component":"Card","child":"d"},{"id":"d","component":"Text","text":"dee"}]}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Text","text":"third version"},{"id":"root","component":"Column","children":["b","a","c"]},{"id":"c","component":"Text","text":"sea"}]}}]`},
	// An object with an id and a component nested in a component, still
	// open, is a component of its own as it is healed, as the parser
	// reads it at each heal.
	{"v0.9 open component in a component", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"updateComponents":{"surfaceId":"s","components":[{"children":["a","n"],"component":"Column","id":"root","props":{"component":"Text","id":"n","text":"q and more text"},"z":["a"]},{"component":"Text","id":"a","text":"x"}]},"version":"v0.9"}]`},
	// The empty type has no references (protocol.ComponentRefs): what
	// only it names is not reachable.
	{"v0.8 empty type", `[{"beginRendering":{"surfaceId":"s","root":"root"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Card":{"child":"a"}}},{"id":"a","component":{"":{"contentChild":"d"}}},{"id":"d","component":{"Text":{"text":{"literalString":"d"}}}}]}}]`},
	{"v0.9 empty type", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"a"},{"id":"a","component":"","child":"d"},{"id":"d","component":"Text","text":"d"}]}}]`},
	// A component more than one parent waits for (one of them naming it
	// twice) wakes each of them when it arrives.
	{"v0.9 child of three parents", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["a","b","e"]},{"id":"a","component":"Card","child":"c"},{"id":"b","component":"Card","child":"c"},{"id":"e","component":"Row","children":["c","c"]},{"id":"c","component":"Text","text":"shared"}]}}]`},
	// A block that lost count of its brackets is read to its end as the
	// reference reads it.
	{"v0.9 lost count", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":{"path":"/location"}]}}]`},
}

// TestRecordedEverySplit holds the engine, call by call and byte for byte,
// in both modes, on each case fed at every chunk size from 1 byte to the
// whole block, to the outputs recorded in testdata/every_split.txt: the
// parser's progressive engine's, which the engine matched call by call
// until that engine was deleted (session 24); -update records them anew.
func TestRecordedEverySplit(t *testing.T) {
	g := newRecorded(t, "testdata/every_split.txt")
	for _, tc := range sameCases {
		for _, progressive := range []bool{false, true} {
			name := fmt.Sprint(tc.name, "/progressive=", progressive)
			t.Run(name, func(t *testing.T) {
				h := sha256.New()
				for chunk := 1; chunk <= len(tc.block); chunk++ {
					io.WriteString(h, engineCalls(tc.block, chunk, progressive))
				}
				g.check(t, name, h)
			})
		}
	}
}

// engineCalls feeds block to the engine in chunks of chunk bytes, and
// writes the messages of each call, and the blocks failed.
func engineCalls(block string, chunk int, progressive bool) string {
	var b strings.Builder
	k := deltaengine.New(deltaengine.Options{Progressive: progressive})
	k.Begin()
	for i := 0; i < len(block); i += chunk {
		k.Data([]byte(block[i:min(i+chunk, len(block))]))
		for _, m := range k.Flush() {
			b.Write(m)
			b.WriteByte('\n')
		}
		b.WriteString("--\n")
	}
	k.End()
	for _, m := range k.Messages() {
		b.Write(m)
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "%d failed\n", k.Failed())
	return b.String()
}

var update = flag.Bool("update", false, "record the engine's outputs in testdata/every_split.txt")

// recorded is a file of recorded SHA-256 hashes by name.
type recorded struct {
	path string
	want map[string]string
	mu   sync.Mutex
	got  map[string]string
}

func newRecorded(t *testing.T, path string) *recorded {
	g := &recorded{path: path, want: map[string]string{}, got: map[string]string{}}
	b, err := os.ReadFile(path)
	if err != nil && !*update {
		t.Fatalf("%v (record with: go test ./internal/deltaengine -update)", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, "\t"); ok && !strings.HasPrefix(l, "#") {
			g.want[k] = v
		}
	}
	if *update {
		t.Cleanup(g.write)
	}
	return g
}

// check holds the hash h of name's output to the recorded one.
func (g *recorded) check(t *testing.T, name string, h hash.Hash) {
	t.Helper()
	sum := hex.EncodeToString(h.Sum(nil))
	g.mu.Lock()
	g.got[name] = sum
	g.mu.Unlock()
	if !*update && g.want[name] != sum {
		t.Errorf("%s: the output differs from the one recorded in %s (record with: go test ./internal/deltaengine -update)", name, g.path)
	}
}

func (g *recorded) write() {
	var b strings.Builder
	b.WriteString("# SHA-256 of the engine's output, call by call, at every chunk size (same_test.go);\n# go test ./internal/deltaengine -update rewrites this file.\n")
	for _, k := range slices.Sorted(maps.Keys(g.got)) {
		fmt.Fprintf(&b, "%s\t%s\n", k, g.got[k])
	}
	os.WriteFile(g.path, []byte(b.String()), 0o644)
}

// TestLostCountEverySplit reads a block whose data model message is left
// open where a message starts (an object where a key was due) the
// reference's way at every chunk size: the messages after it are read as
// the list's. (The parser writes the component in canonical form or not
// by how the chunks fall there; the engine as it does elsewhere.)
func TestLostCountEverySplit(t *testing.T) {
	block := `[{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"name","valueString":"Alice"}]},{"beginRendering":{"root":"root","surfaceId":"s"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Text":{"text":{"path":"/name"}}}}]}}]`
	const (
		begin = `{"beginRendering":{"root":"root","surfaceId":"s"}}`
		comps = `{"surfaceUpdate":{"components":[{"id":"root","component":{"Text":{"text":{"path":"/name"}}}}],"surfaceId":"s"}}`
		data  = `{"dataModelUpdate":{"contents":[{"key":"name","valueString":"Alice"}],"surfaceId":"s"}}`
	)
	for _, progressive := range []bool{false, true} {
		for chunk := 1; chunk <= len(block); chunk++ {
			k := deltaengine.New(deltaengine.Options{Progressive: progressive})
			k.Begin()
			var got []string
			for i := 0; i < len(block); i += chunk {
				k.Data([]byte(block[i:min(i+chunk, len(block))]))
				for _, m := range k.Flush() {
					got = append(got, string(m))
				}
			}
			k.End()
			for _, m := range k.Messages() {
				got = append(got, string(m))
			}
			if k.Failed() != 0 || len(got) < 3 || got[len(got)-1] != comps || !slices.Contains(got, begin) || !slices.Contains(got, data) {
				t.Fatalf("progressive %v, %d-byte chunks: %d failed, yields %q", progressive, chunk, k.Failed(), got)
			}
		}
	}
}

// TestHeldBackRootsInSurfaceOrder: roots held back until the block's end
// (large surfaces, their children still missing) are yielded in the order
// of their surfaces' ids, as the parser's progressive engine yielded them
// (recorded in testdata/held_back_roots.txt), not in the order they were
// held.
func TestHeldBackRootsInSurfaceOrder(t *testing.T) {
	var b strings.Builder
	b.WriteString(`[`)
	for _, sid := range []string{"b", "a"} {
		fmt.Fprintf(&b, `{"version":"v0.9","createSurface":{"surfaceId":%q,"catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":%q,"components":[{"id":"root","component":"Column","children":[`, sid, sid)
		for i := range 100 {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"m%d"`, i)
		}
		b.WriteString(`]}]}},`)
	}
	for i := range 20 {
		for _, sid := range []string{"b", "a"} {
			fmt.Fprintf(&b, `{"version":"v0.9","updateComponents":{"surfaceId":%q,"components":[{"id":"m%d","component":"Text","text":"x"}]}},`, sid, i)
		}
	}
	block := strings.TrimSuffix(b.String(), ",") + "]"
	g := newRecorded(t, "testdata/held_back_roots.txt")
	for _, progressive := range []bool{false, true} {
		h := sha256.New()
		for _, chunk := range []int{64, 1000} {
			io.WriteString(h, engineCalls(block, chunk, progressive))
		}
		g.check(t, fmt.Sprint("progressive=", progressive), h)
	}
}

// TestNullMembersProgressive: in progressive mode a v0.9 data member null
// from the start is nothing new (the record counts an absent key as
// null), until the message's whole value carries it at its end, as the
// parser's progressive engine yielded it (recorded in
// testdata/null_members.txt). (In delta mode the engine yields it when
// its literal completes, that engine when the message ended: a difference
// in time only.)
func TestNullMembersProgressive(t *testing.T) {
	block := `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":{"n":-12.5e+3,"u":null,"t":true,"v":null}}}]`
	g := newRecorded(t, "testdata/null_members.txt")
	h := sha256.New()
	for chunk := 1; chunk <= len(block); chunk++ {
		io.WriteString(h, engineCalls(block, chunk, true))
	}
	g.check(t, "progressive=true", h)
}

// TestChildrenPlaceholderDropped: the "children_<id>" placeholder the
// reference writes in an empty child list of the message it reads (see
// listOpen) goes when the message ends with another "children" that opens
// no list after it, or when the surface's next component message ends
// (the reference reads every component again): the component is yielded
// without it, in both modes, at every chunk size. (The parser yields it at the heal that reads the
// other key, or once the next message's body closed; the engine when the
// message ends: a difference in time only.)
func TestChildrenPlaceholderDropped(t *testing.T) {
	for _, tc := range []struct{ name, block, last string }{
		{"next message", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"components":[{"id":"root","component":"Column","explicitList":[],"contentChild":[]}],"surfaceId":"s"}},{"version":"v0.9","updateComponents":{"components":[{"id":"b","component":"Text","text":"b"}],"surfaceId":"s"}}]`,
			`{"component":"Column","contentChild":[],"explicitList":[],"id":"root"}`},
		{"children of no list after it", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"d"},{"id":"d","component":"Listy","children":[]},{"id":"x","component":"Weird","children":null}]}}]`,
			`{"children":[],"component":"Listy","id":"d"}`},
	} {
		for _, progressive := range []bool{false, true} {
			for chunk := 1; chunk <= len(tc.block); chunk++ {
				k := deltaengine.New(deltaengine.Options{Progressive: progressive})
				k.Begin()
				var got []string
				for i := 0; i < len(tc.block); i += chunk {
					k.Data([]byte(tc.block[i:min(i+chunk, len(tc.block))]))
					for _, m := range k.Flush() {
						got = append(got, string(m))
					}
				}
				k.End()
				for _, m := range k.Messages() {
					got = append(got, string(m))
				}
				if k.Failed() != 0 || len(got) == 0 || !strings.Contains(got[len(got)-1], tc.last) || strings.Contains(got[len(got)-1], "children_") {
					t.Fatalf("%s, progressive %v, %d-byte chunks: %d failed, yields %q", tc.name, progressive, chunk, k.Failed(), got)
				}
			}
		}
	}
}
