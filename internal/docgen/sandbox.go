package main

import (
	"fmt"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
)

// sandboxFamilies is docs/sandbox.md's table of what each family's stages
// get beyond a leaf's rights, from the registry's sandbox facts.
func sandboxFamilies(string) (string, error) {
	var b strings.Builder
	b.WriteString("| family | executes besides its program | TCP | caches (variable → directory beneath the cache root) | reads beneath HOME | source |\n|---|---|---|---|---|---|\n")
	for _, f := range argvrules.Registry() {
		exec := codeList(f.Exec)
		if f.RunsPrograms {
			exec = "anything beneath the read directories and the writable trees (its job is to run programs)"
		}
		var caches []string
		for _, c := range f.Caches {
			caches = append(caches, code(c.Env)+" → "+code(c.Dir))
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", f.Name, orNone(exec), network(f.Network), orNone(strings.Join(caches, ", ")), orNone(codeList(f.HomeConfig)), cell(f.SandboxSource))
	}
	return b.String(), nil
}

// network says when a family's stages get TCP.
func network(n argvrules.Network) string {
	switch {
	case n.Always:
		return "always: " + cell(n.Reason)
	case len(n.Fetch) > 0:
		return "for " + codeList(n.Fetch) + ": " + cell(n.Reason)
	}
	return "no"
}

// codeList is a comma list of names as code.
func codeList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = code(n)
	}
	return strings.Join(out, ", ")
}

// orNone is s, or a dash for an empty cell.
func orNone(s string) string {
	if s == "" {
		return "–"
	}
	return s
}
