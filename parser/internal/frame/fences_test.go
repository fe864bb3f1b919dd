package frame

import (
	"strings"
	"testing"
)

var fencesCases = []splitCase{
	{"empty stream", "", ""},
	{"prose mentioning the fence mid-line stays prose", "Wrap ```a2ui x.\n```a2ui\n[1]\n```\nEnd\n", `
text "Wrap ` + "```" + `a2ui x.\n"
start @24
data "[1]\n"
end @28
text "End\n"
`},
	{"fences indented by up to three spaces", "  ```a2ui\n[1]\n   ```\nx", `
start @10
data "[1]\n"
end @14
text "x"
`},
	{"four spaces of indentation is not a fence", "    ```a2ui\n[1]\n", `
text "    ` + "```" + `a2ui\n[1]\n"
`},
	{"tab indentation is not a fence", "\t```a2ui\nx", `
text "\t` + "```" + `a2ui\nx"
`},
	{"info word a2uiX is not an a2ui fence", "```a2uiX\nhi\n", `
text "` + "```" + `a2uiX\nhi\n"
`},
	{"trailing whitespace and CRLF on fence lines", "a\r\n```a2ui \t\r\n[1]\r\n```  \r\nb", `
text "a\r\n"
start @14
data "[1]\r\n"
end @19
text "b"
`},
	{"closing fence with more backticks", "```a2ui\n[1]\n`````\nx", `
start @8
data "[1]\n"
end @12
text "x"
`},
	{"backticks with an info word do not close the block", "```a2ui\n1\n```json\n2\n```\nz", `
start @8
data "1\n` + "```" + `json\n2\n"
end @20
text "z"
`},
	{"an opening fence inside a block is content", "```a2ui\n```a2ui\n```\n", `
start @8
data "` + "```" + `a2ui\n"
end @16
`},
	{"two backticks or mid-line backticks in a block are content", "```a2ui\n``\nx ```\n```\n", `
start @8
data "` + "``" + `\nx ` + "```" + `\n"
end @17
`},
	{"empty lines in a block", "```a2ui\n\n[1]\n\n```", `
start @8
data "\n[1]\n\n"
end @14
`},
	{"block with no closing fence ends with the stream", "```a2ui\n[1]", `
start @8
data "[1]"
end @11
`},
	{"opening fence at the end of the stream", "x\n```a2ui ", `
text "x\n"
start @10
end @10
`},
	{"stream ends in a line that only begins like a fence", "x\n```a2", `
text "x\n` + "```" + `a2"
`},
	{"fence line of 64 bytes", "```a2ui" + strings.Repeat(" ", MaxFenceLine-7) + "\n[1]\n```\n", `
start @65
data "[1]\n"
end @69
`},
	{"fence line of 65 bytes is prose", "```a2ui" + strings.Repeat(" ", MaxFenceLine-6) + "\n[1]\n", `
text "` + "```" + `a2ui` + strings.Repeat(" ", MaxFenceLine-6) + `\n[1]\n"
`},
	{"a closing line of 70 backticks is content", "```a2ui\n" + strings.Repeat("`", 70) + "\n```", `
start @8
data "` + strings.Repeat("`", 70) + `\n"
end @79
`},
	{"prose ends in an incomplete UTF-8 sequence", "日本\xe6\x97", `
text "日本\xe6\x97"
`},
}

func TestFences(t *testing.T) { runCases(t, fencesFraming, fencesCases) }
