package argvrules

import (
	"testing"
)

// zipRows are the table rows of zip: -T/-TT/--unzip-command run a program.
var zipRows = familyRows([]row{
	{a("zip", "-r", "out.zip", "dir"), ""},
	{a("zip", "out.zip", "/etc/hosts", "-T", "-TT", "/bin/sh #"), "zip.exec-option"},
	{a("zip", "-q", "out.zip", "/etc/hosts", "-T", "--unzip-command=touch /tmp/PWNED #"), "zip.exec-option"},
	{a("zip", "-qT", "out.zip", "f"), "zip.exec-option"},
	{a("zip", "--unzip=x", "out.zip", "f"), "zip.exec-option"},
	{a("zip", "--help"), "zip.no-archive"},
})

func TestZipRows(t *testing.T) { checkRows(t, zipRows) }
