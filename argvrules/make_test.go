package argvrules

import (
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// makeRows are the table rows of make: --eval, variable operands that
// could be code or a program, makefiles from stdin.
var makeRows = familyRows([]row{
	{a("make"), ""},
	{a("make", "test"), ""},
	{a("make", "-j4", "build"), ""},
	{a("make", "-j", "4", "build"), ""},
	{a("make", "-C", "sub", "-f", "Makefile.ci", "all"), ""},
	{a("make", "-s", "--no-print-directory", "lint"), ""},
	{a("make", "--eval=$(shell /bin/sh 1>&0)", "."), "make.eval"},
	{a("make", "-s", "-E$(shell touch /tmp/PWNED)", "."), "make.eval"},
	{a("make", "-sE", "x"), "make.eval"},
	{a("make", "-s", "--eval", "$(shell touch /tmp/PWNED)", "."), "make.eval"},
	{a("make", "--ev=x"), "make.eval"},
	{a("make", "--e=x"), "make.ambiguous-option"},
	{a("make", "all", "-E", "x"), "make.eval"},
	{a("make", "-s", ".SHELLFLAGS=-c touch\\ /tmp/PWNED;:"), "make.variable-assignment"},
	{a("make", "CFLAGS=$(shell touch /tmp/PWNED)"), "make.variable-assignment"},
	{a("make", "SHELL:=/tmp/x"), "make.variable-assignment"},
	{a("make", "X+=y"), ""},
	{a("make", "X?=y"), ""},
	{a("make", "X!=id"), "make.variable-assignment"},
	{a("make", "--", "X=y"), ""},
	{a("make", "VERBOSE=1"), ""},
	{a("make", "test", "TESTS=unit"), ""},
	{a("make", "V=1", "-j4"), ""},
	{a("make", "CFLAGS=-O2 -g", "CC=clang"), ""},
	{a("make", "install", "PREFIX=/usr/local"), ""},
	{a("make", "O=sub"), ""},
	{a("make", "DEBUG="), ""},
	{a("make", "CC=/tmp/elsewhere/evil"), "make.variable-assignment"},
	{a("make", "CC=./evil"), "make.variable-assignment"},
	{a("make", "CC=sh"), "make.variable-assignment"},
	{a("make", "PYTHON=python3"), "make.variable-assignment"},
	{a("make", "CFLAGS=-fplugin=/tmp/x.so"), "make.variable-assignment"},
	{a("make", "CFLAGS=`id`"), "make.variable-assignment"},
	{a("make", "X=a;id"), "make.variable-assignment"},
	{a("make", "MAKEFLAGS=--eval=x"), "make.variable-assignment"},
	{a("make", "MAKEFILES=x.mk"), "make.variable-assignment"},
	{a("make", "SHELL=bash"), "make.variable-assignment"},
	{a("make", "$(X)=y"), "make.variable-assignment"},
	{a("make", "override X=y"), "make.variable-assignment"},
	{a("make", "-f", "-"), "make.stdin-makefile"},
	{a("make", "-f-"), "make.stdin-makefile"},
	{a("make", "--file=/dev/stdin"), "make.stdin-makefile"},
	{a("make", "--makef", "/proc/self/fd/0"), "make.stdin-makefile"},
})

func TestMakeRows(t *testing.T) { checkRows(t, makeRows) }

// TestMakeUnknownDir checks that without a working directory a relative
// makefile cannot be resolved and is refused, while an absolute regular
// one is judged.
func TestMakeUnknownDir(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		rule refusal.Code
	}{
		{a("make", "-f", "Makefile"), "make.stdin-makefile"},
		{a("make", "-C", "sub"), "make.device-directory"},
		{a("make", "-f", "/dev/stdin"), "make.stdin-makefile"},
		{a("make", "all"), ""},
	} {
		got := checkMake(tc.argv, Context{})
		if (got == nil) != (tc.rule == "") || (got != nil && got.Code != tc.rule) {
			t.Errorf("%q: want %q, got %v", tc.argv, tc.rule, got)
		}
	}
}

// TestMakeVerdictHidesOutsideFiles: make's verdict on a path outside the
// working directory and the trees the stage may read is the same whether
// it names a file, a directory or nothing, so judging a makefile, -C, -I
// or a variable's directory never reveals what the sandbox hides.
func TestMakeVerdictHidesOutsideFiles(t *testing.T) {
	outside := outsideFiles(t)
	up := strings.Repeat("../", strings.Count(outside, "/")+2) + "dev/stdin"
	ctx := pinCtx(t, testDir(t))
	expectSameVerdicts(t, ctx, outside, [][]string{
		{"make", "-f", "@/" + up},
		{"make", "-f", "@"},
		{"make", "-C", "@"},
		{"make", "-I", "@/" + up},
		{"make", "MYDIR=@"},
	})
	// Paths the stage may read are still judged by what they are.
	expectRule(t, ctx, a("make", "install", "PREFIX=/usr/local"), "")
	expectRule(t, ctx, a("make", "-f", "/usr/../dev/stdin"), "make.stdin-makefile")
}
