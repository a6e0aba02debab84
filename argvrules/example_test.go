package argvrules_test

import (
	"fmt"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
)

// Check judges one pipeline stage with the recognizer of its program's
// family: nil when no refused form is reachable, else a rejection whose
// code names the rule and whose Index points at the argument.
func ExampleCheck() {
	for _, argv := range [][]string{
		{"sort", "-u", "names.txt"},
		{"sort", "--compress-prog=sh", "big.txt"}, // an abbreviation getopt_long accepts
		{"find", ".", "-name", "*.go", "-exec", "rm", "{}", ";"},
		{"grep", "-r", "TODO"}, // no family: the allowlist alone decides
	} {
		if r := argvrules.Check(argv, argvrules.Context{}); r != nil {
			fmt.Printf("%q: %s at argument %d\n", argv, r.Code, r.Index)
		} else {
			fmt.Printf("%q: no rule refuses it\n", argv)
		}
	}
	// Output:
	// ["sort" "-u" "names.txt"]: no rule refuses it
	// ["sort" "--compress-prog=sh" "big.txt"]: sort.option at argument 1
	// ["find" "." "-name" "*.go" "-exec" "rm" "{}" ";"]: find.exec at argument 4
	// ["grep" "-r" "TODO"]: no rule refuses it
}

// FamilyOf maps an executable's basename to its registry row, whose facts
// the policy and the sandbox read.
func ExampleFamilyOf() {
	for _, base := range []string{"gtar", "pip3.12", "grep"} {
		if f := argvrules.FamilyOf(base); f != nil {
			fmt.Printf("%s: family %s (%s)\n", base, f.Name, f.Source)
		} else {
			fmt.Printf("%s: no family\n", base)
		}
	}
	// Output:
	// gtar: family tar (GNU tar 1.34 and bsdtar 3.7 grammars)
	// pip3.12: family pip (pip 23–24 optparse command table)
	// grep: no family
}
