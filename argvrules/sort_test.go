package argvrules

import (
	"strings"
	"testing"
)

// sortRows are the table rows of sort: --compress-program, --files0-from,
// output and temporary paths, GNU getopt_long abbreviations.
var sortRows = familyRows([]row{
	{a("sort", "-o", "sorted.txt", "data.txt"), ""},
	{a("sort", "-o", "/tmp/elsewhere/x", "data.txt"), "sort.output-path"},
	{a("sort", "-u"), ""},
	{a("sort", "-k2,2n", "-t,"), ""},
	{a("sort", "-rn", "f"), ""},
	{a("sort", "-S", "1G", "f"), ""},
	{a("sort", "--parallel=2", "f"), ""},
	{a("sort", "--", "--output=data"), ""},
	{a("sort", "-t", "-o", "f"), ""},         // -t consumes "-o": data
	{a("sort", "-k", "--output=x", "f"), ""}, // value is data
	{a("sort", "--check=quiet", "f"), ""},
	{a("sort", "--ch", "f"), ""},
	{a("sort", "-", "f"), ""},
	{a("gsort", "-o", "sorted", "f"), ""},
	{a("sort", "-o", "/tmp/out", "f"), "sort.output-path"},
	{a("sort", "-o", "../out", "f"), "sort.output-path"},
	{a("sort", "-osorted", "f"), ""},
	{a("sort", "-o/tmp/x", "f"), "sort.output-path"},
	{a("sort", "-ro", "/etc/passwd", "f"), "sort.output-path"},
	{a("sort", "-rofile", "f"), ""},
	{a("sort", "-rT", "/tmp", "f"), "sort.output-path"},
	{a("sort", "-T", "sub", "f"), ""},
	{a("sort", "-T/tmp", "f"), "sort.output-path"},
	{a("sort", "--o", "/x", "f"), "sort.output-path"},
	{a("sort", "--out=../x", "f"), "sort.output-path"},
	{a("sort", "--output", "x"), ""},
	{a("sort", "--output", ".gitconfig"), "sort.output-path"},
	{a("sort", "--co", "sh", "f"), "sort.option"},
	{a("sort", "--compress-program=sh", "f"), "sort.option"},
	{a("sort", "--compress=sh", "f"), "sort.option"},
	{a("sort", "--files0-from=list"), "sort.option"},
	{a("sort", "--f=list"), "sort.ambiguous-option"}, // files0-from, field-separator
	{a("sort", "--fil=list"), "sort.option"},
	{a("sort", "--te=/tmp", "f"), "sort.output-path"},
	{a("sort", "f", "-o", "/tmp/out"), "sort.output-path"}, // after operands
	{a("sort", "f", "--", "-o", "out"), ""},
	{a("sort", "--c", "f"), "sort.ambiguous-option"}, // check, compress-program
	{a("sort", "--bogus", "f"), "sort.unknown-option"},
	{a("sort", "-X", "f"), "sort.unknown-option"},
	{a("sort", "-k"), "sort.missing-value"},
	{a("sort", "--unique=yes"), "sort.unexpected-value"},
})

func TestSortRows(t *testing.T) { checkRows(t, sortRows) }

func TestSortAmbiguousNamesRiskyReading(t *testing.T) {
	r := checkSort([]string{"sort", "--c=gzip", "f"}, Context{})
	if r == nil || !strings.Contains(r.Message, "--compress-program runs a program") {
		t.Fatalf("ambiguous --c should name the risky reading, got %+v", r)
	}
	if !strings.Contains(r.Message, sortPolicy) {
		t.Errorf("risky ambiguity should use the danger policy: %s", r.Message)
	}
}
