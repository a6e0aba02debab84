package argvrules

import (
	"testing"
)

// rgRows are the table rows of ripgrep: --pre, --hostname-bin and
// -z/--search-zip run programs, abbreviations are refused, values are
// data.
var rgRows = familyRows([]row{
	{a("rg", "TODO", "."), ""},
	{a("rg", "-n", "-i", "--glob", "*.go", "func main"), ""},
	{a("rg", "-e", "--pre=./x", "."), ""},
	{a("rg", "--regexp=--pre", "."), ""},
	{a("rg", "--", "--pre=./x", "."), ""},
	{a("rg", "-uuu", "-A3", "-C", "2", "x"), ""},
	{a("rg", "--no-search-zip", "x"), ""},
	{a("rg", "--pre=./payload.sh", "TODO", "."), "rg.exec-option"},
	{a("rg", "--pre", "./payload.sh", "TODO"), "rg.exec-option"},
	{a("rg", "TODO", ".", "--pre=x"), "rg.exec-option"},
	{a("rg", "--pre-glob", "*.pdf", "x"), "rg.exec-option"},
	{a("rg", "--hostname-bin=./x", "x"), "rg.exec-option"},
	{a("rg", "-z", "x"), "rg.exec-option"},
	{a("rg", "-iz", "x"), "rg.exec-option"},
	{a("rg", "--search-zip", "x"), "rg.exec-option"},
	{a("rg", "--pr=./x", "x"), "rg.unknown-option"},
	{a("rg", "--pre-g=x", "x"), "rg.unknown-option"},
	{a("rg", "-Q", "x"), "rg.unknown-option"},
	{a("rg", "--engine", "--pre=./x", "TODO", "."), "rg.ambiguous-value"},
	{a("rg", "--engine", "pcre2", "TODO", "."), ""},
	{a("rg", "--engine=auto", "TODO", "."), ""},
})

func TestRgRows(t *testing.T) { checkRows(t, rgRows) }
