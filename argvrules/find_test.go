package argvrules

import (
	"testing"
)

// findRows are the table rows of find: -exec/-execdir/-ok/-okdir and
// -fprint*/-fls, arguments of tests are data.
var findRows = familyRows([]row{
	{a("find", ".", "-name", "*.go"), ""},
	{a("find", ".", "-name", "-exec"), ""},
	{a("find", ".", "-path", "-fprint"), ""},
	{a("find", ".", "-printf", "-exec %p\n"), ""},
	{a("find", ".", "-delete"), ""},
	{a("find", ".", "-newermt", "2020-01-01"), ""},
	{a("find", "-H", "-L", "-P", "-O3", "-D", "exec", ".", "-ls"), ""},
	{a("find", "-D", "-exec", "."), ""}, // -D's value is data
	{a("find"), ""},
	{a("find", "--", "-"), ""},
	{a("find", ".", "(", "-name", "a", "-o", "-name", "b", ")", "!", "-empty", ",", "-print"), ""},
	{a("find", ")", "-print"), ""}, // leading ")" is a start point
	{a("gfind", ".", "-exec", "id", ";"), "find.exec"},
	{a("find", ".", "-execdir", "id", "+"), "find.exec"},
	{a("find", ".", "-ok", "id", ";"), "find.exec"},
	{a("find", ".", "-okdir", "id", ";"), "find.exec"},
	{a("find", "--", ".", "-exec", "id", ";"), "find.exec"},
	{a("find", "-L", "--", ".", "-fls", "x"), "find.file-output"},
	{a("find", ".", "-fprint", "x"), "find.file-output"},
	{a("find", ".", "-fprint0", "x"), "find.file-output"},
	{a("find", ".", "-fprintf", "x", "%p"), "find.file-output"},
	{a("find", ".", "-name", "x", "-fprint", "x"), "find.file-output"},
	{a("find", ".", "-bogus"), "find.unknown-option"},
	{a("find", ".", "-print", "stray"), "find.unknown-option"},
	{a("find", ".", "--", "-exec", "id", ";"), "find.unknown-option"},
	{a("find", ".", "-name"), "find.missing-value"},
	{a("find", "-D"), "find.missing-value"},
})

func TestFindRows(t *testing.T) { checkRows(t, findRows) }
