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
	// the files zip writes: the archive operand, --out, -lf, -b
	{a("zip", "-r", "/tmp/o.zip", "."), "zip.output-path"},
	{a("zip", "../o.zip", "file.txt"), "zip.output-path"},
	{a("zip", "out/o.zip", "file.txt"), "zip.output-path"}, // out -> /tmp
	{a("zip", "-q", "-9", "/tmp/o", "file.txt"), "zip.output-path"},
	{a("zip", "-r", "-n", ".gz:.zip", "/tmp/o.zip", "."), "zip.output-path"},
	{a("zip", "-x", "*.o", "@", "/tmp/o.zip", "file.txt"), "zip.output-path"},
	{a("zip", "-ds", "10m", "/tmp/o.zip", "file.txt"), "zip.output-path"},
	{a("zip", "-d", "/tmp/o.zip", "m.txt"), "zip.output-path"},
	{a("zip", "in.zip", "--out", "/tmp/o.zip"), "zip.output-path"},
	{a("zip", "in.zip", "--ou=/tmp/o.zip"), "zip.output-path"},
	{a("zip", "-U", "in.zip", "-O", "../o.zip"), "zip.output-path"},
	{a("zip", "-qO/tmp/o.zip", "in.zip", "f"), "zip.output-path"},
	{a("zip", "-O=/tmp/o.zip", "in.zip", "f"), "zip.output-path"},
	{a("zip", "-lf", "/tmp/log", "o.zip", "file.txt"), "zip.output-path"},
	{a("zip", "--logfile-path=../log", "o.zip", "file.txt"), "zip.output-path"},
	{a("zip", "-b", "/tmp", "o.zip", "file.txt"), "zip.output-path"},
	{a("zip", "o.zip", "file.txt", "--", "/tmp/x"), ""},
	{a("zip", "--", "/tmp/o.zip", "file.txt"), "zip.output-path"},
	// -m deletes the archived files
	{a("zip", "-m", "o.zip", "/tmp/x"), "zip.output-path"},
	{a("zip", "-rm", "o.zip", "sub", "../x"), "zip.output-path"},
	{a("zip", "--move", "o.zip", "--", "/tmp/x"), "zip.output-path"},
	{a("zip", "-m", "o.zip", "file.txt", "sub", "-x", "/tmp/*"), ""},
	// -m deletes the names -@ reads from standard input
	{a("zip", "-m", "o.zip", "-@"), "zip.output-path"},
	{a("zip", "-m@", "o.zip"), "zip.output-path"},
	{a("zip", "o.zip", "-@", "--move"), "zip.output-path"},
	{a("zip", "--move", "o.zip", "--names-s"), "zip.output-path"},
	{a("zip", "o.zip", "-@"), ""},
	// a list option's attached value is the whole list
	{a("zip", "-ia", "/tmp/o.zip", "file.txt"), "zip.output-path"},
	{a("zip", "-i=a", "/tmp/o.zip", "file.txt"), "zip.output-path"},
	{a("zip", "--include=a", "/tmp/o.zip", "file.txt"), "zip.output-path"},
	{a("zip", "--exc=a", "/tmp/o.zip", "file.txt"), "zip.output-path"},
	{a("zip", "-rqxa", "/tmp/o.zip", "file.txt"), "zip.output-path"},
	{a("zip", "-i", "a", "/tmp/o.zip", "file.txt"), ""},
	// everyday forms
	{a("zip", "-r", "o.zip", "/etc/hosts", "../src"), ""},
	{a("zip", "o", "file.txt"), ""},
	{a("zip", "-", "file.txt"), ""},
	{a("zip", "-x", "*.o", "-r", "o.zip", "."), ""},
	{a("zip", "-r", "o.zip", ".", "-x", "/tmp/*", "../x"), ""},
	{a("zip", "-sf", "/abs/a.zip"), ""},
	{a("zip", "/abs/in.zip", "--out", "sub/o.zip"), ""},
	{a("zip", "-P", "/tmp/x", "o.zip", "file.txt"), ""},
	{a("zip", "-lf", "log.txt", "-b", "sub", "o.zip", "file.txt"), ""},
})

func TestZipRows(t *testing.T) { checkRows(t, zipRows) }
