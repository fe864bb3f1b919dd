package frame

import "testing"

var linesCases = []splitCase{
	{"empty stream", "", ""},
	{"two lines", "{\"a\":1}\n{\"b\":2}\n", `
start @0
data "{\"a\":1}"
end @7
start @8
data "{\"b\":2}"
end @15
`},
	{"last line without a line end", "a\nb", `
start @0
data "a"
end @1
start @2
data "b"
end @3
`},
	{"empty lines are empty blocks", "\n\n", `
start @0
end @0
start @1
end @1
`},
	{"CRLF lines keep their carriage return", "a\r\n", `
start @0
data "a\r"
end @2
`},
	{"multi-byte content", "\"日本\"\n", `
start @0
data "\"日本\""
end @8
`},
}

func TestLines(t *testing.T) { runCases(t, linesFraming, linesCases) }
