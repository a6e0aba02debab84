package argvrules

import (
	"testing"
)

// fileRows are the table rows of file: -z/-Z/--uncompress run
// decompressors, -C -m writes a compiled magic file.
var fileRows = familyRows([]row{
	{a("file", "README.md"), ""},
	{a("file", "-b", "--mime-type", "x.bin"), ""},
	{a("file", "-z", "x.gz"), "file.exec-option"},
	{a("file", "-bZ", "x.gz"), "file.exec-option"},
	{a("file", "--uncomp", "x.gz"), "file.ambiguous-option"},
	{a("file", "--uncompress", "x.gz"), "file.exec-option"},
	{a("file", "-C", "-m", "planted/m"), "file.output-path"},
	{a("file", "-C", "-m", "magic"), ""},
})

func TestFileRows(t *testing.T) { checkRows(t, fileRows) }
