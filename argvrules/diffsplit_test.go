package argvrules

import (
	"testing"
)

// splitDiffRows are the table rows of split --filter and its output names,
// sdiff/diff3 --diff-program, sdiff -o (an interactive merge).
var splitDiffRows = familyRows([]row{
	{a("split", "-l", "1000", "big.csv", "part_"), ""},
	{a("split", "-1000", "big.csv"), ""},
	{a("split", "-b", "999", "--additional-suffix", "suffix", "/etc/hosts", "prefix"), ""},
	{a("split", "--filter=/bin/sh", "/etc/hosts"), "split.exec-option"},
	{a("split", "--fil=touch x", "f"), "split.exec-option"},
	{a("split", "--f", "touch x", "f"), "split.exec-option"},
	{a("split", "f", "--filter", "x"), "split.exec-option"},
	{a("split", "--", "--filter=x"), ""},
	{a("sdiff", "a", "b"), ""},
	{a("sdiff", "-s", "-w", "80", "a", "b"), ""},
	{a("sdiff", "--diff-program=./x", "a", "b"), "sdiff.exec-option"},
	{a("sdiff", "--diff=./x", "a", "b"), "sdiff.exec-option"},
	{a("sdiff", "-o", "out", "a", "b"), "sdiff.interactive"},
	{a("sdiff", "-so", "out", "a", "b"), "sdiff.interactive"},
	{a("diff3", "-m", "a", "o", "b"), ""},
	{a("diff3", "--diff-program", "./x", "a", "o", "b"), "diff3.exec-option"},
	{a("diff3", "a", "o", "b", "--d=./x"), "diff3.exec-option"},
	{a("split", "-l", "10", "data.txt", "planted/x"), "split.output-path"},
	{a("split", "-a", "1", "data.txt", ".gitconfi"), "split.output-path"},
	{a("split", "-l", "10", "data.txt", "part_"), ""},
})

func TestSplitAndDiffRows(t *testing.T) { checkRows(t, splitDiffRows) }
